// Labels, milestones, notes, award emoji, subscriptions and todos around issues, as GitLab 8.13's API v3
// answered them: shapes key by key, refusals by role, 304s, pagination headers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { ISSUE_KEYS, MILESTONE_KEYS, NOTE_KEYS, USER_BASIC_KEYS } from '../../helpers/entity-keys.ts';

const LABEL_KEYS = [
  'name',
  'color',
  'description',
  'open_issues_count',
  'closed_issues_count',
  'open_merge_requests_count',
  'subscribed',
];
const AWARD_KEYS = ['id', 'name', 'user', 'created_at', 'updated_at', 'awardable_id', 'awardable_type'];
const TODO_KEYS = [
  'id',
  'project',
  'author',
  'action_name',
  'target_type',
  'target',
  'target_url',
  'body',
  'state',
  'created_at',
];

describe('labels, milestones, notes, awards, subscriptions and todos', () => {
  let t: TestApp;
  let owner: TestUser;
  let master: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let privateProject: TestProject;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'colowner');
    master = await createUser(t, 'colmaster');
    reporter = await createUser(t, 'colreporter');
    guest = await createUser(t, 'colguest');
    stranger = await createUser(t, 'colstranger');
    project = await createProject(t, { owner, path: 'collab', visibility: 20 });
    privateProject = await createProject(t, { owner, path: 'collab-private' });
    for (const p of [project, privateProject]) {
      await addProjectMember(t, p.id, master.id, 40);
      await addProjectMember(t, p.id, reporter.id, 20);
      await addProjectMember(t, p.id, guest.id, 10);
    }
  });
  after(() => t.close());

  const api = (p: TestProject, path: string) => `/api/v3/projects/${p.id}${path}`;
  const newIssue = async (p: TestProject, user: TestUser, body: Record<string, unknown>) => {
    const response = await t.request('POST', api(p, '/issues'), { token: user.token, body });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };

  it('creates, lists, edits and deletes labels', async () => {
    const created = await t.request('POST', api(project, '/labels'), {
      token: reporter.token,
      body: { name: 'feature', color: '#00FF00', description: 'New things' },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), LABEL_KEYS);
    assert.deepEqual(created.body, {
      name: 'feature',
      color: '#00FF00',
      description: 'New things',
      open_issues_count: 0,
      closed_issues_count: 0,
      open_merge_requests_count: 0,
      subscribed: false,
    });
    const dup = await t.request('POST', api(project, '/labels'), {
      token: reporter.token,
      body: { name: 'feature', color: '#000' },
    });
    assert.equal(dup.status, 409);
    assert.deepEqual(dup.body, { message: 'Label already exists' });
    const badColor = await t.request('POST', api(project, '/labels'), {
      token: reporter.token,
      body: { name: 'odd', color: 'green' },
    });
    assert.deepEqual(badColor.body, { message: { color: ['must be a valid color code'] } });
    const comma = await t.request('POST', api(project, '/labels'), {
      token: reporter.token,
      body: { name: 'a,b', color: '#123' },
    });
    assert.deepEqual(comma.body, { message: { title: ['is invalid'] } });
    const noColor = await t.request('POST', api(project, '/labels'), {
      token: reporter.token,
      body: { name: 'x' },
    });
    assert.deepEqual(noColor.body, { message: '400 (Bad request) "color" not given' });
    const byGuest = await t.request('POST', api(project, '/labels'), {
      token: guest.token,
      body: { name: 'g', color: '#123' },
    });
    assert.equal(byGuest.status, 403);

    const open = await newIssue(project, owner, { title: 'Open one', labels: 'feature' });
    const closed = await newIssue(project, owner, { title: 'Closed one', labels: 'feature' });
    await t.request('PUT', api(project, `/issues/${closed.id}`), {
      token: owner.token,
      body: { state_event: 'close' },
    });
    await newIssue(project, owner, { title: 'Secret', labels: 'feature', confidential: true });
    const list = await t.request('GET', api(project, '/labels'), { token: guest.token });
    assert.equal(list.status, 200);
    assert.equal(list.headers['x-total'], undefined);
    const feature = list.body.find((l: { name: string }) => l.name === 'feature');
    assert.equal(feature.open_issues_count, 1);
    assert.equal(feature.closed_issues_count, 1);
    assert.ok(open.id);

    const edited = await t.request('PUT', api(project, '/labels'), {
      token: reporter.token,
      body: { name: 'feature', new_name: 'enhancement', color: '#0000FF' },
    });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.name, 'enhancement');
    assert.equal(edited.body.color, '#0000FF');
    const nothing = await t.request('PUT', api(project, '/labels'), {
      token: reporter.token,
      body: { name: 'enhancement' },
    });
    assert.deepEqual(nothing.body, { message: 'Required parameters "new_name" or "color" missing' });
    const missing = await t.request('PUT', api(project, '/labels'), {
      token: reporter.token,
      body: { name: 'nope', color: '#fff' },
    });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Label not found Not Found' });
    const issue = await t.request('GET', api(project, `/issues/${open.id}`), { token: owner.token });
    assert.deepEqual(issue.body.labels, ['enhancement']);

    const sub = await t.request('POST', api(project, '/labels/enhancement/subscription'), {
      token: guest.token,
    });
    assert.equal(sub.status, 201);
    assert.equal(sub.body.subscribed, true);
    const again = await t.request('POST', api(project, '/labels/enhancement/subscription'), {
      token: guest.token,
    });
    assert.equal(again.status, 304);
    const unsub = await t.request('DELETE', api(project, '/labels/enhancement/subscription'), {
      token: guest.token,
    });
    assert.equal(unsub.status, 200);
    assert.equal(unsub.body.subscribed, false);
    const noLabel = await t.request('POST', api(project, '/labels/9999/subscription'), {
      token: guest.token,
    });
    assert.deepEqual(noLabel.body, { message: '404 Label Not Found' });

    const deleted = await t.request('DELETE', api(project, '/labels'), {
      token: reporter.token,
      body: { name: 'enhancement' },
    });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.title, 'enhancement');
    const after = await t.request('GET', api(project, `/issues/${open.id}`), { token: owner.token });
    assert.deepEqual(after.body.labels, []);
    const gone = await t.request('DELETE', api(project, '/labels'), {
      token: reporter.token,
      body: { name: 'enhancement' },
    });
    assert.deepEqual(gone.body, { message: '404 Label Not Found' });
    // Counts are anonymous in 8.13: a private project's labels count nothing.
    await newIssue(privateProject, owner, { title: 'Private', labels: 'hidden' });
    const privateLabels = await t.request('GET', api(privateProject, '/labels'), { token: owner.token });
    assert.equal(privateLabels.body[0].open_issues_count, 0);
  });

  it('manages milestones and lists their issues', async () => {
    const created = await t.request('POST', api(project, '/milestones'), {
      token: master.token,
      body: { title: 'Sprint 1', description: 'first', due_date: '2016-12-01' },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), MILESTONE_KEYS);
    assert.equal(created.body.state, 'active');
    assert.equal(created.body.due_date, '2016-12-01');
    const dup = await t.request('POST', api(project, '/milestones'), {
      token: master.token,
      body: { title: 'Sprint 1' },
    });
    assert.equal(dup.status, 400);
    assert.deepEqual(dup.body, {
      message: 'Failed to create milestone {:title=>["has already been taken"]}',
    });
    const byReporter = await t.request('POST', api(project, '/milestones'), {
      token: reporter.token,
      body: { title: 'R' },
    });
    assert.equal(byReporter.status, 403);
    const second = await t.request('POST', api(project, '/milestones'), {
      token: master.token,
      body: { title: 'Sprint 2' },
    });
    assert.equal(second.body.iid, created.body.iid + 1);

    const closed = await t.request('PUT', api(project, `/milestones/${created.body.id}`), {
      token: master.token,
      body: { state_event: 'close' },
    });
    assert.equal(closed.body.state, 'closed');
    const active = await t.request('GET', api(project, '/milestones?state=active'), { token: guest.token });
    assert.deepEqual(
      active.body.map((m: { id: number }) => m.id),
      [second.body.id],
    );
    const all = await t.request('GET', api(project, '/milestones'), { token: guest.token });
    assert.deepEqual(
      all.body.map((m: { id: number }) => m.id),
      [second.body.id, created.body.id],
    );
    assert.equal(all.headers['x-total'], '2');
    const byIid = await t.request('GET', api(project, `/milestones?iid=${created.body.iid}`), {
      token: guest.token,
    });
    assert.deepEqual(
      byIid.body.map((m: { id: number }) => m.id),
      [created.body.id],
    );
    const reopened = await t.request('PUT', api(project, `/milestones/${created.body.id}`), {
      token: master.token,
      body: { state_event: 'activate', title: 'Sprint one' },
    });
    assert.equal(reopened.body.state, 'active');
    assert.equal(reopened.body.title, 'Sprint one');
    const one = await t.request('GET', api(project, `/milestones/${created.body.id}`), {
      token: guest.token,
    });
    assert.deepEqual(one.body, reopened.body);
    const missing = await t.request('GET', api(project, '/milestones/99999'), { token: guest.token });
    assert.deepEqual(missing.body, { message: '404 Not found' });

    const planned = await newIssue(project, owner, { title: 'Planned', milestone_id: created.body.id });
    await newIssue(project, owner, {
      title: 'Planned secret',
      milestone_id: created.body.id,
      confidential: true,
    });
    await newIssue(project, owner, { title: 'Unplanned' });
    const ofMilestone = await t.request('GET', api(project, `/milestones/${created.body.id}/issues`), {
      token: guest.token,
    });
    assert.deepEqual(
      ofMilestone.body.map((i: { id: number }) => i.id),
      [planned.id],
    );
    assert.deepEqual(Object.keys(ofMilestone.body[0]), ISSUE_KEYS);
    const byTitle = await t.request(
      'GET',
      api(project, `/issues?milestone=${encodeURIComponent('Sprint one')}`),
      {
        token: owner.token,
      },
    );
    assert.equal(byTitle.body.length, 2);
  });

  it('creates, reads, edits and deletes notes', async () => {
    const issue = await newIssue(project, owner, { title: 'Talk' });
    const url = api(project, `/issues/${issue.id}/notes`);
    const created = await t.request('POST', url, { token: guest.token, body: { body: 'Hello' } });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), NOTE_KEYS);
    assert.deepEqual(Object.keys(created.body.author), USER_BASIC_KEYS);
    assert.equal(created.body.body, 'Hello');
    assert.equal(created.body.system, false);
    assert.equal(created.body.noteable_type, 'Issue');
    assert.equal(created.body['upvote?'], false);
    const missing = await t.request('POST', url, { token: guest.token, body: {} });
    assert.deepEqual(missing.body, { message: '400 (Bad request) "body" not given' });
    const one = await t.request('GET', `${url}/${created.body.id}`, { token: owner.token });
    assert.deepEqual(one.body, created.body);
    const counted = await t.request('GET', api(project, `/issues/${issue.id}`), { token: owner.token });
    assert.equal(counted.body.user_notes_count, 1);
    const byOther = await t.request('PUT', `${url}/${created.body.id}`, {
      token: reporter.token,
      body: { body: 'hijack' },
    });
    assert.equal(byOther.status, 403);
    const edited = await t.request('PUT', `${url}/${created.body.id}`, {
      token: guest.token,
      body: { body: 'Hello again' },
    });
    assert.equal(edited.body.body, 'Hello again');
    const byMaster = await t.request('PUT', `${url}/${created.body.id}`, {
      token: master.token,
      body: { body: 'Moderated' },
    });
    assert.equal(byMaster.body.body, 'Moderated');
    for (let i = 0; i < 3; i++) await t.request('POST', url, { token: owner.token, body: { body: `n${i}` } });
    const page = await t.request('GET', `${url}?per_page=2&page=2`, { token: owner.token });
    assert.deepEqual(
      page.body.map((n: { body: string }) => n.body),
      ['n1', 'n2'],
    );
    assert.equal(page.headers['x-total'], '4');
    const deleted = await t.request('DELETE', `${url}/${created.body.id}`, { token: guest.token });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.id, created.body.id);
    // 8.13.12 finds the note among the issue's (`notes.find`): a deleted one is a lookup's `404 Not found`.
    const gone = await t.request('GET', `${url}/${created.body.id}`, { token: owner.token });
    assert.deepEqual(gone.body, { message: '404 Not found' });
    // Strangers cannot comment on private projects' issues; a hidden issue is a 404 note.
    const privateIssue = await newIssue(privateProject, owner, { title: 'P' });
    const hidden = await t.request('POST', api(privateProject, `/issues/${privateIssue.id}/notes`), {
      token: stranger.token,
      body: { body: 'hi' },
    });
    assert.equal(hidden.status, 404);
    const secret = await newIssue(project, owner, { title: 'S', confidential: true });
    const onSecret = await t.request('POST', api(project, `/issues/${secret.id}/notes`), {
      token: guest.token,
      body: { body: 'peek' },
    });
    assert.deepEqual(onSecret.body, { message: '404 Note Not Found' });
  });

  it('awards emoji on issues and notes; votes follow', async () => {
    const issue = await newIssue(project, owner, { title: 'Vote' });
    const url = api(project, `/issues/${issue.id}/award_emoji`);
    const up = await t.request('POST', url, { token: guest.token, body: { name: '+1' } });
    assert.equal(up.status, 201);
    assert.deepEqual(Object.keys(up.body), AWARD_KEYS);
    assert.equal(up.body.name, 'thumbsup');
    assert.equal(up.body.awardable_type, 'Issue');
    assert.equal(up.body.awardable_id, issue.id);
    const down = await t.request('POST', url, { token: reporter.token, body: { name: 'thumbsdown' } });
    assert.equal(down.status, 201);
    const own = await t.request('POST', url, { token: owner.token, body: { name: 'thumbsup' } });
    assert.deepEqual(own.body, { message: '404 Award Emoji Not Found' });
    const dup = await t.request('POST', url, { token: guest.token, body: { name: 'thumbsup' } });
    assert.deepEqual(dup.body, { message: '404 Award Emoji {:name=>["has already been taken"]} Not Found' });
    const unknown = await t.request('POST', url, { token: guest.token, body: { name: 'not-an-emoji' } });
    assert.deepEqual(unknown.body, {
      message: '404 Award Emoji {:name=>["is not included in the list"]} Not Found',
    });
    const noName = await t.request('POST', url, { token: guest.token, body: {} });
    assert.deepEqual(noName.body, { error: 'name is missing' });
    const read = await t.request('GET', api(project, `/issues/${issue.id}`), { token: owner.token });
    assert.equal(read.body.upvotes, 1);
    assert.equal(read.body.downvotes, 1);
    const list = await t.request('GET', url, { token: owner.token });
    assert.deepEqual(
      list.body.map((a: { name: string }) => a.name),
      ['thumbsup', 'thumbsdown'],
    );
    assert.equal(list.headers['x-total'], '2');
    const notOwner = await t.request('DELETE', `${url}/${up.body.id}`, { token: reporter.token });
    assert.equal(notOwner.status, 401);
    const removed = await t.request('DELETE', `${url}/${up.body.id}`, { token: guest.token });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.id, up.body.id);
    const missing = await t.request('GET', `${url}/${up.body.id}`, { token: owner.token });
    assert.equal(missing.status, 404);

    // An emoji-only comment becomes an award.
    const noted = await t.request('POST', api(project, `/issues/${issue.id}/notes`), {
      token: guest.token,
      body: { body: ':tada:' },
    });
    assert.equal(noted.status, 201);
    assert.deepEqual(Object.keys(noted.body), AWARD_KEYS);
    assert.equal(noted.body.name, 'tada');
    const notes = await t.request('GET', api(project, `/issues/${issue.id}/notes`), { token: owner.token });
    assert.deepEqual(notes.body, []);
    // Notes::CreateService awarded without user_can_award?: the author's own :+1: is an award too,
    // and the same emoji twice is 8.13's 404 on the note.
    const ownThumb = await t.request('POST', api(project, `/issues/${issue.id}/notes`), {
      token: owner.token,
      body: { body: ':+1:' },
    });
    assert.equal(ownThumb.status, 201, ownThumb.text);
    assert.deepEqual(Object.keys(ownThumb.body), AWARD_KEYS);
    assert.equal(ownThumb.body.name, 'thumbsup');
    assert.equal(ownThumb.body.user.id, owner.id);
    const again = await t.request('POST', api(project, `/issues/${issue.id}/notes`), {
      token: guest.token,
      body: { body: ':tada:' },
    });
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { message: '404 Note {:name=>["has already been taken"]} Not Found' });
    const votes = await t.request('GET', api(project, `/issues/${issue.id}`), { token: owner.token });
    assert.equal(votes.body.upvotes, 1);

    const note = await t.request('POST', api(project, `/issues/${issue.id}/notes`), {
      token: owner.token,
      body: { body: 'a note' },
    });
    const onNote = await t.request(
      'POST',
      api(project, `/issues/${issue.id}/notes/${note.body.id}/award_emoji`),
      {
        token: guest.token,
        body: { name: 'heart' },
      },
    );
    assert.equal(onNote.status, 201);
    assert.equal(onNote.body.awardable_type, 'Note');
    assert.equal(onNote.body.awardable_id, note.body.id);
    const noteAwards = await t.request(
      'GET',
      api(project, `/issues/${issue.id}/notes/${note.body.id}/award_emoji`),
      {
        token: owner.token,
      },
    );
    assert.deepEqual(
      noteAwards.body.map((a: { id: number }) => a.id),
      [onNote.body.id],
    );
  });

  it('subscribes to issues and marks todos', async () => {
    const issue = await newIssue(project, owner, { title: 'Watch me' });
    const url = api(project, `/issues/${issue.id}`);
    const sub = await t.request('POST', `${url}/subscription`, { token: guest.token });
    assert.equal(sub.status, 201);
    assert.deepEqual(Object.keys(sub.body), ISSUE_KEYS);
    assert.equal(sub.body.subscribed, true);
    const again = await t.request('POST', `${url}/subscription`, { token: guest.token });
    assert.equal(again.status, 304);
    const authorUnsub = await t.request('DELETE', `${url}/subscription`, { token: owner.token });
    assert.equal(authorUnsub.status, 200);
    assert.equal(authorUnsub.body.subscribed, false);
    const notSubscribed = await t.request('DELETE', `${url}/subscription`, { token: owner.token });
    assert.equal(notSubscribed.status, 304);

    const todo = await t.request('POST', `${url}/todo`, { token: guest.token });
    assert.equal(todo.status, 201);
    assert.deepEqual(Object.keys(todo.body), TODO_KEYS);
    assert.equal(todo.body.action_name, 'marked');
    assert.equal(todo.body.target_type, 'Issue');
    assert.equal(todo.body.target.id, issue.id);
    assert.equal(todo.body.target_url, issue.web_url);
    assert.equal(todo.body.body, 'Watch me');
    assert.equal(todo.body.state, 'pending');
    assert.equal(todo.body.project.id, project.id);
    const twice = await t.request('POST', `${url}/todo`, { token: guest.token });
    assert.equal(twice.status, 304);

    // An assignment makes a todo for the assignee.
    await newIssue(project, owner, { title: 'Yours', assignee_id: guest.id });
    const todos = await t.request('GET', '/api/v3/todos', { token: guest.token });
    assert.deepEqual(
      todos.body.map((x: { action_name: string }) => x.action_name),
      ['assigned', 'marked'],
    );
    const assigned = await t.request('GET', '/api/v3/todos?action=assigned', { token: guest.token });
    assert.equal(assigned.body.length, 1);
    const done = await t.request('DELETE', `/api/v3/todos/${todo.body.id}`, { token: guest.token });
    assert.equal(done.body.state, 'done');
    const notMine = await t.request('DELETE', `/api/v3/todos/${todo.body.id}`, { token: owner.token });
    assert.deepEqual(notMine.body, { message: '404 Not found' });
    const all = await t.request('DELETE', '/api/v3/todos', { token: guest.token });
    assert.equal(all.status, 200);
    assert.equal(all.text, '1');
    const pending = await t.request('GET', '/api/v3/todos', { token: guest.token });
    assert.deepEqual(pending.body, []);
    const doneList = await t.request('GET', '/api/v3/todos?state=done', { token: guest.token });
    assert.equal(doneList.body.length, 2);
  });
});
