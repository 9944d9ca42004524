// Sharing a game: the Share link and the Game ID carry the moves played, so
// whoever opens them gets the same game to look back through (its move list, its
// review), not only its last position.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, BASE, browserForFile, listedGames, openSession, sessionOf, waitForBoard, WIDTHS, pageAt, logTexts } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

/// Clicks Share and returns the link it copied.
async function sharedLink(page) {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.click('.board-actions button:has-text("Share")');
  await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0);
  return page.evaluate(() => navigator.clipboard.readText());
}

/// Plays moves by clicking their cells, waiting for each to reach the move list.
async function clickMoves(page, n) {
  for (let i = 0; i < n; i++) {
    const v = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
    const m = v.legal_moves[(i * 5 + 2) % v.legal_moves.length];
    const before = await page.locator('.log .log-move').count();
    for (const c of m.cells) await page.click(`.board [data-cell="${c}"] .cell-shape`);
    await page.waitForFunction((k) => document.querySelectorAll('.log .log-move').length > k, before);
  }
}

for (const width of WIDTHS) {
  test(`Share at ${width} px keeps the moves: the link replays them, and the receiver can review the game`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
    await clickMoves(page, 3);
    const now = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
    const link = await sharedLink(page);
    assert.match(link, /[?&]moves=/, `the link holds the moves: ${link}`);
    assert.doesNotMatch(link, /position=/, `a game from the usual start needs no position: ${link}`);
    const other = await pageAt(browser, width);
    await other.goto(link);
    await waitForBoard(other);
    // The receiver's computer may answer the last move (its usual players).
    await other.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 3);
    assert.deepEqual((await logTexts(other)).slice(0, 3), await logTexts(page), 'the same moves in the list');
    assert.equal((await api('GET', `/api/sessions/${sessionOf(other)}/review?ply=3`)).data.view.position, now.position, 'the same position after them');
    // The receiver looks back at the first move.
    await other.locator('.log .log-move').first().click();
    await other.waitForSelector('.review-bar:not([hidden])');
    assert.match(await other.locator('.review-where').textContent(), /After move 1 of/);
    assert.deepEqual([...page.pageErrors, ...other.pageErrors], []);
    await other.close();
    await page.close();
  });

  test(`Share at ${width} px of a game begun from a shared position keeps that start and the moves after it`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    const start = (await api('POST', '/api/sessions', { game: 'tictactoe', players: ['human', 'human'], moves: ['5', '1'] })).data.view.position;
    await page.goto(`${BASE}/game/tictactoe?position=${encodeURIComponent(start)}`);
    await waitForBoard(page);
    await clickMoves(page, 1);
    const played = await page.locator('.log .log-move').count();
    const link = await sharedLink(page);
    assert.match(link, /[?&]position=/, link);
    assert.match(link, /[?&]moves=/, link);
    const other = await pageAt(browser, width);
    await other.goto(link);
    await waitForBoard(other);
    await other.waitForFunction((n) => document.querySelectorAll('.log .log-move').length >= n, played);
    const id = sessionOf(other);
    assert.equal((await api('GET', `/api/sessions/${id}/review?ply=0`)).data.view.position, start, 'the game starts where the shared one did');
    assert.deepEqual([...page.pageErrors, ...other.pageErrors], []);
    await other.close();
    await page.close();
  });
}
