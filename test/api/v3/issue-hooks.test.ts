// Issue and note hooks through the outbox, delivered to a real receiver and compared field by field
// with GitLab 8.13's payloads; events with 8.13's action_name and target_type; and a real `git push`
// whose commit message says `Closes #n` closing that issue with its event, note and hook.
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
import { GitClient, listen, repoUrl } from '../../helpers/git.ts';
import { startReceiver, type ReceivedHook, type Receiver } from '../../helpers/receiver.ts';
import { HOOK_PROJECT_KEYS, ISSUE_COLUMNS } from '../../helpers/entity-keys.ts';

const HOOK_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;
const NOTE_ATTRIBUTES = [
  'id',
  'note',
  'noteable_type',
  'author_id',
  'created_at',
  'updated_at',
  'project_id',
  'attachment',
  'line_code',
  'commit_id',
  'noteable_id',
  'system',
  'st_diff',
  'updated_by_id',
  'type',
  'position',
  'original_position',
  'resolved_at',
  'resolved_by_id',
  'discussion_id',
  'original_discussion_id',
  'url',
];

describe('issue and note hooks, events, closing pushes', () => {
  let t: TestApp;
  let owner: TestUser;
  let developer: TestUser;
  let project: TestProject;
  let receiver: Receiver;
  let confidentialReceiver: Receiver;
  let client: GitClient;
  let base: string;

  const issues = () => `/api/v3/projects/${project.id}/issues`;
  // Deliveries run concurrently and arrive in any order: compared sorted.
  const kinds = (hooks: ReceivedHook[]) =>
    hooks
      .map((h) => `${h.headers['x-gitlab-event']}:${h.body.object_attributes?.action ?? h.body.object_kind}`)
      .sort();

  async function deliveries(): Promise<ReceivedHook[]> {
    await t.server.hookWorker.drain();
    const got = [...receiver.received];
    receiver.received.length = 0;
    return got;
  }

  before(async () => {
    t = await startTestApp({ LABRADOR_HOOK_MAX_ATTEMPTS: '1' });
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'hookissueowner', { email: 'author@example.com' });
    developer = await createUser(t, 'hookissuedev');
    project = await createProject(t, { owner, path: 'hooked-issues' });
    await addProjectMember(t, project.id, developer.id, 30);
    receiver = await startReceiver();
    confidentialReceiver = await startReceiver();
    for (const [url, body] of [
      [receiver.url, { issues_events: true, note_events: true, push_events: false }],
      [confidentialReceiver.url, { confidential_issues_events: true, push_events: false }],
    ] as const) {
      const hook = await t.request('POST', `/api/v3/projects/${project.id}/hooks`, {
        token: owner.token,
        body: { url, ...body },
      });
      assert.equal(hook.status, 201);
    }
    // 8.13's hooks API cannot turn confidential_issues_events on; GitLab's UI could.
    await t.server.deps.db.kysely
      .updateTable('project_hooks')
      .set({ confidential_issues_events: 1 })
      .where('url', '=', confidentialReceiver.url)
      .execute();
  });
  after(async () => {
    await t.close();
    await receiver.close();
    await confidentialReceiver.close();
    client.close();
  });

  it('sends open, close, update and reopen issue hooks in 8.13 shapes', async () => {
    const created = await t.request('POST', issues(), {
      token: owner.token,
      body: { title: 'Hooked', description: 'text', assignee_id: developer.id },
    });
    assert.equal(created.status, 201);
    const [open] = await deliveries();
    assert.ok(open);
    assert.equal(open.headers['x-gitlab-event'], 'Issue Hook');
    const body = open.body;
    assert.deepEqual(Object.keys(body), [
      'object_kind',
      'user',
      'project',
      'object_attributes',
      'repository',
      'assignee',
    ]);
    assert.equal(body.object_kind, 'issue');
    assert.deepEqual(Object.keys(body.user), ['name', 'username', 'avatar_url']);
    assert.equal(body.user.username, owner.username);
    assert.deepEqual(Object.keys(body.project), HOOK_PROJECT_KEYS);
    assert.equal(body.project.path_with_namespace, project.fullPath);
    assert.deepEqual(Object.keys(body.object_attributes), [...ISSUE_COLUMNS, 'url', 'action']);
    const attrs = body.object_attributes;
    assert.equal(attrs.id, created.body.id);
    assert.equal(attrs.iid, created.body.iid);
    assert.equal(attrs.title, 'Hooked');
    assert.equal(attrs.description, 'text');
    assert.equal(attrs.state, 'opened');
    assert.equal(attrs.assignee_id, developer.id);
    assert.equal(attrs.author_id, owner.id);
    assert.equal(attrs.confidential, false);
    assert.equal(attrs.deleted_at, null);
    assert.match(attrs.created_at, HOOK_TIME);
    assert.match(attrs.updated_at, HOOK_TIME);
    assert.equal(attrs.url, `http://labrador.test/${project.fullPath}/issues/${created.body.iid}`);
    assert.equal(attrs.action, 'open');
    assert.deepEqual(Object.keys(body.repository), ['name', 'url', 'description', 'homepage']);
    assert.deepEqual(body.assignee.username, developer.username);

    const url = `${issues()}/${created.body.id}`;
    await t.request('PUT', url, { token: developer.token, body: { state_event: 'close' } });
    const closing = await deliveries();
    assert.deepEqual(kinds(closing), ['Issue Hook:close', 'Issue Hook:update']);
    assert.equal(closing[0]!.body.object_attributes.state, 'closed');
    assert.equal(closing[0]!.body.user.username, developer.username);
    await t.request('PUT', url, { token: developer.token, body: { state_event: 'reopen' } });
    assert.deepEqual(kinds(await deliveries()), ['Issue Hook:reopen', 'Issue Hook:update']);
    await t.request('PUT', url, { token: developer.token, body: {} });
    assert.deepEqual(kinds(await deliveries()), ['Issue Hook:update']);
  });

  it('sends confidential issues only to confidential issue hooks', async () => {
    await t.request('POST', issues(), { token: owner.token, body: { title: 'Psst', confidential: true } });
    assert.deepEqual(await deliveries(), []);
    const [hook] = await confidentialReceiver.waitFor(1);
    assert.equal(hook!.headers['x-gitlab-event'], 'Confidential Issue Hook');
    assert.equal(hook!.body.object_attributes.confidential, true);
    assert.equal(hook!.body.object_attributes.action, 'open');
    assert.equal('assignee' in hook!.body, false);
  });

  it('sends a note hook for comments, none for system notes', async () => {
    const created = await t.request('POST', issues(), { token: owner.token, body: { title: 'Discussed' } });
    await deliveries();
    const note = await t.request('POST', `${issues()}/${created.body.id}/notes`, {
      token: developer.token,
      body: { body: 'Looks good' },
    });
    assert.equal(note.status, 201);
    const [hook, ...rest] = await deliveries();
    assert.equal(rest.length, 0);
    assert.equal(hook!.headers['x-gitlab-event'], 'Note Hook');
    const body = hook!.body;
    assert.deepEqual(Object.keys(body), [
      'object_kind',
      'user',
      'project_id',
      'project',
      'object_attributes',
      'repository',
      'issue',
    ]);
    assert.equal(body.object_kind, 'note');
    assert.equal(body.user.username, developer.username);
    assert.equal(body.project_id, project.id);
    assert.deepEqual(Object.keys(body.object_attributes), NOTE_ATTRIBUTES);
    assert.equal(body.object_attributes.id, note.body.id);
    assert.equal(body.object_attributes.note, 'Looks good');
    assert.equal(body.object_attributes.noteable_type, 'Issue');
    assert.equal(body.object_attributes.noteable_id, created.body.id);
    assert.equal(body.object_attributes.system, false);
    assert.match(body.object_attributes.created_at, HOOK_TIME);
    assert.equal(
      body.object_attributes.url,
      `http://labrador.test/${project.fullPath}/issues/${created.body.iid}#note_${note.body.id}`,
    );
    assert.deepEqual(Object.keys(body.issue), ISSUE_COLUMNS);
    assert.equal(body.issue.id, created.body.id);

    const events = await t.request('GET', `/api/v3/projects/${project.id}/events`, { token: owner.token });
    const [comment] = events.body;
    assert.equal(comment.action_name, 'commented on');
    assert.equal(comment.target_type, 'Note');
    assert.equal(comment.target_id, note.body.id);
    assert.equal(comment.target_title, 'Discussed');
    assert.deepEqual(comment.note, note.body);
    const opened = events.body.find(
      (e: { target_id: number; target_type: string }) =>
        e.target_type === 'Issue' && e.target_id === created.body.id,
    );
    assert.equal(opened.action_name, 'opened');
    assert.equal(opened.target_title, 'Discussed');
    const mine = await t.request('GET', `/api/v3/users/${developer.id}/events`, { token: owner.token });
    assert.ok(
      mine.body.some(
        (e: { action_name: string; target_type: string }) =>
          e.action_name === 'commented on' && e.target_type === 'Note',
      ),
    );
  });

  it('closes an issue from a pushed commit message on the default branch', async () => {
    const first = await t.request('POST', issues(), { token: owner.token, body: { title: 'Fix me' } });
    const second = await t.request('POST', issues(), { token: owner.token, body: { title: 'Me too' } });
    const untouched = await t.request('POST', issues(), { token: owner.token, body: { title: 'Not me' } });
    await deliveries();
    const url = repoUrl(base, project.fullPath, owner.username, owner.password);
    const work = await client.workTree('closing', ['initial']);
    await client.ok(['push', '-q', url, 'master'], work);
    await t.server.deps.pushQueue.drain();
    // A side branch names the issue without closing it.
    await client.ok(['checkout', '-q', '-b', 'topic'], work);
    await client.commit(work, `Closes #${untouched.body.iid}`);
    await client.ok(['push', '-q', url, 'topic'], work);
    await client.ok(['checkout', '-q', 'master'], work);
    const sha = await client.commit(work, `Tidy up\n\nCloses #${first.body.iid}, fixes #${second.body.iid}`);
    await client.ok(['push', '-q', url, 'master'], work);
    await t.server.deps.pushQueue.drain();

    for (const issue of [first.body, second.body]) {
      const read = await t.request('GET', `${issues()}/${issue.id}`, { token: owner.token });
      assert.equal(read.body.state, 'closed', issue.title);
      const notes = await t.request('GET', `${issues()}/${issue.id}/notes`, { token: owner.token });
      assert.deepEqual(
        notes.body.map((n: { body: string; system: boolean; author: { id: number } }) => [
          n.body,
          n.system,
          n.author.id,
        ]),
        [[`Status changed to closed by commit ${sha}`, true, owner.id]],
      );
    }
    const still = await t.request('GET', `${issues()}/${untouched.body.id}`, { token: owner.token });
    assert.equal(still.body.state, 'opened');
    const hooks = await deliveries();
    assert.deepEqual(
      hooks.map((h) => [h.body.object_attributes.action, h.body.object_attributes.id]).sort(),
      [
        ['close', first.body.id],
        ['close', second.body.id],
      ].sort(),
    );
    const events = await t.request('GET', `/api/v3/projects/${project.id}/events?per_page=5`, {
      token: owner.token,
    });
    const closedEvents = events.body.filter((e: { action_name: string }) => e.action_name === 'closed');
    assert.deepEqual(
      closedEvents
        .map((e: { target_id: number; target_type: string }) => [e.target_type, e.target_id])
        .sort(),
      [
        ['Issue', first.body.id],
        ['Issue', second.body.id],
      ].sort(),
    );
  });
});
