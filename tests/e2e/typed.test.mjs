// The page says what the server declares as typed data, never what it reads out of
// the server's words: the status line comes from the view's `ending` (who won, who
// resigned, the draw's reason), a cell is called by its declared `name`. To show
// that, the server's answers reach the page with the result line replaced by
// words no page could read anything from, and the cells renamed: the page must
// still say who resigned, and call a cell what the view calls it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, api, BASE, ARTIFACTS, pageAt, openSession, sessionView, eventually } from './helpers.mjs';

const { data: games } = await api('GET', '/api/games');
const has = (name) => games.some((g) => g.name === name);
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

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

for (const width of [390, 1280]) {
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
