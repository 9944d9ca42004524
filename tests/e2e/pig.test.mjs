// Pig's page shows the roll/hold boundary of best play for the scores on the table
// (its own module, drawing the game's `hold-boundary` tool) and marks each roll or
// hold the person makes as above or below it. At 390 and 1280 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { api, BASE, ARTIFACTS, sessionView, waitForBoard, browserForFile, listedGames, WIDTHS, pageAt, newPage } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

for (const width of WIDTHS) {
  test(`${width} px: Pig shows the hold boundary and marks the player's decisions`, { skip: !has('pig'), timeout: 180_000 }, async () => {
    const page = await pageAt(browser, width);
    // A game of its own (the browser keeps the last session of a game otherwise).
    const { data: created } = await api('POST', '/api/sessions', { game: 'pig', players: ['human', 'optimal'] });
    await page.goto(`${BASE}/game/pig?s=${created.id}`);
    await waitForBoard(page);
    const card = page.locator('[data-testid="hold-boundary"]');
    await card.waitFor({ timeout: 60_000 });
    // The start: best play holds at 21 (the server's exact table).
    await page.waitForSelector('.pig-boundary-chart path.pig-line', { timeout: 60_000 });
    assert.match(await card.locator('p[aria-live]').textContent(), /You have 0 points, the other player 0: best play rolls until the turn reaches 21 points/);
    const d = await card.locator('path.pig-line').getAttribute('d');
    assert.ok(d && d.split('L').length > 100, 'one step per score of the other player');
    assert.equal(await card.locator('.pig-decision').count(), 0, 'no decision yet');

    // Roll until a turn has points, then make a real choice (roll below 21, else hold).
    let marked = 0;
    for (let i = 0; i < 40 && marked === 0; i++) {
      const view = await sessionView(page);
      assert.ok(!view.outcome, 'the game is not over before a decision');
      const turn = Number(/\+(\d+)/.exec(view.position)?.[1] || 0);
      const cell = turn >= 21 ? 1 : 0;
      const answered = page.waitForResponse((r) => /\/moves$/.test(r.url()) && r.request().method() === 'POST');
      await page.locator(`.board-wrap [data-cell="${cell}"]`).click();
      await answered;
      // The card redraws after the view: wait for its list to settle.
      await page.waitForTimeout(300);
      marked = await card.locator('.pig-decision').count();
    }
    assert.ok(marked >= 1, 'a decision is marked');
    const first = card.locator('.pig-decision').first();
    assert.match(await first.getAttribute('data-side'), /^(above|below)$/);
    assert.match(await first.textContent(), /^(▲|▼) (Rolled|Held) at \d+ \(\d+ to \d+; best play (holds at \d+|rolls on for the goal)\): (above|below) the line, /);
    // Above or below agrees with the numbers it names.
    const [, at, , line] = /at (\d+) \(\d+ to \d+; best play (holds at (\d+)|rolls on)/.exec(await first.textContent());
    const side = line !== undefined && Number(at) >= Number(line) ? 'above' : 'below';
    assert.equal(await first.getAttribute('data-side'), side);
    assert.match(await card.locator('p.muted.small').last().textContent(), /Your rolls and holds this game: \d of \d as best play/);
    // The card fits the page's width (no sideways scrolling at 390 px).
    const box = await card.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= width + 1, `the card fits: ${JSON.stringify(box)}`);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `pig-boundary-${width}.png`), fullPage: width > 800 });
    await card.screenshot({ path: join(ARTIFACTS, `pig-boundary-card-${width}.png`) });
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}

for (const width of WIDTHS) {
  test(`Pig's page at ${width} px: the score in the first screen, roll and hold explained, the computer's whole turn, Hold unavailable at a turn's start`, { skip: !has('pig'), timeout: 120_000 }, async () => {
    const page = await newPage(browser);
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    const { data: created } = await api('POST', '/api/sessions', { game: 'pig', players: ['human', 'expectimax'], seed: 5 });
    await page.goto(`${BASE}/game/pig?s=${created.id}`);
    await waitForBoard(page);
    // The score: both players' points, on the first screen without scrolling.
    const chips = page.locator('.status-chips li');
    assert.deepEqual(await chips.allTextContents(), ['Player 1: 0', 'Player 2: 0']);
    const low = await chips.last().evaluate((c) => c.getBoundingClientRect().bottom);
    assert.ok(low <= (await page.evaluate(() => innerHeight)), `the score is on screen (its bottom at ${low} px)`);
    // What roll and hold do, said where a phone shows it.
    const summary = page.locator('.board-head .summary');
    assert.ok(await summary.isVisible(), 'the summary is shown');
    assert.match(await summary.textContent(), /roll.*hold/);
    // At a turn's start only roll can be played: Hold is unavailable, and says so.
    const view = await sessionView(page);
    const roll = view.legal_moves.find((m) => m.move === 'roll').cells[0];
    const hold = view.view.cells.find((c) => c.mark === 'button' && c.id !== roll).id;
    const holdCell = page.locator(`.board [data-cell="${hold}"]`);
    assert.equal(await holdCell.getAttribute('aria-disabled'), 'true');
    assert.ok(Number(await holdCell.evaluate((g) => getComputedStyle(g).opacity)) < 0.6, 'Hold is drawn dimmed');
    assert.equal(await page.locator(`.board [data-cell="${roll}"]`).getAttribute('aria-disabled'), null);
    // Roll until a turn has points, then hold: the computer plays its whole turn.
    for (let i = 0; i < 30; i++) {
      const v = await sessionView(page);
      if (v.legal_moves.some((m) => m.move === 'hold')) break;
      const n = v.log.length;
      await page.click(`.board [data-cell="${roll}"] .cell-shape`);
      await page.waitForFunction((k) => document.querySelectorAll('.log .log-move').length > k, n);
    }
    const before = (await sessionView(page)).log.length;
    assert.equal(await holdCell.getAttribute('aria-disabled'), null, 'Hold can be played with points on the turn');
    await page.click(`.board [data-cell="${hold}"] .cell-shape`);
    await page.waitForFunction((k) => document.querySelectorAll('.log .log-move').length > k + 1, before);
    const after = await sessionView(page);
    // Every ply after the hold (the computer's rolls and decisions) is listed in the dice card.
    const replies = after.log.slice(before + 1);
    assert.ok(replies.some((e) => e.seat === 1), 'the computer played');
    const listed = await page.locator('.turn-replies li').allTextContents();
    assert.equal(listed.length, replies.length, `the whole turn: ${listed.join(' | ')}`);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });
}
