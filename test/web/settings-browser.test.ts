// The project settings pages in Chromium: a master fills two forms for real (the API reads the values
// back), a variable's value stays hidden until asked, no page runs script it should not, and axe finds
// no serious or critical violation on any settings page type.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
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

describe('project settings in Chromium', { skip }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let owner: TestUser;
  let project: TestProject;

  before(async () => {
    app = await startBrowserApp();
    ({ t, base, browser } = app);
    owner = await createUser(t, 'petra');
    project = await createProject(t, { owner, path: 'tuned', commit: true });
  });
  after(async () => {
    await app?.close();
  });

  const api = (path: string) =>
    t.request('GET', `/api/v3/projects/${project.id}${path}`, { token: owner.token });

  it('a master saves the general settings and adds a secret variable', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await page.goto(`/users/sign_in?redirect_to=${encodeURIComponent(`/${project.fullPath}`)}`);
    await page.getByLabel('Username or Email').fill(owner.username);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'General settings' }).waitFor();
    await page.getByLabel('Description').fill('Tuned in a real browser');
    await page.getByLabel('Wiki').uncheck();
    await page.getByLabel('Internal').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Project settings were saved.').waitFor();
    const saved = (await api('')).body;
    assert.deepEqual(
      [saved.description, saved.wiki_enabled, saved.issues_enabled, saved.visibility_level],
      ['Tuned in a real browser', false, true, 10],
    );

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Variables' }).click();
    await page.getByLabel('Key').fill('API_SECRET');
    await page.getByLabel('Value', { exact: true }).fill('hunter2');
    await page.getByRole('button', { name: 'Add new variable' }).click();
    await page.getByText('The variable was saved.').waitFor();
    assert.deepEqual((await api('/variables')).body, [{ key: 'API_SECRET', value: 'hunter2' }]);
    // Hidden until asked for.
    const value = page.getByLabel('Value of API_SECRET');
    assert.equal(await value.isVisible(), false);
    await page.getByText('Show and change the value of API_SECRET').click();
    assert.equal(await value.isVisible(), true);
    assert.equal(await value.inputValue(), 'hunter2');
    assert.deepEqual(seen, []);
    await context.close();
  });

  it('axe finds no serious or critical violation on any settings page type', async () => {
    const hook = await t.request('POST', `/api/v3/projects/${project.id}/hooks`, {
      token: owner.token,
      body: { url: 'http://127.0.0.1:9/hook' },
    });
    assert.equal(hook.status, 201);
    const context = await newAuditContext(browser, base);
    const page = await context.newPage();
    await signIn(page, owner.username, owner.password);
    const found: string[] = [];
    for (const tail of [
      '/edit',
      '/project_members',
      '/protected_branches',
      '/hooks',
      `/hooks/${hook.body.id}/edit`,
      '/deploy_keys',
      '/variables',
      '/triggers',
      '/runners',
      '/pipelines/settings',
    ]) {
      const url = `/${project.fullPath}${tail}`;
      const response = await page.goto(url);
      assert.equal(response?.status(), 200, url);
      found.push(...(await seriousAxeViolations(page, url)));
    }
    assert.deepEqual(found, []);
    await context.close();
  });
});
