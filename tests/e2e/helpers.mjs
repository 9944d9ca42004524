// Shared set-up of the browser tests: one headless Chromium (Debian's, never a
// downloaded one) with a fresh profile, the server's URL, and artifacts.
//
// A test file opens the same way each time:
//
//     const { games, has, info } = await listedGames();
//     const browser = browserForFile();
//     test('…', async () => {
//       await atEachWidth(browser, async (page, width) => { … });
//     });

import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/// The server under test (`run.sh` starts it and sets `TABULA_URL`).
export const BASE = (process.env.TABULA_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
/// Where screenshots and measurements are written (git-ignored).
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/// The widths every page is tried at: a phone's (390 px) and a desktop's (1280 px).
export const WIDTHS = [390, 1280];

/// A headless Chromium with a fresh profile: `context` (its pages open at
/// `viewport`, a phone's touch screen with `touch`), `errors` (every page's
/// uncaught script errors) and `close()`, which also removes the profile. Most
/// files want `browserForFile()`, which launches and closes one for them.
export async function launch({ viewport = { width: 1280, height: 900 }, touch = false } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'tabula-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    viewport,
    hasTouch: touch,
    isMobile: touch,
  });
  const errors = [];
  context.on('page', (p) => p.on('pageerror', (e) => errors.push(e.message)));
  if (process.env.TABULA_WEB_FROM) await serveWebFrom(context, process.env.TABULA_WEB_FROM);
  else if (process.env.TABULA_WEB_DIR) await serveWebDir(context, process.env.TABULA_WEB_DIR);
  return {
    context,
    errors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/// The file of `web/` a request names: `/static/x` is `web/x`, and a name with a
/// content hash (`game.1dd68cb5f3a1378a.js`, as the server names what it lets
/// browsers cache) is the file without it.
function sourcePath(url) {
  return new URL(url).pathname.replace(/^\/(static\/)?/, '').replace(/\.[0-9a-f]{16}(\.(js|css|svg))$/, '$1');
}

/// `TABULA_WEB_FROM=<commit>`: the browser gets the web UI's files as they were at
/// that commit (from git), the server being today's, to check that a browser test
/// fails on the old page.
async function serveWebFrom(context, commit) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const types = { js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml' };
  await context.route(/\/(static\/)?[\w./-]+\.(js|css|svg)(\?.*)?$/, async (route) => {
    const path = sourcePath(route.request().url());
    let body;
    try {
      body = execFileSync('git', ['show', `${commit}:web/${path}`], { cwd: root, maxBuffer: 1 << 24 });
    } catch {
      return route.continue();
    }
    await route.fulfill({ status: 200, contentType: types[path.split('.').pop()], body });
  });
}

/// `TABULA_WEB_DIR=<folder>`: the browser gets the web UI's files from that folder
/// (a working copy's `web/`), so a page being changed is tested without building
/// the server again.
async function serveWebDir(context, dir) {
  const types = { js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml' };
  await context.route(/\/(static\/)?[\w./-]+\.(js|css|svg)(\?.*)?$/, async (route) => {
    const path = sourcePath(route.request().url());
    if (path.split('/').includes('..')) return route.continue();
    let body;
    try {
      body = readFileSync(join(dir, path));
    } catch {
      return route.continue();
    }
    await route.fulfill({ status: 200, contentType: types[path.split('.').pop()], body });
  });
}

/// The browser of a test file: launched before its first test and closed after
/// its last (node:test's `before` and `after`), so every test of the file shares
/// one. Its `context` and `errors` are those of the browser launched; `options`
/// are `launch`'s.
export function browserForFile(options) {
  let launched = null;
  before(async () => {
    launched = await launch(options);
  });
  after(async () => {
    await launched?.close();
  });
  return {
    get context() {
      return launched.context;
    },
    get errors() {
      return launched.errors;
    },
  };
}

/// The games the server lists (`GET /api/games`), `info(name)`: that game's
/// entry in the list (undefined when it is not listed), and `has(name)`: whether
/// it is listed (a test of a game the server does not have is skipped).
export async function listedGames() {
  const { status, data: games } = await api('GET', '/api/games');
  if (status !== 200) throw new Error(`the game list failed: ${status} ${JSON.stringify(games)}`);
  const info = (name) => games.find((g) => g.name === name);
  return { games, info, has: (name) => info(name) !== undefined };
}

/// A new page that records uncaught script errors.
export async function newPage(browser) {
  const page = await browser.context.newPage();
  page.pageErrors = [];
  page.on('pageerror', (e) => page.pageErrors.push(e.message));
  return page;
}

/// A request to the server: its status and its body (parsed JSON, else the text).
export async function api(method, path, body) {
  const res = await fetch(BASE + path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: res.status, data };
}

/// The session id the page keeps in its address.
export function sessionOf(page) {
  return new URL(page.url()).searchParams.get('s');
}

/// The server's view of the session the page shows (`GET /api/sessions/ID`'s `view`).
export async function sessionView(page) {
  const { status, data } = await api('GET', `/api/sessions/${sessionOf(page)}`);
  if (status !== 200) throw new Error(`session lookup failed: ${status} ${JSON.stringify(data)}`);
  return data.view;
}

/// The move list's entries as the page writes them (the empty list's note left out).
export async function logTexts(page) {
  return page.locator('.log .log-move .log-text').allTextContents();
}

/// What the board shows: every piece (cell, owner, label) and every cell colour.
export async function boardState(page) {
  return page.evaluate(() => {
    const pieces = [...document.querySelectorAll('.board-wrap .piece:not(.leaving)')]
      .map((g) => `${g.getAttribute('data-piece-cell')}:${g.dataset.owner}:${g.textContent}`).sort();
    const cells = [...document.querySelectorAll('.board-wrap [data-cell]')]
      .map((g) => `${g.dataset.cell}:${g.querySelector('.cell-shape').style.fill}`).sort();
    return { pieces, cells };
  });
}

/// Waits (60 s at most) until the page shows a board and a status line.
export async function waitForBoard(page) {
  await page.waitForSelector('.board-wrap [data-cell]', { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector('.turn-line')?.textContent.trim().length > 0);
}

/// A new page of `browser` at `width` px (a phone's height below 600 px).
export async function pageAt(browser, width) {
  const page = await newPage(browser);
  await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
  return page;
}

/// Runs `body(page, width)` at each of WIDTHS in turn, each on a new page of
/// `browser` at that width (`pageAt`), closed afterwards whether `body` passed or not.
export async function atEachWidth(browser, body) {
  for (const width of WIDTHS) {
    const page = await pageAt(browser, width);
    try {
      await body(page, width);
    } finally {
      await page.close();
    }
  }
}

/// A fresh session (`body` as POST /api/sessions takes it) opened in the page by its
/// address, its variant named there too.
export async function openSession(page, body) {
  const { status, data } = await api('POST', '/api/sessions', body);
  if (status !== 201) throw new Error(`session not created: ${status} ${JSON.stringify(data)}`);
  const variant = data.view.variant ? `&variant=${encodeURIComponent(data.view.variant)}` : '';
  await page.goto(`${BASE}/game/${body.game}?s=${data.id}${variant}`);
  await waitForBoard(page);
  return data;
}

/// Waits until `check()` (async, run here in Node) is true, failing with `what`
/// after `timeout` ms. (Playwright's waitForFunction takes a returned promise for
/// true at once.)
export async function eventually(check, what, timeout = 15_000) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/// Opens `path` of the server and waits for its board, failing with the page's
/// errors and messages when none comes.
export async function openPath(page, path) {
  await page.goto(`${BASE}${path}`);
  try {
    await waitForBoard(page);
  } catch (e) {
    const toasts = await page.locator('.toast').allTextContents();
    throw new Error(`${path}: no board (${e.message}); page errors: ${page.pageErrors.join('; ')}; toasts: ${toasts.join('; ')}`);
  }
}

/// A fresh game (`body` as POST /api/sessions takes it) opened in the page by its
/// session, through `openPath`.
export async function openGame(page, body) {
  const { status, data } = await api('POST', '/api/sessions', body);
  if (status !== 201) throw new Error(`session not created: ${status} ${JSON.stringify(data)}`);
  const variant = data.view.variant ? `&variant=${encodeURIComponent(data.view.variant)}` : '';
  await openPath(page, `/game/${body.game}?s=${data.id}${variant}`);
  return data;
}

/// How many moves the move list shows.
export const logCount = (page) => page.locator('.log .log-move').count();

/// Every cell's colour in a session view, one character each ('-' for none).
export const colours = (view) => view.view.cells.map((c) => c.colour ?? '-').join('');
