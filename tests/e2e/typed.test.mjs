// The page says what the server declares as typed data, never what it reads out of
// the server's words: the status line comes from the view's `ending` (who won, who
// resigned, the draw's reason), a cell is called by its declared `name`. To show
// that, the server's answers reach the page with the result line replaced by
// words no page could read anything from, and the cells renamed: the page must
// still say who resigned, and call a cell what the view calls it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { api, BASE, ARTIFACTS, pageAt, openSession, sessionView, eventually, logTexts, browserForFile, listedGames, WIDTHS } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

const OPAQUE = 'result withheld';

/// Rewrites every MatchView the page receives: `result` becomes OPAQUE and each
/// cell's name `place N` (N its id).
async function rewriteViews(page) {
  const rewrite = (view) => {
    if (!view || typeof view !== 'object') return;
    if (view.result) view.result = OPAQUE;
    for (const c of view.view?.cells || []) c.name = `place ${c.id}`;
  };
  await page.route(/\/api\/sessions(\/|$)/, async (route) => {
    const res = await route.fetch();
    const type = res.headers()['content-type'] || '';
    if (!type.includes('application/json')) return route.fulfill({ response: res });
    const body = await res.json();
    rewrite(body.view);
    await route.fulfill({ response: res, json: body });
  });
}

const turnLine = (page) => page.locator('.turn-line').innerText();
const resignButton = (page) => page.locator('.board-actions button:has-text("Resign")');

for (const width of WIDTHS) {
  test(`who resigned is said from the typed ending at ${width} px`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await rewriteViews(page);
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
    await page.click('.board [data-cell="5"] .cell-shape');
    await eventually(async () => (await sessionView(page)).log.length === 1, 'X played 5');
    await resignButton(page).click();
    await eventually(async () => /wins/.test(await turnLine(page)), 'O resigned');
    assert.equal(await turnLine(page), 'X wins: O resigns');
    const view = await sessionView(page);
    assert.deepEqual(view.ending, { kind: 'resigned', seat: 1, winner: 0 });
    await resignButton(page).click();
    await eventually(async () => /Cat/.test(await turnLine(page)), 'the Cat won');
    assert.equal(await turnLine(page), 'Draw: O resigns, then X too: every player resigned, so the Cat wins');
    assert.deepEqual((await sessionView(page)).ending, { kind: 'all_resigned', first: 1 });
    await page.screenshot({ path: join(ARTIFACTS, `typed-ending-${width}.png`), fullPage: true });
    await page.close();
  });
}

test('a person who resigns against the computer is told so, from the typed ending', { skip: !has('tictactoe') }, async () => {
  const page = await pageAt(browser, 1280);
  await rewriteViews(page);
  await openSession(page, { game: 'tictactoe', players: ['human', 'random'], seed: 3 });
  await resignButton(page).click();
  await eventually(async () => /^You lost/.test(await turnLine(page)), 'the game ended');
  assert.equal(await turnLine(page), 'You lost: you resigned');
  await page.close();
});

test('a draw by the rules of actual play says its reason from the typed ending', { skip: !has('mu-torere') }, async () => {
  // Two perfect players draw a Mu Torere game by repetition long before the
  // length bound; the page says the reason the server declares.
  const page = await pageAt(browser, 1280);
  await rewriteViews(page);
  const { data: made } = await api('POST', '/api/sessions', { game: 'mu-torere', players: ['perfect', 'perfect'], seed: 1 });
  for (let i = 0; i < 400; i++) {
    const { status, data } = await api('POST', `/api/sessions/${made.id}/step`);
    if (status !== 200 || data.view.outcome) break;
  }
  const { data } = await api('GET', `/api/sessions/${made.id}`);
  assert.equal(data.view.ending?.kind, 'drawn', JSON.stringify(data.view.ending));
  await page.goto(`${BASE}/game/mu-torere?s=${made.id}`);
  await eventually(async () => /^Draw/.test(await turnLine(page)), 'the draw is shown');
  assert.equal(await turnLine(page), `Draw: ${data.view.ending.reason}`);
  await page.close();
});

test('a cell is called by the name its view declares', { skip: !has('tictactoe') }, async () => {
  const page = await pageAt(browser, 1280);
  await rewriteViews(page);
  await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
  await page.click('.board [data-cell="5"] .cell-shape');
  await eventually(async () => (await sessionView(page)).log.length === 1, 'X played 5');
  // Square 5 is taken: no move starts there, and the page says where, by name.
  await page.click('.board [data-cell="5"] .cell-shape');
  await eventually(
    async () => /place 5/.test(await page.locator('p.visually-hidden[aria-live]').innerText()),
    'the taken cell named as the view names it',
  );
  await page.close();
});

/// Rewrites every MatchView the page receives so that the server's words for
/// moves and log lines are OPAQUE: only their typed `parts` are left to read.
async function withholdWords(page) {
  await page.route(/\/api\/sessions(\/|$)/, async (route) => {
    const res = await route.fetch();
    const type = res.headers()['content-type'] || '';
    if (!type.includes('application/json')) return route.fulfill({ response: res });
    const body = await res.json();
    for (const m of body.view?.legal_moves || []) m.words = OPAQUE;
    for (const e of body.view?.log || []) Object.assign(e, { words: OPAQUE, text: OPAQUE });
    await route.fulfill({ response: res, json: body });
  });
}

for (const width of WIDTHS) {
  test(`a colour the server's words name is called as the chosen palette names it, at ${width} px`, { skip: !has('samegame') }, async () => {
    const page = await pageAt(browser, width);
    await withholdWords(page);
    await openSession(page, { game: 'samegame', variant: 'size=5x5,colours=3,seed=4', players: ['human'] });
    await page.selectOption('select[aria-label="Block colours"]', 'original');
    const names = ['', 'red', 'yellow', 'blue'];
    const said = (parts) => parts.map((p) => (p.colour === undefined ? p.text : names[p.colour])).join('');
    const move = (await sessionView(page)).legal_moves.find((m) => (m.parts || []).some((p) => p.colour !== undefined));
    assert.ok(move, 'a move whose words name a colour');
    await page.click(`.board [data-cell="${move.cells[0]}"] .cell-shape`);
    await eventually(async () => (await sessionView(page)).log.length === 1, 'the group removed');
    const [entry] = (await sessionView(page)).log;
    const colour = entry.parts.find((p) => p.colour !== undefined)?.colour;
    assert.ok(names[colour], JSON.stringify(entry.parts));
    await eventually(async () => (await logTexts(page)).length === 1, 'the move in the log');
    assert.equal((await logTexts(page))[0], said(entry.parts));
    assert.match((await logTexts(page))[0], new RegExp(`blocks of ${names[colour]}\\b`));
    await page.screenshot({ path: join(ARTIFACTS, `typed-colour-words-${width}.png`), fullPage: true });
    await page.close();
  });
}
