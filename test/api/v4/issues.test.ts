// v4's issues beside v3's: addressed by iid (never the global id, with ids and iids made to differ over
// two projects), the v4 Issue entity, create with assignee_ids, the list filters (labels all named,
// iids[], search, author/assignee, state, order), state_event with closed_at/closed_by, subscribe and
// unsubscribe (304 when nothing changes), time_stats, delete (204, owners only), the caller's and a
// group's lists by scope, and the refusals in v4's shapes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const ISSUE_KEYS = [
  'id',
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'closed_at',
  'closed_by',
  'labels',
  'milestone',
  'assignees',
  'author',
  'type',
  'assignee',
  'user_notes_count',
  'upvotes',
  'downvotes',
  'due_date',
  'confidential',
  'discussion_locked',
  'issue_type',
  'web_url',
  'time_stats',
  'task_completion_status',
  'has_tasks',
  'task_status',
  '_links',
  'references',
  'severity',
  'subscribed',
  'moved_to_id',
  'service_desk_reply_to',
];

describe('API v4 issues', () => {
  let t: TestApp;
  let owner: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let first: TestProject;
  let second: TestProject;
  let grouped: TestProject;

  const issues = (project: TestProject) => `/api/v4/projects/${project.id}/issues`;
  const create = async (project: TestProject, body: Record<string, unknown>, token = owner.token) => {
    const response = await t.request('POST', issues(project), { token, body });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'olga');
    developer = await createUser(t, 'dmitri');
    stranger = await createUser(t, 'sasha');
    await createGroup(t, 'crew');
    first = await createProject(t, { owner, path: 'first' });
    second = await createProject(t, { owner, path: 'second' });
    grouped = await createProject(t, { owner, path: 'grouped', namespace: 'crew' });
    await addProjectMember(t, grouped.id, owner.id, AccessLevel.Owner);
    for (const project of [first, second]) {
      await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    }
    // Three issues in `first` before any in `second`: `second`'s iids 1.. have ids 4..
    for (const title of ['one', 'two', 'three']) await create(first, { title });
  });
  after(async () => t.close());

  it('creates an issue in the v4 shape, addressed by its iid, never its id', async () => {
    const issue = await create(second, {
      title: 'Crash on start',
      description: '- [x] reproduce\n- [ ] fix',
      assignee_ids: [developer.id],
      labels: 'bug,urgent',
    });
    assert.deepEqual(Object.keys(issue), ISSUE_KEYS);
    assert.equal(issue.iid, 1);
    assert.notEqual(issue.id, issue.iid);
    assert.equal(issue.project_id, second.id);
    assert.equal(issue.state, 'opened');
    assert.deepEqual(
      issue.assignees.map((user: any) => user.username),
      ['dmitri'],
    );
    assert.equal(issue.assignee.username, 'dmitri');
    assert.equal(issue.author.username, 'olga');
    assert.deepEqual(issue.labels, ['bug', 'urgent']);
    assert.deepEqual(issue.references, { short: '#1', relative: '#1', full: `${second.fullPath}#1` });
    assert.deepEqual(issue.task_completion_status, { count: 2, completed_count: 1 });
    assert.equal(issue.web_url, `${t.config.externalUrl}/${second.fullPath}/issues/1`);
    assert.equal(issue.closed_at, null);

    const read = await t.request('GET', `${issues(second)}/1`, { token: developer.token });
    assert.equal(read.status, 200);
    assert.equal(read.body.id, issue.id);
    // The global id is no iid here: `second` has no issue #4 (its id), so that is not found.
    const byId = await t.request('GET', `${issues(second)}/${issue.id}`, { token: owner.token });
    assert.equal(byId.status, 404);
    assert.deepEqual(byId.body, { message: '404 Issue Not Found' });
    // And `first`'s #1 is another issue altogether.
    const other = await t.request('GET', `${issues(first)}/1`, { token: owner.token });
    assert.equal(other.body.title, 'one');
    assert.notEqual(other.body.id, issue.id);
  });

  it('filters a project list by labels (all of them), iids, search, author, assignee and state', async () => {
    await create(second, { title: 'Only a bug', labels: ['bug'] });
    await create(second, { title: 'Docs typo', assignee_id: owner.id }, developer.token);
    const titles = async (query: string) => {
      const response = await t.request('GET', `${issues(second)}?${query}`, { token: owner.token });
      assert.equal(response.status, 200, response.text);
      return response.body.map((issue: any) => issue.title);
    };
    assert.deepEqual(await titles(''), ['Docs typo', 'Only a bug', 'Crash on start']);
    assert.deepEqual(await titles('labels=bug,urgent'), ['Crash on start']);
    assert.deepEqual(await titles('labels=bug'), ['Only a bug', 'Crash on start']);
    assert.deepEqual(await titles('iids[]=1&iids[]=3'), ['Docs typo', 'Crash on start']);
    assert.deepEqual(await titles('search=TYPO'), ['Docs typo']);
    assert.deepEqual(await titles(`author_id=${developer.id}`), ['Docs typo']);
    assert.deepEqual(await titles(`assignee_id=${developer.id}`), ['Crash on start']);
    assert.deepEqual(await titles('assignee_id=None'), ['Only a bug']);
    assert.deepEqual(await titles('scope=created_by_me&sort=asc'), ['Crash on start', 'Only a bug']);
    assert.deepEqual(await titles('state=closed'), []);
    const totals = await t.request('GET', `${issues(second)}?per_page=1`, { token: owner.token });
    assert.equal(totals.headers['x-total'], '3');
    assert.equal(totals.body.length, 1);
  });

  it('closes and reopens with state_event, with closed_at and closed_by while closed', async () => {
    const closed = await t.request('PUT', `${issues(second)}/2`, {
      token: developer.token,
      body: { state_event: 'close', title: 'Only a bug (closed)' },
    });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.body.state, 'closed');
    assert.equal(closed.body.title, 'Only a bug (closed)');
    assert.equal(closed.body.closed_by.username, 'dmitri');
    assert.ok(Date.parse(closed.body.closed_at) > 0);
    const listed = await t.request('GET', `${issues(second)}?state=closed`, { token: owner.token });
    assert.deepEqual(
      listed.body.map((issue: any) => [issue.iid, issue.closed_by?.username]),
      [[2, 'dmitri']],
    );
    const reopened = await t.request('PUT', `${issues(second)}/2`, {
      token: owner.token,
      body: { state_event: 'reopen', assignee_ids: [] },
    });
    assert.equal(reopened.body.state, 'opened');
    assert.equal(reopened.body.closed_at, null);
    assert.equal(reopened.body.closed_by, null);
    assert.deepEqual(reopened.body.assignees, []);
    const bad = await t.request('PUT', `${issues(second)}/2`, {
      token: owner.token,
      body: { state_event: 'explode' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { error: 'state_event does not have a valid value' });
  });

  it('subscribes and unsubscribes, 304 when nothing would change; time_stats', async () => {
    // The stranger cannot see the project at all.
    const hidden = await t.request('POST', `${issues(second)}/1/subscribe`, { token: stranger.token });
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    // The author takes part, so is subscribed already.
    const again = await t.request('POST', `${issues(second)}/1/subscribe`, { token: owner.token });
    assert.equal(again.status, 304);
    const off = await t.request('POST', `${issues(second)}/1/unsubscribe`, { token: owner.token });
    assert.equal(off.status, 201);
    assert.equal(off.body.subscribed, false);
    const offAgain = await t.request('POST', `${issues(second)}/1/unsubscribe`, { token: owner.token });
    assert.equal(offAgain.status, 304);
    const on = await t.request('POST', `${issues(second)}/1/subscribe`, { token: owner.token });
    assert.equal(on.status, 201);
    assert.equal(on.body.subscribed, true);
    const stats = await t.request('GET', `${issues(second)}/1/time_stats`, { token: owner.token });
    assert.deepEqual(stats.body, {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    });
    const missing = await t.request('GET', `${issues(second)}/99/time_stats`, { token: owner.token });
    assert.deepEqual(missing.body, { message: '404 Issue Not Found' });
  });

  it("lists the caller's issues by scope, and a group's", async () => {
    await create(grouped, { title: 'In the group', assignee_id: owner.id });
    const list = async (url: string, token = owner.token) => {
      const response = await t.request('GET', url, { token });
      assert.equal(response.status, 200, response.text);
      return response.body.map((issue: any) => `${issue.project_id}#${issue.iid}`).sort();
    };
    // Default: created_by_me, across the projects the caller reads.
    assert.deepEqual(
      await list('/api/v4/issues'),
      [
        `${first.id}#1`,
        `${first.id}#2`,
        `${first.id}#3`,
        `${grouped.id}#1`,
        `${second.id}#1`,
        `${second.id}#2`,
      ].sort(),
    );
    assert.deepEqual(
      await list('/api/v4/issues?scope=assigned_to_me'),
      [`${grouped.id}#1`, `${second.id}#3`].sort(),
    );
    assert.deepEqual(await list('/api/v4/issues?scope=all&search=typo', developer.token), [`${second.id}#3`]);
    assert.deepEqual(await list('/api/v4/issues?scope=all', stranger.token), []);
    const group = await t.request('GET', '/api/v4/groups/crew/issues', { token: owner.token });
    assert.deepEqual(
      group.body.map((issue: any) => issue.title),
      ['In the group'],
    );
    const badScope = await t.request('GET', '/api/v4/issues?scope=everything', { token: owner.token });
    assert.equal(badScope.status, 400);
    assert.deepEqual(badScope.body, { error: 'scope does not have a valid value' });
  });

  it('refuses what v4 refuses, in its shapes', async () => {
    const noTitle = await t.request('POST', issues(second), { token: owner.token, body: {} });
    assert.equal(noTitle.status, 400);
    assert.deepEqual(noTitle.body, { error: 'title is missing' });
    const anonymous = await t.request('GET', '/api/v4/issues');
    assert.equal(anonymous.status, 401);
    const badState = await t.request('GET', `${issues(second)}?state=sideways`, { token: owner.token });
    assert.equal(badState.status, 400);
    const badIid = await t.request('GET', `${issues(second)}?iids[]=x`, { token: owner.token });
    assert.equal(badIid.status, 400);
    const strangerList = await t.request('GET', issues(second), { token: stranger.token });
    assert.deepEqual(strangerList.body, { message: '404 Project Not Found' });
  });

  it('deletes for owners only: 403 for a developer, 204 and then 404', async () => {
    const refused = await t.request('DELETE', `${issues(second)}/3`, { token: developer.token });
    assert.equal(refused.status, 403);
    const deleted = await t.request('DELETE', `${issues(second)}/3`, { token: owner.token });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    const gone = await t.request('GET', `${issues(second)}/3`, { token: owner.token });
    assert.equal(gone.status, 404);
    // The issue with the same iid in the other project is untouched.
    const kept = await t.request('GET', `${issues(first)}/3`, { token: owner.token });
    assert.equal(kept.status, 200);
  });
});
