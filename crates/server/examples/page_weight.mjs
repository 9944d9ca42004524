// What a first game page weighs in a real browser: every answer's bytes as sent
// (compressed or not, headers included), the requests, and the time from asking
// for the page to a board that can be played; then the same page again, as a
// returning player's browser loads it from its cache.
//
//   node crates/server/examples/page_weight.mjs http://127.0.0.1:8080 [GAME]
//
// Runs headless Chromium through the browser tests' playwright-core (install it
// with `npm ci` in tests/e2e; CHROMIUM names the browser, default
// /usr/bin/chromium). docs/BENCHMARKS.md ("Weight of a game page") has figures.
import { chromium } from '../../../tests/e2e/node_modules/playwright-core/index.mjs';

const [base, game = 'tictactoe'] = process.argv.slice(2);
if (!base) {
  console.error('usage: node page_weight.mjs BASE_URL [GAME]');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const answers = new Map();
  let rows = [];
  cdp.on('Network.responseReceived', (e) => answers.set(e.requestId, e.response));
  cdp.on('Network.loadingFinished', (e) => {
    const r = answers.get(e.requestId);
    const encoding = r?.headers?.['content-encoding'] || r?.headers?.['Content-Encoding'] || '';
    rows.push({ bytes: e.encodedDataLength, status: r?.status, encoding, url: r?.url });
  });
  const visit = async (label) => {
    rows = [];
    const began = Date.now();
    await page.goto(`${base}/game/${game}`, { waitUntil: 'commit' });
    await page.waitForSelector('.board-wrap [data-cell]', { timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector('.turn-line')?.textContent.trim().length > 0);
    const playable = Date.now() - began;
    await page.waitForLoadState('networkidle');
    const total = rows.reduce((sum, r) => sum + r.bytes, 0);
    console.log(`${label}: ${rows.length} requests, ${total} bytes, a board to play after ${playable} ms`);
    return rows;
  };
  const first = await visit('first visit');
  for (const r of first.sort((a, b) => b.bytes - a.bytes)) {
    console.log(`  ${String(r.bytes).padStart(7)} ${r.status} ${r.encoding.padEnd(4)} ${r.url}`);
  }
  await visit('second visit');
} finally {
  await browser.close();
}
