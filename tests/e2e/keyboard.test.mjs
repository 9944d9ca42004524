// The keyboard: a whole game played with the keyboard alone (Tab to the board, the
// arrow keys, Enter), Flip (F), the list of every key (?), and Esc: it cancels, and
// in a game that declares Esc its new game (Northcott's slides) it puts the pieces
// back, Undo bringing the old game back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, ARTIFACTS, newPage, api, sessionOf, sessionView, logTexts, waitForBoard, pageAt, openSession, browserForFile, listedGames, WIDTHS, logCount, eventually } from './helpers.mjs';

const { has } = await listedGames();
const boardGames = ['tictactoe', 'hexapawn'].filter(has);
const browser = browserForFile();

async function tabToBoard(page) {
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.classList?.contains('board'))) return;
  }
  assert.fail('the board cannot be reached with Tab');
}

test('a board game for keyboard play is registered', () => {
  assert.ok(boardGames.length >= 1);
});

for (const name of boardGames) {
  test(`${name}: keyboard-only play`, { timeout: 120_000 }, async () => {
    const page = await newPage(browser);
    await page.goto(`${BASE}/game/${name}`);
    await waitForBoard(page);
    let view = await sessionView(page);
    if (view.log.length || view.outcome) {
      await page.keyboard.press('n');
      // A game in progress asks first.
      if (view.log.length && !view.outcome) await page.click('.confirm-bar button:has-text("Start a new game")');
      await page.waitForFunction(() => !document.querySelector('.log .log-move'));
      view = await sessionView(page);
    }
    await tabToBoard(page);
    await page.waitForSelector('.board .cursor[visibility=visible]');

    // Walk the cursor with arrows to the first cell of a legal move, then Enter
    // (and on to its second cell when the first one selects).
    const move = view.legal_moves[0];
    for (const target of move.cells) {
      const cursorCell = async () => page.evaluate(() => {
        const c = document.querySelector('.board .cursor');
        const x = Number(c.getAttribute('x')) + Number(c.getAttribute('width')) / 2;
        const y = Number(c.getAttribute('y')) + Number(c.getAttribute('height')) / 2;
        for (const g of document.querySelectorAll('.board [data-cell]')) {
          const s = g.querySelector('.cell-shape');
          const bx = Number(s.getAttribute('x')) + Number(s.getAttribute('width')) / 2;
          const by = Number(s.getAttribute('y')) + Number(s.getAttribute('height')) / 2;
          if (Math.abs(bx - x) < 1 && Math.abs(by - y) < 1) return Number(g.dataset.cell);
        }
        return null;
      });
      const centre = async (id) => page.evaluate((id) => {
        const s = document.querySelector(`.board [data-cell="${id}"] .cell-shape`);
        return [Number(s.getAttribute('x')), Number(s.getAttribute('y'))];
      }, id);
      for (let steps = 0; steps < 12; steps++) {
        const at = await cursorCell();
        if (at === target) break;
        const [ax, ay] = await centre(at);
        const [tx, ty] = await centre(target);
        if (Math.abs(tx - ax) > 1) await page.keyboard.press(tx > ax ? 'ArrowRight' : 'ArrowLeft');
        else await page.keyboard.press(ty > ay ? 'ArrowDown' : 'ArrowUp');
      }
      assert.equal(await cursorCell(), target, 'the cursor reached the cell');
      const before = (await logTexts(page)).length;
      await page.keyboard.press('Enter');
      await page.waitForTimeout(150);
      if ((await logTexts(page)).length !== before || !(await page.locator('.board .cell.selected').count())) break;
    }
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 2, null, { timeout: 60_000 });
    const log = await logTexts(page);
    assert.ok(log.length >= 2, 'the move and the computer reply are logged');
    await page.waitForSelector('.turn-line.your-move');
    await page.screenshot({ path: join(ARTIFACTS, `${name}-keyboard.png`) });

    // Undo with the keyboard.
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => !document.querySelector('.log .log-move'), null, { timeout: 30_000 });
    assert.equal((await sessionView(page)).log.length, 0);
    // Redo with the keyboard.
    await page.keyboard.press('Control+y');
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, log.length, { timeout: 30_000 });
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

/// lichess's flip and `?`: the board turned half round (clicks still play the
/// cell clicked), kept through a reload; `?` lists every key.
test('Flip the board, and ? lists the keyboard shortcuts', async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'hexapawn', players: ['human', 'human'] });
  const at = (id) => page.evaluate((c) => {
    const r = document.querySelector(`.board [data-cell="${c}"] .cell-shape`).getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }, id);
  const [a0, b0] = [await at(1), await at(9)];
  assert.ok(a0.y !== b0.y && a0.x !== b0.x, 'squares 1 and 9 are opposite corners');
  const above = (a, b) => Math.sign(a.y - b.y);
  const left = (a, b) => Math.sign(a.x - b.x);
  await page.click('.board-actions button:has-text("Flip board")');
  const [a1, b1] = [await at(1), await at(9)];
  assert.ok(above(a1, b1) === -above(a0, b0) && left(a1, b1) === -left(a0, b0), 'flipped: the corners change places');
  // A click still plays the cell clicked.
  const move = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view.legal_moves[0];
  for (const c of move.cells) await page.click(`.board [data-cell="${c}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
  await page.reload();
  await waitForBoard(page);
  const [a2, b2] = [await at(1), await at(9)];
  assert.ok(above(a2, b2) === -above(a0, b0), 'still flipped after a reload');
  await page.keyboard.press('f');
  const [a3, b3] = [await at(1), await at(9)];
  assert.ok(above(a3, b3) === above(a0, b0), 'F flips it back');
  // ? opens the list of keys; Esc closes it and leaves the game as it was.
  await page.locator('h1').click();
  await page.keyboard.press('?');
  const dialog = page.locator('dialog.shortcuts');
  await dialog.waitFor({ state: 'visible' });
  const text = await dialog.textContent();
  for (const key of ['Ctrl+Z', 'Esc', 'flip the board', 'hint', 'new game']) assert.ok(text.includes(key), `${key} in: ${text}`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await page.locator('.log .log-move').count(), 1);
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

const waitLog = (page, n) => page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, n, { timeout: 30_000 });
const undoButton = (page) => page.locator('.board-actions button:has-text("Undo")');

for (const width of WIDTHS) {
  test(`Esc at ${width} px: where the game's program restarted with Esc (Northcott), a new game that Undo takes back; elsewhere it only cancels`, { skip: !has('northcott') || !has('tictactoe'), timeout: 120_000 }, async () => {
    const page = await pageAt(browser, width);
    const first = await openSession(page, { game: 'northcott', players: ['human', 'nim'], seed: 2 });
    const start = first.view.position;
    const move = first.view.legal_moves.find((m) => m.cells[m.cells.length - 1] > m.cells[0]) ?? first.view.legal_moves[0];
    await page.click(`.board [data-cell="${move.cells[move.cells.length - 1]}"] .cell-shape`);
    await waitLog(page, 2);
    await page.waitForSelector('.turn-line.your-move');
    const played = (await sessionView(page)).position;
    assert.notEqual(played, start);

    // The list of keys says what Esc does here; Esc closes it and does nothing more.
    await page.locator('h1').click();
    await page.keyboard.press('?');
    const dialog = page.locator('dialog.shortcuts');
    await dialog.waitFor({ state: 'visible' });
    assert.match(await dialog.textContent(), /the pieces back for a new game/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForTimeout(400);
    assert.equal(sessionOf(page), first.id, 'Esc that closed the list started nothing');
    assert.equal(await logCount(page), 2);

    // Esc with nothing to cancel: the pieces back, in a new game; the old one untouched.
    await page.keyboard.press('Escape');
    await eventually(async () => sessionOf(page) !== first.id, 'a new game after Esc');
    await waitLog(page, 0);
    const fresh = await sessionView(page);
    assert.equal(fresh.position, start, 'the pieces are back at the start');
    assert.equal(fresh.seats[1].player, 'nim', 'the same players');
    assert.match((await page.locator('.toast').allTextContents()).join(' '), /Undo brings the last game back/);
    const kept = (await api('GET', `/api/sessions/${first.id}`)).data.view;
    assert.equal(kept.position, played, 'the old game is kept as it was left');
    assert.equal(kept.log.length, 2);
    assert.ok(await undoButton(page).isEnabled(), 'Undo can bring the old game back');
    await page.screenshot({ path: join(ARTIFACTS, `escape-starts-again-${width}.png`), fullPage: true });

    // Undo (Ctrl+Z) at the new start: the old game, its moves and position.
    await page.keyboard.press('Control+z');
    await eventually(async () => sessionOf(page) === first.id, 'the old game back after Undo');
    await waitLog(page, 2);
    assert.equal((await sessionView(page)).position, played);
    // Esc in review goes back to the game, not to a new one.
    await page.locator('.log .log-move').first().click();
    await page.locator('.review-bar').waitFor({ state: 'visible' });
    await page.locator('h1').click();
    await page.keyboard.press('Escape');
    await page.waitForTimeout(400);
    await page.locator('.review-bar').waitFor({ state: 'hidden' });
    assert.equal(sessionOf(page), first.id, 'Esc left the review, not the game');

    // A game that does not declare it: Esc leaves the game as it is.
    const other = await openSession(page, { game: 'tictactoe', players: ['human', 'random'], seed: 3 });
    await page.click(`.board [data-cell="${other.view.legal_moves[0].cells[0]}"] .cell-shape`);
    await waitLog(page, 2);
    await page.locator('h1').click();
    await page.keyboard.press('Escape');
    await page.waitForTimeout(500);
    assert.equal(sessionOf(page), other.id, 'tic-tac-toe keeps its game');
    assert.equal(await logCount(page), 2);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}
