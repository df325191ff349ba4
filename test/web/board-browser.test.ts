// The issue board in a real browser (Debian's Chromium through playwright-core): a card dragged to
// another list moves there (the board script sends the card's form; the issue's labels change on the
// server and the page stays), a card moved by its Move form with the page reloaded, and the page's
// axe audit. Nothing on the page logs an error.
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
import { until } from '../helpers/wait.ts';

const skip = browserMissing();

describe('issue board in Chromium', { skip }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let owner: TestUser;
  let project: TestProject;
  const issues: Record<string, number> = {};

  const api = async (method: string, url: string, body?: Record<string, unknown>) => {
    const response = await t.request(method, url, { token: owner.token, body });
    assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${response.text}`);
    return response.body;
  };
  const labelsOf = async (title: string) =>
    (await api('GET', `/api/v3/projects/${project.id}/issues/${issues[title]}`)).labels as string[];

  before(async () => {
    app = await startBrowserApp();
    ({ t, base, browser } = app);
    owner = await createUser(t, 'dora');
    project = await createProject(t, { owner, path: 'kanban', commit: true, visibility: 20 });
    await api('PUT', `/api/v3/projects/${project.id}`, { name: 'kanban', default_branch: 'master' });
    for (const name of ['To Do', 'Doing']) {
      await api('POST', `/api/v3/projects/${project.id}/labels`, { name, color: '#5CB85C' });
    }
    for (const [title, labels] of [
      ['Drag me', 'To Do'],
      ['Use the form', 'To Do'],
    ]) {
      issues[title] = (await api('POST', `/api/v3/projects/${project.id}/issues`, { title, labels })).id;
    }
    const board = await api('POST', `/api/v4/projects/${project.id}/boards`, { name: 'Development' });
    const labels = await api('GET', `/api/v4/projects/${project.id}/labels`);
    for (const label of labels) {
      await api('POST', `/api/v4/projects/${project.id}/boards/${board.id}/lists`, { label_id: label.id });
    }
  });
  after(async () => {
    await app?.close();
  });

  it('moves a card by dragging it to another list', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signIn(page, owner.username, owner.password);
    await page.goto(`/${project.fullPath}/boards`);
    const todo = page.getByRole('list', { name: 'To Do' });
    const doing = page.getByRole('list', { name: 'Doing' });
    const card = todo.getByRole('listitem').filter({ hasText: 'Drag me' });
    await card.waitFor();
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    await card.dragTo(doing);
    await doing.getByRole('link', { name: 'Drag me' }).waitFor();
    await page.getByRole('status').getByText('moved to Doing').waitFor();
    assert.equal(await todo.getByRole('link', { name: 'Drag me' }).count(), 0);
    assert.deepEqual(loads, []);
    await until('the drag to reach the server', async () => (await labelsOf('Drag me')).includes('Doing'));
    assert.deepEqual(await labelsOf('Drag me'), ['Doing']);
    // The moved card's form now moves it on from Doing.
    assert.equal(
      await doing
        .getByRole('listitem')
        .filter({ hasText: 'Drag me' })
        .locator('input[name="from_list_id"]')
        .inputValue(),
      await page.locator('section.board-column', { has: doing }).getAttribute('data-list-id'),
    );
    await page.reload();
    await page.getByRole('list', { name: 'Doing' }).getByRole('link', { name: 'Drag me' }).waitFor();
    assert.deepEqual(seen, []);
    await context.close();
  });

  it('moves a card by its Move form', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signIn(page, owner.username, owner.password);
    await page.goto(`/${project.fullPath}/boards`);
    const card = page
      .getByRole('list', { name: 'To Do' })
      .getByRole('listitem')
      .filter({ hasText: 'Use the form' });
    await card.getByLabel('Move to').selectOption({ label: 'Done' });
    await card.getByRole('button', { name: /^Move #/ }).click();
    await page.getByRole('list', { name: 'Done' }).getByRole('link', { name: 'Use the form' }).waitFor();
    const issue = await api('GET', `/api/v3/projects/${project.id}/issues/${issues['Use the form']}`);
    assert.equal(issue.state, 'closed');
    assert.deepEqual(issue.labels, []);
    assert.equal(
      new URL(page.url()).pathname,
      `/${project.fullPath}/boards/${(await api('GET', `/api/v4/projects/${project.id}/boards`))[0].id}`,
    );
    assert.deepEqual(seen, []);
    await context.close();
  });

  it('passes the axe audit', async () => {
    const context = await newAuditContext(browser, base);
    const page = await context.newPage();
    await signIn(page, owner.username, owner.password);
    assert.deepEqual(await seriousAxeViolations(page, `/${project.fullPath}/boards`), []);
    await context.close();
  });
});
