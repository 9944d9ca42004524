// Review: stepping back through a game without undoing it. Every card beside the
// board shows the reviewed position (the server's view of that ply, for every game
// the server lists); a move clicked in the list shows its position in view; the
// arrow keys step; the value history's chart has numbered ticks, jumps to a move
// and stays readable for a 300-move game; Show move values grades the reviewed
// position; play from here continues from it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, ARTIFACTS, WIDTHS, newPage, api, sessionOf, sessionView, boardState, waitForBoard, pageAt, openSession, eventually, browserForFile, listedGames, openPath, openGame, colours } from './helpers.mjs';

const { games, has } = await listedGames();
const browser = browserForFile();

/// A fact's value as the page writes it (results.js `factValue` for the kinds a
/// view's facts use).
function valueText(v) {
  if (v.kind === 'integer' || v.kind === 'number') return Number(v.value).toLocaleString('en');
  if (v.kind === 'percent') return `${(100 * v.value).toFixed(1)}%`;
  if (v.kind === 'flag') return v.value ? 'yes' : 'no';
  if (v.kind === 'list') return v.value.join(', ');
  return String(v.value);
}

const factLine = (f) => `${f.label}: ${valueText(f.value)}`;

/// A game of `game` played by people for up to `plies` moves through the API
/// (dice are rolled by the server), choosing among the legal moves by a fixed rule.
async function playedSession(game, plies) {
  const seats = game.seats.map(() => 'human');
  const { status, data } = await api('POST', '/api/sessions', { game: game.name, players: seats, seed: 11 });
  assert.equal(status, 201, JSON.stringify(data));
  let view = data.view;
  for (let i = 0; i < plies && !view.outcome && view.legal_moves.length; i++) {
    const moves = view.legal_moves;
    const mv = moves[(i * 7 + 3) % moves.length];
    const r = await api('POST', `/api/sessions/${data.id}/moves`, { move: mv.move });
    assert.equal(r.status, 200, JSON.stringify(r.data));
    view = r.data.view;
  }
  return { id: data.id, view };
}

/// What the page shows beside the board now.
async function shown(page) {
  return page.evaluate(() => ({
    chips: [...document.querySelectorAll('.status-chips li')].map((li) => li.textContent.trim()),
    turn: document.querySelector('.turn-line')?.textContent.trim() ?? '',
    cards: Object.fromEntries([...document.querySelectorAll('[data-panel]')].map((c) => [c.dataset.panel, c.textContent.replace(/\s+/g, ' ')])),
  }));
}

const differs = [];

/// A tic-tac-toe game of five moves between two people (X 1, O 2, X 5, O 9, X 4),
/// its value history drawn.
async function reviewGame(page) {
  await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
  for (const [i, c] of [1, 2, 5, 9, 4].entries()) {
    await page.click(`.board [data-cell="${c}"] .cell-shape`);
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, i + 1);
  }
  await page.waitForSelector('.value-chart:not([hidden]) svg');
}

/// A 300-move game's chart is under the board,
/// readable (at least 8 px a move, ticks at their size), scrolls inside itself, and
/// shows remoteness on an axis of its own.
/// One 300-move game (made once, for both widths).
let longGame = null;

async function makeLongGame() {
  const { data } = await api('POST', '/api/sessions', { game: 'nim', variant: 'heaps=150-150', players: ['human', 'human'] });
  const heaps = [150, 150];
  for (let i = 0; i < 300; i++) {
    const k = i % 2;
    const r = await api('POST', `/api/sessions/${data.id}/moves`, { move: `${k + 1}:${heaps[k]}->${heaps[k] - 1}` });
    assert.equal(r.status, 200, JSON.stringify(r.data));
    heaps[k] -= 1;
  }
  return data.id;
}

for (const game of games) {
  test(`review of ${game.name}: the cards show the reviewed position`, { timeout: 240_000 }, async () => {
    const { id, view: live } = await playedSession(game, 6);
    const log = live.log || [];
    assert.ok(log.length >= 2, `${game.name}: a few moves were played (${log.length})`);
    const page = await pageAt(browser, 1280);
    await page.goto(`${BASE}/game/${game.name}?s=${id}${live.variant ? `&variant=${encodeURIComponent(live.variant)}` : ''}`);
    await waitForBoard(page);
    const before = await shown(page);
    const declared = game.presentation.panels.map((p) => p.kind);
    for (const k of [...new Set([1, Math.floor(log.length / 2)])].filter((k) => k >= 1 && k < log.length)) {
      const ply = log[k - 1].ply;
      const { status, data: reviewed } = await api('GET', `/api/sessions/${id}/review?ply=${ply}`);
      assert.equal(status, 200, JSON.stringify(reviewed));
      const want = reviewed.view;
      await page.locator('.log .log-move').nth(k - 1).click();
      await page.waitForFunction((k) => new RegExp(`After move ${k} of`).test(document.querySelector('.review-where')?.textContent || ''), k);
      // The board: exactly the reviewed pieces.
      await page.waitForFunction((n) => document.querySelectorAll('.board-wrap .piece:not(.leaving)').length === n, want.view.pieces.length);
      const board = await boardState(page);
      const pieces = want.view.pieces.map((p) => `${p.cell}:${p.owner ?? ''}:${p.label ?? ''}`).sort();
      assert.deepEqual(board.pieces, pieces, `${game.name} ply ${ply}: the board`);
      const now = await shown(page);
      // The facts beside the board, as the reviewed view declares them.
      assert.deepEqual(now.chips, want.view.facts.map(factLine), `${game.name} ply ${ply}: the facts beside the board`);
      // The status line: the reviewed position's side to move, or its result.
      if (want.outcome) assert.ok(now.turn.length > 0);
      else if (want.to_move !== null && !game.puzzle) assert.match(now.turn, new RegExp(`^${game.seats[want.to_move]} to move`), `${game.name} ply ${ply}: ${now.turn}`);
      // Each declared card with facts of the position.
      for (const facts of want.view.panels) {
        assert.ok(declared.includes(facts.kind), `${game.name}: facts for a declared card (${facts.kind})`);
        const card = now.cards[facts.kind];
        assert.ok(card, `${game.name}: the ${facts.kind} card is on the page`);
        if (facts.kind === 'dice') {
          const said = await page.locator('[data-panel="dice"] .die-text-block strong').first().textContent();
          assert.equal(said, facts.roll.length ? `Rolled ${facts.roll.join(' and ')}` : 'No roll yet', `${game.name} ply ${ply}: ${card.slice(0, 200)}`);
          const who = await page.locator('[data-panel="dice"] .die-text-block .muted').first().textContent();
          if (!want.outcome && facts.seat !== null) assert.equal(who, game.seats[facts.seat], `${game.name} ply ${ply}: whose roll`);
          for (const f of facts.facts) assert.ok(card.includes(factLine(f)), `${game.name} ply ${ply}: ${factLine(f)} in ${card.slice(0, 200)}`);
        } else if (facts.kind === 'score') {
          assert.match(card, new RegExp(`${Number(facts.score).toLocaleString('en')}\\s*score\\s*${Number(facts.left).toLocaleString('en')}\\s*\\w+s left`), `${game.name} ply ${ply}: ${card.slice(0, 200)}`);
        }
      }
      // A card filled from an analysis shows the reviewed ply's.
      if (declared.includes('facts') && k === 1) {
        const card = page.locator('[data-panel="facts"]');
        const expected = await api('GET', `/api/sessions/${id}/hint?ply=${ply}`);
        assert.equal(expected.status, 200, JSON.stringify(expected.data));
        const sections = [...(expected.data.sections || []), ...(expected.data.analysis?.sections || [])];
        const first = sections.flatMap((s) => s.facts || []).find((f) => ['integer', 'text'].includes(f.value?.kind));
        await card.locator('button', { hasText: 'Show' }).click();
        if (first) await page.waitForFunction(([label, value]) => {
          const c = document.querySelector('[data-panel="facts"]')?.textContent || '';
          return c.includes(label) && c.includes(value);
        }, [first.label, valueText(first.value)], { timeout: 120_000 });
        await card.locator('button', { hasText: 'Stop showing' }).click();
      }
      if (JSON.stringify([now.chips, now.cards.dice ?? '', now.cards.score ?? '']) !== JSON.stringify([before.chips, before.cards.dice ?? '', before.cards.score ?? ''])) differs.push(`${game.name}@${ply}`);
      await page.screenshot({ path: join(ARTIFACTS, `review-${game.name}-${k}.png`) });
    }
    // Back to the game: the live position's facts again.
    await page.locator('.review-bar button', { hasText: 'Back to the game' }).click();
    await page.waitForSelector('.review-bar[hidden]', { state: 'attached' });
    assert.deepEqual((await shown(page)).chips, live.view.facts.map(factLine), `${game.name}: the game's facts again`);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

test('the reviewed positions differed from the games as they are now (the checks above could fail)', () => {
  assert.ok(differs.length >= 3, `reviewed facts or cards that differ from the live ones: ${differs.join(', ')}`);
});

for (const width of WIDTHS) {
  /// Regression: issue 24's review of the browser.
  test(`review at ${width} px: a move clicked in the list shows its position in view`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await reviewGame(page);
    // The player has scrolled to the move list.
    await page.locator('.log').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(200);
    await page.locator('.log-move').nth(1).click();
    await page.waitForSelector('.review-bar:not([hidden])');
    await page.waitForFunction(() => /After move 2 of 5/.test(document.querySelector('.review-where').textContent));
    await page.waitForTimeout(800);
    const seen = await page.evaluate(() => {
      const b = document.querySelector('.board-wrap .board').getBoundingClientRect();
      const top = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
      const visible = Math.max(0, Math.min(b.bottom, innerHeight) - Math.max(b.top, top));
      return visible / b.height;
    });
    assert.ok(seen > 0.95, `the board is in view after a click in the move list (${Math.round(seen * 100)}% of it)`);
    assert.equal(await page.locator('.board .piece:not(.leaving)').count(), 2, 'the position after move 2');
    await page.screenshot({ path: join(ARTIFACTS, `polish1-review-${width}.png`) });
    await page.close();
  });

  /// Regression: issue 24's review of the browser.
  test(`review at ${width} px: the arrow keys step through the moves`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await reviewGame(page);
    await page.locator('.log-move').nth(1).focus();
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('.review-bar:not([hidden])');
    await page.waitForFunction(() => /After move 4 of 5/.test(document.querySelector('.review-where').textContent));
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => /After move 1 of 5/.test(document.querySelector('.review-where').textContent));
    assert.equal(await page.locator('.board .piece:not(.leaving)').count(), 1);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => /After move 3 of 5/.test(document.querySelector('.review-where').textContent));
    assert.equal(await page.locator('.board .piece:not(.leaving)').count(), 3);
    await page.keyboard.press('End');
    await page.waitForSelector('.review-bar[hidden]', { state: 'attached' });
    assert.equal(await page.locator('.board .piece:not(.leaving)').count(), 5, 'back to the game');
    await page.close();
  });

  /// Regression: issue 24's review of the browser.
  test(`review at ${width} px: the value chart has numbered ticks and a click jumps to that move`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await reviewGame(page);
    // The chart of the whole game (one of fewer moves may still be showing).
    await page.waitForFunction(() => [...document.querySelectorAll('.value-chart .tick-x')].at(-1)?.textContent === '5');
    const ticks = await page.locator('.value-chart .tick-x').allTextContents();
    assert.ok(ticks.length >= 3 && ticks[0] === '0' && ticks.at(-1) === '5', `move ticks: ${ticks}`);
    assert.match(await page.locator('.value-chart .axis-label').allTextContents().then((t) => t.join(' | ')), /move/);
    // A click on the chart above move 3 shows the position after move 3.
    await page.locator('.value-chart [data-ply="3"]').click({ timeout: 5000 });
    await page.waitForFunction(() => /After move 3 of 5/.test(document.querySelector('.review-where')?.textContent || ''));
    assert.equal(await page.locator('.board .piece:not(.leaving)').count(), 3);
    await page.locator('.value-chart').screenshot({ path: join(ARTIFACTS, `polish1-value-chart-${width}.png`) });
    await page.close();
  });
}

/// Regression: a defect found trying the page as a user would (issue 11).
test('review: step back through the game without undoing, then play from here; value history marks mistakes', { skip: !has('tictactoe') }, async () => {
  const page = await newPage(browser);
  await openGame(page, { game: 'tictactoe', players: ['human', 'human'], seed: 1 });
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

for (const width of WIDTHS) {
  /// Regression: what a new player tripped over in the browser.
  test(`a 300-move game has a readable value chart under the board at ${width} px, with remoteness on its axis`, async () => {
    longGame ||= makeLongGame();
    const id = await longGame;
    const page = await pageAt(browser, width);
    await page.goto(`${BASE}/game/nim?s=${id}&variant=heaps%3D150-150`);
    await waitForBoard(page);
    await page.waitForSelector('.value-chart:not([hidden]) svg .value-hit', { timeout: 60_000 });
    const m = await page.evaluate(() => {
      const chart = document.querySelector('.value-chart');
      const hits = [...chart.querySelectorAll('.value-hit')];
      const tick = chart.querySelector('.tick-x').getBoundingClientRect();
      const board = document.querySelector('.board-wrap').getBoundingClientRect();
      const scroller = chart.querySelector('.value-scroll');
      return {
        hits: hits.length,
        perMove: hits[1].getBoundingClientRect().width,
        tick: tick.height,
        underBoard: chart.getBoundingClientRect().top >= board.bottom - 1,
        scrolls: scroller.scrollWidth > scroller.clientWidth,
        pageWide: document.scrollingElement.scrollWidth > window.innerWidth + 1,
        remoteness: [...chart.querySelectorAll('.tick-r')].map((t) => t.textContent),
        labels: [...chart.querySelectorAll('.axis-label')].map((t) => t.textContent),
      };
    });
    assert.equal(m.hits, 301);
    assert.ok(m.perMove >= 8, `${m.perMove} px a move`);
    assert.ok(m.tick >= 9, `ticks ${m.tick} px high`);
    assert.ok(m.underBoard, 'under the board');
    assert.ok(m.scrolls, 'the chart scrolls inside itself');
    assert.ok(!m.pageWide, 'the page does not scroll sideways');
    assert.ok(m.remoteness.length >= 4 && m.remoteness.includes('0'), m.remoteness.join(' '));
    assert.ok(m.labels.some((l) => /plies to the end/.test(l)), m.labels.join(' | '));
    await page.screenshot({ path: join(ARTIFACTS, `newplayer-chart-${width}.png`) });
    await page.close();
  });
}

/// GamesmanUni's "show move values" (and lichess's analysis of the reviewed
/// position): on, it stays on across moves and reloads, the move list is coloured
/// by value, and a reviewed position is graded too.
test('Show move values stays on across moves, colours the move list and grades the reviewed position', async () => {
  const page = await pageAt(browser, 1280);
  await openSession(page, { game: 'tictactoe', players: ['human', 'human'] });
  const marks = () => page.locator('.board .move-value').count();
  await page.locator('.values-switch input').check();
  await eventually(async () => (await marks()) === 9, 'nine moves graded on the board');
  for (const [i, c] of [5, 2].entries()) {
    await page.click(`.board [data-cell="${c}"] .cell-shape`);
    await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length === n, i + 1);
    // Still on after the move: no Hint pressed.
    await eventually(async () => (await marks()) === 8 - i, `${8 - i} moves graded after move ${i + 1}`);
  }
  assert.equal(await page.locator('.hint-moves li').count(), 7, 'the list too');
  // The move list coloured by each move's value for its mover: X's 5 draws, O's 2 loses.
  await eventually(async () => (await page.locator('.log-move.value-draw').count()) === 1 && (await page.locator('.log-move.value-loss').count()) === 1, 'moves coloured by value');
  // A reload keeps the switch.
  await page.reload();
  await waitForBoard(page);
  assert.equal(await page.locator('.values-switch input').isChecked(), true);
  await eventually(async () => (await marks()) === 7, 'graded after a reload');
  // Reviewing the position after the first move: its eight moves are graded.
  await page.locator('.log-move').first().click();
  await page.waitForSelector('.review-bar:not([hidden])');
  await eventually(async () => (await marks()) === 8, 'the reviewed position graded');
  assert.equal(await page.locator('.hint-moves li').count(), 8);
  // Off: nothing graded, and it stays off.
  await page.locator('.review-bar button:has-text("Back to the game")').click();
  await page.locator('.values-switch input').uncheck();
  await eventually(async () => (await marks()) === 0, 'no values once off');
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});
