// When every player resigns the Cat wins (Stenger's game monitor): the page shows
// the engine's result. Two people: after one resigns, the winner's Resign button
// stays on, and resigning too makes the game the Cat's; then no one may resign.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, sessionView, pageAt, openSession, eventually, browserForFile, listedGames, WIDTHS } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

const resignButton = (page) => page.locator('.board-actions button:has-text("Resign")');

for (const width of WIDTHS) {
  test(`every player resigns at ${width} px: the Cat wins`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
    await page.click('.board [data-cell="5"] .cell-shape');
    await eventually(async () => (await sessionView(page)).log.length === 1, 'X played 5');

    // O resigns: X wins, and X, a person, may resign too.
    await resignButton(page).click();
    await eventually(async () => /O resigns/.test(await page.locator('.turn-line').innerText()), 'O resigned');
    assert.match(await page.locator('.turn-line').innerText(), /^X wins: O resigns/);
    assert.ok(await resignButton(page).isEnabled(), 'the winner may resign too');

    await resignButton(page).click();
    await eventually(async () => /Cat/.test(await page.locator('.turn-line').innerText()), 'the Cat won');
    assert.equal(
      await page.locator('.turn-line').innerText(),
      'Draw: O resigns, then X too: every player resigned, so the Cat wins',
    );
    const view = await sessionView(page);
    assert.deepEqual(view.outcome, { kind: 'draw' });
    assert.equal(view.tally.cat, 1);
    assert.deepEqual(view.tally.wins, [0, 0]);
    assert.ok(!view.can_resign);
    assert.ok(await resignButton(page).isDisabled(), 'no one is left to resign');
    await page.screenshot({ path: join(ARTIFACTS, `every-player-resigns-${width}.png`), fullPage: true });
    await page.close();
  });
}
