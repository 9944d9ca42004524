// New game and Restart: a dealt board (SameGame, Poggle's random start) gets a
// fresh board from New game and the same one from Restart; Restart goes back to
// this game's start in every game, a shared position's too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, api, sessionOf, sessionView, waitForBoard, pageAt, openSession, browserForFile, listedGames, openPath, colours } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

/// Regression: a defect found trying the page as a user would (issue 11).
test('SameGame New game deals a fresh board, Restart the same one; a shared link opens that board', { skip: !has('samegame') }, async () => {
  const page = await newPage(browser);
  await openPath(page, '/game/samegame');
  const first = await sessionView(page);
  const firstId = sessionOf(page);
  await page.click('.board-actions button:has-text("New game")');
  await page.waitForFunction((id) => new URL(location.href).searchParams.get('s') !== id, firstId);
  await waitForBoard(page);
  const second = await sessionView(page);
  assert.notEqual(colours(second), colours(first), 'a fresh board');
  // Play a group, then Restart: the same board from its start.
  const move = second.legal_moves[0];
  await page.click(`.board [data-cell="${move.cells[0]}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
  await page.click('.board-actions button:has-text("Restart")');
  await page.waitForFunction(() => !document.querySelector('.log .log-move'));
  const again = await sessionView(page);
  assert.equal(colours(again), colours(second));
  // The address is a shareable link: another browser page opens the same board.
  const link = new URL(page.url());
  link.searchParams.delete('s');
  const other = await newPage(browser);
  await other.goto(link.href);
  await waitForBoard(other);
  assert.equal(colours(await sessionView(other)), colours(second));
  await other.close();
  await page.close();
});

/// Regression: a defect found trying the page as a user would (issue 11).
test('Poggle random start: New game gives another board', { skip: !has('poggle') }, async () => {
  const page = await newPage(browser);
  await openPath(page, '/game/poggle?variant=start%3Drandom');
  const first = await sessionView(page);
  const firstId = sessionOf(page);
  await page.click('.board-actions button:has-text("New game")');
  await page.waitForFunction((id) => new URL(location.href).searchParams.get('s') !== id, firstId);
  await waitForBoard(page);
  assert.notEqual((await sessionView(page)).position, first.position);
  await page.close();
});

/// Regression: what a new player tripped over in the browser.
test('Restart in every game goes back to this game\'s start, a shared position\'s too', async () => {
  const page = await pageAt(browser, 1280);
  // A SameGame link carrying a position: Restart goes back to that position.
  const s = await openSession(page, { game: 'samegame', variant: 'seed=9', players: ['human'] });
  const move = s.view.legal_moves[0];
  await page.click(`.board [data-cell="${move.cells[0]}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
  const shared = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view.position;
  await page.goto(`${BASE}/game/samegame?variant=seed%3D9&position=${encodeURIComponent(shared)}`);
  await waitForBoard(page);
  const opened = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
  assert.equal(opened.position, shared);
  const next = opened.legal_moves[0];
  await page.click(`.board [data-cell="${next.cells[0]}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
  await page.click('.board-actions button:has-text("Restart")');
  await page.waitForFunction(() => !document.querySelector('.log .log-move'));
  assert.equal((await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view.position, shared, 'the shared position again');
  // Tic-tac-toe has Restart too.
  await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
  await page.click('.board [data-cell="5"] .cell-shape');
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
  await page.click('.board-actions button:has-text("Restart")');
  await page.waitForFunction(() => !document.querySelector('.log .log-move'));
  await page.close();
});
