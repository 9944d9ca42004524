// Development helper: screenshots of a few URLs. Usage: node shot.mjs BASE OUTDIR path...
import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [base, out, ...paths] = process.argv.slice(2);
const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tabula-shot-')), {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: Number(process.env.W || 1280), height: Number(process.env.H || 860) },
});
// TABULA_WEB_DIR=<folder>: the page's scripts and styles from a working copy's web/.
if (process.env.TABULA_WEB_DIR) {
  const { readFileSync } = await import('node:fs');
  const types = { js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml' };
  await browser.route(/\/(static\/)?[\w./-]+\.(js|css|svg)(\?.*)?$/, async (route) => {
    const path = new URL(route.request().url()).pathname.replace(/^\/(static\/)?/, '');
    try {
      if (path.split('/').includes('..')) throw new Error('outside');
      await route.fulfill({ status: 200, contentType: types[path.split('.').pop()], body: readFileSync(join(process.env.TABULA_WEB_DIR, path)) });
    } catch {
      await route.continue();
    }
  });
}
const page = await browser.newPage();
page.on('console', (m) => console.log('console:', m.type(), m.text()));
page.on('pageerror', (e) => console.log('pageerror:', e.message));
for (const p of paths) {
  await page.goto(base + p);
  await page.waitForTimeout(Number(process.env.WAIT || 1500));
  const name = p.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home';
  await page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
  console.log('shot', name);
}
await browser.close();
