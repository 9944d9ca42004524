// Settings: one the server refuses when a game starts never leaves the page
// without a game.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, api, sessionOf, waitForBoard, browserForFile, listedGames } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

/// Regression: a defect found trying the page as a user would (issue 11).
test('a setting the server refuses at game start never leaves the page without a game', async () => {
  const page = await newPage(browser);
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  // The server refuses the first session start (as it did undo_depth 0): the page starts without it.
  await page.route('**/api/sessions', async (route) => {
    const body = route.request().postDataJSON?.() || {};
    if (route.request().method() === 'POST' && body.undo_depth !== undefined) {
      await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'the undo depth is refused' }) });
    } else await route.continue();
  });
  await api('PUT', '/api/settings/hexapawn', { undo_depth: 0 });
  // A first load gives the page's storage an origin; it is emptied once that load
  // has kept its session, or a slow load would keep it after the clear and the
  // second load would resume it without starting a session.
  await page.goto(`${BASE}/game/hexapawn`);
  await waitForBoard(page);
  await page.evaluate(() => localStorage.clear());
  // Watched from the start: the notice shows for 6 s, and on a busy machine the board
  // can take longer than that to appear.
  const notice = page.locator('.toast', { hasText: 'could not be used' }).waitFor();
  await page.goto(`${BASE}/game/hexapawn`);
  await waitForBoard(page);
  await notice;
  await page.click('.board-actions button:has-text("New game")');
  await page.waitForTimeout(300);
  assert.ok(!urls.some((u) => u.includes('/undefined')), 'no request to an undefined session');
  assert.ok(sessionOf(page));
  await api('PUT', '/api/settings/hexapawn', {});
  await page.close();
});
