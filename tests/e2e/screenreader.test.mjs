// A screen reader browses the board: every cell a button named in words (its
// name and what is on it), pressed like a click; the drawing's numbers, pieces
// and marks are hidden from it, so it never reads a bare "1 2 3 4 5 6 7".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, listedGames, openSession, sessionView, WIDTHS, pageAt } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

for (const width of WIDTHS) {
  test(`The board at ${width} px is a group of named cell buttons a screen reader can press`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'], moves: ['5'] });
    const board = page.getByRole('group', { name: 'Tic-tac-toe board' });
    const buttons = board.getByRole('button');
    assert.equal(await buttons.count(), 9, 'one button per square');
    const view = await sessionView(page);
    const centre = view.view.cells.find((c) => c.id === 5).name;
    const corner = view.view.cells.find((c) => c.id === 1).name;
    assert.equal(await board.getByRole('button', { name: `${centre}: X`, exact: true }).count(), 1, 'the centre names its piece');
    assert.equal(await board.getByRole('button', { name: `${corner}: empty`, exact: true }).count(), 1, 'an empty square says so');
    // The drawing's labels are not read out as text of their own.
    const spoken = await page.evaluate(() => [...document.querySelectorAll('.board text')].filter((t) => !t.closest('[aria-hidden=true]')).map((t) => t.textContent));
    assert.deepEqual(spoken, [], 'no bare numbers or letters');
    // Pressing a button plays there, as a click does.
    await board.getByRole('button', { name: `${corner}: empty`, exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 2);
    assert.equal(await board.getByRole('button', { name: `${corner}: O`, exact: true }).count(), 1, 'the name follows the board');
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}
