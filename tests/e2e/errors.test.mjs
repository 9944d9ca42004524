// Errors from the server reach the user in plain words, never as a blank page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { newPage, api, BASE, ARTIFACTS, waitForBoard, browserForFile } from './helpers.mjs';

const browser = browserForFile();

test('a bad variant in the address shows the server error text', async () => {
  const { status, data } = await api('GET', '/api/games/tictactoe?variant=' + encodeURIComponent('nonsense=7'));
  assert.equal(status, 400);
  const page = await newPage(browser);
  await page.goto(`${BASE}/game/tictactoe?variant=${encodeURIComponent('nonsense=7')}`);
  const toast = page.locator('.toast-error .toast-text');
  await toast.first().waitFor();
  assert.equal((await toast.first().textContent()).trim(), data.error);
  assert.match(await page.locator('main').textContent(), /cannot be opened/i);
  await page.screenshot({ path: join(ARTIFACTS, 'error-variant.png') });
  assert.deepEqual(page.pageErrors, []);
  await page.close();
});

test('an unknown game shows a readable message', async () => {
  const page = await newPage(browser);
  await page.goto(`${BASE}/game/no-such-game`);
  const toast = page.locator('.toast-error .toast-text');
  await toast.first().waitFor();
  const text = (await toast.first().textContent()).trim();
  assert.ok(text.length > 5 && !text.startsWith('{'), `plain words, not JSON: ${text}`);
  assert.ok(await page.locator('a[href="/"]').count());
  await page.close();
});

test('a move the server refuses is explained', async () => {
  const page = await newPage(browser);
  await page.goto(`${BASE}/game/tictactoe`);
  await waitForBoard(page);
  // The page's own client sends a move that is not legal (as a stale tab would).
  const message = await page.evaluate(async () => {
    const { playMove } = await import('/static/api.js');
    const id = new URL(location.href).searchParams.get('s');
    try {
      await playMove(id, 'z9');
      return null;
    } catch (e) {
      return e.message;
    }
  });
  assert.ok(message && !message.startsWith('{'), `a plain message: ${message}`);
  const { data } = await api('POST', `/api/sessions/${new URL(page.url()).searchParams.get('s')}/moves`, { move: 'z9' });
  assert.equal(message, data.error);
  await page.close();
});

test('an unknown session in the address starts a new game and says so', async () => {
  const page = await newPage(browser);
  await page.goto(`${BASE}/game/tictactoe?s=doesnotexist`);
  await waitForBoard(page);
  await page.locator('.toast').first().waitFor();
  assert.match(await page.locator('.toast').first().textContent(), /could not be found/);
  assert.notEqual(new URL(page.url()).searchParams.get('s'), 'doesnotexist');
  await page.close();
});
