// For every registered game: open its page, play moves by clicking the board,
// see the computer answer, undo, reload and find the game as it was.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { newPage, BASE, ARTIFACTS, sessionView, logTexts, boardState, waitForBoard, browserForFile, listedGames } from './helpers.mjs';

const { games } = await listedGames();
const browser = browserForFile();

test('the home page lists every game with a picture', async () => {
  const page = await newPage(browser);
  await page.goto(BASE + '/');
  await page.waitForSelector('.game-card');
  const names = await page.locator('.game-link').evaluateAll((as) => as.map((a) => a.dataset.game));
  assert.deepEqual(names.sort(), games.map((g) => g.name).sort());
  // Every thumbnail is drawn by the board renderer (or its fallback), none left loading.
  await page.waitForFunction(() => !document.querySelector('.thumb-placeholder'), null, { timeout: 120_000 });
  assert.equal(await page.locator('.thumb svg.board').count() + await page.locator('.thumb-fallback').count(), games.length);
  assert.equal(await page.locator('.thumb-fallback').count(), 0, 'a thumbnail failed to draw');
  await page.screenshot({ path: join(ARTIFACTS, 'home.png'), fullPage: true });
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

/// Clicks the cells of a legal move the way a user would; returns the move.
async function clickMove(page, game, view) {
  const moves = view.legal_moves.filter((m) => m.cells.length);
  assert.ok(moves.length, `${game.name}: no move can be made by clicking (legal: ${JSON.stringify(view.legal_moves.slice(0, 5))})`);
  // Vary the move with the position so repeated games do not loop.
  const move = moves[(view.log.length * 7) % moves.length];
  if (game.name === 'northcott') {
    const target = move.cells[move.cells.length - 1];
    await page.click(`.board-wrap [data-cell="${target}"] .cell-shape`, { button: view.to_move === 1 ? 'right' : 'left' });
    return move;
  }
  for (let i = 0; i < move.cells.length; i++) {
    if (i > 0) {
      const chooser = page.locator('.chooser:not([hidden])');
      if (await chooser.count()) {
        await chooser.getByRole('menuitem', { name: move.move, exact: true }).click();
        return move;
      }
      // A unique move plays at its first cell: stop when nothing is selected any more.
      if (!(await page.locator('.board-wrap .cell.selected').count())) return move;
    }
    await page.click(`.board-wrap [data-cell="${move.cells[i]}"] .cell-shape`);
    await page.waitForTimeout(60);
  }
  const chooser = page.locator('.chooser:not([hidden])');
  if (await chooser.count()) await chooser.getByRole('menuitem', { name: move.move, exact: true }).click();
  return move;
}

/// Reaction times measured here, written to artifacts/reaction-times.json.
const times = {};
after(() => writeFileSync(join(ARTIFACTS, 'reaction-times.json'), JSON.stringify(times, null, 2)));

async function waitLogChange(page, before) {
  await page.waitForFunction(
    (n) => document.querySelectorAll('.log .log-move').length !== n,
    before, { timeout: 120_000 });
  await page.waitForTimeout(500); // let the reply's animation finish
}

for (const game of games) {
  test(`${game.name}: play by clicking, computer answers, undo, reload`, { timeout: 300_000 }, async () => {
    const page = await newPage(browser);
    await page.goto(`${BASE}/game/${game.name}`);
    await waitForBoard(page);
    let view = await sessionView(page);
    // Start from a fresh game where a person is to move.
    if (view.outcome || view.log.length) {
      await page.click('button:has-text("New game")');
      await page.waitForFunction(() => !document.querySelector('.log .log-move') || document.querySelector('.turn-line.your-move'));
      view = await sessionView(page);
    }
    assert.ok(view.human_to_move, `${game.name}: a person should be to move at the start`);
    await page.waitForSelector('.turn-line.your-move');
    const twoPlayer = !game.puzzle && game.seats.length === 2;
    const computerPlays = view.seats.some((s) => s.player !== 'human');
    assert.equal(computerPlays, twoPlayer, `${game.name}: two-player games start against the computer`);

    // Two moves by clicking.
    const counts = [];
    for (let k = 0; k < 2; k++) {
      view = await sessionView(page);
      if (view.outcome || !view.human_to_move) break;
      const before = (await logTexts(page)).length;
      counts.push(before);
      const t0 = Date.now();
      const move = await clickMove(page, game, view);
      if (k === 0) {
        // Reaction time: from the click to the move and the computer's reply shown.
        const want = before + (twoPlayer ? 2 : 1);
        await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length >= n || document.querySelector('.turn-line.over, .turn-line.won, .turn-line.lost'), want, { timeout: 120_000 });
        times[`move_and_reply_${game.name}_ms`] = Date.now() - t0;
      }
      await waitLogChange(page, before);
      const after = await logTexts(page);
      const now = await sessionView(page);
      assert.ok(after.some((t) => t.includes(move.move) || t.length), `${game.name}: the move log shows the move`);
      if (twoPlayer && !now.outcome) {
        assert.ok(after.length >= before + 2, `${game.name}: the computer answered (log ${before} -> ${after.length})`);
        assert.ok(now.human_to_move, `${game.name}: back to the person after the answer`);
      }
    }
    assert.ok(counts.length >= 1, `${game.name}: no move was played`);
    await page.screenshot({ path: join(ARTIFACTS, `${game.name}.png`), fullPage: true });

    // Undo takes back the last move (and the answer to it).
    const undoable = (await sessionView(page)).can_undo;
    if (undoable) {
      const before = (await logTexts(page)).length;
      await page.click('button:has-text("Undo")');
      await waitLogChange(page, before);
      const after = (await logTexts(page)).length;
      assert.equal(after, counts[counts.length - 1], `${game.name}: undo went back to before the last move`);
    }

    // Reload: the same game, as it was.
    const log = await logTexts(page);
    const board = await boardState(page);
    const position = (await sessionView(page)).position;
    const url = page.url();
    await page.reload();
    await waitForBoard(page);
    await page.waitForTimeout(300);
    assert.equal(page.url(), url);
    assert.deepEqual(await logTexts(page), log, `${game.name}: the log survived the reload`);
    assert.deepEqual(await boardState(page), board, `${game.name}: the board survived the reload`);
    assert.equal((await sessionView(page)).position, position);
    // Reaction time of a hint: from the press to its answer shown (SameGame's runs a
    // one-second search by design).
    if (!(await sessionView(page)).outcome) {
      const t0 = Date.now();
      await page.click('button:has-text("Hint")');
      await page.waitForFunction(() => {
        const card = document.querySelector('.card-hint');
        return card && !card.hidden && card.querySelector('.hint-list').childElementCount > 0 && !/Searching/.test(card.textContent);
      }, null, { timeout: 120_000 });
      times[`hint_${game.name}_ms`] = Date.now() - t0;
    }
    assert.deepEqual(page.pageErrors, [], `${game.name}: script errors`);
    await page.close();
  });
}
