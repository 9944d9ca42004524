// Issue 11, the last parts: variant presets from the game (Tatham's "Type" menu),
// training streamed as it goes, plain words, the home page's thumbnails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, api, BASE, sessionView, waitForBoard, browserForFile, listedGames } from './helpers.mjs';

const { games, has } = await listedGames();
const browser = browserForFile();

async function open(page, path) {
  await page.goto(`${BASE}${path}`);
  await waitForBoard(page);
}

test('presets: every game page offers the game\'s own presets; one press opens that variant', async () => {
  const page = await newPage(browser);
  for (const g of games) {
    // The presets come from the server, named in words.
    assert.ok(g.presets.length >= 2, `${g.name} has presets`);
    for (const p of g.presets) assert.doesNotMatch(p.name, /=/, `${g.name}: ${p.name}`);
    await open(page, `/game/${g.name}?variant=`);
    const shown = await page.locator('.variant-presets .preset').allTextContents();
    assert.deepEqual(shown, g.presets.map((p) => p.name), g.name);
    // The usual game is marked as chosen, and the title names no variant.
    const usual = g.presets.find((p) => p.variant === '');
    assert.ok(usual, `${g.name}: the usual game is a preset`);
    assert.equal(await page.locator('.variant-presets .preset[aria-pressed=true]').textContent(), usual.name);
    assert.equal((await page.locator('.variant-line').textContent()).trim(), '', g.name);
    // The custom form speaks to players: no command-line asides or code quotes.
    assert.doesNotMatch(await page.locator('.variant-form').textContent(), /`|tabula solve/, g.name);
  }
  // Choosing another preset starts a game of it; the title says it in its own words.
  const pick = { samegame: '10x10, 3 colours', auto120: '2 markers each', kono: null };
  for (const [name, label] of Object.entries(pick)) {
    if (!has(name)) continue;
    const info = games.find((g) => g.name === name);
    const preset = label ? info.presets.find((p) => p.name === label) : info.presets.find((p) => p.variant !== '');
    await open(page, `/game/${name}?variant=`);
    await page.locator('.variant-presets .preset', { hasText: preset.name }).first().click();
    // The address names the variant the page opened (normalised: every option written out).
    await page.waitForFunction(() => new URL(location.href).searchParams.get('variant'));
    await waitForBoard(page);
    await page.waitForFunction((n) => document.querySelector('.variant-presets .preset[aria-pressed=true]')?.textContent === n, preset.name);
    const view = await sessionView(page);
    const built = await api('GET', `/api/games/${name}?variant=${encodeURIComponent(preset.variant)}`);
    assert.equal(built.status, 200);
    const strip = (v) => v.split(',').filter((p) => !p.startsWith('seed=')).join(',');
    assert.equal(strip(view.variant), strip(built.data.variant), `${name}: the session plays the preset`);
    assert.equal((await page.locator('.variant-line').textContent()).trim(), preset.name);
  }
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

test('watch it learn: the curve is drawn while the machine trains, then you play that machine', { skip: !has('tictactoe') }, async () => {
  const page = await newPage(browser);
  await open(page, '/game/tictactoe');
  await page.selectOption('select[aria-label="Training games"]', '200');
  // Count the curves drawn while the job runs (each server-sent update redraws it).
  await page.evaluate(() => {
    window.curvesDrawn = [];
    const area = document.querySelector('.plot-area');
    new MutationObserver(() => {
      const points = area.querySelectorAll('.plot circle').length;
      if (points) window.curvesDrawn.push(points);
    }).observe(area, { childList: true });
  });
  // The learning machine the page plays now (the usual opponent) is the one trained.
  // The computer player is a stored choice that other tests of this run may have
  // changed: a learning machine is chosen again if it is not the one playing.
  const learns = (seats) => seats.findIndex((s) => ['matchbox', 'menace'].includes(s.player));
  let { seats } = await sessionView(page);
  if (learns(seats) < 0) {
    await page.selectOption('select[aria-label="Computer player"]', 'matchbox');
    for (let tries = 0; tries < 50 && learns(seats) < 0; tries += 1) {
      await page.waitForTimeout(200);
      ({ seats } = await sessionView(page));
    }
  }
  const learner = learns(seats);
  assert.ok(learner >= 0, JSON.stringify(seats));
  const t0 = Date.now();
  await page.click('button:has-text("Train")');
  // While training, the summary counts the games played so far.
  await page.locator('.card p.muted.small', { hasText: /Training: \d+ of 200 games/ }).waitFor({ timeout: 30_000 });
  await page.locator('.toast', { hasText: 'you now play the trained machine' }).waitFor({ timeout: 60_000 });
  const seconds = (Date.now() - t0) / 1000;
  const drawn = await page.evaluate(() => window.curvesDrawn);
  // 200 games in blocks of 10: 20 points a series, three series; the curve grew
  // through many sizes before the end, a few updates a second.
  assert.equal(drawn.at(-1), 60, `${drawn}`);
  const sizes = [...new Set(drawn)];
  assert.ok(sizes.length >= 6, `curves drawn while training: ${drawn}`);
  assert.ok(sizes.every((n, i) => i === 0 || n > sizes[i - 1]), `the curve only grows: ${drawn}`);
  assert.ok(drawn.length / seconds >= 1, `${drawn.length} updates in ${seconds} s`);
  // The machine you now play is the one trained, in its seat, 200 games learned.
  const view = await sessionView(page);
  assert.equal(view.seats[learner].player, seats[learner].player);
  const { data } = await api('GET', `/api/sessions/${new URL(page.url()).searchParams.get('s')}/learned?seat=${learner}`);
  assert.ok((data.learned.games ?? 0) >= 200, `games learned: ${data.learned.games}`);
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

test('Auto120 hint: where the variant is solved the exact chances decide, said in words', { skip: !has('auto120') }, async () => {
  const page = await newPage(browser);
  for (const variant of ['markers=2', '']) {
    await open(page, `/game/auto120?variant=${encodeURIComponent(variant)}`);
    const view = await sessionView(page);
    assert.ok(view.human_to_move, 'your turn at the start');
    await page.click('button:has-text("Hint")');
    const summary = page.locator('.hint-summary');
    await summary.waitFor({ timeout: 60_000 });
    const text = await summary.textContent();
    const { data } = await api('GET', `/api/sessions/${new URL(page.url()).searchParams.get('s')}/hint`);
    // The typed hint (docs/JSON.md): moves graded by their chance, the best one
    // named with its chance, once: an exact chance to a tenth of a percent "with
    // best play", a look-ahead's estimate rounded and said to be one.
    const moves = data.analysis.moves.filter((m) => m.grade.kind === 'win_chance');
    const top = Math.max(...moves.map((m) => m.grade.chance));
    const best = moves.find((m) => m.move === data.best.move).grade;
    const said = best.exact
      ? `${(100 * top).toFixed(1).replace(/\.0$/, '')}% chance to win with best play`
      : `about ${Math.round(100 * top)}% chance to win (the look-ahead's estimate)`;
    assert.ok(text.includes(said), `"${said}" in: ${text}`);
    assert.equal(text.split('% chance').length - 1, 1, `the chance said once: ${text}`);
    assert.ok(text.includes(data.best.move), `${data.best.move} in: ${text}`);
    assert.ok(top - best.chance < 1e-9, 'the best move has the top chance');
    // In words: never raw numbers.
    assert.doesNotMatch(text, /\d\.\d{3}|\[|null|undefined/);
    await page.click('button:has-text("Hint")');
  }
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

test('plain words: Kono counts pieces by side, computer players are named in words', async () => {
  const page = await newPage(browser);
  if (has('kono')) {
    await open(page, '/game/kono?variant=');
    const chips = await page.locator('.status-chips li').allTextContents();
    const seats = games.find((g) => g.name === 'kono').seats;
    assert.deepEqual(chips, [`${seats[0]}: 8 pieces`, `${seats[1]}: 8 pieces`], chips.join(' | '));
  }
  if (has('poggle')) {
    // Poggle's board shows colours, not digits: what is left is said in colours.
    await open(page, '/game/poggle?variant=');
    const chips = await page.locator('.status-chips').textContent();
    assert.match(chips, /Buttons not yet the goal colour: \d+/, chips);
    assert.doesNotMatch(chips, /at 0/);
  }
  if (has('samegame')) {
    await open(page, '/game/samegame?variant=');
    assert.doesNotMatch(await page.locator('.summary').first().textContent(), /\^/);
    // The score card says the score and blocks left: the chips under the board do not repeat them.
    assert.doesNotMatch(await page.locator('.status-chips').textContent(), /score|blocks left/i);
    assert.match(await page.locator('.big-numbers').textContent(), /blocks left/i);
  }
  for (const g of games.filter((g) => !g.puzzle)) {
    await open(page, `/game/${g.name}?variant=`);
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
