// A person's path through the repository pages in a real browser (Debian's Chromium through
// playwright-core): star the project, make a branch in the form, edit a file on it in the web editor,
// open a merge request from the branches page's link, merge it with its button, and find the change on
// master through the API; axe on every page of that path.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import {
  browserMissing,
  newAuditContext,
  newContext,
  seriousAxeViolations,
  signIn as signInAs,
  startBrowserApp,
  watchForScript,
  type BrowserApp,
} from '../helpers/browser.ts';

const skip = browserMissing();

describe('branch, web editor and merge request in Chromium', { skip }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let owner: TestUser;
  let project: TestProject;

  const api = async (method: string, url: string, body: Record<string, unknown> = {}) => {
    const response = await t.request(method, url, { token: owner.token, body });
    assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${response.text}`);
    return response.body;
  };
  const signIn = (page: Page) => signInAs(page, owner.username, owner.password);

  before(async () => {
    app = await startBrowserApp();
    ({ t, base, browser } = app);
    owner = await createUser(t, 'edith');
    project = await createProject(t, { owner, path: 'walked', commit: true, visibility: 20 });
    await api('PUT', `/api/v3/projects/${project.id}`, { name: 'walked', default_branch: 'master' });
  });
  after(async () => {
    await app?.close();
  });

  it('stars, branches, edits a file on the branch, opens a merge request from it and merges it', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signIn(page);
    const projectPath = `/${project.fullPath}`;

    await page.goto(projectPath);
    await page.getByRole('button', { name: '☆ Star' }).click();
    await page.getByRole('button', { name: '★ Unstar' }).waitFor();
    assert.equal((await api('GET', `/api/v3/projects/${project.id}`)).star_count, 1);

    await page.getByRole('link', { name: 'Branches' }).click();
    await page.getByRole('link', { name: 'New branch' }).click();
    await page.getByLabel('Name for new branch').fill('fix-readme');
    await page.getByRole('button', { name: 'Create branch' }).click();
    await page.getByRole('heading', { name: 'Files' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `${projectPath}/tree/fix-readme`);

    await page.getByRole('link', { name: 'README.md' }).click();
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit README.md' }).waitFor();
    await page.getByLabel('Content').fill('# walked\n\nFixed in the browser.\n');
    await page.getByLabel('Commit message').fill('Fix the README');
    await page.getByRole('button', { name: 'Commit changes' }).click();
    await page.getByText('Fixed in the browser.').waitFor();
    assert.equal(new URL(page.url()).pathname, `${projectPath}/blob/fix-readme/README.md`);

    await page.goto(`${projectPath}/branches`);
    await page.getByRole('link', { name: 'Merge request', exact: true }).click();
    await page.getByRole('heading', { name: 'New merge request' }).waitFor();
    assert.equal(await page.getByLabel('Source branch').inputValue(), 'fix-readme');
    assert.equal(await page.getByLabel('Title').inputValue(), 'Fix readme');
    await page.getByRole('button', { name: 'Submit merge request' }).click();
    await page.getByRole('heading', { name: 'Fix readme' }).waitFor();
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByText('Merged into master').waitFor();

    const file = await api(
      'GET',
      `/api/v3/projects/${project.id}/repository/files?file_path=README.md&ref=master`,
    );
    assert.equal(
      Buffer.from(file.content as string, 'base64').toString('utf8'),
      '# walked\n\nFixed in the browser.\n',
    );
    assert.deepEqual(seen, []);
    await context.close();
  });

  it('axe finds no serious or critical violation on the new repository pages', async () => {
    const context = await newAuditContext(browser, base);
    const page = await context.newPage();
    await signIn(page);
    const projectPath = `/${project.fullPath}`;
    const found: string[] = [];
    for (const url of [
      projectPath,
      `${projectPath}/forks/new`,
      `${projectPath}/branches`,
      `${projectPath}/branches/new`,
      `${projectPath}/new/master`,
      `${projectPath}/edit/master/README.md`,
      `${projectPath}/compare`,
      `${projectPath}/compare/master~1...master`,
      `${projectPath}/activity`,
    ]) {
      const response = await page.goto(url);
      assert.equal(response?.status(), 200, url);
      found.push(...(await seriousAxeViolations(page, url)));
    }
    assert.deepEqual(found, []);
    await context.close();
  });
});
