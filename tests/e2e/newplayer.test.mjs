// What a new player tripped over in the browser (items 2 to 7 of the review) and
// what the sites players like do: one test per item, each failing on the page as
// it was before the fix.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, ARTIFACTS, pageAt, openSession, api, logTexts, eventually, waitForBoard, sessionOf, browserForFile, WIDTHS } from './helpers.mjs';

const browser = browserForFile();

/// Item 4: words meant for programmers, each replaced by the game's or the
/// server's words for a player.
test('4: moves, reasons and refusals are in a player\'s words', async () => {
  const page = await pageAt(browser, 1280);
  // Nim's hint names each move in words, not "1:3->2"; a game without pieces is
  // not asked to select one.
  await openSession(page, { game: 'nim', players: ['human', 'perfect'], seed: 3 });
  await page.getByRole('button', { name: 'Hint', exact: true }).click();
  await page.waitForSelector('.hint-move-name');
  const names = await page.locator('.hint-move-name').allTextContents();
  assert.ok(names.length > 0);
  for (const n of names) assert.match(n, /^take \d+ from heap \d+, leaving \d+$/, `Nim's move named "${n}"`);
  assert.doesNotMatch(await page.locator('.hint-list').textContent(), /Select a piece/);

  // The computer's reason: "level 10: perfect play, drawing", not "level 10: perfect: draw".
  const ttt = await openSession(page, { game: 'tictactoe', players: ['human', 'level:10'], seed: 5 });
  await api('POST', `/api/sessions/${ttt.id}/moves`, { move: '5' });
  await page.reload();
  await waitForBoard(page);
  const log = (await logTexts(page)).join(' | ') + (await page.locator('.log').textContent());
  assert.doesNotMatch(log, /perfect: (draw|win|loss)|: random\b/, log);
  assert.match(log, /level 10: (a random move|perfect play, (drawing|winning|losing))/, log);

  // A refused variant names its option as the form does.
  await page.goto(`${BASE}/game/kono?variant=nocapture%3Dabc`);
  await page.waitForFunction(() => /abc/.test(document.querySelector('main').textContent), null, { timeout: 15_000 });
  const refusal = await page.locator('main').textContent();
  assert.match(refusal, /draw after quiet moves/, refusal);
  assert.doesNotMatch(refusal, /bad value|for option 'nocapture'/, refusal);
  await page.goto(`${BASE}/game/samegame?variant=size%3D500x3`);
  await page.waitForFunction(() => /500/.test(document.querySelector('main').textContent), null, { timeout: 15_000 });
  assert.doesNotMatch(await page.locator('main').textContent(), /\.\.=/);

  // Kono's rules help names no program; Northcott's computer reads as play.
  const { data: kono } = await api('GET', '/api/games/kono');
  assert.doesNotMatch(kono.options.find((o) => o.name === 'rules').help, /gamesman:/);
  const { data: northcott } = await api('GET', '/api/games/northcott');
  const words = northcott.players.map((p) => p.words).join(' | ');
  assert.doesNotMatch(words, /computer's computer|program's computer/, words);
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

test('4: a game watched to its end and then joined does not say "You lost"', async () => {
  const { data } = await api('POST', '/api/sessions', { game: 'tictactoe', players: ['random', 'random'], seed: 11 });
  let view = data.view;
  for (let i = 0; i < 12 && !view.outcome; i++) view = (await api('POST', `/api/sessions/${data.id}/step`)).data.view;
  assert.ok(view.outcome, 'the watched game ended');
  await api('PUT', `/api/sessions/${data.id}/players`, { seat: view.outcome.kind === 'win' ? 1 - view.outcome.seat : 0, player: 'human' });
  const page = await pageAt(browser, 1280);
  await page.goto(`${BASE}/game/tictactoe?s=${data.id}`);
  await waitForBoard(page);
  const status = (await page.locator('.turn-line').textContent()).trim();
  assert.doesNotMatch(status, /^You (lost|won)/, status);
  assert.match(status, /wins|Draw/, status);
  await page.close();
});

/// Item 2: Hexapawn's matchbox beads named in words; the training summary names
/// its opponent in words.
test('2: Hexapawn\'s beads are moves in words, and training says whom it played', async () => {
  const page = await pageAt(browser, 1280);
  const s = await openSession(page, { game: 'hexapawn', players: ['human', 'matchbox'], seed: 2 });
  await api('POST', `/api/sessions/${s.id}/moves`, { move: s.view.legal_moves[0].move });
  await page.reload();
  await waitForBoard(page);
  await page.waitForSelector('.bead-legend li span:not(.swatch)');
  const beads = await page.locator('.bead-legend li span:not(.swatch)').allTextContents();
  assert.ok(beads.length > 0);
  for (const b of beads) assert.match(b, /^the pawn on \d+ (moves to|takes the pawn on) \d+$/, `bead "${b}"`);
  const card = page.locator('section.card', { hasText: 'Watch it learn' });
  await card.locator('select[aria-label="Training games"]').selectOption('50');
  await card.getByRole('button', { name: 'Train', exact: true }).click();
  await eventually(async () => /trained for 50 games/.test(await card.textContent()), 'the training summary', 30_000);
  const text = await card.textContent();
  assert.doesNotMatch(text, /against random/, text);
  assert.match(text, /against a random player/, text);
  await eventually(async () => sessionOf(page) !== s.id, 'a game against the trained machine');
  await page.close();
});

test('2: Tic-tac-toe\'s learning card explains the machine you play, and Train keeps your side', async () => {
  const page = await pageAt(browser, 1280);
  // The usual opponent is Gardner's machine: the card explains it, not MENACE.
  await openSession(page, { game: 'tictactoe', players: ['human', 'matchbox'], seed: 4 });
  const card = page.locator('section.card', { hasText: 'Watch it learn' });
  await eventually(async () => /You are playing/.test(await card.textContent()), 'the card names the machine');
  const about = await card.locator('p.small').first().textContent();
  assert.doesNotMatch(about, /^MENACE/, about);
  // Against a computer that does not learn, Train trains MENACE in the computer's
  // seat: you still play X.
  await openSession(page, { game: 'tictactoe', players: ['human', 'level:66'], seed: 4 });
  await card.locator('select[aria-label="Training games"]').selectOption('50');
  await card.getByRole('button', { name: 'Train', exact: true }).click();
  await eventually(async () => /trained for 50 games/.test(await card.textContent()), 'the training summary', 30_000);
  await eventually(async () => {
    const v = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data?.view;
    return v && v.seats[1].player.startsWith('menace');
  }, 'a game against the trained machine');
  const { data } = await api('GET', `/api/sessions/${sessionOf(page)}`);
  assert.equal(data.view.seats[0].human, true, 'you still play X');
  assert.equal(data.view.seats[1].human, false);
  await page.close();
});

/// Item 5: selecting a Kono piece lists that piece's moves, every one the board
/// draws, and no other piece's.
test('5: Kono: selecting a piece lists its own moves and only those', async () => {
  const page = await pageAt(browser, 1280);
  const s = await openSession(page, { game: 'kono', players: ['human', 'human'], position: '.xxx/xxox/xooo/oo.o x' });
  let hint;
  await eventually(async () => {
    hint = (await api('GET', `/api/sessions/${s.id}/hint`)).data;
    return (hint?.analysis?.moves || []).some((m) => m.grade?.value || m.value);
  }, 'Kono\'s graded moves', 180_000);
  await page.click('.board-actions button:has-text("Hint")');
  await page.waitForSelector('.hint-move');
  // A piece with two moves or more.
  const byStart = new Map();
  for (const m of s.view.legal_moves) byStart.set(m.cells[0], [...(byStart.get(m.cells[0]) || []), m]);
  const [start, own] = [...byStart].find(([, ms]) => ms.length >= 2);
  await page.click(`.board [data-cell="${start}"] .cell-shape`);
  await eventually(async () => (await page.locator('.hint-move').count()) === own.length, `${own.length} moves listed`);
  const listed = (await page.locator('.hint-move-name').allTextContents()).sort();
  const expected = own.map((m) => m.words || m.move).sort();
  assert.deepEqual(listed, expected, 'the selected piece\'s moves, all of them');
  // Selecting nothing lists every move again.
  await page.keyboard.press('Escape');
  await eventually(async () => (await page.locator('.hint-move').count()) === hint.analysis.moves.length, 'every move listed again');
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

/// Item 7: toasts, stale answers, "Your move" while the computer searches,
/// Restart on a shared link, move names that wrap.
test('7: Poggle\'s next button is said in its card, not in a toast, and goes with the position', async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'poggle', players: ['human'] });
  const card = page.locator('section.card', { hasText: 'Solution' });
  const next = card.getByRole('button', { name: /next\?$/ });
  await eventually(async () => !(await next.isDisabled()), 'the solution is known');
  await next.click();
  const said = card.locator('.next-press');
  await eventually(async () => /Press the lit button next/.test(await said.textContent()) && await said.isVisible(), 'the card says which button');
  assert.equal(await page.locator('#toasts .toast').count(), 0, 'no toast over the card');
  // Pressing it: the words go with the position they were about.
  const lit = await page.evaluate(() => [...document.querySelectorAll('.board [data-cell].hinted, .board [data-cell].hint')].map((g) => g.dataset.cell));
  const cell = lit[0] ?? (await page.locator('.board [data-cell]').first().getAttribute('data-cell'));
  await page.click(`.board [data-cell="${cell}"] .cell-shape`);
  await eventually(async () => !(await said.isVisible()), 'the old answer is gone after a press');
  await page.close();
});

test('7: a tool\'s answer goes when its input is emptied', async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'pig', players: ['human', 'human'] });
  const input = page.locator('.tool-input').first();
  await input.fill('30 40');
  await input.press('Enter');
  const answer = page.locator('.tool-answer').first();
  await eventually(async () => (await answer.textContent()).trim().length > 0, 'an answer');
  await input.fill('');
  await eventually(async () => (await answer.textContent()).trim() === '', 'no answer for an empty input');
  await page.close();
});

test('7: SameGame does not say "Your move" while the computer searches', async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'samegame', variant: 'seed=7', players: ['human'] });
  const card = page.locator('section.card', { hasText: 'Let the computer play' });
  await card.locator('select[aria-label="Search time"]').selectOption('5');
  await card.getByRole('button', { name: 'Let the computer play' }).click();
  await page.waitForTimeout(500);
  const status = (await page.locator('.turn-line').textContent()).trim();
  assert.doesNotMatch(status, /Your move/, status);
  assert.match(status, /searching/, status);
  await card.getByRole('button', { name: 'Stop' }).click();
  await eventually(async () => /Your move/.test(await page.locator('.turn-line').textContent()), 'the board is yours again');
  await page.close();
});

test('7 and Restart: Restart in every game goes back to this game\'s start, a shared position\'s too', async () => {
  const page = await pageAt(browser, 1280);
  // A SameGame link carrying a position: Restart goes back to that position.
  const s = await openSession(page, { game: 'samegame', variant: 'seed=9', players: ['human'] });
  const move = s.view.legal_moves[0];
  await page.click(`.board [data-cell="${move.cells[0]}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
  const shared = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view.position;
  await page.goto(`${BASE}/game/samegame?variant=seed%3D9&position=${encodeURIComponent(shared)}`);
  await waitForBoard(page);
  const opened = (await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view;
  assert.equal(opened.position, shared);
  const next = opened.legal_moves[0];
  await page.click(`.board [data-cell="${next.cells[0]}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
  await page.click('.board-actions button:has-text("Restart")');
  await page.waitForFunction(() => !document.querySelector('.log .log-move'));
  assert.equal((await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view.position, shared, 'the shared position again');
  // Tic-tac-toe has Restart too.
  await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
  await page.click('.board [data-cell="5"] .cell-shape');
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
  await page.click('.board-actions button:has-text("Restart")');
  await page.waitForFunction(() => !document.querySelector('.log .log-move'));
  await page.close();
});

test('7: Northcott\'s moves are named whole on a phone', async () => {
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

/// Item 6 and the value chart's axes: a 300-move game's chart is under the board,
/// readable (at least 8 px a move, ticks at their size), scrolls inside itself, and
/// shows remoteness on an axis of its own.
/// One 300-move game (made once, for both widths).
let longGame = null;
async function makeLongGame() {
  const { data } = await api('POST', '/api/sessions', { game: 'nim', variant: 'heaps=150-150', players: ['human', 'human'] });
  const heaps = [150, 150];
  for (let i = 0; i < 300; i++) {
    const k = i % 2;
    const r = await api('POST', `/api/sessions/${data.id}/moves`, { move: `${k + 1}:${heaps[k]}->${heaps[k] - 1}` });
    assert.equal(r.status, 200, JSON.stringify(r.data));
    heaps[k] -= 1;
  }
  return data.id;
}

for (const width of WIDTHS) {
  test(`6: a 300-move game has a readable value chart under the board at ${width} px, with remoteness on its axis`, async () => {
    longGame ||= makeLongGame();
    const id = await longGame;
    const page = await pageAt(browser, width);
    await page.goto(`${BASE}/game/nim?s=${id}&variant=heaps%3D150-150`);
    await waitForBoard(page);
    await page.waitForSelector('.value-chart:not([hidden]) svg .value-hit', { timeout: 60_000 });
    const m = await page.evaluate(() => {
      const chart = document.querySelector('.value-chart');
      const hits = [...chart.querySelectorAll('.value-hit')];
      const tick = chart.querySelector('.tick-x').getBoundingClientRect();
      const board = document.querySelector('.board-wrap').getBoundingClientRect();
      const scroller = chart.querySelector('.value-scroll');
      return {
        hits: hits.length,
        perMove: hits[1].getBoundingClientRect().width,
        tick: tick.height,
        underBoard: chart.getBoundingClientRect().top >= board.bottom - 1,
        scrolls: scroller.scrollWidth > scroller.clientWidth,
        pageWide: document.scrollingElement.scrollWidth > window.innerWidth + 1,
        remoteness: [...chart.querySelectorAll('.tick-r')].map((t) => t.textContent),
        labels: [...chart.querySelectorAll('.axis-label')].map((t) => t.textContent),
      };
    });
    assert.equal(m.hits, 301);
    assert.ok(m.perMove >= 8, `${m.perMove} px a move`);
    assert.ok(m.tick >= 9, `ticks ${m.tick} px high`);
    assert.ok(m.underBoard, 'under the board');
    assert.ok(m.scrolls, 'the chart scrolls inside itself');
    assert.ok(!m.pageWide, 'the page does not scroll sideways');
    assert.ok(m.remoteness.length >= 4 && m.remoteness.includes('0'), m.remoteness.join(' '));
    assert.ok(m.labels.some((l) => /plies to the end/.test(l)), m.labels.join(' | '));
    await page.screenshot({ path: join(ARTIFACTS, `newplayer-chart-${width}.png`) });
    await page.close();
  });
}

/// GamesmanUni's "show move values" (and lichess's analysis of the reviewed
/// position): on, it stays on across moves and reloads, the move list is coloured
/// by value, and a reviewed position is graded too.
test('Show move values stays on across moves, colours the move list and grades the reviewed position', async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
  const marks = () => page.locator('.board .move-value').count();
  await page.locator('.values-switch input').check();
  await eventually(async () => (await marks()) === 9, 'nine moves graded on the board');
  for (const [i, c] of [5, 2].entries()) {
    await page.click(`.board [data-cell="${c}"] .cell-shape`);
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, i + 1);
    // Still on after the move: no Hint pressed.
    await eventually(async () => (await marks()) === 8 - i, `${8 - i} moves graded after move ${i + 1}`);
  }
  assert.equal(await page.locator('.hint-moves li').count(), 7, 'the list too');
  // The move list coloured by each move's value for its mover: X's 5 draws, O's 2 loses.
  await eventually(async () => (await page.locator('.log-move.value-draw').count()) === 1 && (await page.locator('.log-move.value-loss').count()) === 1, 'moves coloured by value');
  // A reload keeps the switch.
  await page.reload();
  await waitForBoard(page);
  assert.equal(await page.locator('.values-switch input').isChecked(), true);
  await eventually(async () => (await marks()) === 7, 'graded after a reload');
  // Reviewing the position after the first move: its eight moves are graded.
  await page.locator('.log-move').first().click();
  await page.waitForSelector('.review-bar:not([hidden])');
  await eventually(async () => (await marks()) === 8, 'the reviewed position graded');
  assert.equal(await page.locator('.hint-moves li').count(), 8);
  // Off: nothing graded, and it stays off.
  await page.locator('.review-bar button:has-text("Back to the game")').click();
  await page.locator('.values-switch input').uncheck();
  await eventually(async () => (await marks()) === 0, 'no values once off');
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

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

/// Item 3: on a phone the cards read while playing never push the board off the
/// screen: the whole board and the review bar fit in one screen, and the hint lists
/// every move without a scroll of its own.
test('3: on a phone the hint, score and dice cards leave the whole board in view', async () => {
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
