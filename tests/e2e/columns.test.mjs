// Every game whose board declares whole columns as click targets: a click on any
// cell of a column plays the move listed under that column (wherever in the column
// the move's piece lands), the column lights up as one under the pointer, and a
// game won on such a board shows the line that decided it (the cells the view marks
// `win`) on the page. The games come from the server's list and the declared view;
// none is named here. At 390 and 1280 px, with screenshots of the board, the win and
// the cards beside it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { api, ARTIFACTS, openSession, pageAt, browserForFile, listedGames, WIDTHS } from './helpers.mjs';

const { games } = await listedGames();

/// The games whose new game's board has cells that click as their column.
const columnGames = [];
for (const g of games) {
  const { status, data } = await api('POST', '/api/sessions', { game: g.name, players: g.seats.map(() => 'human'), seed: 5 });
  if (status === 201 && data.view.view.cells.some((c) => c.target?.kind === 'column')) columnGames.push(g);
}

const browser = browserForFile();

test('some game declares columns as click targets (the tests below could run)', () => {
  assert.ok(columnGames.length >= 1, games.map((g) => g.name).join(', '));
});

/// Each column's cells (ids), top to bottom, from the view's declared targets.
function columnsOf(view) {
  const cols = new Map();
  for (const c of [...view.cells].sort((a, b) => a.y - b.y)) {
    if (c.target?.kind !== 'column') continue;
    if (!cols.has(c.target.column)) cols.set(c.target.column, []);
    cols.get(c.target.column).push(c.id);
  }
  return [...cols.entries()].sort((a, b) => a[0] - b[0]).map(([, ids]) => ids);
}

for (const game of columnGames) {
  for (const width of WIDTHS) {
    test(`${width} px, ${game.name}: a click anywhere in a column plays there; the winning line is marked`, { timeout: 120_000 }, async () => {
      const page = await pageAt(browser, width);
      const { id, view: start } = await openSession(page, { game: game.name, players: game.seats.map(() => 'human'), seed: 5 });
      const cols = columnsOf(start.view);
      assert.ok(cols.length >= 2, `${game.name}: at least two columns`);
      // Two neighbouring columns, played in turn, each click on a different cell of
      // its column (top, then lower): the first side fills one column, the second
      // the other, until the game ends.
      const played = [cols[0], cols[1]];
      let view = start;
      let clicks = 0;
      for (; !view.outcome && clicks < 4 * cols[0].length; clicks++) {
        const column = played[clicks % 2];
        const clicked = column[Math.floor(clicks / 2) % column.length];
        const inColumn = new Set(column);
        const listed = view.legal_moves.filter((m) => m.cells.length && inColumn.has(m.cells[0]));
        if (!listed.length) break;
        const before = view.log?.length ?? 0;
        if (clicks === 0) {
          // The whole column lights up under the pointer.
          await page.hover(`.board-wrap [data-cell="${clicked}"] .cell-shape`);
          await page.waitForFunction((n) => document.querySelectorAll('.board-wrap [data-cell].in-group').length === n, column.length);
          const lit = await page.evaluate(() => [...document.querySelectorAll('.board-wrap [data-cell].in-group')].map((g) => Number(g.dataset.cell)));
          assert.deepEqual(lit.sort((a, b) => a - b), [...column].sort((a, b) => a - b), `${game.name}: the column under the pointer, and only it, lights up`);
        }
        await page.click(`.board-wrap [data-cell="${clicked}"] .cell-shape`);
        await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length > n, before);
        const { data } = await api('GET', `/api/sessions/${id}`);
        view = data.view;
        const last = view.log[view.log.length - 1];
        assert.equal(view.log.length, before + 1, `${game.name}: one move per click`);
        assert.ok(listed.some((m) => m.move === last.move), `${game.name}: a click on cell ${clicked} played ${last.move}, one of the moves of its column (${listed.map((m) => m.move).join(', ')})`);
        assert.ok(view.view.last_move.cells.every((c) => inColumn.has(c)), `${game.name}: the piece landed in the column clicked`);
      }
      if (width === 390) await page.screenshot({ path: join(ARTIFACTS, `columns-${game.name}-${width}-board.png`) });
      assert.equal(view.outcome?.kind, 'win', `${game.name}: two columns played in turn end in a win (${clicks} clicks)`);
      const line = view.view.cells.filter((c) => c.mark === 'win').map((c) => String(c.id)).sort();
      assert.ok(line.length >= 2, `${game.name}: the view marks the winning line`);
      const drawn = await page.evaluate(() => [...document.querySelectorAll('.board-wrap [data-cell][data-mark="win"]')].map((g) => g.dataset.cell).sort());
      assert.deepEqual(drawn, line, `${game.name}: the page marks the cells of the winning line, and only those`);
      assert.ok(line.every((c) => view.view.pieces.some((p) => String(p.cell) === c && p.owner === view.outcome.seat)), `${game.name}: the marked line is the winner's pieces`);
      await page.locator('.board-wrap').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `columns-${game.name}-${width}-win.png`) });
      await page.screenshot({ path: join(ARTIFACTS, `columns-${game.name}-${width}-page.png`), fullPage: true });
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scrolling');
      assert.deepEqual(page.pageErrors, []);
      await page.close();
    });
  }
}
