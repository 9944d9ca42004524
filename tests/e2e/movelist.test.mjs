// The move list: beside the board (under it on a phone), numbered in rows as
// players write a game down ("1. … …  2. … …"), growing with the game, each move
// coloured by its value when move values are on, and a "?" after a move that threw
// away a win or a draw (not a spell-checker's wavy underline).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserForFile, listedGames, openSession, WIDTHS, pageAt } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

/// The move list's rows as the page shows them: the number and the moves' words per column.
async function rows(page) {
  return page.$$eval('.log li.log-row', (lis) => lis.map((li) => ({
    num: li.querySelector('.log-num').textContent.trim(),
    cells: [...li.querySelectorAll('.log-cell')].map((c) => [...c.querySelectorAll('.log-text')].map((t) => t.textContent)),
  })));
}

/// A Northcott game of `plies` moves between two people, played through the API.
async function longGame(plies) {
  const { data } = await api('POST', '/api/sessions', { game: 'northcott', players: ['human', 'human'] });
  let view = data.view;
  for (let i = 0; i < plies; i++) {
    const m = view.legal_moves.find((x) => !/set/.test(x.move)) ?? view.legal_moves[0];
    view = (await api('POST', `/api/sessions/${data.id}/moves`, { move: m.move })).data.view;
  }
  return { id: data.id, view };
}

for (const width of WIDTHS) {
  test(`The move list at ${width} px: numbered in pairs beside (or right under) the board, and growing with the game`, { skip: !has('tictactoe') || !has('northcott') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'], moves: ['5', '1', '9', '3', '2'] });
    const r = await rows(page);
    assert.deepEqual(r.map((x) => x.num), ['1.', '2.', '3.'], 'a number per pair of moves');
    assert.deepEqual(r.map((x) => x.cells.map((c) => c.length)), [[1, 1], [1, 1], [1, 0]], "X's moves in one column, O's in the other");
    // The column says who moved: the move's words are not prefixed "X: ".
    for (const text of r.flatMap((x) => x.cells.flat())) assert.doesNotMatch(text, /^[XO]:/, text);
    // Where it is: beside the board on a wide screen, in the first screen; right
    // under the board's buttons on a phone, before the players' card.
    const where = await page.evaluate(() => {
      const moves = document.querySelector('.card-moves').getBoundingClientRect();
      const board = document.querySelector('.board-wrap').getBoundingClientRect();
      const players = [...document.querySelectorAll('.card h2')].find((x) => x.textContent === 'Players')?.getBoundingClientRect();
      return { top: moves.top, left: moves.left, boardRight: board.right, boardBottom: board.bottom, players: players?.top ?? Infinity, height: innerHeight };
    });
    if (width >= 1000) {
      assert.ok(where.left >= where.boardRight, 'beside the board');
      assert.ok(where.top < where.height, 'seen without scrolling');
    } else {
      assert.ok(where.top > where.boardBottom && where.top < where.players, 'right under the board, before the players');
    }
    await page.close();

    // A longer game, its moves in long words: 10 moves, 5 rows, all in view in the
    // list without scrolling inside it.
    const game = await longGame(10);
    const long = await pageAt(browser, width);
    await long.goto(`${process.env.TABULA_URL || 'http://127.0.0.1:8080'}/game/northcott?s=${game.id}`);
    await long.waitForSelector('.log .log-move');
    assert.equal(await long.locator('.log li.log-row').count(), 5);
    const fits = await long.$eval('.log', (l) => l.scrollHeight <= l.clientHeight + 1);
    assert.ok(fits, 'the list grows with the game instead of scrolling a small box');
    assert.deepEqual([...page.pageErrors, ...long.pageErrors], []);
    await long.close();
  });

  test(`Move values in the list at ${width} px: coloured by value, and a "?" after a mistake, never a wavy underline`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await page.addInitScript(() => localStorage.setItem('tabula.values.tictactoe', 'on'));
    // O's 2 after X's 5 throws the draw away (an edge answer to the centre loses).
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'], moves: ['5', '2'] });
    await page.waitForSelector('.log .log-move.value-loss, .log .log-move.value-draw');
    await page.waitForFunction(() => [...document.querySelectorAll('.log .log-mark')].some((m) => m.textContent === '?'));
    const second = page.locator('.log .log-move').nth(1);
    assert.match(await second.getAttribute('class'), /value-loss/, "O's 2 loses");
    assert.equal(await second.locator('.log-mark').textContent(), '?');
    const deco = await second.locator('.log-text').evaluate((t) => getComputedStyle(t).textDecorationStyle + ' ' + getComputedStyle(t).textDecorationLine);
    assert.doesNotMatch(deco, /wavy/, 'no spell-checker underline');
    const bg = await second.evaluate((b) => getComputedStyle(b).backgroundColor);
    assert.notEqual(bg, 'rgba(0, 0, 0, 0)', 'the move itself is tinted by its value');
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}
