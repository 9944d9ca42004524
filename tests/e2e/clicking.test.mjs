// Games with a click protocol of their own (their crate's browser module):
// Northcott set up with taps alone and moved by a plain click for X, Auto120 left
// in one click on a marker with its own words explained.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, ARTIFACTS, WIDTHS, api, sessionView, waitForBoard, pageAt, openSession, eventually, browserForFile, listedGames, openPath, openGame, logCount } from './helpers.mjs';

const { has } = await listedGames();
const browser = browserForFile();

for (const width of WIDTHS) {
  /// Regression: issue 24's review of the browser.
  test(`${width} px: Northcott is set up with taps alone (no Ctrl, Shift or right button)`, { skip: !has('northcott'), timeout: 90_000 }, async () => {
    const page = await pageAt(browser, width);
    await openSession(page, { game: 'northcott', players: ['human', 'nim'] });
    const toggle = page.locator('.board-actions button.setup-toggle');
    await toggle.waitFor({ timeout: 10_000 });
    const box = await toggle.boundingBox();
    assert.ok(width > 600 || box.height >= 43.5, `the button is a finger's size: ${JSON.stringify(box)}`);
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    // A plain tap between the pieces of row 1 sets up the computer's X there: no reply.
    const before = await sessionView(page);
    const cols = Math.round(before.view.width);
    const target = page.locator(`.board-wrap [data-cell="${8}"]`);
    await target.scrollIntoViewIfNeeded();
    const answered = page.waitForResponse((r) => /\/moves$/.test(r.url()) && r.request().method() === 'POST');
    await target.click();
    await answered;
    await eventually(async () => (await sessionView(page)).log.length === 1, 'the set-up in the log', 20_000);
    const after = await sessionView(page);
    assert.equal(after.to_move, 0, 'O still to move: a set-up passes no turn');
    assert.ok(after.view.pieces.some((p) => p.owner === 1 && p.cell === 8), 'X now on row 1, cell 9');
    assert.ok(cols > 8);
    // Pressed again: taps play moves.
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    const move = page.waitForResponse((r) => /\/moves$/.test(r.url()) && r.request().method() === 'POST');
    await page.locator('.board-wrap [data-cell="3"]').click();
    await move;
    await eventually(async () => (await sessionView(page)).log.length >= 3, 'a move and the computer\'s reply', 20_000);
    assert.deepEqual(page.pageErrors, []);
    await page.close();
  });

  /// Regression: issue 24's review of the browser.
  test(`${width} px: Auto120 leaves the start in one click on a marker, no "Which move?"; its own words are explained`, { skip: !has('auto120'), timeout: 120_000 }, async () => {
    const page = await pageAt(browser, width);
    // Both seats people, so the page waits for the roll's one decision.
    const data = await openSession(page, { game: 'auto120', players: ['human', 'human'], seed: 6 });
    let view = data.view;
    assert.ok(view.human_to_move && view.legal_moves.length === 4, 'four markers on the start, one roll');
    const mover = view.to_move;
    // Where the roll takes a marker shows before the click (a pointer hovering).
    if (width > 600) {
      const roll = view.legal_moves[0].cells[1];
      await page.locator('.board-wrap [data-cell="1"]').hover();
      await page.locator(`.board-wrap [data-cell="${roll}"].target`).waitFor({ timeout: 5_000 });
    }
    // Click marker 3 of the player to move, where it stands on the start tray.
    const piece = page.locator(`.board-wrap .piece[data-owner="${mover}"][data-piece-cell="1"]`, { hasText: /^3$/ });
    const box = await piece.boundingBox();
    await page.evaluate(() => document.querySelector('.board-wrap').scrollTo(0, 0));
    const answered = page.waitForResponse((r) => /\/moves$/.test(r.url()) && r.request().method() === 'POST', { timeout: 10_000 });
    const box2 = await piece.boundingBox();
    await page.mouse.click(box2.x + box2.width / 2, box2.y + box2.height / 2);
    await answered;
    assert.ok(box, 'the marker is drawn');
    assert.equal(await page.locator('.chooser:not([hidden])').count(), 0, 'no "Which move?" question');
    view = await sessionView(page);
    const mine = view.log.filter((e) => e.seat === mover);
    assert.equal(mine.length, 1, JSON.stringify(view.log));
    assert.match(mine[0].text, /marker 3 from 1 to \d/);
    // "Retired" is explained beside the status line that shows it.
    const words = page.locator('.board-area > dl.glossary');
    assert.match(await words.textContent(), /Retired.*brought home to 120/);
    await page.close();

    // The original program's rule of thumb ("scenario B") is explained under the moves.
    const { data: s } = await api('POST', '/api/sessions', { game: 'auto120', players: ['human', 'scenario'], seed: 11 });
    let v = s.view;
    for (let i = 0; i < 30 && !v.log.some((e) => /scenario [A-D]/.test(`${e.text} ${e.reason || ''}`)) && !v.outcome; i++) {
      const m = v.legal_moves[0];
      if (!m) break;
      v = (await api('POST', `/api/sessions/${s.id}/moves`, { move: m.move })).data.view;
    }
    const letter = /scenario ([A-D])/.exec(v.log.map((e) => `${e.text} ${e.reason || ''}`).join(' '))?.[1];
    assert.ok(letter, 'the computer followed a rule of thumb');
    const page2 = await pageAt(browser, width);
    await page2.goto(`${BASE}/game/auto120?s=${s.id}`);
    await waitForBoard(page2);
    const logWords = page2.locator('.card:has(h2:text-is("Moves")) dl.glossary');
    assert.match(await logWords.textContent(), new RegExp(`Scenario ${letter}.*(rule|random)`));
    assert.doesNotMatch(await logWords.textContent(), /Scenario [A-D](?!.)/);
    await page2.screenshot({ path: join(ARTIFACTS, `polish2-auto120-${width}.png`), fullPage: width > 600 });
    assert.deepEqual(page2.pageErrors, []);
    await page2.close();
  });
}

/// Regression: a defect found trying the page as a user would (issue 11).
test('Northcott with X as your side: a plain click or tap between the pieces moves X (a touch screen has no right button)', { skip: !has('northcott') }, async () => {
  const page = await pageAt(browser, 390);
  await openGame(page, { game: 'northcott', variant: 'size=8x2', players: ['random', 'human'], seed: 2 });
  let view = await sessionView(page);
  assert.equal(view.to_move, 1, 'X (the person) is to move after the computer opened');
  const before = await logCount(page);
  // An advance of X: its target lies between the two pieces of its row.
  const width = Math.round(view.view.width);
  const advance = view.legal_moves.find((m) => {
    const [from, to] = m.cells;
    return to < from && to % width > Math.min(...view.view.pieces.filter((p) => Math.floor(p.cell / width) === Math.floor(to / width)).map((p) => p.cell % width));
  });
  assert.ok(advance, JSON.stringify(view.legal_moves));
  await page.click(`.board [data-cell="${advance.cells[1]}"] .cell-shape`);
  await page.waitForFunction((n) => document.querySelectorAll('.log .log-move').length > n, before);
  view = await sessionView(page);
  assert.ok(view.log.some((e) => e.seat === 1 && e.move === advance.move), JSON.stringify(view.log));
  await page.close();
});
