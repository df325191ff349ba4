// v4's project and system hooks: the v4 entities, `job_events` stored as v3's build switch, 204 deletes,
// the refusals, and that a hook made through v4 receives a push as v3's hooks do.
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
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const HOOK_KEYS = [
  'id',
  'url',
  'created_at',
  'push_events',
  'tag_push_events',
  'merge_requests_events',
  'repository_update_events',
  'enable_ssl_verification',
  'alert_status',
  'disabled_until',
  'push_events_branch_filter',
  'branch_filter_strategy',
];
const PROJECT_HOOK_KEYS = [
  ...HOOK_KEYS,
  'project_id',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'job_events',
  'releases_events',
];

describe('API v4 hooks', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let receiver: Receiver;
  let hookId: number;

  const hooks = () => `/api/v4/projects/${project.id}/hooks`;

  before(async () => {
    t = await startTestApp({ LABRADOR_HOOK_TIMEOUT_MS: '2000', LABRADOR_HOOK_MAX_ATTEMPTS: '1' });
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'hooker');
    developer = await createUser(t, 'hookdev');
    stranger = await createUser(t, 'hookstranger');
    project = await createProject(t, { owner, path: 'hooked' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    receiver = await startReceiver();
  });
  after(async () => {
    await t.close();
    await receiver.close();
    client.close();
  });

  it('adds a project hook (201) in the v4 shape; job_events is the build switch v3 shows', async () => {
    const created = await t.request('POST', hooks(), {
      token: owner.token,
      body: {
        url: receiver.url,
        job_events: true,
        confidential_issues_events: 'true',
        token: 'secret',
        push_events_branch_filter: 'main',
        releases_events: true,
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body), PROJECT_HOOK_KEYS);
    hookId = created.body.id;
    assert.equal(created.body.url, receiver.url);
    assert.equal(created.body.project_id, project.id);
    assert.equal(created.body.push_events, true);
    assert.equal(created.body.job_events, true);
    assert.equal(created.body.confidential_issues_events, true);
    assert.equal(created.body.issues_events, false);
    assert.equal(created.body.enable_ssl_verification, true);
    assert.equal(created.body.releases_events, false, 'accepted, not delivered');
    assert.equal(created.body.push_events_branch_filter, null, 'accepted, not kept');
    assert.equal('token' in created.body, false);

    const v3 = await t.request('GET', `/api/v3/projects/${project.id}/hooks/${hookId}`, {
      token: owner.token,
    });
    assert.equal(v3.body.build_events, true);
    const one = await t.request('GET', `${hooks()}/${hookId}`, { token: owner.token });
    assert.deepEqual(one.body, created.body);
    const list = await t.request('GET', hooks(), { token: owner.token });
    assert.equal(list.headers['x-total'], '1');
    assert.deepEqual(list.body, [created.body]);
  });

  it('delivers a push to the hook made through v4', async () => {
    const work = await client.workTree('hooked-work', ['first']);
    await client.ok(
      ['push', '-q', repoUrl(base, project.fullPath, owner.username, owner.password), 'master'],
      work,
    );
    await t.server.deps.pushQueue.drain();
    await t.server.hookWorker.drain();
    const [delivery] = await receiver.waitFor(1);
    assert.equal(delivery.headers['x-gitlab-event'], 'Push Hook');
    assert.equal(delivery.body.object_kind, 'push');
    assert.equal(delivery.body.project_id, project.id);
  });

  it('edits a hook with PUT (job_events off, url kept when not sent)', async () => {
    const edited = await t.request('PUT', `${hooks()}/${hookId}`, {
      token: owner.token,
      body: { job_events: false, issues_events: true },
    });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.url, receiver.url);
    assert.equal(edited.body.job_events, false);
    assert.equal(edited.body.issues_events, true);
  });

  it('refuses a missing url (400), developers (403), strangers (404), unknown hooks (404)', async () => {
    const missing = await t.request('POST', hooks(), { token: owner.token, body: { push_events: true } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'url is missing' });
    assert.equal((await t.request('GET', hooks(), { token: developer.token })).status, 403);
    const hidden = await t.request('GET', hooks(), { token: stranger.token });
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    const none = await t.request('GET', `${hooks()}/999999`, { token: owner.token });
    assert.equal(none.status, 404);
    assert.deepEqual(none.body, { message: '404 Not found' });
  });

  it('deletes a hook with 204, then 404', async () => {
    const deleted = await t.request('DELETE', `${hooks()}/${hookId}`, { token: owner.token, body: {} });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    const again = await t.request('DELETE', `${hooks()}/${hookId}`, { token: owner.token });
    assert.equal(again.status, 404);
    assert.deepEqual((await t.request('GET', hooks(), { token: owner.token })).body, []);
  });

  it('manages system hooks for administrators: add, list, show, test, delete', async () => {
    const created = await t.request('POST', '/api/v4/hooks', {
      token: t.rootToken,
      body: { url: receiver.url },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), HOOK_KEYS);
    assert.equal(created.body.push_events, true);
    const id = created.body.id;
    const list = await t.request('GET', '/api/v4/hooks', { token: t.rootToken });
    assert.equal(list.headers['x-total'], '1');
    assert.deepEqual(list.body, [created.body]);
    const one = await t.request('GET', `/api/v4/hooks/${id}`, { token: t.rootToken });
    assert.deepEqual(one.body, created.body);
    const before = receiver.received.length;
    const tested = await t.request('POST', `/api/v4/hooks/${id}`, { token: t.rootToken });
    assert.equal(tested.status, 201);
    assert.equal(tested.body.event_name, 'project_create');
    await t.server.hookWorker.drain();
    const arrived = await receiver.waitFor(before + 1);
    assert.equal(arrived[before].headers['x-gitlab-event'], 'System Hook');

    assert.equal((await t.request('GET', '/api/v4/hooks', { token: owner.token })).status, 403);
    const missing = await t.request('POST', '/api/v4/hooks', { token: t.rootToken, body: {} });
    assert.deepEqual(missing.body, { error: 'url is missing' });
    const deleted = await t.request('DELETE', `/api/v4/hooks/${id}`, { token: t.rootToken });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal((await t.request('GET', `/api/v4/hooks/${id}`, { token: t.rootToken })).status, 404);
  });
});
