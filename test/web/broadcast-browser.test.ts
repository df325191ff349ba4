// A broadcast message in a real browser: an administrator adds one on /admin/broadcast_messages, and it
// shows on another page in its own colours (applied by the pages' script, since the CSP allows no
// style attribute).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import {
  browserMissing,
  newContext,
  signIn,
  startBrowserApp,
  watchForScript,
  type BrowserApp,
} from '../helpers/browser.ts';

const skip = browserMissing();

describe('broadcast messages in Chromium', { skip }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;

  before(async () => {
    app = await startBrowserApp();
    ({ t, base, browser } = app);
  });
  after(async () => {
    await app?.close();
  });

  it('an administrator adds a message and every page shows it in its colours', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signIn(page, 'root', t.rootPassword);
    await page.goto('/admin/broadcast_messages');
    await page.getByLabel('Message').fill('Scheduled upgrade at **noon**');
    await page.getByLabel('Background colour').fill('#336699');
    await page.getByLabel('Text colour').fill('#ffee00');
    await page.getByRole('button', { name: 'Add broadcast message' }).click();
    await page.getByText('The broadcast message was added.').waitFor();

    await page.goto('/explore/projects');
    const banner = page.locator('.broadcast');
    await banner.getByText('noon').waitFor();
    assert.equal(await banner.locator('strong').textContent(), 'noon');
    const colours = await banner.evaluate((element) => {
      const style = getComputedStyle(element);
      return [style.backgroundColor, style.color];
    });
    assert.deepEqual(colours, ['rgb(51, 102, 153)', 'rgb(255, 238, 0)']);
    const listed = await t.request('GET', '/api/v3/broadcast_messages', { token: t.rootToken });
    assert.equal(listed.body[0].message, 'Scheduled upgrade at **noon**');
    assert.deepEqual(seen, []);
    await context.close();
  });
});
