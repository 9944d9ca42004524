// The page's layout on a phone (390 px) and a desktop (1280 px): cells of at least
// 44 px on a phone with readable numbers, a wide board turned or scrolled in its
// frame (the move just played brought into view), the cards read while playing
// under the board on a phone with the whole board in view, markers never cut off,
// moves named whole, and every game's board and buttons on a desktop's first screen.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, ARTIFACTS, WIDTHS, api, sessionOf, sessionView, waitForBoard, pageAt, openSession, eventually, browserForFile, listedGames, openPath, openGame } from './helpers.mjs';

const { games, has } = await listedGames();
const browser = browserForFile();

/// The smallest side of any board cell as drawn, in CSS pixels.
const smallestCell = (page) => page.evaluate(() => Math.min(...[...document.querySelectorAll('.board-wrap [data-cell] .cell-shape')]
  .map((s) => s.getBoundingClientRect()).map((r) => Math.min(r.width, r.height))));

const noSidewaysScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

for (const width of WIDTHS) {
  /// Regression: issue 24's review of the browser.
  test(`${width} px: board cells are touch targets of 44 px on a phone, square numbers readable; the page never scrolls sideways`, { timeout: 120_000 }, async () => {
    const page = await pageAt(browser, width);
    for (const [game, body] of [
      ['northcott', { game: 'northcott', players: ['human', 'human'] }],
      ['samegame', { game: 'samegame', variant: 'seed=3', players: ['human'] }],
      ['auto120', { game: 'auto120', players: ['human', 'human'], seed: 2 }],
    ]) {
      if (!has(game)) continue;
      await openSession(page, body);
      const cell = await smallestCell(page);
      if (width < 600) {
        assert.ok(cell >= 43.5, `${game}: smallest cell ${cell.toFixed(1)} px`);
        // A board wider than the screen says it can be swiped, and only the board scrolls.
        const scrolls = await page.evaluate(() => { const w = document.querySelector('.board-wrap'); return w.scrollWidth > w.clientWidth + 1; });
        assert.equal(await page.locator('.board-note').isVisible(), scrolls, `${game}: the swipe note shows exactly when the board scrolls`);
        // Northcott's 16 by 4 board runs down the screen: all of it at 44 px, no swipe.
        if (game === 'northcott') assert.equal(scrolls, false, 'Northcott turned a quarter, nothing to swipe');
      } else {
        // A desktop keeps the whole board in view: nothing to swipe.
        assert.equal(await page.locator('.board-note').isVisible(), false, game);
        assert.ok(cell >= 30, `${game}: ${cell.toFixed(1)} px on a desktop`);
      }
      assert.ok(await noSidewaysScroll(page), `${game}: the page itself never scrolls sideways`);
      if (width < 600) {
        // Every control a finger uses: buttons, menus, chips, the slider, links (a
        // checkbox counts by its label).
        const small = await page.evaluate(() => [...document.querySelectorAll('button, select, input, summary, a')]
          .filter((e) => e.offsetParent !== null && !e.closest('label') && !e.classList.contains('skip-link'))
          .map((e) => [`${e.tagName} ${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 30)}`, e.getBoundingClientRect()])
          .filter(([, r]) => Math.min(r.width, r.height) < 43.5)
          .map(([what, r]) => `${what}: ${Math.round(r.width)}x${Math.round(r.height)}`));
        assert.deepEqual(small, [], `${game}: controls under 44 px`);
      }
      if (game === 'auto120') {
        // The numbers of the squares: at least 9 px tall on a phone (5 px before).
        const label = await page.evaluate(() => Math.min(...[...document.querySelectorAll('.board-wrap [data-cell] .cell-label')]
          .filter((t) => /^\d+$/.test(t.textContent)).map((t) => t.getBoundingClientRect().height)));
        assert.ok(label >= 9, `square numbers ${label.toFixed(1)} px tall`);
      }
      await page.screenshot({ path: join(ARTIFACTS, `polish2-targets-${game}-${width}.png`) });
    }
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  /// Regression: issue 24's review of the browser.
  test(`${width} px: the hint, dice and score cards are read without scrolling past the board`, { timeout: 120_000 }, async () => {
    const page = await pageAt(browser, width);
    const check = async (selector, what) => {
      const card = page.locator(selector).first();
      await card.waitFor({ state: 'visible', timeout: 30_000 });
      const c = await card.boundingBox();
      const b = await page.locator('.board-wrap').boundingBox();
      // On a phone: right under the board's buttons (the whole board stays in view
      // above it), before the panel's cards.
      const actions = await page.locator('.board-actions').boundingBox();
      const panel = await page.locator('aside.panel').boundingBox();
      if (width < 600) assert.ok(c.y >= b.y + b.height - 1 && c.y - (actions.y + actions.height) < 400 && c.y < panel.y, `${what} under the board: card ${JSON.stringify(c)}, board ${JSON.stringify(b)}`);
      else assert.ok(c.x >= b.x + b.width && c.y < b.y + b.height, `${what} beside the board: card ${JSON.stringify(c)}, board ${JSON.stringify(b)}`);
    };
    if (has('auto120')) {
      await openSession(page, { game: 'auto120', players: ['human', 'scenario'], seed: 4 });
      await check('.card:has(h2:text-is("Dice and odds"))', 'the dice card');
    }
    if (has('samegame')) {
      await openSession(page, { game: 'samegame', variant: 'seed=5', players: ['human'] });
      await check('.card:has(h2:text-is("Score"))', 'the score card');
    }
    if (has('tictactoe')) {
      await openSession(page, { game: 'tictactoe', players: ['human', 'perfect'] });
      await page.click('.board-actions button:has-text("Hint")');
      await check('.card-hint', 'the hint card');
    }
    await page.screenshot({ path: join(ARTIFACTS, `polish2-cards-${width}.png`) });
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

/// Regression: issue 24's review of the browser.
test('390 ↔ 1280 px: Northcott turns a quarter on a phone and back on a desktop as the window changes', { skip: !has('northcott'), timeout: 60_000 }, async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'northcott', players: ['human', 'nim'] });
  const box = () => page.evaluate(() => document.querySelector('.board-wrap svg.board').getAttribute('viewBox').split(' ').map(Number));
  const [, , w1, h1] = await box();
  assert.ok(w1 > 2.5 * h1, 'wide on a desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await eventually(async () => { const [, , w, h] = await box(); return h > 2.5 * w; }, 'turned on a phone', 20_000);
  assert.ok(await smallestCell(page) >= 43.5);
  await page.setViewportSize({ width: 1280, height: 900 });
  await eventually(async () => { const [, , w, h] = await box(); return w > 2.5 * h; }, 'wide again', 20_000);
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

/// Regression: issue 24's review of the browser.
test('390 px: on a board that scrolls sideways, the move just played is brought into view', { skip: !has('auto120'), timeout: 60_000 }, async () => {
  const page = await pageAt(browser, 390);
  // Player 1's marker 1 on 2 with a roll of 5: it goes to 10, in the last column.
  await openSession(page, { game: 'auto120', position: '2,1,1,1/1,1,1,1:1r5', players: ['human', 'human'] });
  const visible = (id) => page.evaluate((id) => {
    const frame = document.querySelector('.board-wrap').getBoundingClientRect();
    const r = document.querySelector(`.board-wrap [data-cell="${id}"]`).getBoundingClientRect();
    return r.left >= frame.left - 1 && r.right <= frame.right + 1;
  }, id);
  assert.ok(await page.evaluate(() => document.querySelector('.board-wrap').classList.contains('scrolls')), 'the track scrolls on a phone');
  assert.equal(await visible(10), false, 'the last column starts out of view');
  const answered = page.waitForResponse((r) => /\/moves$/.test(r.url()) && r.request().method() === 'POST');
  await page.locator('.board-wrap [data-cell="2"]').click();
  await answered;
  await eventually(() => visible(10), 'square 10 scrolled into view', 20_000);
  // The move is in the log; a roll after it (which may forfeit a turn) can follow it.
  const log = (await sessionView(page)).log.map((e) => e.text);
  assert.ok(log.some((t) => /marker 1 from 2 to 10/.test(t)), log.join(' | '));
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

/// Regression: what a new player still tripped over after the first fixes.
test('390 px: every marker of Auto120\'s start is on the screen, not cut off at its edge', async () => {
  const page = await pageAt(browser, 390);
  await openSession(page, { game: 'auto120', players: ['human', 'human'], seed: 1 });
  await eventually(async () => (await page.locator('.board-wrap .piece').count()) === 8, 'eight markers');
  const { wrap, pieces } = await page.evaluate(() => {
    const w = document.querySelector('.board-wrap').getBoundingClientRect();
    return {
      wrap: { left: w.left, right: Math.min(w.right, window.innerWidth) },
      pieces: [...document.querySelectorAll('.board-wrap .piece')].map((g) => {
        const b = g.getBoundingClientRect();
        return { name: `${g.dataset.owner}:${g.textContent}`, left: b.left, right: b.right };
      }),
    };
  });
  for (const p of pieces) assert.ok(p.left >= wrap.left - 0.5 && p.right <= wrap.right + 0.5, `marker ${p.name} (${p.left}-${p.right}) within ${wrap.left}-${wrap.right}`);
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

/// Regression: a defect found trying the page as a user would (issue 11).
test('Auto120 markers stay readable on a phone, all eight on the start as well as spread out', { skip: !has('auto120') }, async () => {
  const page = await pageAt(browser, 390);
  for (const position of ['1,1,1,1/1,1,1,1:?', '2,3,40,1/5,6,1,1:1', '120,120,60,1/120,1,1,1:2']) {
    await openGame(page, { game: 'auto120', position, players: ['human', 'human'] });
    const sizes = await page.$$eval('.piece-disc', (els) => els.map((e) => e.getBoundingClientRect().width));
    assert.equal(sizes.length, 8, position);
    const smallest = Math.min(...sizes);
    assert.ok(smallest >= 20, `${position}: a marker is ${smallest.toFixed(1)} px wide on a phone`);
    // The numbers are drawn inside the discs, large enough to read.
    const fonts = await page.$$eval('.piece-label', (els) => els.map((e) => e.getBoundingClientRect().height));
    assert.ok(Math.min(...fonts) >= 9, `${position}: marker numbers ${Math.min(...fonts).toFixed(1)} px high`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `${position}: ${overflow} px too wide`);
  }
  await page.locator('.board-wrap').screenshot({ path: join(ARTIFACTS, 'auto120-phone-markers.png') });
  await page.close();
});

/// Regression: what a new player tripped over in the browser.
test('Northcott\'s moves are named whole on a phone', async () => {
  const page = await pageAt(browser, 390);
  const s = await openSession(page, { game: 'northcott', players: ['human', 'human'] });
  const move = s.view.legal_moves[0];
  await api('POST', `/api/sessions/${s.id}/moves`, { move: move.move });
  await page.reload();
  await waitForBoard(page);
  await page.click('.board-actions button:has-text("Hint")');
  await page.waitForSelector('.hint-move-name');
  // Each move's name, in the hint's list and in the log, stays whole: no "->"
  // split over two lines.
  const broken = await page.evaluate(() => [...document.querySelectorAll('.hint-move-name, .log .log-text')].filter((el) => {
    const text = el.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) return false;
    for (let at = text.textContent.indexOf('>'); at >= 1; at = text.textContent.indexOf('>', at + 1)) {
      const r = document.createRange();
      r.setStart(text, at - 1);
      r.setEnd(text, at + 1);
      if (r.getClientRects().length > 1) return true;
    }
    return false;
  }).map((el) => el.textContent));
  assert.deepEqual(broken, []);
  await page.close();
});

/// On a phone the cards read while playing never push the board off the
/// screen: the whole board and the review bar fit in one screen, and the hint lists
/// every move without a scroll of its own.
test('on a phone the hint, score and dice cards leave the whole board in view', async () => {
  const page = await pageAt(browser, 390);
  const fits = async (what) => {
    const m = await page.evaluate(() => {
      const status = document.querySelector('.turn-line').getBoundingClientRect();
      const board = document.querySelector('.board-wrap').getBoundingClientRect();
      return { top: status.top, bottom: board.bottom, room: window.innerHeight };
    });
    assert.ok(m.bottom - m.top <= m.room, `${what}: the status line to the board's bottom is ${m.bottom - m.top} px, the screen ${m.room} px`);
  };
  await openSession(page, { game: 'kono', players: ['human', 'human'], position: '.xxx/xxox/xooo/oo.o x' });
  await page.click('.board-actions button:has-text("Hint")');
  await page.waitForSelector('.hint-move');
  await fits('Kono with the hint open');
  const list = await page.evaluate(() => { const l = document.querySelector('.hint-moves'); return { sh: l.scrollHeight, ch: l.clientHeight }; });
  assert.ok(list.sh <= list.ch + 1, `every move listed without scrolling the list (${list.sh} > ${list.ch})`);
  await openSession(page, { game: 'samegame', variant: 'seed=5', players: ['human'] });
  for (let i = 0; i < 2; i++) {
    const v = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
    await page.click(`.board [data-cell="${v.legal_moves[0].cells[0]}"] .cell-shape`);
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, i + 1);
  }
  await page.locator('.log-move').first().click();
  await page.waitForSelector('.review-bar:not([hidden])');
  // SameGame's 15 rows of 44 px cells are most of a phone's height: nothing but
  // the review bar comes between the status line and the board.
  const gap = await page.evaluate(() => document.querySelector('.board-wrap').getBoundingClientRect().top - document.querySelector('.turn-line').getBoundingClientRect().top);
  assert.ok(gap <= 260, `SameGame in review: the board starts ${gap} px below the status line`);
  // (Measured at one instant: the review scrolls the board into view.)
  const under = await page.evaluate(() => {
    const card = [...document.querySelectorAll('.card')].find((c) => c.querySelector('h2')?.textContent === 'Score');
    return card.getBoundingClientRect().top >= document.querySelector('.board-wrap').getBoundingClientRect().bottom - 1;
  });
  assert.ok(under, 'the score card under the board');
  // Auto120's track is taller than a phone: its dice card comes after the board,
  // never between the status line and the board.
  await openSession(page, { game: 'auto120', players: ['human', 'human'], seed: 3 });
  const diceUnder = await page.evaluate(() => {
    const card = [...document.querySelectorAll('.card')].find((c) => c.querySelector('h2')?.textContent === 'Dice and odds');
    return card.getBoundingClientRect().top >= document.querySelector('.board-wrap').getBoundingClientRect().bottom - 1;
  });
  assert.ok(diceUnder, 'the dice card under the board');
  await page.close();
});

/// Regression: a new player's walk through every page.
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
