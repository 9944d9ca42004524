// Hints: a hint analyses the position shown (a reviewed one too, as lichess's
// analysis board does), and its move is brought into view on a board larger than
// the screen.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserForFile, listedGames, openSession, sessionOf, WIDTHS, pageAt } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

for (const width of WIDTHS) {
  test(`Hints in review at ${width} px: Hint analyses the reviewed position, and follows the review`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    // Move values off: the hint is asked for, not shown on its own.
    await page.addInitScript(() => localStorage.setItem('tabula.values.tictactoe', 'off'));
    const s = await openSession(page, { game: 'tictactoe', players: ['human', 'human'], moves: ['5', '1', '9'] });
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 3);
    await page.locator('.log .log-move').first().click();
    await page.waitForSelector('.review-bar:not([hidden])');
    const hint = page.locator('.board-actions button:has-text("Hint")');
    assert.equal(await hint.isDisabled(), false, 'Hint can be pressed in review');
    await hint.click();
    await page.waitForSelector('.card-hint:not([hidden]) .hint-moves li');
    // The reviewed position's moves (after move 1: eight empty squares), not the game's (six).
    const after1 = (await api('GET', `/api/sessions/${s.id}/review?ply=1`)).data.view;
    assert.equal(await page.locator('.card-hint .hint-moves li').count(), after1.legal_moves.length);
    // Stepping on keeps the analysis open, for the next position.
    await page.locator('.review-bar button[aria-label="One move forward"]').click();
    await page.waitForFunction(() => /After move 2/.test(document.querySelector('.review-where')?.textContent));
    await page.waitForFunction(() => document.querySelectorAll('.card-hint:not([hidden]) .hint-moves li').length === 7);
    // The game itself was not changed.
    assert.equal((await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view.log.length, 3);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  test(`A hint on a board taller than the screen at ${width} px brings its move into view`, { skip: !has('northcott') }, async () => {
    const page = await pageAt(browser, width);
    await page.addInitScript(() => localStorage.setItem('tabula.values.northcott', 'off'));
    await openSession(page, { game: 'northcott', players: ['human', 'nim'] });
    // The player has scrolled down the page, the board out of sight, and presses H.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const boardOut = await page.evaluate(() => document.querySelector('.board').getBoundingClientRect().bottom < 60);
    assert.ok(boardOut, 'the board is scrolled out of sight before the hint');
    await page.keyboard.press('h');
    await page.waitForSelector('.board [data-cell].hinted');
    const seen = await page.evaluate(() => {
      const bar = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
      const frame = document.querySelector('.board-wrap').getBoundingClientRect();
      return [...document.querySelectorAll('.board [data-cell].hinted')].map((g) => {
        const r = g.getBoundingClientRect();
        return { top: r.top >= bar - 1, bottom: r.bottom <= innerHeight + 1, left: r.left >= Math.max(0, frame.left) - 1, right: r.right <= Math.min(innerWidth, frame.right) + 1 };
      });
    });
    assert.ok(seen.length > 0);
    for (const s of seen) assert.deepEqual(s, { top: true, bottom: true, left: true, right: true }, 'every hinted cell on screen');
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

test('A hint on a board wider than a phone brings its group into view sideways', { skip: !has('samegame') }, async () => {
  const page = await pageAt(browser, 390);
  await openSession(page, { game: 'samegame', variant: 'seed=9', players: ['human'] });
  // The board scrolls sideways in its frame; the player looks at its right edge.
  await page.evaluate(() => {
    const wrap = document.querySelector('.board-wrap');
    wrap.scrollLeft = wrap.scrollWidth;
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
  await page.keyboard.press('h');
  await page.waitForSelector('.board [data-cell].hinted', { timeout: 30_000 });
  await page.waitForTimeout(300);
  const seen = await page.evaluate(() => {
    const frame = document.querySelector('.board-wrap').getBoundingClientRect();
    const bar = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
    const boxes = [...document.querySelectorAll('.board [data-cell].hinted')].map((g) => g.getBoundingClientRect());
    return boxes.some((r) => r.left >= frame.left - 1 && r.right <= frame.right + 1 && r.top >= bar - 1 && r.bottom <= innerHeight + 1);
  });
  assert.ok(seen, 'part of the hinted group is on screen');
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});
