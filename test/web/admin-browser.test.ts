// The admin area in a real browser (Debian's Chromium through playwright-core): an administrator reaches
// it from the top bar, creates a user and pauses a runner by filling in the forms, and axe finds no
// serious or critical violation on any admin page type. Page details are the inject tests' business.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { until } from '../helpers/wait.ts';
import {
  browserMissing,
  newAuditContext,
  newContext,
  seriousAxeViolations,
  signIn,
  startBrowserApp,
  watchForScript,
  type BrowserApp,
} from '../helpers/browser.ts';

const skip = browserMissing();

describe('admin pages in Chromium', { skip }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let receiver: Receiver;

  before(async () => {
    app = await startBrowserApp();
    ({ t, base, browser } = app);
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  const api = (method: string, url: string, body?: Record<string, unknown>) =>
    t.request(method, `/api/v3${url}`, { token: t.rootToken, body });

  const signInAsRoot = (page: Page) => signIn(page, 'root', t.rootPassword);

  it('an administrator creates a user and pauses a runner through the forms', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signInAsRoot(page);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin area' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('navigation', { name: 'Admin area' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('link', { name: 'New user' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Browser Made');
    await page.getByLabel('Username').fill('browsermade');
    await page.getByLabel('Email').fill('browser.made@example.com');
    await page.getByLabel('Password', { exact: true }).fill('browser-pass-1');
    await page.getByLabel('Password confirmation').fill('browser-pass-1');
    await page.getByLabel('Administrator').check();
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('User was successfully created.').waitFor();
    assert.equal(new URL(page.url()).pathname, '/admin/users/browsermade');
    const [made] = (await api('GET', '/users?username=browsermade')).body;
    assert.equal(made.name, 'Browser Made');
    assert.equal(made.email, 'browser.made@example.com');
    assert.equal(made.is_admin, true);

    await page.getByRole('button', { name: 'Block user' }).click();
    await page.getByText('Successfully blocked.').waitFor();
    assert.equal((await api('GET', `/users/${made.id}`)).body.state, 'blocked');

    await page.getByRole('navigation', { name: 'Admin area' }).getByRole('link', { name: 'Runners' }).click();
    const token = await page.getByLabel('Registration token').inputValue();
    const runner = await t.request('POST', '/ci/api/v1/runners/register', {
      body: { token, description: 'browser runner' },
    });
    assert.equal(runner.status, 201);
    await page.reload();
    await page.getByRole('button', { name: 'Pause browser runner' }).click();
    await page.getByText('The runner was paused.').waitFor();
    assert.equal((await api('GET', `/runners/${runner.body.id}`)).body.active, false);

    assert.deepEqual(seen, []);
    await context.close();
  });

  it('axe finds no serious or critical violation on any admin page type', async () => {
    const hook = await api('POST', '/hooks', { url: `${receiver.url}/axe` });
    assert.equal(hook.status, 201);
    assert.equal((await api('GET', `/hooks/${hook.body.id}`)).status, 200);
    await until('the test delivery is logged with its attempt', async () => {
      const log = (await api('GET', `/hooks/${hook.body.id}/deliveries`)).body;
      return log.length === 1 && log[0].attempts.length > 0;
    });
    const runners = (await api('GET', '/runners/all')).body as Array<{ id: number }>;
    assert.ok(runners.length > 0, 'the first test registered a runner');

    const context = await newAuditContext(browser, base);
    const page = await context.newPage();
    await signInAsRoot(page);
    const found: string[] = [];
    for (const url of [
      '/admin',
      '/admin/users',
      '/admin/users/new',
      '/admin/users/root',
      '/admin/users/root/edit',
      '/admin/projects',
      '/admin/runners',
      `/admin/runners/${runners[0]!.id}`,
      '/admin/hooks',
      `/admin/hooks/${hook.body.id}`,
    ]) {
      const response = await page.goto(url);
      assert.equal(response?.status(), 200, url);
      found.push(...(await seriousAxeViolations(page, url)));
    }
    assert.deepEqual(found, []);
    await context.close();
  });
});
