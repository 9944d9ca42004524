// Development helper: screenshots of a few URLs. Usage: node shot.mjs BASE OUTDIR path...
// W and H set the window (1280x860 unless told), WAIT the pause before each picture
// (ms); TABULA_WEB_DIR=<folder> takes the page's scripts and styles from a working
// copy's web/ (TABULA_WEB_FROM=<commit> from a commit), as in the browser tests.
import { join } from 'node:path';
import { launch } from './helpers.mjs';

const [base, out, ...paths] = process.argv.slice(2);
const browser = await launch({ viewport: { width: Number(process.env.W || 1280), height: Number(process.env.H || 860) } });
const page = await browser.context.newPage();
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
