// Issue 37 in Chromium, two people side by side: one ticks a task of an issue (script posts the box, no
// reload) and mentions the other in a comment; the other, in a second browser context, finds the
// `mentioned` todo, opens the issue from it and sees the ticked box, the task note and the rendered
// references (the issue link, the user link, the label chip). A tick from a page drawn before that
// change is refused and put back.
import assert from 'node:assert/strict';
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
  newContext,
  signIn,
  startBrowserApp,
  watchForScript,
  type BrowserApp,
} from '../helpers/browser.ts';
import { until } from '../helpers/wait.ts';

const skip = browserMissing();

describe('references, mentions and tasks in Chromium', { skip }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let ann: TestUser;
  let ben: TestUser;
  let project: TestProject;
  let issuePath = '';
  let otherIid = 0;

  before(async () => {
    app = await startBrowserApp();
    ({ t, base, browser } = app);
    ann = await createUser(t, 'ann');
    ben = await createUser(t, 'ben');
    project = await createProject(t, { owner: ann, path: 'tasks', visibility: 0, commit: true });
    await addProjectMember(t, project.id, ben.id, 30);
    const call = async (url: string, body: Record<string, unknown>) => {
      const response = await t.request('POST', url, { token: ann.token, body });
      assert.equal(response.status, 201, response.text);
      return response.body;
    };
    await call(`/api/v3/projects/${project.id}/labels`, { name: 'bug', color: '#d9534f' });
    const other = await call(`/api/v3/projects/${project.id}/issues`, { title: 'The other issue' });
    otherIid = other.iid;
    const issue = await call(`/api/v3/projects/${project.id}/issues`, {
      title: 'Release checklist',
      description: `- [ ] Write notes\n- [ ] Tag the release\n\nBlocked by #${other.iid} ~bug`,
    });
    issuePath = new URL(issue.web_url).pathname;
  });
  after(async () => {
    await app?.close();
  });

  it('one ticks a task and mentions the other, who sees the todo and the rendered links', async () => {
    const annContext = await newContext(browser, base);
    const benContext = await newContext(browser, base);
    const annPage = await annContext.newPage();
    const benPage = await benContext.newPage();
    const seen = watchForScript(annPage);
    await signIn(annPage, ann.username, ann.password);
    await signIn(benPage, ben.username, ben.password);
    // Ben opens the issue first: his page is drawn from the description before Ann's tick.
    await benPage.goto(issuePath);
    await benPage.getByRole('heading', { name: 'Release checklist' }).waitFor();

    await annPage.goto(issuePath);
    // With script the form's save button hides; each box posts as it changes.
    assert.equal(await annPage.getByRole('button', { name: 'Save tasks' }).isVisible(), false);
    await annPage.getByRole('checkbox', { name: 'task 1' }).check();
    await annPage.getByRole('status').getByText('Saved.').waitFor();
    await until('the first task ticked', async () => {
      const response = await t.request('GET', `/api/v3/projects/${project.id}/issues?iid=2`, {
        token: ann.token,
      });
      return (response.body as Array<{ description: string }>)[0]?.description.startsWith(
        '- [x] Write notes',
      );
    });
    await annPage.getByLabel('Comment (Markdown)').fill(`@ben can you take the tag? See #${otherIid}`);
    await annPage.getByRole('button', { name: 'Comment' }).click();
    await annPage.getByRole('list', { name: 'Comments' }).getByText('can you take the tag?').waitFor();

    // Ben's stale page: his tick is refused (409), the box goes back and he is told to reload.
    // click(), not check(): check() fails when the 409 has put the box back before it looks.
    await benPage.getByRole('checkbox', { name: 'task 2' }).click();
    await benPage
      .getByRole('status')
      .getByText(/reload to see it/)
      .waitFor();
    assert.equal(await benPage.getByRole('checkbox', { name: 'task 2' }).isChecked(), false);

    // Ben's todos list the mention; following it opens the issue with the rendered references.
    await benPage.goto('/dashboard/todos');
    const todos = benPage.getByRole('list', { name: 'Todos' });
    await todos.getByText('mentioned you on').waitFor();
    const todo = todos.getByRole('link', { name: /^#2\b/ }).first();
    await todo.click();
    await benPage.getByRole('heading', { name: 'Release checklist' }).waitFor();
    assert.equal(await benPage.getByRole('checkbox', { name: 'task 1' }).isChecked(), true);
    const comments = benPage.getByRole('list', { name: 'Comments' });
    await comments.getByText('Marked the task').waitFor();
    assert.equal((await comments.locator('li.system-note svg.system-note-icon').count()) >= 1, true);
    const userLink = comments.locator('a.gfm-project_member', { hasText: '@ben' });
    assert.equal(await userLink.getAttribute('href'), `/${ben.username}`);
    const issueLinks = benPage.locator(`a.gfm-issue[title="The other issue"]`);
    assert.equal(await issueLinks.count(), 2);
    const chip = benPage.locator('.md a.gfm-label .color-label', { hasText: 'bug' });
    assert.equal(await chip.locator('rect').getAttribute('fill'), '#d9534f');
    // Following a reference lands on what it names.
    await issueLinks.first().click();
    await benPage.getByRole('heading', { name: 'The other issue' }).waitFor();
    // The other issue carries the cross-reference note, as a link back.
    await benPage.getByRole('list', { name: 'Comments' }).getByText('Mentioned in issue').waitFor();
    assert.deepEqual(seen, []);
    await annContext.close();
    await benContext.close();
  });
});
