// Solution tables as a player meets them, on servers of this file's own (each with
// an empty disk cache, so that the table really has to be made):
// - Kono with the usual rules: the first Hint on a fresh server says that the
//   solution is being prepared, with its progress, and shows the graded moves by
//   itself once it is ready; the home page's "solved" tag stays all along;
// - a build that failed for a passing reason is tried again: a server whose
//   memory limit holds Kono's table read from disk but not its solve says so and
//   when it tries again, and grades the moves once another server has written
//   the table to its disk cache.
// Kono's solve takes tens of seconds (minutes on a loaded machine).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, copyFileSync, existsSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newPage, ARTIFACTS, browserForFile } from './helpers.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = process.env.TABULA_BIN || join(ROOT, 'target', 'release', 'tabula');
const TABLE = 'kono-standard-v2.table';
const SOLVE_WITHIN = 600_000;

const browser = browserForFile();
const servers = [];
const dirs = [];
after(async () => {
  for (const s of servers) s.child.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(what) {
  const d = mkdtempSync(join(tmpdir(), `tabula-e2e-${what}-`));
  dirs.push(d);
  return d;
}

/// `tabula serve` on a free port with a fresh database and `cache` as its disk cache.
async function startServer(cache, args = []) {
  const work = tempDir('server');
  const child = spawn(BIN, ['serve', '--addr', '127.0.0.1:0', '--db', join(work, 'tabula.db'), ...args], {
    env: { ...process.env, TABULA_CACHE_DIR: cache },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise((resolve, reject) => {
    let said = '';
    const timer = setTimeout(() => reject(new Error(`the server gave no address: ${said}`)), 30_000);
    child.stderr.on('data', (d) => {
      said += d;
      const m = said.match(/serving (http:\/\/[^\s/]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the server stopped (${code}): ${said}`)));
  });
  const server = { url, child };
  servers.push(server);
  return server;
}

async function call(server, method, path, body) {
  const res = await fetch(server.url + path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, data: await res.json() };
}

async function konoExact(server) {
  const { data } = await call(server, 'GET', '/api/games');
  return data.find((g) => g.name === 'kono').exact;
}

/// The tags the home page shows on Kono's card.
async function homeTags(page, server) {
  await page.goto(`${server.url}/`);
  const card = page.locator('a.game-link[data-game="kono"] .tags');
  try {
    await card.waitFor({ timeout: 60_000 });
  } catch (e) {
    // Say what the page showed and how long the list takes, so a failure far
    // from here (a loaded CI machine) can be told apart from a broken page.
    const started = Date.now();
    const listed = await call(server, 'GET', '/api/games').then((r) => r.status, (err) => String(err));
    const shown = await page.locator('main').textContent().catch(() => '(no page)');
    throw new Error(`the home page showed no tags for Kono: ${e.message}; the page said "${shown?.slice(0, 300)}"; `
      + `GET /api/games answered ${listed} in ${Date.now() - started} ms; page errors: ${JSON.stringify(page.pageErrors ?? [])}`);
  }
  return card.locator('.tag').allTextContents();
}

/// A Kono game between two people with the usual rules, opened in `page`, and
/// its Hint asked for: the number of legal moves.
async function openKonoAndAskForAHint(page, server) {
  const { status, data } = await call(server, 'POST', '/api/sessions', { game: 'kono', players: ['human', 'human'], seed: 1 });
  assert.equal(status, 201, JSON.stringify(data));
  await page.goto(`${server.url}/game/kono?s=${data.id}`);
  await page.waitForSelector('.board-wrap [data-cell]', { timeout: 60_000 });
  await page.click('.board-actions button:has-text("Hint")');
  return data.view.legal_moves.length;
}

const hintText = (page) => page.locator('.hint-list').textContent();

/// Waits until every legal move is drawn graded on the board and listed.
async function waitForGradedMoves(page, moves, timeout) {
  await page.waitForFunction((n) => document.querySelectorAll('.board .move-value').length === n
    && document.querySelectorAll('.hint-moves li').length === n, moves, { timeout });
}

test('Kono: the first Hint on a fresh server says the solution is being prepared, with progress, then grades the moves', async () => {
  const cache = tempDir('cache-a');
  const server = await startServer(cache);
  const page = await newPage(browser);
  assert.ok((await homeTags(page, server)).includes('solved'), 'Kono is tagged solved before anything is built');
  const moves = await openKonoAndAskForAHint(page, server);
  // At once (the server waits at most a second for the table), not "no exact solution".
  await page.locator('.hint-list .hint-preparing').waitFor({ timeout: 8_000 });
  const first = await hintText(page);
  assert.match(first, /being prepared/, first);
  assert.doesNotMatch(first, /no exact solution/i, first);
  await page.locator('.hint-list .hint-progress').waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'tables-kono-preparing.png') });

  // The card follows the build by itself; the game list's tag never changes.
  const seen = [];
  const tags = [];
  const end = Date.now() + SOLVE_WITHIN;
  for (;;) {
    const drawn = await page.locator('.board .move-value').count();
    if (drawn === moves) break;
    const bar = page.locator('.hint-list .hint-progress');
    if (await bar.count()) seen.push(Number(await bar.getAttribute('aria-valuenow')));
    tags.push(await konoExact(server));
    assert.ok(Date.now() < end, `no graded moves after ${SOLVE_WITHIN / 1000} s: ${await hintText(page)}`);
    await page.waitForTimeout(1000);
  }
  await waitForGradedMoves(page, moves, 10_000);
  assert.ok(seen.length >= 1, 'the progress was shown');
  assert.ok(seen.every((p, i) => p >= 0 && p <= 100 && (i === 0 || p >= seen[i - 1])), `progress ${seen}`);
  assert.ok(tags.every((t) => t === true), `the game list said exact: ${tags}`);
  const graded = await hintText(page);
  assert.doesNotMatch(graded, /being prepared|no exact solution/i, graded);
  await page.screenshot({ path: join(ARTIFACTS, 'tables-kono-graded.png') });
  assert.ok((await homeTags(page, server)).includes('solved'), 'Kono is still tagged solved');
  assert.ok(existsSync(join(cache, TABLE)), 'the table was written to the disk cache');
  await page.close();
});

test('Kono: a build that failed for a passing reason is tried again and reads the table another server wrote', async () => {
  const written = dirs.map((d) => join(d, TABLE)).find((f) => existsSync(f));
  assert.ok(written, 'the first test wrote the table');
  // 200 MiB hold the table read from disk (about 148 MiB) but not its solve (about 259 MiB).
  const cache = tempDir('cache-b');
  const server = await startServer(cache, ['--max-memory', '200M']);
  const page = await newPage(browser);
  assert.ok((await homeTags(page, server)).includes('solved'));
  const moves = await openKonoAndAskForAHint(page, server);
  await page.locator('.hint-list .hint-preparing').waitFor({ timeout: 8_000 });
  // The first answer may still be "being prepared: 0 %" while the build starts;
  // the card follows by itself to the failure once the memory is refused.
  await page.waitForFunction(() => /could not be prepared just now/
    .test(document.querySelector('.hint-list')?.textContent ?? ''), null, { timeout: 30_000 })
    .catch(() => {});
  const said = await hintText(page);
  assert.match(said, /could not be prepared just now/, said);
  assert.match(said, /tried again/, said);
  assert.doesNotMatch(said, /no exact solution/i, said);
  await page.screenshot({ path: join(ARTIFACTS, 'tables-kono-retry.png') });
  // Another server writes the table to this one's disk cache (whole, as the
  // cache writes: under another name, then renamed); nobody clicks.
  copyFileSync(written, join(cache, `${TABLE}.part`));
  renameSync(join(cache, `${TABLE}.part`), join(cache, TABLE));
  await waitForGradedMoves(page, moves, 60_000);
  assert.ok((await homeTags(page, server)).includes('solved'));
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});
