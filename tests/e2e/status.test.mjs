// The status line: "You won" and "You lost" to the one person playing, which side
// won to two people, a watched game joined afterwards never "You lost", and never
// "Your move" while the computer searches.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, WIDTHS, api, waitForBoard, pageAt, openSession, eventually, browserForFile, listedGames } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

for (const width of WIDTHS) {
  /// Regression: issue 24's review of the browser.
  test(`status at ${width} px: "You won" when you win`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    // X to move wins at 3.
    await openSession(page, { game: 'tictactoe', players: ['human', 'perfect'], position: 'XX./OO./... X' });
    await page.click('.board [data-cell="3"] .cell-shape');
    await page.waitForSelector('.turn-line.won');
    const text = await page.locator('.turn-line').innerText();
    assert.match(text, /^You won/);
    assert.doesNotMatch(text, /X wins/);
    await page.close();
  });

  /// Regression: issue 24's review of the browser.
  test(`status at ${width} px: "You lost" when you resign`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['human', 'perfect'] });
    await page.click('.board-actions button:has-text("Resign")');
    await page.waitForSelector('.turn-line.lost');
    assert.match(await page.locator('.turn-line').innerText(), /^You lost: you resigned/);
    await page.close();
  });

  // (A guard: the page named the side before, and must still.)
  test(`status at ${width} px: two people are told which side won`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'], position: 'XX./OO./... X' });
    await page.click('.board [data-cell="3"] .cell-shape');
    await page.waitForSelector('.turn-line.over');
    assert.match(await page.locator('.turn-line').innerText(), /^X wins/);
    await page.close();
  });
}

/// Regression: what a new player tripped over in the browser.
test('a game watched to its end and then joined does not say "You lost"', async () => {
  const { data } = await api('POST', '/api/sessions', { game: 'tictactoe', players: ['random', 'random'], seed: 11 });
  let view = data.view;
  for (let i = 0; i < 12 && !view.outcome; i++) view = (await api('POST', `/api/sessions/${data.id}/step`)).data.view;
  assert.ok(view.outcome, 'the watched game ended');
  await api('PUT', `/api/sessions/${data.id}/players`, { seat: view.outcome.kind === 'win' ? 1 - view.outcome.seat : 0, player: 'human' });
  const page = await pageAt(browser, 1280);
  await page.goto(`${BASE}/game/tictactoe?s=${data.id}`);
  await waitForBoard(page);
  const status = (await page.locator('.turn-line').textContent()).trim();
  assert.doesNotMatch(status, /^You (lost|won)/, status);
  assert.match(status, /wins|Draw/, status);
  await page.close();
});

/// Regression: what a new player tripped over in the browser.
test('SameGame does not say "Your move" while the computer searches', async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'samegame', variant: 'seed=7', players: ['human'] });
  const card = page.locator('section.card', { hasText: 'Let the computer play' });
  await card.locator('select[aria-label="Search time"]').selectOption('5');
  await card.getByRole('button', { name: 'Let the computer play' }).click();
  await page.waitForTimeout(500);
  const status = (await page.locator('.turn-line').textContent()).trim();
  assert.doesNotMatch(status, /Your move/, status);
  assert.match(status, /searching/, status);
  await card.getByRole('button', { name: 'Stop' }).click();
  await eventually(async () => /Your move/.test(await page.locator('.turn-line').textContent()), 'the board is yours again');
  await page.close();
});
