// A static check of web/*.js: the page reads typed data the server declares and
// never reads meaning out of the server's words. Every regular expression in the
// page's code is listed here with what it reads; each one reads the page's own
// address, a person's typed or pasted text, stored settings or a colour, or shapes
// the page's own output. A new regular expression fails this test until it is
// added with its reason, so a regex over a result, a label or help text cannot
// creep back in unseen. Nor may the page find a seat by its name, or split a
// seat's player setting (`level:66`) to learn its kind or level: the seat says
// them as `kind` and `level`, and the page keeps and sends its own choice of
// computer the same way (`{kind, level}`), never as a name it writes or splits.
// Nor may it look for the game's glossary terms in text: the server marks them
// (a `{term}` part of typed words, a fact's `term`).

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

/// Every place the page splits a text at ':', with what it splits: none. The
/// page's own choice of computer is `{kind, level}` (the game list's
/// `default_computer` too), so there is no player's name to split.
const COLON_SPLITS = new Map([]);

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

/// Code lines of the page (comments left out), each with its place.
function codeLines() {
  return files.flatMap((f) => readFileSync(join(WEB, f), 'utf8').split('\n')
    .map((line, i) => ({ at: `${f}:${i + 1}`, code: line.trim() }))
    .filter(({ code }) => code && !code.startsWith('//')));
}

test("the page keeps its choice of computer by kind and level, never as a player's name", () => {
  const hits = codeLines().filter(({ code }) =>
    // A name written from a kind and a level (`level:66`), or read back from one.
    /\$\{LEVEL\}:|['"`]level:|LEVEL\.length|kindOf\b/.test(code)
    // The level kept twice: a player beside its own `ai_level` (read, kept or sent;
    // the browser's old copy of it is only dropped).
    || /(settings|raw|body|out)\.ai_level\b|settings\.ai\b/.test(code));
  assert.deepEqual(hits.map(({ at, code }) => `${at}: ${code}`), []);
});

test('the page finds glossary terms where the server marks them, never by searching text', () => {
  const hits = codeLines().filter(({ code }) => /\.term\b/.test(code) && /\.(includes|indexOf|search|match)\(|toLowerCase\(/.test(code));
  assert.deepEqual(hits.map(({ at, code }) => `${at}: ${code}`), []);
  // And it reads the marks: a term part of typed words and a fact's term.
  const words = readFileSync(join(WEB, 'words.js'), 'utf8');
  assert.match(words, /p\?\.term\b/, 'typed words\' term parts are read');
  assert.match(words, /f\?\.term\b/, "a fact's term is read");
});
