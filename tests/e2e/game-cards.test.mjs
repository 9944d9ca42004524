// The cards a game declares beside its board: a puzzle's "Solved" toast clear of
// what is needed, Poggle's next button said in its card, a tool's answer gone with
// its input, and SameGame played by the computer never recorded as your best score.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, WIDTHS, newPage, api, sessionOf, sessionView, waitForBoard, pageAt, openSession, eventually, browserForFile, listedGames, openPath, colours } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

const overlaps = (a, b) => a && b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

for (const width of WIDTHS) {
  /// Regression: what a new player still tripped over after the first fixes.
  test(`${width} px: the "Solved" toast covers neither the top bar, the board, its buttons nor the Solution card`, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'poggle', variant: 'size=1', players: ['human'] });
    await page.locator('.card:has(h2:text-is("Solution")) .solvable-text').waitFor({ timeout: 30_000 });
    await page.locator('.board-wrap [data-cell="0"]').click();
    const toast = page.locator('#toasts .toast', { hasText: 'Solved' });
    await toast.waitFor({ timeout: 20_000 });
    const rects = await page.evaluate((width) => {
      const r = (sel) => {
        const el = document.querySelector(sel);
        if (!el) return null;
        const b = el.getBoundingClientRect();
        return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
      };
      const toastEl = [...document.querySelectorAll('#toasts .toast')].find((t) => /Solved/.test(t.textContent));
      const t = toastEl.getBoundingClientRect();
      const solution = [...document.querySelectorAll('.card')].find((c) => c.querySelector('h2')?.textContent === 'Solution');
      const s = solution?.getBoundingClientRect();
      return {
        toast: { left: t.left, right: t.right, top: t.top, bottom: t.bottom },
        topbar: r('.topbar'),
        board: r('.board-wrap'),
        actions: r('.board-actions'),
        status: r('.turn-line'),
        solution: s && width > 600 ? { left: s.left, right: s.right, top: s.top, bottom: s.bottom } : null,
      };
    }, width);
    for (const what of ['topbar', 'board', 'actions', 'status', 'solution']) {
      assert.ok(!overlaps(rects.toast, rects[what]), `the toast ${JSON.stringify(rects.toast)} covers the ${what} ${JSON.stringify(rects[what])}`);
    }
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

/// Regression: a defect found trying the page as a user would (issue 11).
test('SameGame played by the computer is not recorded as your best score', { skip: !has('samegame') }, async () => {
  const page = await newPage(browser);
  await openPath(page, '/game/samegame?variant=colours%3D2%2Csize%3D5x5%2Cseed%3D4');
  await page.click('button:has-text("Let the computer play")');
  await page.waitForFunction(() => /scored|stopped|lost/.test(document.querySelector('.card-extra .muted.small:not(:empty)')?.textContent || ''), null, { timeout: 60_000 });
  const { data: best } = await api('GET', '/api/best/samegame');
  assert.ok(!best.some((b) => b.session === sessionOf(page) && b.player === 'human'), JSON.stringify(best));
  // Then the board is the person's again (to undo and play on), never locked.
  await page.waitForFunction(() => !document.querySelector('.card button:not([hidden])')?.textContent.includes('Stop'));
  for (let i = 0; (await sessionView(page)).seats[0].player !== 'human'; i++) {
    assert.ok(i < 100, 'the board is handed back');
    await page.waitForTimeout(150);
  }
  await page.close();
});

/// The hint of the next press belongs to the position: said in the card, gone with it.
test('Poggle\'s next button is said in its card, not in a toast, and goes with the position', async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'poggle', players: ['human'] });
  const card = page.locator('section.card', { hasText: 'Solution' });
  const next = card.getByRole('button', { name: /next\?$/ });
  await eventually(async () => !(await next.isDisabled()), 'the solution is known');
  await next.click();
  const said = card.locator('.next-press');
  await eventually(async () => /Press the lit button next/.test(await said.textContent()) && await said.isVisible(), 'the card says which button');
  assert.equal(await page.locator('#toasts .toast').count(), 0, 'no toast over the card');
  // Pressing it: the words go with the position they were about.
  const lit = await page.evaluate(() => [...document.querySelectorAll('.board [data-cell].hinted, .board [data-cell].hint')].map((g) => g.dataset.cell));
  const cell = lit[0] ?? (await page.locator('.board [data-cell]').first().getAttribute('data-cell'));
  await page.click(`.board [data-cell="${cell}"] .cell-shape`);
  await eventually(async () => !(await said.isVisible()), 'the old answer is gone after a press');
  await page.close();
});

/// Regression: what a new player tripped over in the browser.
test('a tool\'s answer goes when its input is emptied', async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'pig', players: ['human', 'human'] });
  const input = page.locator('.tool-input').first();
  await input.fill('30 40');
  await input.press('Enter');
  const answer = page.locator('.tool-answer').first();
  await eventually(async () => (await answer.textContent()).trim().length > 0, 'an answer');
  await input.fill('');
  await eventually(async () => (await answer.textContent()).trim() === '', 'no answer for an empty input');
  await page.close();
});
