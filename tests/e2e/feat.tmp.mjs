import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
const b = await chromium.launchPersistentContext(mkdtempSync('/tmp/hp-'), { executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'], viewport: {width: 1280, height: 900} });
const page = await b.newPage();
page.on('pageerror', (e) => console.log('pageerror:', e.message));
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
const base = process.argv[2];
const out = '/tmp/hshots/';
const what = process.argv[3];
if (what === 'poggle') {
  await page.goto(base + '/game/poggle');
  await page.waitForSelector('[data-cell]');
  await page.waitForTimeout(800);
  await page.click('button:has-text("Show the solution")');
  await page.waitForTimeout(300);
  console.log('press badges', await page.locator('.badge-press').count());
  await page.click('button:has-text("Which button next?")');
  await page.waitForTimeout(300);
  await page.screenshot({ path: out + 'poggle-solution.png' });
}
if (what === 'auto120') {
  await page.goto(base + '/game/auto120');
  await page.waitForSelector('[data-cell]');
  await page.click('button:has-text("Run a quick simulation")');
  await page.waitForSelector('.sim-table tr:nth-child(3)', { timeout: 240000 });
  await page.locator('.card-extra').screenshot({ path: out + 'auto120-sim.png' });
}
if (what === 'samegame') {
  await page.goto(base + '/game/samegame');
  await page.waitForSelector('[data-cell]');
  await page.click('button:has-text("New game")');
  await page.waitForTimeout(500);
  await page.click('button:has-text("Let the computer play")');
  await page.waitForFunction(() => /scored|lost|stopped/.test(document.querySelector(".card-extra .muted.small")?.textContent || ""), null, { timeout: 120000 });
  await page.screenshot({ path: out + 'samegame-play.png' });
  console.log(await page.locator('.card-extra .muted.small').allTextContents());
}
if (what === 'learn') {
  await page.goto(base + '/game/hexapawn');
  await page.waitForSelector('[data-cell]');
  const pm = page.locator('button:has-text("Play against the matchbox machine")');
  if (await pm.isVisible()) await pm.click();
  await page.waitForTimeout(800);
  for (let i = 0; i < 2; i++) {
    const v = await page.evaluate(async () => (await (await fetch('/api/sessions/' + new URL(location.href).searchParams.get('s'))).json()).view);
    if (!v.human_to_move) break;
    const m = v.legal_moves[0];
    for (const c of m.cells) { if (await page.locator('.cell.selected').count() || c === m.cells[0]) await page.click(`[data-cell="${c}"] .cell-shape`); }
    await page.waitForTimeout(700);
  }
  await page.selectOption('.train-form select >> nth=1', '200');
  await page.click('button:has-text("Train")');
  await page.waitForSelector('.plot', { timeout: 120000 });
  await page.waitForFunction(() => !document.querySelector('.card-extra .progress:not([hidden])'), null, { timeout: 240000 });
  await page.locator('.card-extra').screenshot({ path: out + 'learn.png' });
  console.log(await page.locator('.card-extra .muted.small').allTextContents());
}
await b.close();
