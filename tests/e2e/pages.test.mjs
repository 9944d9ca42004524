// Every game page at a desktop size (1280x900) and a phone size (390x844, touch):
// no console errors, no sideways scrolling, every control reachable by keyboard (both sizes),
// the game's buttons above the legend, and a screenshot of each kept as an artifact.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, ARTIFACTS, waitForBoard, browserForFile, listedGames } from './helpers.mjs';

const { games } = await listedGames();
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 900 }, touch: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
];

// A browser of each size (a phone's with a touch screen), for the whole file.
const browsers = SIZES.map((size) => browserForFile({ viewport: size.viewport, touch: size.touch }));

for (const [i, size] of SIZES.entries()) {
  test(`every game page at ${size.name} size (${size.viewport.width}x${size.viewport.height})`, async () => {
    const { context } = browsers[i];
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    for (const path of ['/', ...games.map((g) => `/game/${g.name}`)]) {
      await page.goto(BASE + path);
      if (path === '/') await page.waitForSelector('.thumb svg');
      else await waitForBoard(page);
      await page.waitForTimeout(400);
      const name = path === '/' ? 'home' : path.split('/').pop();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `${name} at ${size.name}: ${overflow} px wider than the screen`);
      // The whole page in one picture: the window made as tall as the page (a full-page
      // capture of an emulated phone drops the touch media queries while it draws).
      const tall = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: size.viewport.width, height: Math.min(tall, 8000) });
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(ARTIFACTS, `page-${name}-${size.name}.png`) });
      await page.setViewportSize(size.viewport);
      if (path === '/') continue;
      // The game's own buttons come before the legend and the side panel.
      const order = await page.evaluate(() => {
        const a = document.querySelector('.board-actions').getBoundingClientRect().top;
        const l = document.querySelector('.legend').getBoundingClientRect().top;
        const p = document.querySelector('.panel').getBoundingClientRect().top;
        return { a, l, p };
      });
      // (on a phone the panel is below the board: the buttons come before it too)
      assert.ok(order.a < order.l && (!size.touch || order.a < order.p), `${name} at ${size.name}: buttons above the legend ${JSON.stringify(order)}`);
      // Keyboard help is for keyboards only.
      assert.equal(await page.locator('.key-help').isVisible(), !size.touch, `${name}: key help shown only without touch`);
      // Every visible control is reached by Tab, on a phone (a keyboard attached,
      // or a screen reader's next-item gesture) as on a desktop.
      const reached = new Set();
      await page.locator('body').focus();
      const wanted = await page.evaluate(() => {
        const all = [...document.querySelectorAll('main button, main select, main input, main a[href], main summary, main [tabindex="0"]')];
        return all.filter((e) => !e.disabled && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
          .map((e, j) => (e.dataset.tabProbe = String(j)));
      });
      for (let k = 0; k < wanted.length + 40 && reached.size < wanted.length; k++) {
        await page.keyboard.press('Tab');
        const probe = await page.evaluate(() => document.activeElement?.dataset?.tabProbe ?? null);
        if (probe !== null) reached.add(probe);
      }
      const missing = wanted.filter((w) => !reached.has(w));
      assert.deepEqual(missing, [], `${name}: controls not reached by Tab`);
    }
    assert.deepEqual(problems, [], `${size.name}: ${problems.join('\n')}`);
    await page.close();
  });
}
