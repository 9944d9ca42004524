// Shared set-up of the browser tests: one headless Chromium (Debian's, never a
// downloaded one) with a fresh profile, the server's URL, and artifacts.

import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BASE = (process.env.TABULA_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), 'tabula-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
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

/// `TABULA_WEB_FROM=<commit>`: the browser gets the web UI's files as they were at
/// that commit (from git), the server being today's, to check that a browser test
/// fails on the old page.
async function serveWebFrom(context, commit) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const types = { js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml' };
  await context.route(/\/(static\/)?[\w./-]+\.(js|css|svg)(\?.*)?$/, async (route) => {
    const path = new URL(route.request().url()).pathname.replace(/^\/(static\/)?/, '');
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
    const path = new URL(route.request().url()).pathname.replace(/^\/(static\/)?/, '');
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
/// one. Its `context` and `errors` are those of the browser launched.
export function browserForFile() {
  let launched = null;
  before(async () => {
    launched = await launch();
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

/// The games the server lists (`GET /api/games`), and `has(name)`: whether it
/// lists that game (a test of a game the server does not have is skipped).
export async function listedGames() {
  const { data: games } = await api('GET', '/api/games');
  return { games, has: (name) => games.some((g) => g.name === name) };
}

/// A new page that records uncaught script errors.
export async function newPage(browser) {
  const page = await browser.context.newPage();
  page.pageErrors = [];
  page.on('pageerror', (e) => page.pageErrors.push(e.message));
  return page;
}

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

export async function sessionView(page) {
  const { status, data } = await api('GET', `/api/sessions/${sessionOf(page)}`);
  if (status !== 200) throw new Error(`session lookup failed: ${status} ${JSON.stringify(data)}`);
  return data.view;
}

export async function logTexts(page) {
  return page.locator('.log li:not(.empty-note) .log-text').allTextContents();
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
