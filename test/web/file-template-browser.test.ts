// The new-file page's template picker in Chromium with the pages' script: choosing a type reloads the
// page with that kind's templates, choosing one fills the editor (a licence with the person's name),
// and the file is committed from it; axe on the filled page.
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

describe('the new file template picker in Chromium', { skip }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let owner: TestUser;
  let project: TestProject;

  before(async () => {
    app = await startBrowserApp();
    ({ t, base, browser } = app);
    owner = await createUser(t, 'picker', { name: 'Grace Hopper' });
    project = await createProject(t, { owner, path: 'licensed', commit: true });
  });
  after(async () => {
    await app?.close();
  });

  it('picks a type, then a licence, and commits it', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signIn(page, owner.username, owner.password);
    const projectPath = `/${project.fullPath}`;
    await page.goto(`${projectPath}/new/master`);
    // With the script, the selects submit themselves and the button hides.
    assert.equal(await page.getByRole('button', { name: 'Choose type' }).isHidden(), true);
    await Promise.all([
      page.waitForURL(/template_type=licenses/),
      page.getByLabel('Template type').selectOption('licenses'),
    ]);
    await Promise.all([
      page.waitForURL(/template=mit/),
      // The select's name takes in its chosen option's text, so it is found by its field name.
      page.locator('select[name=template]').selectOption({ label: 'MIT License' }),
    ]);
    assert.equal(await page.getByLabel('File name').inputValue(), 'LICENSE');
    const content = await page.getByLabel('Content').inputValue();
    const year = new Date().getUTCFullYear();
    assert.ok(
      content.startsWith(`MIT License\n\nCopyright (c) ${year} Grace Hopper\n`),
      content.slice(0, 60),
    );
    await page.getByLabel('Commit message').fill('Add LICENSE');
    await page.getByRole('button', { name: 'Commit changes' }).click();
    await page.waitForURL(new RegExp(`${projectPath}/blob/master/LICENSE`));
    const raw = await t.request(
      'GET',
      `/api/v4/projects/${project.id}/repository/files/LICENSE/raw?ref=master`,
      {
        token: owner.token,
      },
    );
    assert.equal(raw.text, content);
    assert.deepEqual(seen, []);
    await context.close();
  });

  it('axe finds no serious or critical violation on the picker', async () => {
    const context = await newAuditContext(browser, base);
    const page = await context.newPage();
    await signIn(page, owner.username, owner.password);
    const found: string[] = [];
    for (const query of ['', '?template_type=gitignores', '?template_type=licenses&template=gpl-3.0']) {
      const url = `/${project.fullPath}/new/master${query}`;
      const response = await page.goto(url);
      assert.equal(response?.status(), 200, url);
      found.push(...(await seriousAxeViolations(page, url)));
    }
    assert.deepEqual(found, []);
    await context.close();
  });
});
