// The page's last strings read from typed data, and the small things a new player
// still tripped over: the "why" line in the game's words, a flip only where a board
// has sides, a short game ID, a board number only where a start is dealt, the
// move list in words, an exact chance said once and exactly, a learning machine
// described once. Each test fails on the page as it was before its fix.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, pageAt, openSession, api, sessionOf, sessionView, waitForBoard, eventually, browserForFile, listedGames, atEachWidth } from './helpers.mjs';

const { info } = await listedGames();
const browser = browserForFile();

test("the hint's why line names each move in the game's words, its notation a tooltip", async () => {
  const page = await pageAt(browser, 1280);
  try {
    await openSession(page, { game: 'nim', players: ['human', 'perfect'], seed: 3 });
    await page.getByRole('button', { name: 'Hint', exact: true }).click();
    await page.waitForSelector('.hint-move');
    await page.locator('.hint-move').first().click();
    await page.waitForSelector('.pv-line li');
    const shown = await page.locator('.pv-line li > span:not(.pv-by):not(.badge-inline)').allTextContents();
    const tips = await page.locator('.pv-line li > span:not(.pv-by):not(.badge-inline)').evaluateAll((els) => els.map((e) => e.title));
    const first = (await page.locator('.hint-move .hint-move-name').first().textContent()).trim();
    const view = await sessionView(page);
    const move = view.legal_moves.find((m) => m.words === first)?.move;
    assert.ok(move, `the first listed move "${first}" is a legal move's words`);
    const { data } = await api('GET', `/api/sessions/${sessionOf(page)}/line?move=${encodeURIComponent(move)}`);
    assert.equal(shown.length, data.line.length);
    data.line.forEach((e, i) => {
      const said = e.parts.map((p) => p.text ?? p.term ?? '').join('');
      assert.equal(shown[i], said, `move ${i + 1} of the line in words`);
      assert.ok(!shown[i].includes(e.move), `"${shown[i]}" carries no notation "${e.move}"`);
      assert.equal(tips[i], e.move, 'the notation is the tooltip');
    });
  } finally {
    await page.close();
  }
});

test('a board with no sides offers no flip (its view says so); a board with sides does', async () => {
  await atEachWidth(browser, async (page, width) => {
    await openSession(page, { game: 'pig', players: ['human', 'random'], seed: 1 });
    assert.equal((await sessionView(page)).view.flippable, false);
    assert.equal(await page.getByRole('button', { name: 'Flip board' }).isVisible(), false, `Pig at ${width} px`);
    assert.doesNotMatch(await page.locator('.key-help').textContent(), /F flip/);
    await page.screenshot({ path: join(ARTIFACTS, `plain-pig-${width}.png`), fullPage: true });
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'], seed: 1 });
    assert.equal(await page.getByRole('button', { name: 'Flip board' }).isVisible(), true, `Tic-tac-toe at ${width} px`);
  });
});

test("Auto120's game ID is short, as other games' are, and opens the same game", async () => {
  const page = await pageAt(browser, 1280);
  try {
    await openSession(page, { game: 'auto120', players: ['human', 'human'], seed: 4 });
    const view = await sessionView(page);
    assert.ok(view.moves.length >= 2, 'who starts and the first roll are played');
    await page.locator('.game-id').scrollIntoViewIfNeeded();
    const id = await page.locator('.game-id').inputValue();
    assert.match(id, /^#\d+(~\d+)*$/, `the ID "${id}"`);
    assert.doesNotMatch(id, /start|roll|marker/);
    // Entered again, the ID opens this very game.
    const before = sessionOf(page);
    await page.locator('.enter-id').fill(id);
    await page.locator('.id-form button[type=submit]').click();
    await page.waitForFunction((s) => new URL(location.href).searchParams.get('s') !== s, before);
    await waitForBoard(page);
    const again = await sessionView(page);
    assert.equal(again.position, view.position);
    assert.deepEqual(again.moves, view.moves);
  } finally {
    await page.close();
  }
});

test("Poggle's board number is offered only where the start is dealt at random", async () => {
  await atEachWidth(browser, async (page, width) => {
    await openSession(page, { game: 'poggle', players: ['human'], seed: 1 });
    const field = page.locator('.variant-form [data-option=seed]');
    assert.equal(await field.count(), 1);
    assert.equal(await field.isVisible(), false, `the usual fixed start at ${width} px`);
    await page.locator('.variant-form select[name=start]').selectOption('random');
    await field.waitFor({ state: 'visible' });
    await page.locator('.variant-form select[name=start]').selectOption('ones');
    await field.waitFor({ state: 'hidden' });
    await page.screenshot({ path: join(ARTIFACTS, `plain-poggle-${width}.png`), fullPage: true });
  });
});

test("an exact chance is said once, exactly, in sentences that start with a capital", async () => {
  const page = await pageAt(browser, 1280);
  try {
    // Two markers each: the exact solution is small (built on the first hint).
    await openSession(page, { game: 'auto120', variant: 'markers=2', players: ['human', 'human'], seed: 2 });
    const view = await sessionView(page);
    assert.ok(view.human_to_move && view.legal_moves.length > 1, 'a choice of markers');
    let hint;
    await eventually(async () => {
      hint = (await api('GET', `/api/sessions/${sessionOf(page)}/hint`)).data;
      return hint.analysis.moves.some((m) => m.grade.exact);
    }, 'the exact chances', 60_000);
    await page.getByRole('button', { name: 'Hint', exact: true }).click();
    await page.waitForSelector('.hint-summary');
    const grades = hint.analysis.moves.map((m) => m.grade).filter((g) => g.kind === 'win_chance');
    assert.ok(grades.length && grades.every((g) => g.exact), 'the hint is exact here');
    const text = await page.locator('.hint-list').textContent();
    assert.doesNotMatch(text, /about \d+%/, text);
    const exact = `${(100 * grades[0].chance).toFixed(1).replace(/\.0$/, '')}%`;
    assert.ok(text.includes(exact), `${exact} in "${text}"`);
    const summary = await page.locator('.hint-summary').textContent();
    for (const sentence of summary.split(/(?<=\.)\s+/)) assert.match(sentence, /^[A-Z0-9]/, `"${sentence}" in "${summary}"`);
    await page.screenshot({ path: join(ARTIFACTS, 'plain-auto120-hint.png') });
  } finally {
    await page.close();
  }
});

test('a learning machine is described once: on the card that shows it learn', async () => {
  const help = info('tictactoe').players.find((p) => p.name === 'matchbox').help;
  await atEachWidth(browser, async (page, width) => {
    await openSession(page, { game: 'tictactoe', players: ['human', 'matchbox'], seed: 1 });
    await page.waitForSelector('.matchbox-area');
    const body = await page.locator('main').textContent();
    const said = help.charAt(0).toUpperCase() + help.slice(1);
    const times = body.split(said).length - 1;
    assert.equal(times, 1, `the machine's description at ${width} px`);
  });
});
