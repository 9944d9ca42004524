// The page's words: moves, reasons, refusals, counts and colours in a player's
// words (the notation only as a tooltip), computer players named in words, every
// choice of a menu read whole.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, WIDTHS, newPage, api, sessionView, logTexts, waitForBoard, pageAt, openSession, eventually, browserForFile, listedGames, openPath, openGame, colours } from './helpers.mjs';

const { games, has } = await listedGames();
const browser = browserForFile();

for (const width of WIDTHS) {
  /// Regression: issue 24's review of the browser.
  test(`${width} px: the hint, the moves and the legend name a colour alike`, { skip: !has('samegame'), timeout: 90_000 }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'samegame', variant: 'size=6x6,colours=3,seed=4', players: ['human'] });
    const legend = (await page.locator('.legend li').allTextContents()).map((s) => s.trim());
    await page.click('.board-actions button:has-text("Hint")');
    await page.locator('.hint-list', { hasText: 'Blocks of each colour' }).waitFor({ timeout: 30_000 });
    const hint = await page.locator('.hint-list').textContent();
    assert.doesNotMatch(hint, /colour \d/, hint);
    const counts = await page.evaluate(() => [...document.querySelectorAll('.hint-list dt')].find((d) => /Blocks of each colour/.test(d.textContent))?.nextElementSibling?.textContent);
    const names = (counts || '').split(', ').map((s) => s.replace(/: \d+$/, ''));
    assert.equal(names.length, 3, counts);
    for (const name of names) assert.ok(legend.includes(name), `${name} is in the legend: ${legend}`);
    // A removed group is named in the move list by the same words.
    const view = await sessionView(page);
    await page.locator(`.board-wrap [data-cell="${view.legal_moves[0].cells[0]}"]`).click();
    await eventually(async () => (await page.locator('.log .log-text').count()) === 1, 'the move listed', 20_000);
    const line = await page.locator('.log .log-text').first().textContent();
    assert.doesNotMatch(line, /colour \d/, line);
    assert.ok(legend.some((name) => line.includes(name)), `${line} names a legend colour: ${legend}`);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  /// Regression: issue 24's review of the browser.
  test(`${width} px: counts in good English; a solved Poggle asks for no presses`, { skip: !has('poggle'), timeout: 90_000 }, async () => {
    const page = await pageAt(browser, width);
    // One button: the solution is one press.
    await openSession(page, { game: 'poggle', variant: 'size=1', players: ['human'] });
    const card = page.locator('.card:has(h2:text-is("Solution"))');
    await card.locator('.solvable-text').waitFor({ timeout: 30_000 });
    assert.match(await card.locator('.solvable-text').textContent(), /solved in 1 press\./);
    await page.locator('.board-wrap [data-cell="0"]').click();
    await eventually(async () => !!(await sessionView(page)).outcome, 'solved', 20_000);
    await card.locator('.solvable-text', { hasText: /^Solved/ }).waitFor({ timeout: 30_000 });
    const text = await card.textContent();
    assert.doesNotMatch(text, /\b0 press/);
    assert.doesNotMatch(text, /Solution from here/);
    assert.doesNotMatch(await page.locator('body').textContent(), /\b1 (presses|games|moves|entries)\b/);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

/// Regression: what a new player still tripped over after the first fixes.
test('The move log names each move in the game\'s words, its notation only as a tooltip, with plain hyphens', async () => {
  const page = await pageAt(browser, 390);
  const cases = [
    { game: 'nim', players: ['human', 'human'] },
    { game: 'samegame', variant: 'seed=9', players: ['human'] },
    { game: 'northcott', players: ['human', 'human'] },
  ];
  for (const body of cases) {
    const s = await openSession(page, body);
    const played = s.view.legal_moves[0];
    assert.ok(played.words && played.words !== played.move, `${body.game} declares words for its moves`);
    await api('POST', `/api/sessions/${s.id}/moves`, { move: played.move });
    await page.reload();
    await waitForBoard(page);
    await eventually(async () => (await logTexts(page)).length === 1, `${body.game}: the move listed`);
    const [line] = await logTexts(page);
    // The words the game gave the move before it was played (colours named as the legend names them).
    for (const part of played.words.split(/\bcolour \d+\b/)) assert.ok(line.includes(part), `${body.game}: "${line}" has the words "${played.words}"`);
    assert.ok(!line.includes(played.move), `${body.game}: "${line}" shows no notation "${played.move}"`);
    const button = page.locator('.log .log-move').first();
    assert.equal(await button.getAttribute('title'), played.move, `${body.game}: the notation is the tooltip`);
    assert.ok((await button.getAttribute('aria-label')).includes(played.words.split(' ')[0]), 'read aloud in words too');
    // Copied or read aloud, a hyphen is a hyphen (U+2011 was pasted as another character).
    const text = await page.locator('.log').textContent();
    assert.doesNotMatch(text, /\u2011/, `${body.game}: ${text}`);
  }
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

/// Regression: what a new player still tripped over after the first fixes.
test('The log of a played game is declared in words by the server: legal_moves[].words, then log[].words', async () => {
  const { data } = await api('POST', '/api/sessions', { game: 'nim', players: ['human', 'human'] });
  const move = data.view.legal_moves.at(-1);
  const { data: after } = await api('POST', `/api/sessions/${data.id}/moves`, { move: move.move });
  const entry = after.view.log.at(-1);
  assert.equal(entry.move, move.move);
  assert.ok(entry.words.endsWith(move.words), `${entry.words} ends with ${move.words}`);
  assert.ok(!entry.words.includes(move.move), entry.words);
});

/// Regression: a defect found trying the page as a user would (issue 11).
test('plain words, seat colours, equal piece sizes, a single move waits for its target', async () => {
  const page = await newPage(browser);
  if (has('hexapawn')) {
    await openPath(page, '/game/hexapawn');
    const white = await page.locator('.piece[data-owner="0"] .piece-disc').first().evaluate((e) => getComputedStyle(e).fill);
    assert.match(white, /rgb\((2[0-9]{2}), (2[0-9]{2}), (2[0-9]{2})\)/, `White is drawn light: ${white}`);
  }
  for (const g of games) {
    await openPath(page, `/game/${g.name}`);
    const text = await page.locator('main').innerText();
    assert.doesNotMatch(text, /the seed's|\bcell \d+: empty/i, g.name);
  }
  if (has('northcott')) {
    await openGame(page, { game: 'northcott', players: ['human', 'nim'], seed: 1 });
    const radii = await page.$$eval('.piece-disc', (els) => [...new Set(els.map((e) => e.getAttribute('r')))]);
    assert.equal(radii.length, 1, `one piece size: ${radii}`);
  }
  // A piece with one legal move is selected first, not played at once.
  await openGame(page, { game: 'hexapawn', players: ['human', 'human'], seed: 1 });
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

/// Regression: one of issue 11's last parts.
test('plain words: Kono counts pieces by side, computer players are named in words', async () => {
  const page = await newPage(browser);
  if (has('kono')) {
    await openPath(page, '/game/kono?variant=');
    const chips = await page.locator('.status-chips li').allTextContents();
    const seats = games.find((g) => g.name === 'kono').seats;
    assert.deepEqual(chips, [`${seats[0]}: 8 pieces`, `${seats[1]}: 8 pieces`], chips.join(' | '));
  }
  if (has('poggle')) {
    // Poggle's board shows colours, not digits: what is left is said in colours.
    await openPath(page, '/game/poggle?variant=');
    const chips = await page.locator('.status-chips').textContent();
    assert.match(chips, /Buttons not yet the goal colour: \d+/, chips);
    assert.doesNotMatch(chips, /at 0/);
  }
  if (has('samegame')) {
    await openPath(page, '/game/samegame?variant=');
    assert.doesNotMatch(await page.locator('.summary').first().textContent(), /\^/);
    // The score card says the score and blocks left: the chips under the board do not repeat them.
    assert.doesNotMatch(await page.locator('.status-chips').textContent(), /score|blocks left/i);
    assert.match(await page.locator('.big-numbers').textContent(), /blocks left/i);
  }
  for (const g of games.filter((g) => !g.puzzle)) {
    await openPath(page, `/game/${g.name}?variant=`);
    const options = await page.locator('select[aria-label="Computer player"] option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
    for (const [value, text] of options) {
      assert.notEqual(text, value, `${g.name}: the player '${value}' is shown as its API name`);
      assert.doesNotMatch(text, /slider|:|=/, `${g.name}: ${text}`);
    }
    // The help under the choice says what the player does, not how to type its options
    // (the choice is a stored setting: it is put back afterwards).
    const original = await page.locator('select[aria-label="Computer player"]').inputValue();
    for (const value of options.map(([v]) => v).filter((v) => ['alphabeta', 'matchbox', 'expectimax', 'best', 'search'].includes(v))) {
      await page.selectOption('select[aria-label="Computer player"]', value);
      // A learning machine is described on the game's learning card instead (once).
      const learnCard = (g.presentation?.panels || []).some((p) => p.kind === 'learn');
      if (learnCard && g.players.find((p) => p.name === value)?.learns) {
        await page.waitForFunction((v) => document.querySelector('select[aria-label="Computer player"]')?.value === v, value);
        continue;
      }
      await page.waitForFunction((v) => document.querySelector('select[aria-label="Computer player"]')?.value === v && document.querySelector('.players p.muted'), value);
      const help = await page.locator('.players p.muted').textContent();
      assert.doesNotMatch(help, /=|\b[a-z]+:[a-z]/, `${g.name} ${value}: ${help}`);
    }
    if ((await page.locator('select[aria-label="Computer player"]').inputValue()) !== original) {
      await page.selectOption('select[aria-label="Computer player"]', original);
      await page.waitForFunction((v) => document.querySelector('select[aria-label="Computer player"]')?.value === v, original);
      await page.waitForTimeout(400); // the choice is stored by a request of its own
    }
    const tally = await page.locator('.tally').textContent();
    assert.doesNotMatch(tally, /\((level|perfect|alphabeta|expectimax|lookahead|scenario|nim|random)[:)]/, `${g.name}: ${tally}`);
  }
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

/// Words meant for programmers, each replaced by the game's or the
/// server's words for a player.
test('moves, reasons and refusals are in a player\'s words', async () => {
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

for (const width of WIDTHS) {
  /// Regression: a new player's walk through every page.
  test(`${width} px: every choice of the players card's menus is read whole`, async () => {
    const page = await pageAt(browser, width);
    const cut = [];
    for (const g of games.filter((x) => !x.puzzle)) {
      await openSession(page, { game: g.name });
      const menus = await page.evaluate(() => [...document.querySelectorAll('.players select')].map((menu) => {
        const style = getComputedStyle(menu);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        // The menu's arrow takes about 20 px of the box beside its padding.
        const inner = menu.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
        return [...menu.options].map((o) => ({ text: o.textContent, needs: ctx.measureText(o.textContent).width, inner }));
      }));
      assert.ok(menus.length >= 1, `${g.name}: a players card with its menus`);
      for (const o of menus.flat()) if (o.needs > o.inner) cut.push(`${g.name}: "${o.text}" needs ${o.needs.toFixed(0)} px of ${o.inner.toFixed(0)}`);
    }
    assert.deepEqual(cut, [], `at ${width} px`);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

}
