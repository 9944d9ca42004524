// The defects of issue 11, each tried as a user would in the browser, and the
// features built with them: move values on the board, the value history and
// "why" line, review and play from here, variants, fresh boards and shareable links.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { newPage, api, BASE, ARTIFACTS, sessionView, sessionOf, waitForBoard, browserForFile, listedGames, pageAt } from './helpers.mjs';

const { games, has } = await listedGames();
const timings = {};
const browser = browserForFile();
after(() => {
  writeFileSync(join(ARTIFACTS, 'timings.json'), JSON.stringify(timings, null, 2));
});

const logCount = (page) => page.locator('.log .log-move').count();

async function open(page, path) {
  await page.goto(`${BASE}${path}`);
  try {
    await waitForBoard(page);
  } catch (e) {
    const toasts = await page.locator('.toast').allTextContents();
    throw new Error(`${path}: no board (${e.message}); page errors: ${page.pageErrors.join('; ')}; toasts: ${toasts.join('; ')}`);
  }
}

/// A fresh game of `name` with the given players, opened in the page by its session.
async function openSession(page, body) {
  const { status, data } = await api('POST', '/api/sessions', body);
  assert.equal(status, 201, JSON.stringify(data));
  const variant = data.view.variant ? `&variant=${encodeURIComponent(data.view.variant)}` : '';
  await open(page, `/game/${body.game}?s=${data.id}${variant}`);
  return data;
}

test('2: computer against computer is watched ply by ply, with pause, one move and speed', async () => {
  // Through the API: the session starts at its first ply and advances by step.
  const { data } = await api('POST', '/api/sessions', { game: 'kono', players: ['random', 'random'], seed: 5 });
  assert.equal(data.view.log.length, 0, 'not played through at once');
  const { data: stepped } = await api('POST', `/api/sessions/${data.id}/step`, {});
  assert.equal(stepped.view.log.length, 1);
  assert.equal(stepped.played.length, 1);

  const page = await newPage(browser);
  await open(page, '/game/tictactoe');
  await page.selectOption('select[aria-label="Which side you play"]', '-2');
  await page.waitForSelector('.watch-bar:not([hidden])');
  const view = await sessionView(page);
  assert.ok(!view.outcome || view.log.length >= 5, 'the game is not finished by the seat change');
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 1);
  await page.click('.watch-bar button:has-text("Pause")');
  await page.waitForTimeout(200);
  const paused = await logCount(page);
  await page.waitForTimeout(1500);
  assert.equal(await logCount(page), paused, 'nothing moves while paused');
  const v = await sessionView(page);
  if (!v.outcome) {
    await page.click('.watch-bar button:has-text("One move")');
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n + 1, paused);
  }
  await page.selectOption('select[aria-label="Watching speed"]', 'fast');
  await page.click('.watch-bar button:has-text("Play")');
  await page.waitForFunction(() => /wins|draw/i.test(document.querySelector('.turn-line').textContent), null, { timeout: 20_000 });
  // New game in this mode is watched the same way.
  await page.click('.board-actions button:has-text("New game")');
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length <= 2);
  await page.selectOption('select[aria-label="Which side you play"]', '0');
  await page.close();
});

test('3: every move drawn, a square reached by several moves shows each, selecting a piece narrows', { skip: !has('kono') }, async () => {
  const page = await newPage(browser);
  // Random moves from the start until some square is reached by several moves.
  let position = null;
  const { data: s0 } = await api('POST', '/api/sessions', { game: 'kono', players: ['human', 'human'], seed: 3 });
  let v = s0.view;
  for (let k = 0; k < 60 && !position; k++) {
    const ends = new Map();
    for (const m of v.legal_moves) ends.set(m.cells.at(-1), (ends.get(m.cells.at(-1)) || 0) + 1);
    if ([...ends.values()].some((n) => n > 1)) position = v.position;
    else v = (await api('POST', `/api/sessions/${s0.id}/moves`, { move: v.legal_moves[(k * 7) % v.legal_moves.length].move })).data.view;
  }
  assert.ok(position, 'a position where two moves share a target');
  await openSession(page, { game: 'kono', players: ['human', 'perfect'], position });
  const t0 = Date.now();
  await page.click('.board-actions button:has-text("Hint")');
  await page.waitForSelector('.board .move-value');
  timings.hint_kono_ms = Date.now() - t0;
  const { data: hint } = await api('GET', `/api/sessions/${sessionOf(page)}/hint`);
  assert.equal(await page.locator('.board .move-value').count(), hint.analysis.moves.length, 'one mark per move, none hidden');
  const ends = new Map();
  for (const m of hint.analysis.moves) ends.set(m.cells.at(-1), (ends.get(m.cells.at(-1)) || 0) + 1);
  assert.ok([...ends.values()].some((n) => n > 1), 'some square is reached by several moves');
  // Select the piece with the most moves: only its moves stay drawn.
  const byStart = new Map();
  for (const m of hint.analysis.moves) byStart.set(m.cells[0], [...(byStart.get(m.cells[0]) || []), m]);
  const [start, own] = [...byStart].sort((a, b) => b[1].length - a[1].length)[0];
  await page.click(`.board [data-cell="${start}"] .cell-shape`);
  await page.waitForFunction((n) => document.querySelectorAll('.board .move-value').length === n, own.length);
  // The list names the selected piece's moves with their values, as the board
  // draws them; a move's "why" shows the best play after it.
  assert.equal(await page.locator('.hint-moves li').count(), own.length);
  await page.locator('.hint-move').first().click();
  await page.waitForSelector('.pv-line li, .pv p');
  await page.screenshot({ path: join(ARTIFACTS, 'kono-move-values.png') });
  await page.close();
});

test('3: Mu Torere shows a mark for each move, not one "D" in the centre', { skip: !has('mu-torere') }, async () => {
  const page = await newPage(browser);
  await openSession(page, { game: 'mu-torere', players: ['human', 'perfect'], seed: 1 });
  await page.click('.board-actions button:has-text("Hint")');
  await page.waitForSelector('.board .move-value');
  const view = await sessionView(page);
  assert.equal(await page.locator('.board .move-value').count(), view.legal_moves.length);
  await page.close();
});

test('4: ?variant= opens that variant, not a stored session of another; a bad variant says why', { skip: !has('northcott') }, async () => {
  const page = await newPage(browser);
  await open(page, '/game/northcott');
  await open(page, '/game/northcott?variant=size%3D6x3');
  const view = await sessionView(page);
  assert.match(view.variant, /size=6x3/);
  assert.equal(Math.round(view.view.width), 6);
  assert.match(await page.locator('.variant').textContent(), /6x3/);
  assert.doesNotMatch(await page.locator('.board-head').textContent(), /=/, 'no raw option text');
  await page.goto(`${BASE}/game/northcott?variant=size%3D99`);
  await page.waitForSelector('.empty h1');
  assert.match(await page.locator('.empty').textContent(), /99/);
  // The chooser: the server's refusal is shown in the form; a good one opens the game.
  await open(page, '/game/northcott');
  await page.fill('input[name="size"]', '500x2');
  await page.click('button:has-text("Play this variant")');
  await page.waitForSelector('.form-error:not([hidden])');
  await page.fill('input[name="size"]', '8x2');
  await page.click('button:has-text("Play this variant")');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('variant')?.includes('8x2'));
  await waitForBoard(page);
  assert.equal(Math.round((await sessionView(page)).view.width), 8);
  await page.close();
});

const colours = (view) => view.view.cells.map((c) => c.colour ?? '-').join('');

test('5: SameGame New game deals a fresh board, Restart the same one; a shared link opens that board', { skip: !has('samegame') }, async () => {
  const page = await newPage(browser);
  await open(page, '/game/samegame');
  const first = await sessionView(page);
  const firstId = sessionOf(page);
  await page.click('.board-actions button:has-text("New game")');
  await page.waitForFunction((id) => new URL(location.href).searchParams.get('s') !== id, firstId);
  await waitForBoard(page);
  const second = await sessionView(page);
  assert.notEqual(colours(second), colours(first), 'a fresh board');
  // Play a group, then Restart: the same board from its start.
  const move = second.legal_moves[0];
  await page.click(`.board [data-cell="${move.cells[0]}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
  await page.click('.board-actions button:has-text("Restart")');
  await page.waitForFunction(() => !document.querySelector('.log .log-move'));
  const again = await sessionView(page);
  assert.equal(colours(again), colours(second));
  // The address is a shareable link: another browser page opens the same board.
  const link = new URL(page.url());
  link.searchParams.delete('s');
  const other = await newPage(browser);
  await other.goto(link.href);
  await waitForBoard(other);
  assert.equal(colours(await sessionView(other)), colours(second));
  await other.close();
  await page.close();
});

test('5: Poggle random start: New game gives another board', { skip: !has('poggle') }, async () => {
  const page = await newPage(browser);
  await open(page, '/game/poggle?variant=start%3Drandom');
  const first = await sessionView(page);
  const firstId = sessionOf(page);
  await page.click('.board-actions button:has-text("New game")');
  await page.waitForFunction((id) => new URL(location.href).searchParams.get('s') !== id, firstId);
  await waitForBoard(page);
  assert.notEqual((await sessionView(page)).position, first.position);
  await page.close();
});

test('6: a setting the server refuses at game start never leaves the page without a game', async () => {
  const page = await newPage(browser);
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  // The server refuses the first session start (as it did undo_depth 0): the page starts without it.
  await page.route('**/api/sessions', async (route) => {
    const body = route.request().postDataJSON?.() || {};
    if (route.request().method() === 'POST' && body.undo_depth !== undefined) {
      await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'the undo depth is refused' }) });
    } else await route.continue();
  });
  await api('PUT', '/api/settings/hexapawn', { undo_depth: 0 });
  await page.goto(`${BASE}/game/hexapawn`);
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${BASE}/game/hexapawn`);
  await waitForBoard(page);
  await page.locator('.toast', { hasText: 'could not be used' }).waitFor();
  await page.click('.board-actions button:has-text("New game")');
  await page.waitForTimeout(300);
  assert.ok(!urls.some((u) => u.includes('/undefined')), 'no request to an undefined session');
  assert.ok(sessionOf(page));
  await api('PUT', '/api/settings/hexapawn', {});
  await page.close();
});

test('7: SameGame played by the computer is not recorded as your best score', { skip: !has('samegame') }, async () => {
  const page = await newPage(browser);
  await open(page, '/game/samegame?variant=colours%3D2%2Csize%3D5x5%2Cseed%3D4');
  await page.click('button:has-text("Let the computer play")');
  await page.waitForFunction(() => /scored|stopped|lost/.test(document.querySelector('.card-extra .muted.small:not(:empty)')?.textContent || ''), null, { timeout: 60_000 });
  const { data: best } = await api('GET', '/api/best/samegame');
  assert.ok(!best.some((b) => b.session === sessionOf(page) && b.player === 'human'), JSON.stringify(best));
  // Then the board is the person's again (to undo and play on), never locked.
  await page.waitForFunction(() => !document.querySelector('.card button:not([hidden])')?.textContent.includes('Stop'));
  for (let i = 0; (await sessionView(page)).seats[0].player !== 'human'; i++) {
    assert.ok(i < 100, 'the board is handed back');
    await page.waitForTimeout(150);
  }
  await page.close();
});

test('8: hints read as words for SameGame, Poggle and Auto120', async () => {
  const page = await newPage(browser);
  const cases = [
    ['samegame', /final score of [\d,]+/],
    ['poggle', /Press the lit button next\./],
    ['auto120', /\d+% chance to win/],
  ].filter(([g]) => has(g));
  for (const [game, words] of cases) {
    await open(page, `/game/${game}`);
    const v = await sessionView(page);
    if (!v.human_to_move) {
      await page.click('.board-actions button:has-text("New game")');
      await page.waitForSelector('.turn-line.your-move');
    }
    const t0 = Date.now();
    await page.click('.board-actions button:has-text("Hint")');
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('.hint-list').textContent), words.source, { timeout: 45_000 })
      .catch(async (e) => {
        throw new Error(`${game}: ${e.message}; the hint says: ${await page.locator('.hint-list').textContent()}; ${page.pageErrors.join('; ')}`);
      });
    timings[`hint_${game}_ms`] = Date.now() - t0;
    const text = await page.locator('.hint-list').textContent();
    assert.doesNotMatch(text, /\[|\]|null|seconds|\d\.\d{5}/, `${game}: ${text}`);
  }
  await page.close();
});

test('9: the last move outlines both ends of the reply; your own presses are not the computer\'s', { skip: !has('hexapawn') }, async () => {
  const page = await newPage(browser);
  await openSession(page, { game: 'hexapawn', players: ['human', 'perfect'], seed: 2 });
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
    await openSession(page, { game: 'poggle', players: ['human'], seed: 1 });
    const p = await sessionView(page);
    await page.click(`.board [data-cell="${p.legal_moves[6].cells[0]}"] .cell-shape`);
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
    assert.equal(await page.locator('.board .cell.recent').count(), 0);
  }
  await page.close();
});

test('9: tic-tac-toe reply timing; the winning line is marked', async () => {
  const page = await newPage(browser);
  await openSession(page, { game: 'tictactoe', players: ['human', 'perfect'], seed: 2 });
  const t0 = Date.now();
  await page.click('.board [data-cell="5"] .cell-shape');
  await page.waitForFunction(() => document.querySelectorAll('.board .piece:not(.leaving)').length === 2);
  timings.move_and_reply_tictactoe_ms = Date.now() - t0;
  // X has 1 and 2: 3 wins, and the line 1-2-3 is marked on the board.
  await openSession(page, { game: 'tictactoe', players: ['human', 'human'], position: 'XX./OO./... X' });
  await page.click('.board [data-cell="3"] .cell-shape');
  await page.waitForFunction(() => document.querySelectorAll('.board .cell.mark-win').length === 3);
  const won = await page.$$eval('.board .cell.mark-win', (els) => els.map((e) => Number(e.dataset.cell)).sort());
  assert.deepEqual(won, [1, 2, 3]);
  await page.close();
});

test('10: the machine trained is the machine shown and played', { skip: !has('tictactoe') }, async () => {
  const page = await newPage(browser);
  await open(page, '/game/tictactoe');
  await page.selectOption('select[aria-label="Training games"]', '50');
  await page.click('button:has-text("Train")');
  await page.locator('.toast', { hasText: 'you now play the trained machine' }).waitFor({ timeout: 60_000 });
  const view = await sessionView(page);
  assert.equal(view.seats[0].player, 'menace', 'MENACE plays X, the seat it trained');
  const { data } = await api('GET', `/api/sessions/${sessionOf(page)}/learned?seat=0`);
  const boxes = data.learned.boxes.length;
  assert.ok(boxes > 1, `${boxes} boxes`);
  await page.waitForFunction((n) => document.querySelector('.matchbox-area')?.textContent.includes(`${n} matchboxes`), boxes);
  assert.ok(await page.locator('.plot').count() >= 1, 'a learning curve');
  // Each lid is a small board of the box's position, not its text.
  await page.waitForSelector('.matchbox .lid-board svg .piece');
  await page.locator('.matchbox').first().screenshot({ path: join(ARTIFACTS, 'matchbox-lid.png') });
  await page.close();
});

test('11: Auto120 markers stay readable on a phone, all eight on the start as well as spread out', { skip: !has('auto120') }, async () => {
  const page = await pageAt(browser, 390);
  for (const position of ['1,1,1,1/1,1,1,1:?', '2,3,40,1/5,6,1,1:1', '120,120,60,1/120,1,1,1:2']) {
    await openSession(page, { game: 'auto120', position, players: ['human', 'human'] });
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

test('Northcott with X as your side: a plain click or tap between the pieces moves X (a touch screen has no right button)', { skip: !has('northcott') }, async () => {
  const page = await pageAt(browser, 390);
  await openSession(page, { game: 'northcott', variant: 'size=8x2', players: ['random', 'human'], seed: 2 });
  let view = await sessionView(page);
  assert.equal(view.to_move, 1, 'X (the person) is to move after the computer opened');
  const before = await logCount(page);
  // An advance of X: its target lies between the two pieces of its row.
  const width = Math.round(view.view.width);
  const advance = view.legal_moves.find((m) => {
    const [from, to] = m.cells;
    return to < from && to % width > Math.min(...view.view.pieces.filter((p) => Math.floor(p.cell / width) === Math.floor(to / width)).map((p) => p.cell % width));
  });
  assert.ok(advance, JSON.stringify(view.legal_moves));
  await page.click(`.board [data-cell="${advance.cells[1]}"] .cell-shape`);
  await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length > n, before);
  view = await sessionView(page);
  assert.ok(view.log.some((e) => e.seat === 1 && e.move === advance.move), JSON.stringify(view.log));
  await page.close();
});

test('SameGame: a hint taken keeps its plan, so the next hint expects at least as much', { skip: !has('samegame') }, async () => {
  const page = await newPage(browser);
  const jobs = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/jobs')) jobs.push(JSON.parse(r.postData() || '{}'));
  });
  await openSession(page, { game: 'samegame', variant: 'size=10x10,colours=4,seed=7', players: ['human'] });
  const expected = async () => {
    await page.click('.board-actions button:has-text("Hint")');
    await page.waitForFunction(() => /final score of [\d,]+/.test(document.querySelector('.hint-list')?.textContent || ''), null, { timeout: 45_000 });
    const text = await page.locator('.hint-list').textContent();
    return Number(/final score of ([\d,]+)/.exec(text)[1].replace(/,/g, ''));
  };
  const first = await expected();
  assert.deepEqual(jobs.at(-1).plan, [], 'the first hint has no plan to keep');
  // Take the hint: click the lit group.
  const before = await logCount(page);
  await page.locator('.board [data-cell].hinted').first().click();
  await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length > n, before);
  const second = await expected();
  assert.ok(jobs.at(-1).plan.length > 0, 'the second hint starts from the rest of the first one\'s line');
  assert.ok(second >= first, `the second hint expects ${second}, the first ${first}`);
  await page.close();
});

test('12-13: plain words, seat colours, equal piece sizes, a single move waits for its target', async () => {
  const page = await newPage(browser);
  if (has('hexapawn')) {
    await open(page, '/game/hexapawn');
    const white = await page.locator('.piece[data-owner="0"] .piece-disc').first().evaluate((e) => getComputedStyle(e).fill);
    assert.match(white, /rgb\((2[0-9]{2}), (2[0-9]{2}), (2[0-9]{2})\)/, `White is drawn light: ${white}`);
  }
  for (const g of games) {
    await open(page, `/game/${g.name}`);
    const text = await page.locator('main').innerText();
    assert.doesNotMatch(text, /the seed's|\bcell \d+: empty/i, g.name);
  }
  if (has('northcott')) {
    await openSession(page, { game: 'northcott', players: ['human', 'nim'], seed: 1 });
    const radii = await page.$$eval('.piece-disc', (els) => [...new Set(els.map((e) => e.getAttribute('r')))]);
    assert.equal(radii.length, 1, `one piece size: ${radii}`);
  }
  // A piece with one legal move is selected first, not played at once.
  await openSession(page, { game: 'hexapawn', players: ['human', 'human'], seed: 1 });
  const view = await sessionView(page);
  const counts = new Map();
  for (const m of view.legal_moves) counts.set(m.cells[0], (counts.get(m.cells[0]) || 0) + 1);
  const single = [...counts].find(([, n]) => n === 1);
  if (single) {
    await page.click(`.board [data-cell="${single[0]}"] .cell-shape`);
    await page.waitForTimeout(300);
    assert.equal((await sessionView(page)).log.length, 0, 'not played on the first click');
    assert.equal(await page.locator('.target-dot').count(), 1);
  }
  await page.close();
});

test('review: step back through the game without undoing, then play from here; value history marks mistakes', { skip: !has('tictactoe') }, async () => {
  const page = await newPage(browser);
  await openSession(page, { game: 'tictactoe', players: ['human', 'human'], seed: 1 });
  // X: 1, O: 2 (a mistake: O throws away the draw), X: 5.
  for (const c of [1, 2, 5]) {
    await page.click(`.board [data-cell="${c}"] .cell-shape`);
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, [1, 2, 5].indexOf(c) + 1);
  }
  await page.waitForSelector('.value-chart:not([hidden]) svg');
  await page.waitForSelector('.log-move.mistake');
  assert.equal(await page.locator('.log-move.mistake').count(), 1);
  assert.match(await page.locator('.log-move.mistake').textContent(), /2/);
  await page.locator('.log-move').first().click();
  await page.waitForSelector('.review-bar:not([hidden])');
  assert.equal(await page.locator('.board .piece:not(.leaving)').count(), 1, 'the position after move 1');
  assert.equal((await sessionView(page)).log.length, 3, 'the game itself is untouched');
  const id = sessionOf(page);
  await page.click('button:has-text("Play from here")');
  await page.waitForFunction((i) => new URL(location.href).searchParams.get('s') !== i, id);
  const view = await sessionView(page);
  assert.equal(view.log.length, 1);
  await page.close();
});
