// Highlights on the board: each kind (the computer's last move, yours, the hint,
// the selection, the cursor) its own frame, nested on one square and named in a
// key; the computer's reply outlined at both ends after a short pause; the winning
// line marked.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { BASE, ARTIFACTS, WIDTHS, newPage, api, sessionOf, sessionView, waitForBoard, pageAt, openSession, browserForFile, listedGames, openPath, openGame, colours } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

after(() => {
  writeFileSync(join(ARTIFACTS, 'timings-highlights.json'), JSON.stringify(timings, null, 2));
});

const timings = {};

for (const width of WIDTHS) {
  /// Regression: issue 24's review of the browser.
  test(`highlights at ${width} px: each kind its own frame, nested on one square, named in a key`, { skip: !has('kono') }, async () => {
    const page = await pageAt(browser, width);
    // Against the computer: its reply is lit; then a hint, and the hint's piece selected.
    await openSession(page, { game: 'kono', players: ['human', 'perfect'] });
    const first = await page.evaluate(async () => {
      const s = new URL(location.href).searchParams.get('s');
      const v = await (await fetch(`/api/sessions/${s}`)).json();
      return v.view.legal_moves[0];
    });
    await page.click(`.board [data-cell="${first.cells[0]}"] .cell-shape`, { force: true });
    await page.click(`.board [data-cell="${first.cells[1]}"] .cell-shape`, { force: true });
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 2);
    await page.waitForSelector('.board .hl-ring.hl-recent');
    const mine = await page.$$eval('.board .hl-ring.hl-mine', (e) => e.length);
    assert.ok(mine >= 1, 'your own move has its frame');
    await page.click('.board-actions button:has-text("Hint")');
    await page.waitForSelector('.board .move-value.best');
    const { data: view } = await api('GET', `/api/sessions/${new URL(page.url()).searchParams.get('s')}`);
    const { data: hint } = await api('GET', `/api/sessions/${view.id}/hint`);
    const start = hint.best.cells[0];
    await page.click(`.board [data-cell="${start}"] .cell-shape`, { force: true });
    await page.waitForSelector('.board .hl-ring.hl-selected');
    // The best move's first square is both the hint and the selection: two frames,
    // one inside the other, in different colours.
    const frames = await page.evaluate((cell) => {
      const c = document.querySelector(`.board [data-cell="${cell}"] .cell-shape`).getBoundingClientRect();
      return [...document.querySelectorAll('.board .hl-ring')].map((r) => {
        const b = r.getBoundingClientRect();
        return { kind: r.dataset.highlight, box: b, colour: getComputedStyle(r).stroke, inside: b.x >= c.x - 1 && b.y >= c.y - 1 && b.right <= c.right + 1 && b.bottom <= c.bottom + 1 };
      }).filter((f) => f.inside);
    }, start);
    const kinds = frames.map((f) => f.kind).sort();
    assert.deepEqual(kinds, ['hint', 'selected'], `frames on the hint's square: ${kinds}`);
    const [outer, inner] = frames.sort((a, b) => b.box.width - a.box.width);
    assert.ok(inner.box.x > outer.box.x && inner.box.right < outer.box.right && inner.box.y > outer.box.y, 'the frames nest, one inside the other');
    // Each kind of frame on the board in a colour of its own.
    const colours = await page.evaluate(() => {
      const out = {};
      for (const r of document.querySelectorAll('.board .hl-ring')) out[r.dataset.highlight] = getComputedStyle(r).stroke;
      return out;
    });
    assert.deepEqual(Object.keys(colours).sort(), ['hint', 'mine', 'recent', 'selected'].sort(), JSON.stringify(colours));
    assert.equal(new Set(Object.values(colours)).size, 4, `four colours: ${JSON.stringify(colours)}`);
    // The key names each kind shown, with a sample in the board's colour.
    const key = await page.evaluate(() => [...document.querySelectorAll('.highlight-key li')].map((li) => ({
      kind: li.dataset.highlight, words: li.textContent.trim(), colour: li.querySelector('.hl-ring') ? getComputedStyle(li.querySelector('.hl-ring')).stroke : null,
      visible: li.getClientRects().length > 0,
    })));
    for (const [kind, colour] of Object.entries(colours)) {
      const item = key.find((k) => k.kind === kind);
      assert.ok(item?.visible, `the key names ${kind}: ${JSON.stringify(key)}`);
      assert.equal(item.colour, colour, `the key's ${kind} sample is the board's colour`);
    }
    assert.ok(key.some((k) => k.kind === 'target' && /can go/.test(k.words)), 'where the selection can go is in the key');
    await page.locator('.board-area').screenshot({ path: join(ARTIFACTS, `polish1-highlights-${width}.png`) });
    await page.close();
  });
}

/// Regression: a defect found trying the page as a user would (issue 11).
test('the last move outlines both ends of the reply; your own presses are not the computer\'s', { skip: !has('hexapawn') }, async () => {
  const page = await newPage(browser);
  await openGame(page, { game: 'hexapawn', players: ['human', 'perfect'], seed: 2 });
  const view = await sessionView(page);
  const move = view.legal_moves[0];
  const t0 = Date.now();
  for (const c of move.cells) await page.click(`.board [data-cell="${c}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 2);
  timings.move_and_reply_hexapawn_ms = Date.now() - t0;
  const after = await sessionView(page);
  const recent = await page.$$eval('.board .cell.recent', (els) => els.map((e) => Number(e.dataset.cell)).sort((a, b) => a - b));
  const { data: reply } = await api('GET', `/api/sessions/${sessionOf(page)}/review?ply=1`);
  const from = reply.view.legal_moves.find((m) => m.move === after.log[1].move);
  assert.deepEqual(recent, [...from.cells].sort((a, b) => a - b), 'both cells of the reply');
  if (has('poggle')) {
    await openGame(page, { game: 'poggle', players: ['human'], seed: 1 });
    const p = await sessionView(page);
    await page.click(`.board [data-cell="${p.legal_moves[6].cells[0]}"] .cell-shape`);
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
    assert.equal(await page.locator('.board .cell.recent').count(), 0);
  }
  await page.close();
});

/// Regression: a defect found trying the page as a user would (issue 11).
test('tic-tac-toe reply timing; the winning line is marked', async () => {
  const page = await newPage(browser);
  await openGame(page, { game: 'tictactoe', players: ['human', 'perfect'], seed: 2 });
  const t0 = Date.now();
  await page.click('.board [data-cell="5"] .cell-shape');
  await page.waitForFunction(() => document.querySelectorAll('.board .piece:not(.leaving)').length === 2);
  timings.move_and_reply_tictactoe_ms = Date.now() - t0;
  // X has 1 and 2: 3 wins, and the line 1-2-3 is marked on the board.
  await openGame(page, { game: 'tictactoe', players: ['human', 'human'], position: 'XX./OO./... X' });
  await page.click('.board [data-cell="3"] .cell-shape');
  await page.waitForFunction(() => document.querySelectorAll('.board .cell.mark-win').length === 3);
  const won = await page.$$eval('.board .cell.mark-win', (els) => els.map((e) => Number(e.dataset.cell)).sort());
  assert.deepEqual(won, [1, 2, 3]);
  await page.close();
});
