// Variants: the game's presets, one press opening one; options that take a few
// words as menus; the summary under the title following the variant; ?variant=
// opening that variant, and a bad one saying why.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, WIDTHS, newPage, api, sessionView, waitForBoard, pageAt, openSession, browserForFile, listedGames, openPath, colours } from './helpers.mjs';

const { games, has, info } = await listedGames();
const browser = browserForFile();

for (const width of WIDTHS) {
  /// Regression: issue 24's review of the browser.
  test(`${width} px: the summary under the title follows the variant, also for a game resumed from the home page`, { skip: !has('hexapawn') || !has('tictactoe'), timeout: 90_000 }, async () => {
    const page = await pageAt(browser, width);
    const summary = () => page.locator('.board-head .summary').textContent();
    await openSession(page, { game: 'hexapawn', variant: 'columns=4,rows=4', players: ['human', 'perfect'] });
    assert.match(await summary(), /4x4 board/);
    assert.doesNotMatch(await summary(), /3x3/);
    // The home page's link goes on with that game: its summary is the 4x4 one.
    await page.goto(`${BASE}/game/hexapawn`);
    await waitForBoard(page);
    assert.equal((await sessionView(page)).variant.includes('columns=4'), true);
    assert.match(await summary(), /4x4 board/);
    await openSession(page, { game: 'tictactoe', variant: 'play=misere', players: ['human', 'perfect'] });
    assert.match(await summary(), /three in a row loses/);
    await page.goto(`${BASE}/game/tictactoe`);
    await waitForBoard(page);
    assert.match(await summary(), /three in a row loses/);
    await page.close();
  });

  /// Regression: issue 24's review of the browser.
  test(`${width} px: variant options that take a few words are menus; choosing one opens that variant`, { skip: !has('tictactoe'), timeout: 90_000 }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['human', 'perfect'] });
    const play = page.locator('.variant-form select[name="play"]');
    assert.deepEqual(await play.locator('option').evaluateAll((o) => o.map((x) => x.value)), ['normal', 'misere']);
    assert.match(await play.locator('option[value="misere"]').textContent(), /misère/);
    await play.selectOption('misere');
    await page.click('.variant-form button:has-text("Play this variant")');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('variant') === 'play=misere');
    await waitForBoard(page);
    assert.equal(await page.locator('.variant-form select[name="play"]').inputValue(), 'misere');
    // Every game's options with a short list of values are menus; the rest typed.
    for (const g of games) {
      for (const o of g.options) {
        if (o.choices?.length) assert.ok(o.choices.includes(String(o.default)), `${g.name} ${o.name}: its default is a choice`);
      }
    }
    if (has('samegame')) {
      await openSession(page, { game: 'samegame', variant: 'seed=2', players: ['human'] });
      assert.equal(await page.locator('.variant-form select[name="scoring"]').count(), 1);
      assert.equal(await page.locator('.variant-form input[name="size"]').count(), 1, 'a size is typed');
      // The menu reads the game's words for each value and still sends the value.
      const scoring = page.locator('.variant-form select[name="scoring"] option');
      const items = await scoring.evaluateAll((os) => os.map((x) => ({ value: x.value, text: x.textContent })));
      assert.deepEqual(items.map((x) => x.value), ['standard', 'nobonus', 'blocks']);
      const nobonus = items.find((x) => x.value === 'nobonus').text;
      assert.match(nobonus, /no bonus/);
      assert.doesNotMatch(items.map((x) => x.text).join(' | '), /nobonus|_/);
      assert.match(items.find((x) => x.value === 'standard').text, /usual/, 'the usual value is marked');
    }
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

/// Regression: a defect found trying the page as a user would (issue 11).
test('?variant= opens that variant, not a stored session of another; a bad variant says why', { skip: !has('northcott') }, async () => {
  const page = await newPage(browser);
  await openPath(page, '/game/northcott');
  await openPath(page, '/game/northcott?variant=size%3D6x3');
  const view = await sessionView(page);
  assert.match(view.variant, /size=6x3/);
  assert.equal(Math.round(view.view.width), 6);
  assert.match(await page.locator('.variant').textContent(), /6x3/);
  assert.doesNotMatch(await page.locator('.board-head').textContent(), /=/, 'no raw option text');
  await page.goto(`${BASE}/game/northcott?variant=size%3D99`);
  await page.waitForSelector('.empty h1');
  assert.match(await page.locator('.empty').textContent(), /99/);
  // The chooser: the server's refusal is shown in the form; a good one opens the game.
  await openPath(page, '/game/northcott');
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

/// Regression: one of issue 11's last parts.
test('presets: every game page offers the game\'s own presets; one press opens that variant', async () => {
  const page = await newPage(browser);
  for (const g of games) {
    // The presets come from the server, named in words.
    assert.ok(g.presets.length >= 2, `${g.name} has presets`);
    for (const p of g.presets) assert.doesNotMatch(p.name, /=/, `${g.name}: ${p.name}`);
    await openPath(page, `/game/${g.name}?variant=`);
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
    await openPath(page, `/game/${name}?variant=`);
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
