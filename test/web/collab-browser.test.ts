// Issues and merge requests in a real browser (Debian's Chromium through playwright-core): comment on an
// issue and on a merge request and see the comment, merge a merge request with its button, axe on the
// four page types, and an issue whose description and comment carry script and `javascript:` links that
// never run.
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

const HOSTILE = [
  'Hostile <script>alert("description")</script>',
  '',
  '<img src=x onerror=alert("img")>',
  '',
  '[click me](javascript:alert("link")) [data](data:text/html,<script>alert(1)</script>)',
  '',
  '<a href="javascript:alert(\'raw\')">raw link</a>',
].join('\n');

describe('issue and merge request pages in Chromium', { skip }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let owner: TestUser;
  let project: TestProject;
  let issuePath = '';
  let mrPath = '';
  let milestonePath = '';

  const api = async (method: string, url: string, body: Record<string, unknown>) => {
    const response = await t.request(method, url, { token: owner.token, body });
    assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${response.text}`);
    return response.body;
  };
  const signIn = (page: Page) => signInAs(page, owner.username, owner.password);

  before(async () => {
    app = await startBrowserApp();
    ({ t, base, browser } = app);
    owner = await createUser(t, 'bella');
    project = await createProject(t, { owner, path: 'browsed', commit: true, visibility: 20 });
    await api('PUT', `/api/v3/projects/${project.id}`, { name: 'browsed', default_branch: 'master' });
    await api('POST', `/api/v3/projects/${project.id}/labels`, { name: 'bug', color: '#d9534f' });
    const milestone = await api('POST', `/api/v3/projects/${project.id}/milestones`, { title: 'v1' });
    milestonePath = `/${project.fullPath}/milestones/${milestone.iid}`;
    const issue = await api('POST', `/api/v3/projects/${project.id}/issues`, {
      title: 'Hostile issue',
      description: HOSTILE,
      labels: 'bug',
      milestone_id: milestone.id,
    });
    issuePath = new URL(issue.web_url).pathname;
    await api('POST', `/api/v3/projects/${project.id}/repository/branches`, {
      branch_name: 'topic',
      ref: 'master',
    });
    await api('POST', `/api/v3/projects/${project.id}/repository/files`, {
      file_path: 'topic.txt',
      branch_name: 'topic',
      content: 'topic\n',
      commit_message: 'Write topic.txt',
    });
    const mr = await api('POST', `/api/v3/projects/${project.id}/merge_requests`, {
      source_branch: 'topic',
      target_branch: 'master',
      title: 'Merge the topic',
    });
    mrPath = new URL(mr.web_url).pathname;
  });
  after(async () => {
    await app?.close();
  });

  it('comments on an issue and sees the comment; script in the issue never runs', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signIn(page);
    await page.goto(issuePath);
    await page.getByRole('heading', { name: 'Hostile issue' }).waitFor();
    await page.getByLabel('Comment (Markdown)').fill('Looks **bad** <script>alert("comment")</script>');
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.getByRole('list', { name: 'Comments' }).getByText('bad').waitFor();
    assert.match(new URL(page.url()).hash, /^#note_\d+$/);
    assert.equal(await page.locator('.md strong', { hasText: 'bad' }).count(), 1);
    // Following the link that was `javascript:` must not run anything either.
    const links = await page
      .locator('main a')
      .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
    assert.ok(
      links.every((href) => !/^(javascript|data):/i.test(href)),
      links.join(' '),
    );
    assert.equal(await page.locator('main script').count(), 0);
    assert.equal(await page.locator('main img[onerror]').count(), 0);
    assert.deepEqual(seen, []);
    await context.close();
  });

  it('comments on a merge request and sees the comment in its discussion', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signIn(page);
    await page.goto(mrPath);
    await page.getByRole('heading', { name: 'Merge the topic' }).waitFor();
    const discussion = page.getByRole('region', { name: 'Discussion' });
    await discussion.getByLabel('Comment (Markdown)').fill('Ship **it** <script>alert("mr")</script>');
    await discussion.getByRole('button', { name: 'Comment' }).click();
    await page.getByRole('list', { name: 'Comments' }).getByText('it', { exact: true }).waitFor();
    const hash = new URL(page.url()).hash;
    assert.match(hash, /^#note_\d+$/);
    assert.equal(await page.locator(`${hash} .md strong`).textContent(), 'it');
    const mr = await t.request('GET', `/api/v3/projects/${project.id}/merge_requests`, {
      token: owner.token,
    });
    const notes = await t.request(
      'GET',
      `/api/v3/projects/${project.id}/merge_requests/${mr.body[0].id}/notes`,
      {
        token: owner.token,
      },
    );
    assert.deepEqual(
      notes.body.map((note: any) => [`#note_${note.id}`, note.body]),
      [[hash, 'Ship **it** <script>alert("mr")</script>']],
    );
    assert.equal(await page.locator('main script').count(), 0);
    assert.deepEqual(seen, []);
    await context.close();
  });

  it('merges a merge request with its button', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await signIn(page);
    await page.goto(mrPath);
    await page.getByRole('heading', { name: 'Merge the topic' }).waitFor();
    await page.getByRole('link', { name: 'Changes' }).click();
    await page.getByText('+topic').waitFor();
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByText('Merged into master').waitFor();
    const mr = await t.request('GET', `/api/v3/projects/${project.id}/merge_requests?state=merged`, {
      token: owner.token,
    });
    assert.equal(mr.body.length, 1);
    assert.equal(mr.body[0].title, 'Merge the topic');
    assert.deepEqual(seen, []);
    await context.close();
  });

  it('axe finds no serious or critical violation on the issue, merge request, label and milestone pages', async () => {
    const context = await newAuditContext(browser, base);
    const page = await context.newPage();
    await signIn(page);
    const found: string[] = [];
    const projectPath = `/${project.fullPath}`;
    for (const url of [
      `${projectPath}/issues`,
      issuePath,
      `${projectPath}/issues/new`,
      `${issuePath}/edit`,
      `${projectPath}/labels`,
      `${projectPath}/labels/new`,
      `${projectPath}/milestones`,
      milestonePath,
      `${projectPath}/milestones/new`,
      `${projectPath}/merge_requests?state=all`,
      mrPath,
      `${mrPath}/commits`,
      `${mrPath}/diffs`,
      `${mrPath}/edit`,
      `${projectPath}/merge_requests/new`,
    ]) {
      const response = await page.goto(url);
      assert.equal(response?.status(), 200, url);
      found.push(...(await seriousAxeViolations(page, url)));
    }
    assert.deepEqual(found, []);
    await context.close();
  });
});
