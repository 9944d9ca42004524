// Hints: every move drawn with its value (labels apart, off the pieces, the best
// move strongest), a square reached by several moves showing each, selecting a
// piece narrowing the list; hints in words for every game (chances, a puzzle's
// next press, a search that keeps its plan); a hint of a reviewed position (as
// lichess's analysis board does) and a hinted move brought into view on a board
// larger than the screen.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { BASE, ARTIFACTS, WIDTHS, newPage, api, sessionOf, sessionView, waitForBoard, pageAt, openSession, eventually, browserForFile, listedGames, openPath, openGame, logCount, colours } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

const shared = (a, b) => {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
};

/// The share of a box lying on the discs (a grid of points).
function onPieces(box, discs) {
  let hit = 0;
  for (let i = 0; i < 12; i++) {
    for (let j = 0; j < 6; j++) {
      const x = box.x + ((i + 0.5) / 12) * box.w;
      const y = box.y + ((j + 0.5) / 6) * box.h;
      if (discs.some((d) => (x - d.cx) ** 2 + (y - d.cy) ** 2 < d.r * d.r)) hit++;
    }
  }
  return hit / 72;
}

// Kono positions whose first hint once drew "W51" half under "D" and the one win
// as the palest mark of all (the second: "W67" palest).
const KONO = ['.xxx/xxox/xooo/oo.o x', 'xx.x/xxxx/.ooo/oooo x'];

/// The hint's move values as drawn: each label's box on the screen, the opacity
/// its arrow (or ring) is drawn with, the label's font size, and the pieces' discs.
async function drawnValues(page) {
  return page.evaluate(() => {
    const opacity = (e) => {
      let o = 1;
      for (let x = e; x && x instanceof Element; x = x.parentElement) o *= Number(getComputedStyle(x).opacity);
      return o;
    };
    const values = [...document.querySelectorAll('.board .move-value')].map((g) => {
      const bg = g.querySelector('.value-label-bg');
      const mark = g.querySelector('.value-arrow, .value-ring, .value-dot-target');
      const r = bg?.getBoundingClientRect();
      return {
        move: g.dataset.move,
        text: g.querySelector('.value-label')?.textContent ?? '',
        box: r ? { x: r.x, y: r.y, w: r.width, h: r.height } : null,
        strength: mark ? opacity(mark) : 0,
        font: Number(g.querySelector('.value-label')?.getAttribute('font-size') ?? 0),
      };
    });
    const discs = [...document.querySelectorAll('.board .piece:not(.leaving) .piece-disc')].map((d) => {
      const r = d.getBoundingClientRect();
      return { cx: r.x + r.width / 2, cy: r.y + r.height / 2, r: r.width / 2 };
    });
    return { values, discs };
  });
}

/// Kono's hint at `position` drawn at the page's width.
async function konoHint(page, position, width) {
  const session = await openSession(page, { game: 'kono', players: ['human', 'human'], position });
  const { data: hint } = await api('GET', `/api/sessions/${session.id}/hint`);
  await page.click('.board-actions button:has-text("Hint")');
  await page.waitForSelector('.board .move-value');
  await page.waitForTimeout(200);
  await page.locator('.board-wrap').screenshot({ path: join(ARTIFACTS, `polish1-kono-hint-${width}-${KONO.indexOf(position)}.png`) });
  const drawn = await drawnValues(page);
  assert.equal(drawn.values.length, hint.analysis.moves.length, 'one mark per move');
  return { hint, ...drawn };
}

after(() => {
  writeFileSync(join(ARTIFACTS, 'timings-hints.json'), JSON.stringify(timings, null, 2));
});

const timings = {};

for (const width of WIDTHS) {
  test(`Hints in review at ${width} px: Hint analyses the reviewed position, and follows the review`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    // Move values off: the hint is asked for, not shown on its own.
    await page.addInitScript(() => localStorage.setItem('tabula.values.tictactoe', 'off'));
    const s = await openSession(page, { game: 'tictactoe', players: ['human', 'human'], moves: ['5', '1', '9'] });
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 3);
    await page.locator('.log .log-move').first().click();
    await page.waitForSelector('.review-bar:not([hidden])');
    const hint = page.locator('.board-actions button:has-text("Hint")');
    assert.equal(await hint.isDisabled(), false, 'Hint can be pressed in review');
    await hint.click();
    await page.waitForSelector('.card-hint:not([hidden]) .hint-moves li');
    // The reviewed position's moves (after move 1: eight empty squares), not the game's (six).
    const after1 = (await api('GET', `/api/sessions/${s.id}/review?ply=1`)).data.view;
    assert.equal(await page.locator('.card-hint .hint-moves li').count(), after1.legal_moves.length);
    // Stepping on keeps the analysis open, for the next position.
    await page.locator('.review-bar button[aria-label="One move forward"]').click();
    await page.waitForFunction(() => /After move 2/.test(document.querySelector('.review-where')?.textContent));
    await page.waitForFunction(() => document.querySelectorAll('.card-hint:not([hidden]) .hint-moves li').length === 7);
    // The game itself was not changed.
    assert.equal((await api('GET', `/api/sessions/${sessionOf(page)}`)).data.view.log.length, 3);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  test(`"Why" in review at ${width} px: the best play after a move of the reviewed position, each move's player named`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await page.addInitScript(() => localStorage.setItem('tabula.values.tictactoe', 'off'));
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'], moves: ['5', '1', '9'] });
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length === 3);
    await page.locator('.log .log-move').first().click();
    await page.waitForSelector('.review-bar:not([hidden])');
    await page.locator('.board-actions button:has-text("Hint")').click();
    await page.waitForSelector('.card-hint:not([hidden]) .hint-moves li');
    // After move 1 it is O's turn: the line starts with O's move, the move asked about.
    const first = page.locator('.card-hint .hint-move').first();
    await first.click();
    await page.waitForSelector('.card-hint .pv-line li, .card-hint .pv p:not(:has-text("Finding"))');
    const lines = await page.locator('.card-hint .pv-line li').allTextContents();
    assert.ok(lines.length > 0, `a line of best play, not: ${await page.locator('.card-hint .pv').first().textContent()}`);
    assert.match(lines[0], /^O: /, 'the first move is O\'s, said before its words');
    assert.match(lines[1] ?? 'X: ', /^X: /, 'the players alternate');
    await page.locator('.card-hint').screenshot({ path: join(ARTIFACTS, `review-why-${width}.png`) });
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  test(`A hint on a board taller than the screen at ${width} px brings its move into view`, { skip: !has('northcott') }, async () => {
    const page = await pageAt(browser, width);
    await page.addInitScript(() => localStorage.setItem('tabula.values.northcott', 'off'));
    await openSession(page, { game: 'northcott', players: ['human', 'nim'] });
    // The player has scrolled down the page, the board out of sight, and presses H.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const boardOut = await page.evaluate(() => document.querySelector('.board').getBoundingClientRect().bottom < 60);
    assert.ok(boardOut, 'the board is scrolled out of sight before the hint');
    await page.keyboard.press('h');
    await page.waitForSelector('.board [data-cell].hinted');
    const seen = await page.evaluate(() => {
      const bar = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
      const frame = document.querySelector('.board-wrap').getBoundingClientRect();
      return [...document.querySelectorAll('.board [data-cell].hinted')].map((g) => {
        const r = g.getBoundingClientRect();
        return { top: r.top >= bar - 1, bottom: r.bottom <= innerHeight + 1, left: r.left >= Math.max(0, frame.left) - 1, right: r.right <= Math.min(innerWidth, frame.right) + 1 };
      });
    });
    assert.ok(seen.length > 0);
    for (const s of seen) assert.deepEqual(s, { top: true, bottom: true, left: true, right: true }, 'every hinted cell on screen');
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

test('A hint on a board wider than a phone brings its group into view sideways', { skip: !has('samegame') }, async () => {
  const page = await pageAt(browser, 390);
  await openSession(page, { game: 'samegame', variant: 'seed=9', players: ['human'] });
  // The board scrolls sideways in its frame; the player looks at its right edge.
  await page.evaluate(() => {
    const wrap = document.querySelector('.board-wrap');
    wrap.scrollLeft = wrap.scrollWidth;
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
  await page.keyboard.press('h');
  await page.waitForSelector('.board [data-cell].hinted', { timeout: 30_000 });
  await page.waitForTimeout(300);
  const seen = await page.evaluate(() => {
    const frame = document.querySelector('.board-wrap').getBoundingClientRect();
    const bar = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
    const boxes = [...document.querySelectorAll('.board [data-cell].hinted')].map((g) => g.getBoundingClientRect());
    return boxes.some((r) => r.left >= frame.left - 1 && r.right <= frame.right + 1 && r.top >= bar - 1 && r.bottom <= innerHeight + 1);
  });
  assert.ok(seen, 'part of the hinted group is on screen');
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

for (const width of WIDTHS) {
  /// Regression: issue 24's review of the browser.
  test(`hint badges at ${width} px: none covers another`, { skip: !has('kono') }, async () => {
    const page = await pageAt(browser, width);
    for (const position of KONO) {
      const { values } = await konoHint(page, position, width);
      for (let i = 0; i < values.length; i++) {
        for (let j = i + 1; j < values.length; j++) {
          const a = values[i];
          const b = values[j];
          assert.ok(shared(a.box, b.box) < 1, `${position}: "${a.text}" (${a.move}) and "${b.text}" (${b.move}) overlap by ${shared(a.box, b.box).toFixed(0)} px²`);
        }
      }
    }
    await page.close();
  });

  /// Regression: issue 24's review of the browser.
  test(`hint badges at ${width} px: none sits on the pieces`, { skip: !has('kono') }, async () => {
    const page = await pageAt(browser, width);
    for (const position of KONO) {
      const { values, discs } = await konoHint(page, position, width);
      for (const v of values) {
        const share = onPieces(v.box, discs);
        assert.ok(share <= 0.35, `${position}: "${v.text}" (${v.move}) lies ${Math.round(share * 100)}% on pieces`);
      }
    }
    await page.close();
  });

  /// Regression: issue 24's review of the browser.
  test(`hint badges at ${width} px: the best move the strongest, wins over draws over losses`, { skip: !has('kono') }, async () => {
    const page = await pageAt(browser, width);
    for (const position of KONO) {
      const { values, hint } = await konoHint(page, position, width);
      // The hint's best move: its arrow the strongest, its label the largest.
      const best = values.find((v) => v.move === hint.best.move);
      assert.ok(best, `the best move ${hint.best.move} is drawn`);
      for (const v of values) {
        if (v === best) continue;
        assert.ok(best.strength >= v.strength, `${position}: the best move ${best.text} (${best.strength.toFixed(2)}) is drawn weaker than ${v.text} ${v.move} (${v.strength.toFixed(2)})`);
        assert.ok(best.font > v.font, `${position}: the best move's label is the largest`);
      }
      // The list beside the board names it best too.
      // Named in the game's words for the move (its legal move's `words`).
      const named = (await sessionView(page)).legal_moves.find((m) => m.move === hint.best.move)?.words || hint.best.move;
      assert.deepEqual(await page.locator('.hint-move.best .hint-move-name').allTextContents(), [named]);
      // Any win stronger than any draw, any draw stronger than any loss.
      const rank = { W: 2, D: 1, L: 0 };
      for (const a of values) {
        for (const b of values) {
          if (rank[a.text[0]] > rank[b.text[0]]) assert.ok(a.strength > b.strength, `${position}: ${a.text} drawn no stronger than ${b.text}`);
        }
      }
    }
    await page.close();
  });
}

/// Regression: a defect found trying the page as a user would (issue 11).
test('every move drawn, a square reached by several moves shows each, selecting a piece narrows', { skip: !has('kono') }, async () => {
  const page = await newPage(browser);
  // Random moves from the start until some square is reached by several moves.
  let position = null;
  const { data: s0 } = await api('POST', '/api/sessions', { game: 'kono', players: ['human', 'human'], seed: 3 });
  let v = s0.view;
  for (let k = 0; k < 60 && !position; k++) {
    const ends = new Map();
    for (const m of v.legal_moves) ends.set(m.cells.at(-1), (ends.get(m.cells.at(-1)) || 0) + 1);
    if ([...ends.values()].some((n) => n > 1)) position = v.position;
    else v = (await api('POST', `/api/sessions/${s0.id}/moves`, { move: v.legal_moves[(k * 7) % v.legal_moves.length].move })).data.view;
  }
  assert.ok(position, 'a position where two moves share a target');
  await openGame(page, { game: 'kono', players: ['human', 'perfect'], position });
  const t0 = Date.now();
  await page.click('.board-actions button:has-text("Hint")');
  await page.waitForSelector('.board .move-value');
  timings.hint_kono_ms = Date.now() - t0;
  const { data: hint } = await api('GET', `/api/sessions/${sessionOf(page)}/hint`);
  assert.equal(await page.locator('.board .move-value').count(), hint.analysis.moves.length, 'one mark per move, none hidden');
  const ends = new Map();
  for (const m of hint.analysis.moves) ends.set(m.cells.at(-1), (ends.get(m.cells.at(-1)) || 0) + 1);
  assert.ok([...ends.values()].some((n) => n > 1), 'some square is reached by several moves');
  // Select the piece with the most moves: only its moves stay drawn.
  const byStart = new Map();
  for (const m of hint.analysis.moves) byStart.set(m.cells[0], [...(byStart.get(m.cells[0]) || []), m]);
  const [start, own] = [...byStart].sort((a, b) => b[1].length - a[1].length)[0];
  await page.click(`.board [data-cell="${start}"] .cell-shape`);
  await page.waitForFunction((n) => document.querySelectorAll('.board .move-value').length === n, own.length);
  // The list names the selected piece's moves with their values, as the board
  // draws them; a move's "why" shows the best play after it.
  assert.equal(await page.locator('.hint-moves li').count(), own.length);
  await page.locator('.hint-move').first().click();
  await page.waitForSelector('.pv-line li, .pv p');
  await page.screenshot({ path: join(ARTIFACTS, 'kono-move-values.png') });
  await page.close();
});

/// Regression: a defect found trying the page as a user would (issue 11).
test('Mu Torere shows a mark for each move, not one "D" in the centre', { skip: !has('mu-torere') }, async () => {
  const page = await newPage(browser);
  await openGame(page, { game: 'mu-torere', players: ['human', 'perfect'], seed: 1 });
  await page.click('.board-actions button:has-text("Hint")');
  await page.waitForSelector('.board .move-value');
  const view = await sessionView(page);
  assert.equal(await page.locator('.board .move-value').count(), view.legal_moves.length);
  await page.close();
});

/// Regression: a defect found trying the page as a user would (issue 11).
test('hints read as words for SameGame, Poggle and Auto120', async () => {
  const page = await newPage(browser);
  const cases = [
    ['samegame', /final score of [\d,]+/],
    ['poggle', /Press the lit button next\./],
    ['auto120', /\d+% chance to win/],
  ].filter(([g]) => has(g));
  for (const [game, words] of cases) {
    await openPath(page, `/game/${game}`);
    const v = await sessionView(page);
    if (!v.human_to_move) {
      await page.click('.board-actions button:has-text("New game")');
      await page.waitForSelector('.turn-line.your-move');
    }
    const t0 = Date.now();
    await page.click('.board-actions button:has-text("Hint")');
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('.hint-list').textContent), words.source, { timeout: 45_000 })
      .catch(async (e) => {
        throw new Error(`${game}: ${e.message}; the hint says: ${await page.locator('.hint-list').textContent()}; ${page.pageErrors.join('; ')}`);
      });
    timings[`hint_${game}_ms`] = Date.now() - t0;
    const text = await page.locator('.hint-list').textContent();
    assert.doesNotMatch(text, /\[|\]|null|seconds|\d\.\d{5}/, `${game}: ${text}`);
  }
  await page.close();
});

/// Regression: a defect found trying the page as a user would (issue 11).
test('SameGame: a hint taken keeps its plan, so the next hint expects at least as much', { skip: !has('samegame') }, async () => {
  const page = await newPage(browser);
  const jobs = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/jobs')) jobs.push(JSON.parse(r.postData() || '{}'));
  });
  await openGame(page, { game: 'samegame', variant: 'size=10x10,colours=4,seed=7', players: ['human'] });
  const expected = async () => {
    await page.click('.board-actions button:has-text("Hint")');
    await page.waitForFunction(() => /final score of [\d,]+/.test(document.querySelector('.hint-list')?.textContent || ''), null, { timeout: 45_000 });
    const text = await page.locator('.hint-list').textContent();
    return Number(/final score of ([\d,]+)/.exec(text)[1].replace(/,/g, ''));
  };
  const first = await expected();
  assert.deepEqual(jobs.at(-1).plan, [], 'the first hint has no plan to keep');
  // Take the hint: click the lit group.
  const before = await logCount(page);
  await page.locator('.board [data-cell].hinted').first().click();
  await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length > n, before);
  const second = await expected();
  assert.ok(jobs.at(-1).plan.length > 0, 'the second hint starts from the rest of the first one\'s line');
  assert.ok(second >= first, `the second hint expects ${second}, the first ${first}`);
  await page.close();
});

/// Regression: one of issue 11's last parts.
test('Auto120 hint: where the variant is solved the exact chances decide, said in words', { skip: !has('auto120') }, async () => {
  const page = await newPage(browser);
  for (const variant of ['markers=2', '']) {
    await openPath(page, `/game/auto120?variant=${encodeURIComponent(variant)}`);
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

/// Selecting a Kono piece lists that piece's moves, every one the board
/// draws, and no other piece's.
test('Kono: selecting a piece lists its own moves and only those', async () => {
  const page = await pageAt(browser, 1280);
  const s = await openSession(page, { game: 'kono', players: ['human', 'human'], position: '.xxx/xxox/xooo/oo.o x' });
  let hint;
  await eventually(async () => {
    hint = (await api('GET', `/api/sessions/${s.id}/hint`)).data;
    return (hint?.analysis?.moves || []).some((m) => m.grade?.value || m.value);
  }, 'Kono\'s graded moves', 180_000);
  await page.click('.board-actions button:has-text("Hint")');
  await page.waitForSelector('.hint-move');
  // A piece with two moves or more.
  const byStart = new Map();
  for (const m of s.view.legal_moves) byStart.set(m.cells[0], [...(byStart.get(m.cells[0]) || []), m]);
  const [start, own] = [...byStart].find(([, ms]) => ms.length >= 2);
  await page.click(`.board [data-cell="${start}"] .cell-shape`);
  await eventually(async () => (await page.locator('.hint-move').count()) === own.length, `${own.length} moves listed`);
  const listed = (await page.locator('.hint-move-name').allTextContents()).sort();
  const expected = own.map((m) => m.words || m.move).sort();
  assert.deepEqual(listed, expected, 'the selected piece\'s moves, all of them');
  // Selecting nothing lists every move again.
  await page.keyboard.press('Escape');
  await eventually(async () => (await page.locator('.hint-move').count()) === hint.analysis.moves.length, 'every move listed again');
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});
