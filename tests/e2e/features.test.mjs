// The side panel and the game-specific protocols: hints drawn on the board, the AI
// level presets, colours that persist, save and resume, SameGame groups, Northcott's
// mouse buttons and set-up moves.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { newPage, api, BASE, ARTIFACTS, sessionView, sessionOf, logTexts, waitForBoard, browserForFile, listedGames, pageAt } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

async function freshGame(page, name) {
  await page.goto(`${BASE}/game/${name}`);
  await waitForBoard(page);
  const view = await sessionView(page);
  if (view.log.length || view.outcome) {
    await page.click('button:has-text("New game")');
    await page.waitForFunction(() => !document.querySelector('.log .log-move') || document.querySelector('.turn-line.your-move'));
  }
  await page.waitForSelector('.turn-line.your-move');
}

test('hint: every move graded on the board, one mark per move', async () => {
  const page = await newPage(browser);
  await freshGame(page, 'tictactoe');
  const view = await sessionView(page);
  const t0 = Date.now();
  await page.click('.board-actions button:has-text("Hint")');
  await page.waitForSelector('.board .move-value');
  const { data: hint } = await api('GET', `/api/sessions/${sessionOf(page)}/hint`);
  // The typed hint (docs/JSON.md): its analysis grades every move.
  const moves = hint.analysis.moves;
  assert.equal(await page.locator('.board .move-value').count(), moves.length);
  assert.equal(moves.length, view.legal_moves.length);
  // Each mark says win, draw or loss as the server graded it (a bound with ≤).
  for (const m of moves) {
    const { value, remoteness } = m.grade;
    const mark = page.locator(`.board .move-value[data-move="${m.move}"]`);
    assert.match(await mark.getAttribute('class'), new RegExp(`value-${value}`));
    const plies = remoteness ? `${remoteness.kind === 'at_most' ? '≤' : ''}${remoteness.plies}` : '';
    const text = value === 'draw' ? 'D' : `${value === 'win' ? 'W' : 'L'}${plies}`;
    assert.equal(await mark.locator('text').textContent(), text);
  }
  assert.equal(await page.locator('.hint-moves li').count(), moves.length);
  console.log(`# timing: tictactoe hint shown in ${Date.now() - t0} ms`);
  await page.screenshot({ path: join(ARTIFACTS, 'tictactoe-hint.png') });
  await page.close();
});

test('AI level presets and seat colours persist', async () => {
  const page = await newPage(browser);
  await freshGame(page, 'tictactoe');
  await page.click('.presets button:has-text("High")');
  await page.waitForFunction(() => document.querySelector('.presets button[aria-pressed=true]')?.textContent === 'High');
  let view = await sessionView(page);
  assert.equal(view.seats[1].player, 'level:95');
  await page.locator('.colour-row input[type=color]').first().fill('#00aa55');
  await page.waitForTimeout(300);
  const { data: settings } = await api('GET', '/api/settings/tictactoe');
  assert.equal(settings.colours.X, '#00aa55');
  // Each seat's player by kind and level, as the view declares seats (never a name to split).
  assert.deepEqual(settings.players, [{ kind: 'human' }, { kind: 'level', level: 95 }]);
  // A new browser page: the slider and the colour come back from the server.
  await page.click('.presets button:has-text("Perfect")');
  await page.waitForFunction(() => document.querySelector('.presets button[aria-pressed=true]')?.textContent === 'Perfect');
  view = await sessionView(page);
  assert.equal(view.seats[1].player, 'perfect');
  await page.reload();
  await waitForBoard(page);
  assert.equal(await page.locator('.presets button[aria-pressed=true]').textContent(), 'Perfect');
  assert.equal(await page.locator('.colour-row input[type=color]').first().inputValue(), '#00aa55');
  // Back to the defaults for the other tests.
  await page.click('.presets button:has-text("Medium")');
  await page.click('button:has-text("Default colours")');
  await page.waitForTimeout(300);
  await page.close();
});

test('settings saved with the computer by name still load, and are kept by kind and level', async () => {
  // The form of settings saved before players were kept by kind and level.
  const { status } = await api('PUT', '/api/settings/tictactoe', { players: ['human', 'level:25'], ai_level: 25 });
  assert.equal(status, 200);
  const { data: answered } = await api('GET', '/api/settings/tictactoe');
  assert.deepEqual(answered.players, [{ kind: 'human' }, { kind: 'level', level: 25 }]);
  const page = await newPage(browser);
  try {
    // A browser that has no game of its own under way: the page starts one from the settings.
    await page.goto(`${BASE}/`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${BASE}/game/tictactoe`);
    await waitForBoard(page);
    await page.waitForFunction(() => document.querySelector('.presets button[aria-pressed=true]')?.textContent === 'Low');
    const view = await sessionView(page);
    assert.equal(view.seats[1].kind, 'level');
    assert.equal(view.seats[1].level, 25);
    // A change is saved by kind and level, without a level kept beside it.
    await page.click('.presets button:has-text("Medium")');
    await page.waitForFunction(() => document.querySelector('.presets button[aria-pressed=true]')?.textContent === 'Medium');
    const { data: saved } = await api('GET', '/api/settings/tictactoe');
    assert.deepEqual(saved.players, [{ kind: 'human' }, { kind: 'level', level: 66 }]);
  } finally {
    await api('PUT', '/api/settings/tictactoe', {});
    await page.close();
  }
});

test('legend can be hidden and shown', async () => {
  const page = await newPage(browser);
  await freshGame(page, 'tictactoe');
  const legend = page.locator('.legend');
  assert.ok(await legend.isVisible());
  await page.locator('.toggle input').uncheck();
  assert.ok(!(await legend.isVisible()));
  await page.locator('.toggle input').check();
  assert.ok(await legend.isVisible());
  await page.close();
});

test('save and resume', async () => {
  const page = await newPage(browser);
  await freshGame(page, 'tictactoe');
  const view = await sessionView(page);
  await page.click(`.board [data-cell="${view.legal_moves[0].cells[0]}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 2);
  const log = await logTexts(page);
  const name = `e2e save ${Date.now()}`;
  await page.fill('.save-form input', name);
  await page.click('.save-form button');
  const row = page.locator('.saved', { hasText: name });
  await row.waitFor();
  await page.click('button:has-text("New game")');
  await page.waitForFunction(() => !document.querySelector('.log .log-move') || document.querySelector('.turn-line.your-move'));
  const before = sessionOf(page);
  await row.locator('button:has-text("Resume")').click();
  await page.waitForFunction((b) => new URL(location.href).searchParams.get('s') !== b, before);
  assert.deepEqual(await logTexts(page), log);
  await row.locator('button:has-text("Delete")').click();
  await row.waitFor({ state: 'detached' });
  await page.close();
});

test('SameGame: the group under the pointer lights up and any of its blocks removes it', { skip: !has('samegame') }, async () => {
  const page = await newPage(browser);
  await freshGame(page, 'samegame');
  const view = await sessionView(page);
  const starts = new Set(view.legal_moves.map((m) => m.cells[0]));
  // A block of a group of three or more that is not the cell its move is listed under.
  const groups = new Map();
  // Cells of a group share its declared click target.
  for (const c of view.view.cells) if (c.target?.kind === 'group') groups.set(c.target.group, [...(groups.get(c.target.group) || []), c.id]);
  const [mark, cells] = [...groups].find(([, ids]) => ids.length >= 3);
  const other = cells.find((id) => !starts.has(id));
  await page.hover(`.board [data-cell="${other}"] .cell-shape`);
  await page.waitForFunction((n) => document.querySelectorAll('.board .cell.in-group').length === n, cells.length);
  await page.screenshot({ path: join(ARTIFACTS, 'samegame-group.png') });
  await page.click(`.board [data-cell="${other}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
  const after = await sessionView(page);
  assert.ok(after.log[0].text.includes(`${cells.length} blocks`), after.log[0].text);
  assert.ok(mark !== undefined);
  await page.close();
});

test('Northcott: left click moves O, Ctrl+click sets up the computer\'s X without a reply (twice in a row)', { skip: !has('northcott') }, async () => {
  const page = await newPage(browser);
  await freshGame(page, 'northcott');
  const steps = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/step')) steps.push(r.url());
  });
  let view = await sessionView(page);
  assert.equal(view.to_move, 0);
  assert.equal(view.seats[1].player, 'nim', "the original program answers with its nim reply by default");
  const id = sessionOf(page);
  // Right click with no modifier on X's row: X is the computer's, nothing is played.
  await page.click(`.board [data-cell="${view.view.width - 2}"] .cell-shape`, { button: 'right' });
  await page.locator('.toast').first().waitFor();
  assert.equal((await sessionView(page)).log.length, 0);
  // Ctrl + left click between the pieces, twice: the computer's X set up twice (the
  // side the person does not play), the turn stays with O, nothing replies, and both
  // set-ups are moves of this game.
  const W = Math.round(view.view.width);
  const rowOf = (c) => Math.floor(c / W);
  for (const n of [1, 2]) {
    const x = view.view.pieces.find((p) => p.owner === 1 && view.view.pieces.some((q) => q.owner === 0 && rowOf(q.cell) === rowOf(p.cell) && q.cell < p.cell - 1));
    await page.click(`.board [data-cell="${x.cell - 1}"] .cell-shape`, { modifiers: ['Control'] });
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, n);
    view = await sessionView(page);
    assert.ok(view.view.pieces.some((p) => p.owner === 1 && p.cell === x.cell - 1), 'X moved');
    assert.equal(view.to_move, 0, 'O still to move');
    assert.equal(sessionOf(page), id, 'the same game');
  }
  await page.waitForTimeout(900);
  assert.deepEqual(steps, [], 'the page never steps the computer after a set-up');
  // A plain left click: O moves and the computer answers.
  assert.ok(view.human_to_move);
  const move = view.legal_moves[0];
  await page.click(`.board [data-cell="${move.cells[move.cells.length - 1]}"] .cell-shape`);
  await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 4);
  assert.equal(sessionOf(page), id);
  await page.screenshot({ path: join(ARTIFACTS, 'northcott-set-ups.png') });
  await page.close();
});

test('SameGame: the original red, yellow and blue blocks on black can be chosen', { skip: !has('samegame') }, async () => {
  const page = await newPage(browser);
  await freshGame(page, 'samegame');
  const fills = () => page.$$eval('.board .cell.coloured .cell-shape', (els) => [...new Set(els.map((e) => e.style.fill))].sort());
  const before = await fills();
  await page.selectOption('select[aria-label="Block colours"]', 'original');
  await page.waitForFunction(() => document.querySelector('.board-wrap').classList.contains('dark-palette'));
  assert.deepEqual(await fills(), ['rgb(0, 0, 255)', 'rgb(255, 0, 0)', 'rgb(255, 255, 64)']);
  assert.notDeepEqual(before, await fills());
  const legend = await page.locator('.legend li').allTextContents();
  for (const name of ['red', 'yellow', 'blue']) assert.ok(legend.includes(name), `${name} in ${legend}`);
  await page.waitForTimeout(600); // let the colour transition finish before the picture
  await page.screenshot({ path: join(ARTIFACTS, 'samegame-original-colours.png') });
  // The choice is kept in this browser, and can be undone.
  await page.reload();
  await waitForBoard(page);
  assert.ok(await page.locator('.board-wrap.dark-palette').count());
  await page.selectOption('select[aria-label="Block colours"]', 'clear');
  assert.deepEqual(await fills(), before);
  await page.close();
});

test('How to play: every game page shows its rules in plain words, also on a phone', async () => {
  const page = await pageAt(browser, 390);
  for (const name of ['mu-torere', 'samegame']) {
    await page.goto(`${BASE}/game/${name}`);
    await waitForBoard(page);
    await page.click('.about summary');
    await page.waitForFunction(() => document.querySelector('.about-body h2'));
    const text = await page.locator('.about-body').innerText();
    assert.match(text, /How to play/);
    assert.match(text, /Writing moves/);
    assert.ok(!/seed|Crate |`/.test(text), text.slice(0, 400));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `${name}: the page is ${overflow} px too wide`);
    if (name === 'mu-torere') {
      await page.locator('.about').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, 'mu-torere-rules-phone.png') });
    }
  }
  await page.close();
});
