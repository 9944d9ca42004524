// Issue 24, the browser (part 1), at a phone's width and a desktop's: hint badges
// that never cover one another nor sit on the pieces, the best move the strongest
// of them; highlights (the computer's last move, your move, the hint, your
// selection, the keyboard cursor) told apart by a key and nested, not piled, on
// one square; review that keeps the board in view, steps with the arrow keys and
// jumps from the value history's chart (which has ticks); a status line that says
// "You won" or "You lost", and "Paused" rather than "… is thinking" while paused.
//
// Each test failed on the web files before these fixes: `TABULA_WEB_FROM=<commit>
// tests/e2e/run.sh target/debug/tabula polish1` serves the page of that commit.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { api, ARTIFACTS, pageAt, openSession, sessionView, browserForFile, listedGames, WIDTHS } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

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

for (const width of WIDTHS) {
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

  test(`highlights at ${width} px: each kind its own frame, nested on one square, named in a key`, { skip: !has('kono') }, async () => {
    const page = await pageAt(browser, width);
    // Against the computer: its reply is lit; then a hint, and the hint's piece selected.
    await openSession(page, { game: 'kono', players: ['human', 'perfect'] });
    const first = await page.evaluate(async () => {
      const s = new URL(location.href).searchParams.get('s');
      const v = await (await fetch(`/api/sessions/${s}`)).json();
      return v.view.legal_moves[0];
    });
    await page.click(`.board [data-cell="${first.cells[0]}"] .cell-shape`, { force: true });
    await page.click(`.board [data-cell="${first.cells[1]}"] .cell-shape`, { force: true });
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 2);
    await page.waitForSelector('.board .hl-ring.hl-recent');
    const mine = await page.$$eval('.board .hl-ring.hl-mine', (e) => e.length);
    assert.ok(mine >= 1, 'your own move has its frame');
    await page.click('.board-actions button:has-text("Hint")');
    await page.waitForSelector('.board .move-value.best');
    const { data: view } = await api('GET', `/api/sessions/${new URL(page.url()).searchParams.get('s')}`);
    const { data: hint } = await api('GET', `/api/sessions/${view.id}/hint`);
    const start = hint.best.cells[0];
    await page.click(`.board [data-cell="${start}"] .cell-shape`, { force: true });
    await page.waitForSelector('.board .hl-ring.hl-selected');
    // The best move's first square is both the hint and the selection: two frames,
    // one inside the other, in different colours.
    const frames = await page.evaluate((cell) => {
      const c = document.querySelector(`.board [data-cell="${cell}"] .cell-shape`).getBoundingClientRect();
      return [...document.querySelectorAll('.board .hl-ring')].map((r) => {
        const b = r.getBoundingClientRect();
        return { kind: r.dataset.highlight, box: b, colour: getComputedStyle(r).stroke, inside: b.x >= c.x - 1 && b.y >= c.y - 1 && b.right <= c.right + 1 && b.bottom <= c.bottom + 1 };
      }).filter((f) => f.inside);
    }, start);
    const kinds = frames.map((f) => f.kind).sort();
    assert.deepEqual(kinds, ['hint', 'selected'], `frames on the hint's square: ${kinds}`);
    const [outer, inner] = frames.sort((a, b) => b.box.width - a.box.width);
    assert.ok(inner.box.x > outer.box.x && inner.box.right < outer.box.right && inner.box.y > outer.box.y, 'the frames nest, one inside the other');
    // Each kind of frame on the board in a colour of its own.
    const colours = await page.evaluate(() => {
      const out = {};
      for (const r of document.querySelectorAll('.board .hl-ring')) out[r.dataset.highlight] = getComputedStyle(r).stroke;
      return out;
    });
    assert.deepEqual(Object.keys(colours).sort(), ['hint', 'mine', 'recent', 'selected'].sort(), JSON.stringify(colours));
    assert.equal(new Set(Object.values(colours)).size, 4, `four colours: ${JSON.stringify(colours)}`);
    // The key names each kind shown, with a sample in the board's colour.
    const key = await page.evaluate(() => [...document.querySelectorAll('.highlight-key li')].map((li) => ({
      kind: li.dataset.highlight, words: li.textContent.trim(), colour: li.querySelector('.hl-ring') ? getComputedStyle(li.querySelector('.hl-ring')).stroke : null,
      visible: li.getClientRects().length > 0,
    })));
    for (const [kind, colour] of Object.entries(colours)) {
      const item = key.find((k) => k.kind === kind);
      assert.ok(item?.visible, `the key names ${kind}: ${JSON.stringify(key)}`);
      assert.equal(item.colour, colour, `the key's ${kind} sample is the board's colour`);
    }
    assert.ok(key.some((k) => k.kind === 'target' && /can go/.test(k.words)), 'where the selection can go is in the key');
    await page.locator('.board-area').screenshot({ path: join(ARTIFACTS, `polish1-highlights-${width}.png`) });
    await page.close();
  });

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

  test(`status at ${width} px: "You won" when you win`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    // X to move wins at 3.
    await openSession(page, { game: 'tictactoe', players: ['human', 'perfect'], position: 'XX./OO./... X' });
    await page.click('.board [data-cell="3"] .cell-shape');
    await page.waitForSelector('.turn-line.won');
    const text = await page.locator('.turn-line').innerText();
    assert.match(text, /^You won/);
    assert.doesNotMatch(text, /X wins/);
    await page.close();
  });

  test(`status at ${width} px: "You lost" when you resign`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['human', 'perfect'] });
    await page.click('.board-actions button:has-text("Resign")');
    await page.waitForSelector('.turn-line.lost');
    assert.match(await page.locator('.turn-line').innerText(), /^You lost: you resigned/);
    await page.close();
  });

  // (A guard: the page named the side before, and must still.)
  test(`status at ${width} px: two people are told which side won`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['human', 'human'], position: 'XX./OO./... X' });
    await page.click('.board [data-cell="3"] .cell-shape');
    await page.waitForSelector('.turn-line.over');
    assert.match(await page.locator('.turn-line').innerText(), /^X wins/);
    await page.close();
  });

  test(`status at ${width} px: "Paused" while watching is paused, never "thinking"`, { skip: !has('tictactoe') }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'tictactoe', players: ['perfect', 'perfect'] });
    await page.waitForSelector('.watch-bar:not([hidden])');
    await page.waitForFunction(() => document.querySelectorAll('.log .log-move').length >= 1);
    await page.click('.watch-bar button:has-text("Pause")');
    await page.waitForTimeout(1500);
    const { data: view } = await api('GET', `/api/sessions/${new URL(page.url()).searchParams.get('s')}`);
    assert.ok(!view.view.outcome, 'paused before the end');
    const paused = await page.locator('.turn-line').innerText();
    assert.doesNotMatch(paused, /thinking/i);
    assert.match(paused, /^Paused/);
    await page.close();
  });
}
