// The walk through everything a new player meets: what it still found wrong, each
// test failing on the page as it was before its fix.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageAt, openSession, browserForFile, listedGames, WIDTHS } from './helpers.mjs';

const { games } = await listedGames();
const browser = browserForFile();

for (const width of WIDTHS) {
  test(`${width} px: the Game ID boxes show their examples and IDs whole`, async () => {
    const page = await pageAt(browser, width);
    // A fixed start (the ID box shows its example) and a dealt board (its ID).
    for (const body of [{ game: 'tictactoe', players: ['human', 'human'] }, { game: 'samegame', players: ['human'] }]) {
      await openSession(page, body);
      const boxes = await page.evaluate(() => [...document.querySelectorAll('.game-id, .enter-id')].map((box) => {
        const style = getComputedStyle(box);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const inner = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const text = box.value || box.placeholder;
        return { label: box.getAttribute('aria-label'), text, needs: ctx.measureText(text).width, inner };
      }));
      assert.equal(boxes.length, 2, `${body.game}: both boxes`);
      for (const b of boxes) {
        assert.ok(b.text.length > 0, `${body.game}: ${b.label} shows something`);
        assert.ok(b.needs <= b.inner, `${body.game} at ${width} px: "${b.text}" needs ${b.needs.toFixed(0)} px, ${b.label} has ${b.inner} px`);
      }
    }
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

for (const width of WIDTHS) {
  test(`${width} px: every choice of the players card's menus is read whole`, async () => {
    const page = await pageAt(browser, width);
    const cut = [];
    for (const g of games.filter((x) => !x.puzzle)) {
      await openSession(page, { game: g.name });
      const menus = await page.evaluate(() => [...document.querySelectorAll('.players select')].map((menu) => {
        const style = getComputedStyle(menu);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        // The menu's arrow takes about 20 px of the box beside its padding.
        const inner = menu.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
        return [...menu.options].map((o) => ({ text: o.textContent, needs: ctx.measureText(o.textContent).width, inner }));
      }));
      assert.ok(menus.length >= 1, `${g.name}: a players card with its menus`);
      for (const o of menus.flat()) if (o.needs > o.inner) cut.push(`${g.name}: "${o.text}" needs ${o.needs.toFixed(0)} px of ${o.inner.toFixed(0)}`);
    }
    assert.deepEqual(cut, [], `at ${width} px`);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

test('1280x900: every game shows its board and the buttons under it (Hint, New game) without scrolling', async () => {
  const page = await pageAt(browser, 1280);
  const below = [];
  for (const g of games) {
    await openSession(page, { game: g.name, players: g.seats.map(() => 'human') });
    const out = await page.evaluate(() => {
      const buttons = [...document.querySelectorAll('.board-area button')].filter((b) => /^(Hint|New game)$/.test(b.textContent.trim()));
      return { found: buttons.length, bottom: Math.max(...buttons.map((b) => b.getBoundingClientRect().bottom)), room: innerHeight };
    });
    assert.ok(out.found >= 1, `${g.name}: its buttons`);
    if (out.bottom > out.room) below.push(`${g.name}: the buttons end at ${out.bottom.toFixed(0)} px of ${out.room}`);
  }
  assert.deepEqual(below, []);
  await page.close();
});
