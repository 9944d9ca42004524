// What a new player still tripped over after the first round of fixes: the move
// log in words, game IDs in a player's words that replay the same dice, toasts
// that cover nothing needed, and Auto120's markers on a phone. Each test fails on
// the page as it was before its fix.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, pageAt, openSession, api, logTexts, eventually, waitForBoard, sessionOf, sessionView, browserForFile, WIDTHS } from './helpers.mjs';

const browser = browserForFile();

/// The session a page shows once it has settled on one (after a navigation).
async function settledView(page) {
  try {
    const id = sessionOf(page);
    if (!id) return null;
    const { status, data } = await api('GET', `/api/sessions/${id}`);
    return status === 200 ? data.view : null;
  } catch {
    return null;
  }
}

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

test('The log of a played game is declared in words by the server: legal_moves[].words, then log[].words', async () => {
  const { data } = await api('POST', '/api/sessions', { game: 'nim', players: ['human', 'human'] });
  const move = data.view.legal_moves.at(-1);
  const { data: after } = await api('POST', `/api/sessions/${data.id}/moves`, { move: move.move });
  const entry = after.view.log.at(-1);
  assert.equal(entry.move, move.move);
  assert.ok(entry.words.endsWith(move.words), `${entry.words} ends with ${move.words}`);
  assert.ok(!entry.words.includes(move.move), entry.words);
});

test('A dealt board\'s game ID reads "Game N", and Enter a game ID takes it back', async () => {
  const page = await pageAt(browser, 1280);
  const s = await openSession(page, { game: 'samegame', variant: 'seed=133426806', players: ['human'] });
  await eventually(async () => (await page.locator('.game-id').inputValue()) === 'Game 133426806', 'the ID in words');
  const record = await page.locator('.record-text').inputValue();
  assert.match(record, /^Variant: Game 133426806$/m, record);
  assert.doesNotMatch(record, /seed=/, record);
  // One move on: the ID names the board and the move.
  await page.click(`.board [data-cell="${s.view.legal_moves[0].cells[0]}"] .cell-shape`);
  await eventually(async () => (await logTexts(page)).length === 1, 'the move listed');
  const now = await sessionView(page);
  await eventually(async () => (await page.locator('.game-id').inputValue()).startsWith('Game 133426806#'), 'the ID with its move');
  const id = await page.locator('.game-id').inputValue();
  // What is shown is what the box takes: on a fresh page, the board alone and the board with its move.
  const other = await pageAt(browser, 390);
  for (const [entered, position] of [['Game 133426806', s.view.position], [id, now.position]]) {
    await other.goto(`${BASE}/game/samegame`);
    await waitForBoard(other);
    const before = sessionOf(other);
    await other.locator('.enter-id').fill(entered);
    await other.locator('.id-form button').click();
    await eventually(async () => sessionOf(other) !== before && (await settledView(other))?.position === position, `"${entered}" opens that game`, 30_000);
  }
  assert.deepEqual([...page.pageErrors, ...other.pageErrors], []);
  await other.close();
  await page.close();
});

for (const game of ['pig', 'auto120']) {
  test(`${game}: a game ID replays the same rolls`, { timeout: 90_000 }, async () => {
    const { data } = await api('POST', '/api/sessions', { game, players: ['human', 'human'], seed: 11 });
    // Play on until several rolls were made (each choice the first move offered).
    let view = data.view;
    for (let i = 0; i < 12 && !view.outcome; i++) {
      const r = await api('POST', `/api/sessions/${data.id}/moves`, { move: view.legal_moves[0].move });
      assert.equal(r.status, 200, JSON.stringify(r.data));
      view = r.data.view;
    }
    const page = await pageAt(browser, 1280);
    await page.goto(`${BASE}/game/${game}?s=${data.id}`);
    await waitForBoard(page);
    await eventually(async () => (await page.locator('.game-id').inputValue()).includes('#'), 'the game ID');
    const id = await page.locator('.game-id').inputValue();
    const log = await logTexts(page);
    const other = await pageAt(browser, 390);
    await other.goto(`${BASE}/game/${game}`);
    await waitForBoard(other);
    const before = sessionOf(other);
    await other.locator('.enter-id').fill(id);
    await other.locator('.id-form button').click();
    await eventually(async () => sessionOf(other) !== before && (await settledView(other))?.position === view.position, `${game}: the ID "${id}" opens the same game`, 30_000);
    const replayed = await settledView(other);
    assert.deepEqual(replayed.log.map((e) => e.text), view.log.map((e) => e.text), 'the same rolls, in the same order');
    await waitForBoard(other);
    await eventually(async () => (await logTexts(other)).join('|') === log.join('|'), 'the same move list on the page');
    assert.deepEqual([...page.pageErrors, ...other.pageErrors], []);
    await other.close();
    await page.close();
  });
}

const overlaps = (a, b) => a && b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

for (const width of WIDTHS) {
  test(`${width} px: the "Solved" toast covers neither the top bar, the board, its buttons nor the Solution card`, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'poggle', variant: 'size=1', players: ['human'] });
    await page.locator('.card:has(h2:text-is("Solution")) .solvable-text').waitFor({ timeout: 30_000 });
    await page.locator('.board-wrap [data-cell="0"]').click();
    const toast = page.locator('#toasts .toast', { hasText: 'Solved' });
    await toast.waitFor({ timeout: 20_000 });
    const rects = await page.evaluate((width) => {
      const r = (sel) => {
        const el = document.querySelector(sel);
        if (!el) return null;
        const b = el.getBoundingClientRect();
        return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
      };
      const toastEl = [...document.querySelectorAll('#toasts .toast')].find((t) => /Solved/.test(t.textContent));
      const t = toastEl.getBoundingClientRect();
      const solution = [...document.querySelectorAll('.card')].find((c) => c.querySelector('h2')?.textContent === 'Solution');
      const s = solution?.getBoundingClientRect();
      return {
        toast: { left: t.left, right: t.right, top: t.top, bottom: t.bottom },
        topbar: r('.topbar'),
        board: r('.board-wrap'),
        actions: r('.board-actions'),
        status: r('.turn-line'),
        solution: s && width > 600 ? { left: s.left, right: s.right, top: s.top, bottom: s.bottom } : null,
      };
    }, width);
    for (const what of ['topbar', 'board', 'actions', 'status', 'solution']) {
      assert.ok(!overlaps(rects.toast, rects[what]), `the toast ${JSON.stringify(rects.toast)} covers the ${what} ${JSON.stringify(rects[what])}`);
    }
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

test('390 px: every marker of Auto120\'s start is on the screen, not cut off at its edge', async () => {
  const page = await pageAt(browser, 390);
  await openSession(page, { game: 'auto120', players: ['human', 'human'], seed: 1 });
  await eventually(async () => (await page.locator('.board-wrap .piece').count()) === 8, 'eight markers');
  const { wrap, pieces } = await page.evaluate(() => {
    const w = document.querySelector('.board-wrap').getBoundingClientRect();
    return {
      wrap: { left: w.left, right: Math.min(w.right, window.innerWidth) },
      pieces: [...document.querySelectorAll('.board-wrap .piece')].map((g) => {
        const b = g.getBoundingClientRect();
        return { name: `${g.dataset.owner}:${g.textContent}`, left: b.left, right: b.right };
      }),
    };
  });
  for (const p of pieces) assert.ok(p.left >= wrap.left - 0.5 && p.right <= wrap.right + 0.5, `marker ${p.name} (${p.left}-${p.right}) within ${wrap.left}-${wrap.right}`);
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});
