// In review, every card beside the board shows the reviewed position, for every
// game the server lists: the board's pieces, the status line, the facts beside
// the board and each declared card's facts are those of the server's view of the
// reviewed ply (`GET /review`), not of the game as it is now. Cards whose facts
// come from an analysis (`facts`) are filled from the reviewed ply's hint.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { api, BASE, ARTIFACTS, waitForBoard, boardState, browserForFile, listedGames, pageAt } from './helpers.mjs';

const { games } = await listedGames();
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
