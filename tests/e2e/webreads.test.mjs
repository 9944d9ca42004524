// A static check of web/*.js: the page reads typed data the server declares and
// never reads meaning out of the server's words. Every regular expression in the
// page's code is listed here with what it reads; each one reads the page's own
// address, a person's typed or pasted text, stored settings or a colour, or shapes
// the page's own output. A new regular expression fails this test until it is
// added with its reason, so a regex over a result, a label or help text cannot
// creep back in unseen. Nor may the page find a seat by its name, or split a
// seat's player setting (`level:66`) to learn its kind or level: the seat says
// them as `kind` and `level`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// `TABULA_WEB_DIR`: check another copy of the page (an older one, to see this test fail).
const WEB = process.env.TABULA_WEB_DIR || join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');

/// `file: regex source` → what it reads.
const ALLOWED = new Map([
  ['app.js: /\\/+$/', "the page's own address"],
  ['app.js: /^\\/game\\/([^/]+)$/', "the page's own address"],
  ['gametext.js: /^https?:\\/\\//i', 'a game ID or link a person pasted'],
  ['gametext.js: /\\r?\\n/', 'a game record a person pasted'],
  ['gametext.js: /^moves:?$/i', 'a game record a person pasted'],
  ['gametext.js: /^\\(.*\\)$/', 'a game record a person pasted'],
  ['gametext.js: /^\\d+\\.\\s*/', 'a game record a person pasted'],
  ['gametext.js: /^game\\s+(\\S+?)\\s*(?:;\\s*(.*))?$/i', 'a game ID a person typed ("Game 9", as the card shows it)'],
  ['panels.js: /^# .*\\n/', "the rules page's first heading, left out under the card's own title"],
  ['render.js: /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i', 'a CSS colour'],
  ['render.js: /[^a-z0-9_-]/g', 'a CSS class made safe'],
  ['results.js: /\\.0+$/', "a percentage the page formatted itself"],
  ['settings.js: /^#[0-9a-f]{6}$/i', 'a colour kept in the settings'],
]);

/// Regular-expression literals of a script (where a `/` starts an expression, not a division).
function regexLiterals(code) {
  const found = [];
  const re = /(?:^|[=(,:!&|?;{[>]|\breturn)\s*(\/(?![*/])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+\/[dgimsuy]*)/gm;
  const noComments = code.replace(/^\s*\/\/.*$/gm, '');
  for (const m of noComments.matchAll(re)) found.push(m[1]);
  return found;
}

const files = readdirSync(WEB).filter((f) => f.endsWith('.js'));

test('every regular expression of the page reads what it may', () => {
  const unexplained = [];
  for (const f of files) {
    for (const lit of regexLiterals(readFileSync(join(WEB, f), 'utf8'))) {
      if (!ALLOWED.has(`${f}: ${lit}`)) unexplained.push(`${f}: ${lit}`);
    }
  }
  assert.deepEqual(unexplained, [], 'regular expressions over data the page does not own');
});

test('the page finds no seat by its name', () => {
  const hits = [];
  for (const f of files) {
    readFileSync(join(WEB, f), 'utf8').split('\n').forEach((line, i) => {
      if (/seats\.(indexOf|includes)\(/.test(line)) hits.push(`${f}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(hits, []);
});

test('the list of allowed expressions is all in use', () => {
  const used = new Set(files.flatMap((f) => regexLiterals(readFileSync(join(WEB, f), 'utf8')).map((l) => `${f}: ${l}`)));
  assert.deepEqual([...ALLOWED.keys()].filter((k) => !used.has(k)), []);
});

/// Every place the page splits a text at ':', with what it splits: only player
/// settings the page holds itself (its stored choice, the game list's default
/// opponent before any seat plays it), never a seat's `player`.
const COLON_SPLITS = new Map([
  ["players.js: export const kindOf = (spec) => (spec || '').split(':')[0].trim().toLowerCase();", "the page's own choice of computer"],
]);

test("the page reads a seat's player kind and level from the seat, never from its setting's text", () => {
  const hits = [];
  for (const f of files) {
    readFileSync(join(WEB, f), 'utf8').split('\n').forEach((line, i) => {
      const code = line.trim();
      if (code.startsWith('//')) return;
      const readsPlayer = /\.player\??\.(split|slice|indexOf|startsWith|match)\(/.test(code);
      const splitsAtColon = /split\(\s*['"]:['"]\s*\)/.test(code) && !COLON_SPLITS.has(`${f}: ${code}`);
      const readsLevel = /level:\(\\d/.test(code);
      if (readsPlayer || splitsAtColon || readsLevel) hits.push(`${f}:${i + 1}: ${code}`);
    });
  }
  assert.deepEqual(hits, []);
});
