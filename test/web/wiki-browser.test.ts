// The wiki in a real browser (Debian's Chromium through playwright-core): a developer opens the Wiki tab,
// writes the home page in the new-page form, edits it with a commit message, follows a link to a page
// that does not exist yet and writes it; then `git clone` of `<project>.wiki.git` has both edits, the
// message and the author. Nothing on the pages logs an error, and the page passes the axe audit.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
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
import { GitClient, repoUrl } from '../helpers/git.ts';
import { AccessLevel } from '../../src/domain/types.ts';

const skip = browserMissing();

describe('wiki in Chromium', { skip }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let owner: TestUser;
  let writer: TestUser;
  let project: TestProject;
  const client = new GitClient();

  before(async () => {
    app = await startBrowserApp();
    ({ t, base, browser } = app);
    owner = await createUser(t, 'wilma');
    writer = await createUser(t, 'walt', { name: 'Walt Writer' });
    project = await createProject(t, { owner, path: 'handbook', commit: true, visibility: 0 });
    await addProjectMember(t, project.id, writer.id, AccessLevel.Developer);
  });
  after(async () => {
    await app?.close();
    client.close();
  });

  it('edits a page in the browser, and git clone of the wiki has the edit', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signIn(page, writer.username, writer.password);
    await page.goto(`/${project.fullPath}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Wiki' }).click();
    // No home page yet: the form that writes it.
    await page.getByLabel('Content').fill('# Handbook\n\nStart with [[Getting Started]].');
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.getByRole('heading', { name: 'Handbook' }).waitFor();
    await page.getByText('Wiki was successfully updated.').waitFor();

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Content').fill('# Handbook\n\nStart with [[Getting Started]], then ask.');
    await page.getByLabel('Commit message').fill('Tell people to ask');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('then ask.').waitFor();

    // The link names a page nobody wrote: following it opens the form for it.
    await page.getByRole('link', { name: 'Getting Started' }).click();
    assert.equal(new URL(page.url()).pathname, `/${project.fullPath}/wikis/Getting-Started`);
    await page.getByLabel('Content').fill('Clone the repository.');
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.getByText('Clone the repository.').waitFor();

    await page.getByRole('link', { name: 'Git Access' }).click();
    // The page names the server's external URL; the clone goes to the same path on the test server.
    const url = new URL(await page.getByLabel('HTTP').inputValue());
    assert.equal(url.pathname, `/${project.fullPath}.wiki.git`);
    assert.deepEqual(seen, []);
    await context.close();

    const dir = path.join(client.home, 'handbook.wiki');
    await client.ok([
      'clone',
      '-q',
      repoUrl(base, project.fullPath, writer.username, writer.password, '.wiki.git'),
      dir,
    ]);
    assert.equal(
      fs.readFileSync(path.join(dir, 'home.md'), 'utf8'),
      '# Handbook\n\nStart with [[Getting Started]], then ask.',
    );
    assert.equal(fs.readFileSync(path.join(dir, 'Getting-Started.md'), 'utf8'), 'Clone the repository.');
    const log = await client.ok(['log', '--format=%an|%s', '--', 'home.md'], dir);
    assert.deepEqual(log.trim().split('\n'), [
      'Walt Writer|Tell people to ask',
      `Walt Writer|${writer.username} created page: home`,
    ]);
  });

  it('passes the axe audit on a page and its form', async () => {
    const context = await newAuditContext(browser, base);
    const page = await context.newPage();
    await signIn(page, owner.username, owner.password);
    assert.deepEqual(await seriousAxeViolations(page, `/${project.fullPath}/wikis/home`), []);
    assert.deepEqual(await seriousAxeViolations(page, `/${project.fullPath}/wikis/home/edit`), []);
    await context.close();
  });
});
