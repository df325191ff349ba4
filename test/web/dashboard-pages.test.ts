// The signed-in person's dashboards as a browser without script uses them, checked against the API: the
// issues and merge requests assigned to the viewer across projects (never from a project hidden from the
// viewer), their state tabs and a fixed number of statements per page, the todos page with its Done and
// Mark-all buttons (refused without the form token, seen done through GET /todos), the activity of the
// viewer's projects, and the header's pending-todo badge.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { WebClient } from '../helpers/web.ts';

describe('pages: dashboards', () => {
  let t: TestApp;
  let owner: TestUser;
  let dev: TestUser;
  let visible: TestProject;
  let other: TestProject;
  let hidden: TestProject;
  let web: WebClient;

  const api = async (
    method: string,
    url: string,
    body: Record<string, unknown> = {},
    token = owner.token,
  ) => {
    const response = await t.request(method, `/api/v3${url}`, { token, body });
    assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${response.text}`);
    return response.body;
  };
  const issue = (project: TestProject, title: string, extra: Record<string, unknown> = {}) =>
    api('POST', `/projects/${project.id}/issues`, { title, assignee_id: dev.id, ...extra });
  const titles = (html: string) => [...html.matchAll(/<strong>([^<]*)<\/strong><\/a>/g)].map((m) => m[1]);
  const pendingTodos = async () =>
    (await api('GET', '/todos?per_page=100', {}, dev.token)) as Array<{ id: number; body: string }>;

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    owner = await createUser(t, 'ona');
    dev = await createUser(t, 'devi');
    visible = await createProject(t, { owner, path: 'seen', visibility: 0, commit: true });
    other = await createProject(t, { owner, path: 'also', visibility: 0 });
    hidden = await createProject(t, { owner, path: 'secret', visibility: 0, commit: true });
    for (const project of [visible, other, hidden]) await addProjectMember(t, project.id, dev.id, 30);
    await issue(visible, 'Visible open');
    const closed = await issue(visible, 'Visible closed');
    await api('PUT', `/projects/${visible.id}/issues/${closed.id}`, { state_event: 'close' });
    await issue(other, 'Other open');
    await issue(visible, 'Not for devi', { assignee_id: owner.id });
    await issue(hidden, 'Hidden issue');
    await api('POST', `/projects/${hidden.id}/repository/branches`, {
      branch_name: 'feature',
      ref: 'master',
    });
    await api('POST', `/projects/${hidden.id}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'master',
      title: 'Hidden change',
      assignee_id: dev.id,
    });
    await api('POST', `/projects/${visible.id}/repository/branches`, {
      branch_name: 'feature',
      ref: 'master',
    });
    await api('POST', `/projects/${visible.id}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'master',
      title: 'Visible change',
      assignee_id: dev.id,
    });
    // devi leaves the project: what is assigned to her there is hidden from her now.
    await api('DELETE', `/projects/${hidden.id}/members/${dev.id}`);
    web = new WebClient(t);
    assert.equal((await web.signIn(dev.username, dev.password)).status, 302);
  });
  after(() => t.close());

  it('sends a signed-out visitor to sign in', async () => {
    for (const path of [
      '/dashboard/issues',
      '/dashboard/merge_requests',
      '/dashboard/todos',
      '/dashboard/activity',
    ]) {
      const page = await new WebClient(t).get(path);
      assert.equal(page.status, 302, path);
      assert.equal(page.headers.location, `/users/sign_in?redirect_to=${encodeURIComponent(path)}`);
    }
  });

  it('lists the open issues assigned to me across my projects, never a hidden project’s', async () => {
    const page = await web.get('/dashboard/issues');
    assert.equal(page.status, 200);
    assert.deepEqual(titles(page.text).sort(), ['Other open', 'Visible open']);
    assert.match(page.text, /ona\/seen#1/);
    assert.match(page.text, /href="\/ona\/seen\/issues\/1"/);
    assert.match(page.text, /Open <span class="badge">2<\/span>/);
    assert.match(page.text, /Closed <span class="badge">1<\/span>/);
    assert.match(page.text, /All <span class="badge">3<\/span>/);
    assert.doesNotMatch(page.text, /Hidden issue|Not for devi/);

    const closed = await web.get('/dashboard/issues?state=closed');
    assert.deepEqual(titles(closed.text), ['Visible closed']);

    const byOwner = await web.get(`/dashboard/issues?author_id=${owner.id}&state=all`);
    assert.deepEqual(titles(byOwner.text).sort(), [
      'Not for devi',
      'Other open',
      'Visible closed',
      'Visible open',
    ]);
  });

  it('lists merge requests assigned to me, never a hidden project’s', async () => {
    const page = await web.get('/dashboard/merge_requests');
    assert.equal(page.status, 200);
    assert.deepEqual(titles(page.text), ['Visible change']);
    assert.match(page.text, /href="\/ona\/seen\/merge_requests\/1"/);
    const merged = await web.get('/dashboard/merge_requests?state=merged');
    assert.deepEqual(titles(merged.text), []);
    assert.match(merged.text, /No merge requests assigned to you here/);
  });

  it('costs the same number of statements per issue page however many projects and issues', async () => {
    const statements = async (url: string) => {
      let count = 0;
      t.server.deps.db.onQuery = () => {
        count += 1;
      };
      try {
        const page = await web.get(url);
        assert.equal(page.status, 200);
        return { count, rows: titles(page.text).length };
      } finally {
        t.server.deps.db.onQuery = undefined;
      }
    };
    const small = await statements('/dashboard/issues');
    assert.equal(small.rows, 2);
    const third = await createProject(t, { owner, path: 'third', visibility: 0 });
    await addProjectMember(t, third.id, dev.id, 30);
    for (let i = 0; i < 22; i++) await issue(i % 2 ? third : other, `Bulk ${i}`);
    const full = await statements('/dashboard/issues');
    assert.equal(full.rows, 20);
    const second = await statements('/dashboard/issues?page=2');
    assert.equal(second.rows, 4);
    assert.equal(full.count, small.count);
    assert.equal(second.count, small.count);
    assert.match((await web.get('/dashboard/issues')).text, /href="\/dashboard\/issues\?page=2"/);
  });

  it('shows pending todos, marks one done and then all, refusing a post without the form token', async () => {
    const before = await pendingTodos();
    assert.ok(before.length >= 3, 'assignments made todos');
    const page = await web.get('/dashboard/todos');
    assert.equal(page.status, 200);
    // The header's badge counts what the page counts (8.13's raw pending count).
    const total = Number(/(\d+) pending todos/.exec(page.text)?.[1]);
    assert.ok(total >= before.length);
    assert.match(page.text, new RegExp(`Todos\\s*<span class="badge"[^>]*>${total}</span>`));
    assert.match(page.text, /assigned you issue/);
    assert.doesNotMatch(page.text, /Hidden issue/);
    const first = before[0]!;
    assert.match(page.text, new RegExp(`action="/dashboard/todos/${first.id}/delete"`));

    const forged = await web.request('POST', `/dashboard/todos/${first.id}/delete`, {
      authenticity_token: 'forged',
    });
    assert.equal(forged.status, 422);
    assert.equal((await pendingTodos()).length, before.length);

    const done = await web.post(`/dashboard/todos/${first.id}/delete`);
    assert.equal(done.status, 302);
    assert.equal(done.headers.location, '/dashboard/todos?done=todo');
    const after = await pendingTodos();
    assert.equal(after.length, before.length - 1);
    assert.ok(!after.some((todo) => todo.id === first.id));
    const doneList = (await api('GET', '/todos?state=done', {}, dev.token)) as Array<{ id: number }>;
    assert.ok(doneList.some((todo) => todo.id === first.id));

    // Someone else's todo is not mine to finish.
    const ownerTodo = await api('POST', `/projects/${visible.id}/issues/1/todo`);
    assert.equal((await web.post(`/dashboard/todos/${ownerTodo.id}/delete`)).status, 404);

    await web.get('/dashboard/todos');
    assert.equal((await web.request('POST', '/dashboard/todos/destroy_all', {})).status, 422);
    assert.equal((await pendingTodos()).length, after.length);
    const all = await web.post('/dashboard/todos/destroy_all');
    assert.equal(all.status, 302);
    assert.deepEqual(await pendingTodos(), []);
    const empty = await web.get('/dashboard/todos?done=all');
    assert.match(empty.text, /Every pending todo was marked as done/);
    assert.match(empty.text, /You have nothing to do/);
    assert.doesNotMatch(empty.text, /Todos\s*<span class="badge"/);
  });

  it('shows the activity of my projects, not of projects hidden from me', async () => {
    const stranger = await createUser(t, 'stray');
    const theirs = await createProject(t, { owner: stranger, path: 'theirs', visibility: 0 });
    await api('POST', `/projects/${theirs.id}/issues`, { title: 'Stranger business' }, stranger.token);
    const page = await web.get('/dashboard/activity');
    assert.equal(page.status, 200);
    assert.match(page.text, /opened issue <strong>Bulk 21<\/strong> at <a href="\/ona\/third">/);
    assert.match(page.text, /href="\/dashboard\/activity\?page=2"/);
    const older = await web.get('/dashboard/activity?page=2');
    assert.match(older.text, /opened issue <strong>Visible open<\/strong> at <a href="\/ona\/seen">/);
    for (const text of [page.text, older.text]) {
      assert.doesNotMatch(text, /Stranger business|Hidden issue|Hidden change/);
    }
  });

  it('links the dashboards from the header', async () => {
    const page = await web.get('/');
    for (const href of [
      '/dashboard/activity',
      '/dashboard/groups',
      '/dashboard/issues',
      '/dashboard/merge_requests',
      '/dashboard/todos',
    ]) {
      assert.match(page.text, new RegExp(`<a href="${href}">`), href);
    }
  });
});
