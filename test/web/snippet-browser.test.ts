// A project snippet made in Chromium through its page: the Snippets tab, the form (title, file name,
// visibility, content), then the snippet highlighted as a file with its Raw link, and a comment on it.
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
import { createProject, createUser } from '../helpers/factory.ts';

const skip = browserMissing();

describe('snippet pages in Chromium', { skip }, () => {
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

  it('creates a project snippet through the form and shows it highlighted, with raw text and comments', async () => {
    const owner = await createUser(t, 'snipbrowser');
    const project = await createProject(t, { owner, path: 'snipped', visibility: 10 });
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signIn(page, owner.username, owner.password);
    await page.goto(`/${project.fullPath}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Snippets' }).click();
    await page.getByRole('heading', { name: 'Snippets' }).waitFor();
    await page.getByRole('link', { name: 'New snippet' }).click();
    await page.getByLabel('Title').fill('Fizz buzz');
    await page.getByLabel('File name').fill('fizz.py');
    await page.getByLabel('Internal').check();
    await page.getByLabel('Content').fill('for i in range(3):\n    print(i)\n');
    await page.getByRole('button', { name: 'Create snippet' }).click();
    await page.getByRole('heading', { name: 'Fizz buzz' }).waitFor();
    assert.match(page.url(), new RegExp(`/${project.fullPath}/snippets/\\d+$`));
    const code = page.locator('section.file .code');
    assert.equal(await code.locator('tr').count(), 2);
    assert.equal(await code.locator('.hljs-keyword').first().textContent(), 'for');
    assert.ok(await page.getByText('Internal').first().isVisible());
    const raw = await page.getByRole('link', { name: 'Raw' }).getAttribute('href');
    const rawAnswer = await context.request.get(raw!);
    assert.equal(await rawAnswer.text(), 'for i in range(3):\n    print(i)\n');
    await page.getByLabel('Comment (Markdown)').fill('Looks *right*');
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.locator('em', { hasText: 'right' }).waitFor();
    // The API sees the snippet the page made.
    const listed = await t.request('GET', `/api/v4/projects/${project.id}/snippets`, { token: owner.token });
    assert.deepEqual(
      listed.body.map((s: { title: string; visibility: string }) => [s.title, s.visibility]),
      [['Fizz buzz', 'internal']],
    );
    assert.deepEqual(seen, []);
    await context.close();
  });
});
