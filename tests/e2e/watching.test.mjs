// Watching the computer play itself: ply by ply, with pause, one move and speed;
// "Paused" while paused, never "thinking".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, WIDTHS, newPage, api, sessionView, waitForBoard, pageAt, openSession, browserForFile, listedGames, openPath, logCount } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

for (const width of WIDTHS) {
  /// Regression: issue 24's review of the browser.
  test(`status at ${width} px: "Paused" while watching is paused, never "thinking"`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['perfect', 'perfect'] });
    await page.waitForSelector('.watch-bar:not([hidden])');
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 1);
    await page.click('.watch-bar button:has-text("Pause")');
    await page.waitForTimeout(1500);
    const { data: view } = await api('GET', `/api/sessions/${new URL(page.url()).searchParams.get('s')}`);
    assert.ok(!view.view.outcome, 'paused before the end');
    const paused = await page.locator('.turn-line').innerText();
    assert.doesNotMatch(paused, /thinking/i);
    assert.match(paused, /^Paused/);
    await page.close();
  });
}

/// Regression: a defect found trying the page as a user would (issue 11).
test('computer against computer is watched ply by ply, with pause, one move and speed', async () => {
  // Through the API: the session starts at its first ply and advances by step.
  const { data } = await api('POST', '/api/sessions', { game: 'kono', players: ['random', 'random'], seed: 5 });
  assert.equal(data.view.log.length, 0, 'not played through at once');
  const { data: stepped } = await api('POST', `/api/sessions/${data.id}/step`, {});
  assert.equal(stepped.view.log.length, 1);
  assert.equal(stepped.played.length, 1);

  const page = await newPage(browser);
  await openPath(page, '/game/tictactoe');
  await page.selectOption('select[aria-label="Which side you play"]', '-2');
  await page.waitForSelector('.watch-bar:not([hidden])');
  const view = await sessionView(page);
  assert.ok(!view.outcome || view.log.length >= 5, 'the game is not finished by the seat change');
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 1);
  await page.click('.watch-bar button:has-text("Pause")');
  await page.waitForTimeout(200);
  const paused = await logCount(page);
  await page.waitForTimeout(1500);
  assert.equal(await logCount(page), paused, 'nothing moves while paused');
  const v = await sessionView(page);
  if (!v.outcome) {
    await page.click('.watch-bar button:has-text("One move")');
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n + 1, paused);
  }
  await page.selectOption('select[aria-label="Watching speed"]', 'fast');
  await page.click('.watch-bar button:has-text("Play")');
  await page.waitForFunction(() => /wins|draw/i.test(document.querySelector('.turn-line').textContent), null, { timeout: 20_000 });
  // New game in this mode is watched the same way.
  await page.click('.board-actions button:has-text("New game")');
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length <= 2);
  await page.selectOption('select[aria-label="Which side you play"]', '0');
  await page.close();
});
