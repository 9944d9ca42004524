// How the page's own words and marks look: a variant's chip in the page's type
// (not a typewriter font), moves named in words in the same type, a seat's colour
// drawn as a piece (a white seat never looks like an empty checkbox), the status
// line's words for the person playing, and a puzzle under review without a score.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserForFile, listedGames, openSession, WIDTHS, pageAt } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

const mono = (f) => /mono|courier|consolas|menlo/i.test(f);

for (const width of WIDTHS) {
  test(`Appearance at ${width} px: the variant chip and move names in the page's type`, { skip: !has('connect4') || !has('kono') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'connect4', variant: 'width=5,height=4,connect=3', players: ['human', 'human'] });
    const chip = page.locator('.variant-line .variant');
    assert.ok(await chip.count(), 'the variant is named');
    const chipFont = await chip.evaluate((c) => getComputedStyle(c).fontFamily);
    assert.ok(!mono(chipFont), `the chip's font: ${chipFont}`);
    await openSession(page, { game: 'kono', players: ['human', 'human'] });
    await page.locator('.board-actions button:has-text("Hint")').click();
    await page.waitForSelector('.hint-move-name', { timeout: 60_000 });
    const nameFont = await page.locator('.hint-move-name').first().evaluate((c) => getComputedStyle(c).fontFamily);
    assert.ok(!mono(nameFont), `a move's name in words: ${nameFont}`);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  test(`Appearance at ${width} px: a white seat's swatch is a piece, not an empty box; "Your move — you are …"`, { skip: !has('mu-torere') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'mu-torere', players: ['human', 'random'] });
    const swatch = page.locator('.turn-line .swatch');
    const look = await swatch.evaluate((s) => {
      const c = getComputedStyle(s);
      return { radius: c.borderRadius, shadow: c.boxShadow, background: c.backgroundImage };
    });
    assert.equal(look.radius, '50%', 'round, as the pieces are');
    assert.ok(look.shadow !== 'none' || look.background !== 'none', 'shaded as a piece, not flat as a box');
    assert.match(await page.locator('.turn-line').textContent(), /^Your move — you are White$/);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  test(`A puzzle without a score under review at ${width} px says it is not solved yet, never "Score 0"`, { skip: !has('poggle') }, async () => {
    const page = await pageAt(browser, width);
    const s = await openSession(page, { game: 'poggle', players: ['human'] });
    assert.equal(s.view.score ?? null, null, 'this puzzle keeps no score');
    const press = s.view.legal_moves[0];
    await page.click(`.board [data-cell="${press.cells[0]}"] .cell-shape`);
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
    await page.locator('.review-bar button[aria-label="First position"]').evaluate((b) => b.click());
    await page.waitForSelector('.review-bar:not([hidden])');
    const status = await page.locator('.turn-line').textContent();
    assert.doesNotMatch(status, /Score/, status);
    assert.match(status, /not solved yet/i, status);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}
