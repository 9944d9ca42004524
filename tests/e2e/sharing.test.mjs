// Sharing a game: the Share link and the Game ID carry the moves played (a dealt
// board by its number, the rolls of a dice game included), so whoever opens them
// gets the same game to look back through; entering an ID, and the game as text
// (exported, and pasted back to start from).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, WIDTHS, api, sessionOf, sessionView, logTexts, waitForBoard, pageAt, openSession, eventually, browserForFile, listedGames } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

/// Clicks Share and returns the link it copied.
async function sharedLink(page) {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.click('.board-actions button:has-text("Share")');
  await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0);
  return page.evaluate(() => navigator.clipboard.readText());
}

/// Plays moves by clicking their cells, waiting for each to reach the move list.
async function clickMoves(page, n) {
  for (let i = 0; i < n; i++) {
    const v = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
    const m = v.legal_moves[(i * 5 + 2) % v.legal_moves.length];
    const before = await page.locator('.log .log-move').count();
    for (const c of m.cells) await page.click(`.board [data-cell="${c}"] .cell-shape`);
    await page.waitForFunction((k) => document.querySelectorAll('.log .log-move').length > k, before);
  }
}

/// The session a page shows once it has settled on one (after a navigation).
async function settledView(page) {
  try {
    const id = sessionOf(page);
    if (!id) return null;
    const { status, data } = await api('GET', `/api/sessions/${id}`);
    return status === 200 ? data.view : null;
  } catch {
    return null;
  }
}

for (const width of WIDTHS) {
  test(`Share at ${width} px keeps the moves: the link replays them, and the receiver can review the game`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
    await clickMoves(page, 3);
    const now = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
    const link = await sharedLink(page);
    assert.match(link, /[?&]moves=/, `the link holds the moves: ${link}`);
    assert.doesNotMatch(link, /position=/, `a game from the usual start needs no position: ${link}`);
    const other = await pageAt(browser, width);
    await other.goto(link);
    await waitForBoard(other);
    // The receiver's computer may answer the last move (its usual players).
    await other.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 3);
    assert.deepEqual((await logTexts(other)).slice(0, 3), await logTexts(page), 'the same moves in the list');
    assert.equal((await api('GET', `/api/sessions/${sessionOf(other)}/review?ply=3`)).data.view.position, now.position, 'the same position after them');
    // The receiver looks back at the first move.
    await other.locator('.log .log-move').first().click();
    await other.waitForSelector('.review-bar:not([hidden])');
    assert.match(await other.locator('.review-where').textContent(), /After move 1 of/);
    assert.deepEqual([...page.pageErrors, ...other.pageErrors], []);
    await other.close();
    await page.close();
  });

  test(`Share at ${width} px of a game begun from a shared position keeps that start and the moves after it`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    const start = (await api('POST', '/api/sessions', { game: 'tictactoe', players: ['human', 'human'], moves: ['5', '1'] })).data.view.position;
    await page.goto(`${BASE}/game/tictactoe?position=${encodeURIComponent(start)}`);
    await waitForBoard(page);
    await clickMoves(page, 1);
    const played = await page.locator('.log .log-move').count();
    const link = await sharedLink(page);
    assert.match(link, /[?&]position=/, link);
    assert.match(link, /[?&]moves=/, link);
    const other = await pageAt(browser, width);
    await other.goto(link);
    await waitForBoard(other);
    await other.waitForFunction((n) => document.querySelectorAll('.log .log-move').length >= n, played);
    const id = sessionOf(other);
    assert.equal((await api('GET', `/api/sessions/${id}/review?ply=0`)).data.view.position, start, 'the game starts where the shared one did');
    assert.deepEqual([...page.pageErrors, ...other.pageErrors], []);
    await other.close();
    await page.close();
  });
}

/// Regression: what a new player still tripped over after the first fixes.
test('A dealt board\'s game ID reads "Game N", and Enter a game ID takes it back', async () => {
  const page = await pageAt(browser, 1280);
  const s = await openSession(page, { game: 'samegame', variant: 'seed=133426806', players: ['human'] });
  await eventually(async () => (await page.locator('.game-id').inputValue()) === 'Game 133426806', 'the ID in words');
  const record = await page.locator('.record-text').inputValue();
  assert.match(record, /^Variant: Game 133426806$/m, record);
  assert.doesNotMatch(record, /seed=/, record);
  // One move on: the ID names the board and the move.
  await page.click(`.board [data-cell="${s.view.legal_moves[0].cells[0]}"] .cell-shape`);
  await eventually(async () => (await logTexts(page)).length === 1, 'the move listed');
  const now = await sessionView(page);
  await eventually(async () => (await page.locator('.game-id').inputValue()).startsWith('Game 133426806#'), 'the ID with its move');
  const id = await page.locator('.game-id').inputValue();
  // What is shown is what the box takes: on a fresh page, the board alone and the board with its move.
  const other = await pageAt(browser, 390);
  for (const [entered, position] of [['Game 133426806', s.view.position], [id, now.position]]) {
    await other.goto(`${BASE}/game/samegame`);
    await waitForBoard(other);
    const before = sessionOf(other);
    await other.locator('.enter-id').fill(entered);
    await other.locator('.id-form button').click();
    await eventually(async () => sessionOf(other) !== before && (await settledView(other))?.position === position, `"${entered}" opens that game`, 30_000);
  }
  assert.deepEqual([...page.pageErrors, ...other.pageErrors], []);
  await other.close();
  await page.close();
});

for (const game of ['pig', 'auto120']) {
  /// Regression: what a new player still tripped over after the first fixes.
  test(`${game}: a game ID replays the same rolls`, { timeout: 90_000 }, async () => {
    const { data } = await api('POST', '/api/sessions', { game, players: ['human', 'human'], seed: 11 });
    // Play on until several rolls were made (each choice the first move offered).
    let view = data.view;
    for (let i = 0; i < 12 && !view.outcome; i++) {
      const r = await api('POST', `/api/sessions/${data.id}/moves`, { move: view.legal_moves[0].move });
      assert.equal(r.status, 200, JSON.stringify(r.data));
      view = r.data.view;
    }
    const page = await pageAt(browser, 1280);
    await page.goto(`${BASE}/game/${game}?s=${data.id}`);
    await waitForBoard(page);
    await eventually(async () => (await page.locator('.game-id').inputValue()).includes('#'), 'the game ID');
    const id = await page.locator('.game-id').inputValue();
    const log = await logTexts(page);
    const other = await pageAt(browser, 390);
    await other.goto(`${BASE}/game/${game}`);
    await waitForBoard(other);
    const before = sessionOf(other);
    await other.locator('.enter-id').fill(id);
    await other.locator('.id-form button').click();
    await eventually(async () => sessionOf(other) !== before && (await settledView(other))?.position === view.position, `${game}: the ID "${id}" opens the same game`, 30_000);
    const replayed = await settledView(other);
    assert.deepEqual(replayed.log.map((e) => e.text), view.log.map((e) => e.text), 'the same rolls, in the same order');
    await waitForBoard(other);
    await eventually(async () => (await logTexts(other)).join('|') === log.join('|'), 'the same move list on the page');
    assert.deepEqual([...page.pageErrors, ...other.pageErrors], []);
    await other.close();
    await page.close();
  });
}

/// Simon Tatham's short game IDs and "enter game ID"; lichess's import and
/// export of a game as text.
test('Short game IDs: a SameGame link names its board number and moves, not its board, and Enter a game ID opens it', async () => {
  const page = await pageAt(browser, 1280);
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  const s = await openSession(page, { game: 'samegame', variant: 'seed=9', players: ['human'] });
  for (let i = 0; i < 2; i++) {
    const v = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
    await page.click(`.board [data-cell="${v.legal_moves[0].cells[0]}"] .cell-shape`);
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, i + 1);
  }
  const now = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
  await page.click('.board-actions button:has-text("Share")');
  await page.waitForSelector('.toast');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(link.length < 120, `a short link: ${link}`);
  assert.doesNotMatch(link, /position=/, link);
  assert.match(link, /seed%3D9/, link);
  // The link opens that very game, its two moves in the list (undoable).
  const other = await pageAt(browser, 390);
  await other.goto(link);
  await waitForBoard(other);
  await other.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 2);
  assert.equal((await api('GET', `/api/sessions/${sessionOf(other)}`)).data.view.position, now.position);
  // The game ID in the card, entered on a fresh page of the game.
  const id = await page.locator('.game-id').inputValue();
  assert.ok(id.length < 60 && id.startsWith('Game 9#'), id);
  await other.goto(`${BASE}/game/samegame`);
  await waitForBoard(other);
  await other.locator('.enter-id').fill(id);
  await other.locator('.id-form button').click();
  await other.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 2);
  await waitForBoard(other);
  assert.equal((await api('GET', `/api/sessions/${sessionOf(other)}`)).data.view.position, now.position);
  assert.notEqual(sessionOf(other), s.id);
  assert.deepEqual([...page.pageErrors, ...other.pageErrors], []);
  await other.close();
  await page.close();
});

/// Regression: what a new player tripped over in the browser.
test('A game as text: exported, and pasted back (a record or a position) to start from', async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
  for (const [i, c] of [5, 1, 9].entries()) {
    await page.click(`.board [data-cell="${c}"] .cell-shape`);
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, i + 1);
  }
  const played = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
  const text = await page.locator('.record-text').inputValue();
  assert.match(text, /Moves:\n1\. 5\n2\. 1\n3\. 9$/, text);
  // Pasted back on a new game: the same three moves, undoable one by one.
  // (The page may still be taking the last move in: New game waits for it.)
  await eventually(async () => {
    await page.click('.board-actions button:has-text("New game")');
    await page.waitForTimeout(300);
    return (await page.locator('.log .log-move').count()) === 0;
  }, 'a new game');
  await page.locator('.import-text').fill(text);
  await page.locator('.import-form button').click();
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 3);
  assert.equal((await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view.position, played.position);
  // A position pasted alone is the start of a game.
  await page.locator('.import-text').fill(played.position);
  await page.locator('.import-form button').click();
  await page.waitForFunction(() => !document.querySelector('.log .log-move'));
  const fromPosition = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
  assert.equal(fromPosition.position, played.position);
  // A move that cannot be played is refused in words, and nothing starts.
  const before = sessionOf(page);
  await page.locator('.import-text').fill('Moves:\n1. 5\n2. 5');
  await page.locator('.import-form button').click();
  await page.waitForSelector('.import-note .tool-error');
  assert.match(await page.locator('.import-note').textContent(), /Move 2 \(5\) cannot be played/);
  assert.equal(sessionOf(page), before);
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

for (const width of WIDTHS) {
  /// Regression: a new player's walk through every page.
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
