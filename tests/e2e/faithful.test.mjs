// Nothing a person did is lost or locked by a key, a stop or a link, at a phone's
// width and a desktop's: SameGame's "Let the computer play" then Stop gives the
// board back (undo, clicks and reload work); Northcott's set-ups are moves of the game (undo, redo, reload); a shared position is the
// start of the game it opens only; N asks before throwing a game away.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { api, BASE, ARTIFACTS, sessionView, sessionOf, logTexts, waitForBoard, pageAt, openSession, eventually, browserForFile, listedGames, WIDTHS, logCount } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

const waitLog = (page, n) => page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, n, { timeout: 30_000 });
const undoButton = (page) => page.locator('.board-actions button:has-text("Undo")');
const redoButton = (page) => page.locator('.board-actions button:has-text("Redo")');

for (const width of WIDTHS) {
  test(`SameGame at ${width} px: Stop gives the board back; undo, a click and a reload keep every move`, { skip: !has('samegame'), timeout: 120_000 }, async () => {
    const page = await pageAt(browser, width);
    const session = await openSession(page, { game: 'samegame', variant: 'size=10x10,seed=7', players: ['human'], seed: 1 });
    await page.click('button:has-text("Let the computer play")');
    // Stop once the computer has removed two groups.
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 2, null, { timeout: 60_000 });
    await page.click('.card button:has-text("Stop")');
    await page.locator('.card button:has-text("Stop")').waitFor({ state: 'hidden' });
    await eventually(async () => (await sessionView(page)).seats[0].player === 'human', 'the board is the person\'s again after Stop');
    await page.waitForSelector('.turn-line.your-move');
    assert.match(await page.locator('.card-extra').innerText(), /yours again/);
    let view = await sessionView(page);
    assert.equal(sessionOf(page), session.id, 'the same game');
    assert.equal(view.seats[0].player, 'human', 'the board is the person\'s again');
    assert.ok(view.human_to_move);
    assert.ok(!/thinking/i.test(await page.locator('.turn-line').innerText()));
    const played = view.log.length;
    assert.equal(await logCount(page), played);
    await page.screenshot({ path: join(ARTIFACTS, `samegame-stopped-${width}.png`), fullPage: true });

    // Undo takes back the computer's last move alone, and redo plays it again.
    assert.ok(await undoButton(page).isEnabled(), 'Undo is enabled');
    const position = view.position;
    await undoButton(page).click();
    await waitLog(page, played - 1);
    await redoButton(page).click();
    await waitLog(page, played);
    assert.equal((await sessionView(page)).position, position);

    // A click plays the person's own move.
    view = await sessionView(page);
    const move = view.legal_moves[0];
    await page.click(`.board [data-cell="${move.cells[0]}"] .cell-shape`);
    await waitLog(page, played + 1);
    const log = await logTexts(page);
    view = await sessionView(page);

    // A reload finds the same game, still the person's, every move in its list.
    await page.reload();
    await waitForBoard(page);
    assert.equal(sessionOf(page), session.id);
    assert.deepEqual(await logTexts(page), log);
    const reloaded = await sessionView(page);
    assert.equal(reloaded.position, view.position);
    assert.equal(reloaded.seats[0].player, 'human');
    await page.waitForSelector('.turn-line.your-move');
    assert.ok(await undoButton(page).isEnabled());
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  test(`SameGame at ${width} px: a board a reload left with the computer is the person's again`, { skip: !has('samegame') }, async () => {
    // What an earlier page left behind when it closed in the middle of a replay.
    const { data } = await api('POST', '/api/sessions', { game: 'samegame', variant: 'size=10x10,seed=3', players: ['human'], seed: 1 });
    const first = data.view.legal_moves[0].move;
    assert.equal((await api('POST', `/api/sessions/${data.id}/moves`, { move: first })).status, 200);
    assert.equal((await api('PUT', `/api/sessions/${data.id}/players`, { seat: 0, player: 'search' })).status, 200);
    const page = await pageAt(browser, width);
    await page.goto(`${BASE}/game/samegame?s=${data.id}&variant=${encodeURIComponent(data.view.variant)}`);
    await waitForBoard(page);
    await eventually(async () => (await sessionView(page)).seats[0].player === 'human', 'the board is the person\'s on opening');
    await page.waitForSelector('.turn-line.your-move');
    const view = await sessionView(page);
    assert.equal(view.log.length, 1, 'the move is kept');
    assert.ok(await undoButton(page).isEnabled());
    await page.close();
  });

  test(`Northcott at ${width} px: set-ups are moves for undo, redo and reload; N asks first`, { skip: !has('northcott'), timeout: 120_000 }, async () => {
    const page = await pageAt(browser, width);
    const session = await openSession(page, { game: 'northcott', players: ['human', 'nim'], seed: 2 });
    const W = Math.round(session.view.view.width);
    const rowOf = (c) => Math.floor(c / W);
    // Two moves of O, each answered by the computer.
    for (let i = 0; i < 2; i++) {
      const view = await sessionView(page);
      // An advance (a cell right of O), so some O stands off the left edge later.
      const move = view.legal_moves.find((m) => m.cells.length >= 2 && m.cells[m.cells.length - 1] > m.cells[0]) ?? view.legal_moves[0];
      await page.click(`.board [data-cell="${move.cells[move.cells.length - 1]}"] .cell-shape`);
      await waitLog(page, 2 * (i + 1));
    }
    await page.waitForSelector('.turn-line.your-move');
    let view = await sessionView(page);
    const four = view.position;
    assert.equal(view.log.length, 4);

    // (Esc with nothing selected starts again here: keyboard.test.mjs.)
    assert.ok(await undoButton(page).isEnabled());

    // N asks first; Esc keeps playing.
    await page.keyboard.press('n');
    await page.locator('.confirm-bar').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, `northcott-new-asks-${width}.png`), fullPage: true });
    await page.keyboard.press('Escape');
    await page.locator('.confirm-bar').waitFor({ state: 'detached' });
    assert.equal((await sessionView(page)).position, four);
    assert.equal(await logCount(page), 4);

    // Ctrl + a plain click between the pieces sets up the computer's X (the side the
    // person does not play), in the same game, with O still to move.
    const x = view.view.pieces.find((p) => p.owner === 1 && view.view.pieces.some((q) => q.owner === 0 && rowOf(q.cell) === rowOf(p.cell) && q.cell < p.cell - 1));
    assert.ok(x, 'a row with room between the pieces');
    await page.click(`.board [data-cell="${x.cell - 1}"] .cell-shape`, { modifiers: ['Control'] });
    await waitLog(page, 5);
    view = await sessionView(page);
    assert.equal(sessionOf(page), session.id, 'the set-up is a move of this game');
    assert.ok(view.view.pieces.some((p) => p.owner === 1 && p.cell === x.cell - 1), 'X moved');
    assert.equal(view.to_move, 0, 'O still to move');
    const setUp = view.position;
    await page.screenshot({ path: join(ARTIFACTS, `northcott-set-up-${width}.png`), fullPage: true });

    // Undo takes back the set-up alone; redo (Ctrl+Y) plays it again.
    await undoButton(page).click();
    await waitLog(page, 4);
    assert.equal((await sessionView(page)).position, four);
    await page.keyboard.press('Control+y');
    await waitLog(page, 5);
    assert.equal((await sessionView(page)).position, setUp);

    // A set-up of O, the mover's own piece, keeps O to move too.
    // (O has moved right twice, so some O stands off the left edge.)
    const o = view.view.pieces.find((p) => p.owner === 0 && p.cell % W > 0);
    assert.ok(o, 'an O off the left edge');
    await page.click(`.board [data-cell="${rowOf(o.cell) * W}"] .cell-shape`, { modifiers: ['Shift'] });
    await waitLog(page, 6);
    view = await sessionView(page);
    assert.equal(view.to_move, 0, 'O still to move after its own set-up');
    assert.ok(view.view.pieces.some((p) => p.owner === 0 && p.cell === rowOf(o.cell) * W), 'O set up at the left edge');

    // A reload finds the same game with every move and set-up.
    const log = await logTexts(page);
    const position = (await sessionView(page)).position;
    await page.reload();
    await waitForBoard(page);
    assert.equal(sessionOf(page), session.id);
    assert.deepEqual(await logTexts(page), log);
    assert.equal((await sessionView(page)).position, position);
    // Ctrl+Z after the reload still undoes.
    await page.locator('.board').click({ position: { x: 1, y: 1 } }).catch(() => {});
    await page.keyboard.press('Control+z');
    await waitLog(page, log.length - 1);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  test(`A shared position at ${width} px starts the game it opens, not the next ones`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    const usual = (await api('POST', '/api/sessions', { game: 'tictactoe', players: ['human', 'human'] })).data.view.position;
    // A position two moves in, as a shared link gives it.
    const { data } = await api('POST', '/api/sessions', { game: 'tictactoe', players: ['human', 'human'], seed: 1 });
    let v = data.view;
    for (let i = 0; i < 2; i++) v = (await api('POST', `/api/sessions/${data.id}/moves`, { move: v.legal_moves[0].move })).data.view;
    const shared = v.position;
    assert.notEqual(shared, usual);
    await page.goto(`${BASE}/game/tictactoe?position=${encodeURIComponent(shared)}`);
    await waitForBoard(page);
    assert.equal((await sessionView(page)).position, shared, 'the link opens its position');
    // New game: the usual start.
    const startsAt = (p) => eventually(async () => sessionOf(page) && (await sessionView(page)).position === p, `the position ${p}`);
    await page.click('.board-actions button:has-text("New game")');
    await startsAt(usual);
    // ... and the next one too, after a move.
    const view = await sessionView(page);
    await page.click(`.board [data-cell="${view.legal_moves[0].cells[0]}"] .cell-shape`);
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 1);
    await page.click('.board-actions button:has-text("New game")');
    await startsAt(usual);

    // Open the link again, then "The usual game" and the home page's link.
    await page.goto(`${BASE}/game/tictactoe?position=${encodeURIComponent(shared)}`);
    await waitForBoard(page);
    assert.equal((await sessionView(page)).position, shared);
    await page.click('button:has-text("The usual game")');
    await startsAt(usual);
    await page.goto(`${BASE}/game/tictactoe?position=${encodeURIComponent(shared)}`);
    await waitForBoard(page);
    const id = sessionOf(page);
    // From the home page: the game in progress (the shared one) goes on where it was;
    // its New game is the usual one.
    await page.goto(`${BASE}/`);
    await page.click('a.game-link[data-game="tictactoe"]');
    await waitForBoard(page);
    assert.equal(sessionOf(page), id, 'the game in progress');
    await page.click('.board-actions button:has-text("New game")');
    await startsAt(usual);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}
