// What a game declares is what the page shows: the page knows no game by name.
// A game's own browser code (Northcott's click protocol) is loaded from its crate
// only where declared; a game's tool (Nim's calculator) is offered from its
// declaration through the generic route; the default computer is the server's one
// rule; a remoteness that is only a bound says so. Each at 390 and 1280 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { api, BASE, ARTIFACTS, sessionView, waitForBoard, browserForFile, listedGames, WIDTHS, pageAt } from './helpers.mjs';

const { games, info, has } = await listedGames();
const browser = browserForFile();

/// A page of `width` showing a new game of `name` with these players.
async function open(name, width, players = null) {
  const page = await pageAt(browser, width);
  page.modules = [];
  page.on('response', (r) => {
    if (/\/games\/[^/]+\/module\.js/.test(r.url())) page.modules.push([r.url(), r.status()]);
  });
  if (players) {
    const { data } = await api('POST', '/api/sessions', { game: name, players });
    await page.goto(`${BASE}/game/${name}?s=${data.id}`);
  } else {
    await page.goto(`${BASE}/game/${name}`);
  }
  await waitForBoard(page);
  return page;
}

test('the game list declares each game\'s presentation; modules and tools are served by the generic routes', async () => {
  for (const g of games) {
    assert.equal(typeof g.presentation, 'object', g.name);
    assert.ok(Array.isArray(g.presentation.panels), g.name);
    assert.equal(typeof g.presentation.module, 'boolean', `${g.name}: a flag, never the source`);
    assert.equal(typeof g.default_opponent, 'string', `${g.name}: the one default computer`);
    const r = await fetch(`${BASE}/games/${g.name}/module.js`);
    assert.equal(r.status, g.presentation.module ? 200 : 404, g.name);
    if (g.presentation.module) assert.match(r.headers.get('content-type'), /javascript/);
  }
  const { data: tools } = await api('GET', '/api/tools');
  for (const t of tools) {
    const ok = await api('POST', `/api/games/${t.game}/tools/${t.name}`, { input: t.example });
    assert.equal(ok.status, 200, JSON.stringify(ok.data));
    assert.ok(ok.data.lines.length >= 1);
    const bad = await api('POST', `/api/games/${t.game}/tools/${t.name}`, { input: 'x'.repeat(5000) });
    assert.equal(bad.status, 400);
    assert.match(bad.data.error, /too long/);
  }
  const none = await api('POST', `/api/games/${games[0].name}/tools/no-such-tool`, { input: '1' });
  assert.equal(none.status, 404);
});

for (const width of WIDTHS) {
  test(`${width} px: Northcott's own module is loaded from its crate and keeps its protocol; other games load none`, { skip: !has('northcott') }, async () => {
    const page = await open('northcott', width, ['human', 'nim']);
    assert.deepEqual(page.modules.map(([, s]) => s), [200], 'the module, once');
    assert.match(await page.locator('.key-help').textContent(), /Ctrl or Shift/);
    // Ctrl + click between the pieces sets the computer's X up, without a reply.
    const view = await sessionView(page);
    const W = Math.round(view.view.width);
    const rowOf = (c) => Math.floor(c / W);
    const x = view.view.pieces.find((p) => p.owner === 1 && view.view.pieces.some((q) => q.owner === 0 && rowOf(q.cell) === rowOf(p.cell) && q.cell < p.cell - 1));
    await page.click(`.board [data-cell="${x.cell - 1}"] .cell-shape`, { modifiers: ['Control'] });
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 1);
    const after = await sessionView(page);
    assert.ok(after.view.pieces.some((p) => p.owner === 1 && p.cell === x.cell - 1), 'X set up');
    assert.equal(after.to_move, 0, 'O still to move');
    await page.screenshot({ path: join(ARTIFACTS, `declared-northcott-${width}.png`) });
    assert.deepEqual(page.pageErrors, []);
    await page.close();

    const other = await open('tictactoe', width);
    assert.deepEqual(other.modules, [], 'no module where none is declared');
    assert.doesNotMatch(await other.locator('.key-help').textContent(), /Ctrl or Shift/);
    await other.close();
  });

  test(`${width} px: Nim's calculator is offered from its declaration, and its nim-sum card shows the analysis`, { skip: !has('nim') }, async () => {
    const tool = info('nim').presentation.tools[0];
    assert.ok(tool, 'Nim declares a tool');
    const page = await open('nim', width);
    const card = page.locator('.card', { has: page.locator('h2', { hasText: tool.title }) });
    await card.locator('input').fill('1* + 2* + 3*');
    await card.locator('button:has-text("Work it out")').click();
    await card.locator('.tool-result').waitFor();
    assert.match(await card.locator('.tool-answer').textContent(), /= 0.*second player wins/s);
    await card.locator('input').fill('1* + banana');
    await card.locator('button:has-text("Work it out")').click();
    await card.locator('.tool-error').waitFor();
    assert.match(await card.locator('.tool-error').textContent(), /banana/);
    const facts = page.locator('.card', { has: page.locator('h2', { hasText: 'The nim-sum' }) });
    await facts.locator('button:has-text("Show")').click();
    await facts.locator('dt', { hasText: 'Nim-sum' }).waitFor();
    assert.match(await facts.textContent(), /Nim-sum\s*\d+\*/);
    assert.doesNotMatch(await facts.textContent(), /\[|\]|null|undefined/);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `declared-nim-${width}.png`) });
    // No sideways scrolling at this width.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  test(`${width} px: a remoteness that is only a bound says "at most" in the hint`, { skip: !has('northcott') }, async () => {
    const page = await open('northcott', width, ['human', 'nim']);
    await page.click('.board-actions button:has-text("Hint")');
    await page.locator('.hint-list .hint-value').first().waitFor({ timeout: 30_000 });
    const text = await page.locator('.hint-list').textContent();
    assert.match(text, /in at most \d+ plies/, text.slice(0, 300));
    const badges = await page.locator('.hint-moves .badge-inline').allTextContents();
    assert.ok(badges.length && badges.every((b) => /^[WL]≤\d+$|^D$/.test(b)), badges.slice(0, 5).join(' '));
    assert.doesNotMatch(text, /\b[WL]\d+\b/, 'no bound shown as exact');
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  test(`${width} px: the computer a new game gets is the server's one rule`, async () => {
    for (const name of ['nim', 'kono', 'northcott', 'hexapawn'].filter(has)) {
      const page = await pageAt(browser, width);
      await page.goto(`${BASE}/game/${name}`);
      await waitForBoard(page);
      const view = await sessionView(page);
      const computer = view.seats.find((s) => s.player !== 'human');
      assert.equal(computer?.player, info(name).default_opponent, name);
      await page.close();
    }
  });

  test(`${width} px: the declared panels of the puzzles and dice game are there, worded by the declaration`, async () => {
    if (has('poggle')) {
      const page = await open('poggle', width);
      const card = page.locator('.card', { has: page.locator('h2', { hasText: 'Solution' }) });
      await card.locator('.solvable-text').waitFor({ timeout: 30_000 });
      assert.match(await card.textContent(), /Goal: every button/);
      assert.match(await card.textContent(), /Which button next\?/);
      assert.deepEqual(page.modules, []);
      await page.close();
    }
    if (has('samegame')) {
      const page = await open('samegame', width);
      const card = page.locator('.card', { has: page.locator('h2', { hasText: 'Score' }) });
      assert.match(await card.textContent(), /blocks left/);
      assert.ok(await page.locator('select[aria-label="Block colours"]').count());
      await page.close();
    }
    if (has('auto120')) {
      const page = await open('auto120', width);
      assert.ok(await page.locator('.card h2', { hasText: 'Dice and odds' }).count());
      const words = await page.locator('select[aria-label="Computer player"] option').allTextContents();
      assert.ok(words.includes("The original program's rules of thumb"), words.join(' | '));
      await page.close();
    }
  });
}
