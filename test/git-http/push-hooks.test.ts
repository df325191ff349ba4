// Pushes through the real git client announce themselves to project hooks (Push Hook / Tag Push Hook,
// the full payload) and to system hooks (System Hook, without commits), sent by the worker to real
// receivers, including an https receiver with a self-signed certificate.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { selfSignedCertificate, startReceiver, type Receiver } from '../helpers/receiver.ts';
import { HOOK_PROJECT_KEYS } from '../helpers/entity-keys.ts';

const BLANK = '0000000000000000000000000000000000000000';

const PUSH_KEYS = [
  'object_kind',
  'event_name',
  'before',
  'after',
  'ref',
  'checkout_sha',
  'message',
  'user_id',
  'user_name',
  'user_email',
  'user_avatar',
  'project_id',
  'project',
  'commits',
  'total_commits_count',
  'repository',
];

describe('push and tag push hooks', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let project: TestProject;
  let projectReceiver: Receiver;
  let systemReceiver: Receiver;
  let url: string;
  let work: string;

  async function addProjectHook(body: Record<string, unknown>) {
    const response = await t.request('POST', `/api/v3/projects/${project.id}/hooks`, {
      token: owner.token,
      body,
    });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  before(async () => {
    t = await startTestApp({ LABRADOR_HOOK_TIMEOUT_MS: '2000', LABRADOR_HOOK_MAX_ATTEMPTS: '1' });
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'pusher');
    project = await createProject(t, { owner, path: 'hooked' });
    projectReceiver = await startReceiver();
    systemReceiver = await startReceiver();
    await addProjectHook({ url: projectReceiver.url, tag_push_events: true });
    const system = await t.request('POST', '/api/v3/hooks', {
      token: t.rootToken,
      body: { url: systemReceiver.url },
    });
    assert.equal(system.status, 201);
    url = repoUrl(base, project.fullPath, owner.username, owner.password);
    work = await client.workTree('work');
  });
  after(async () => {
    await t.close();
    await projectReceiver.close();
    await systemReceiver.close();
    client.close();
  });

  it('sends a branch push to project hooks in full and to system hooks without commits', async () => {
    const first = await client.commit(work, 'first');
    const second = await client.commit(work, 'second');
    await client.ok(['push', '-q', url, 'master'], work);
    await t.server.hookWorker.drain();

    assert.equal(projectReceiver.received.length, 1);
    const delivery = projectReceiver.received[0];
    assert.equal(delivery.headers['x-gitlab-event'], 'Push Hook');
    assert.equal(delivery.headers['content-type'], 'application/json');
    const payload = delivery.body;
    assert.deepEqual(Object.keys(payload), PUSH_KEYS);
    assert.equal(payload.object_kind, 'push');
    assert.equal(payload.before, BLANK);
    assert.equal(payload.after, second);
    assert.equal(payload.ref, 'refs/heads/master');
    assert.equal(payload.checkout_sha, second);
    assert.equal(payload.message, null);
    assert.equal(payload.user_id, owner.id);
    assert.equal(payload.user_name, 'pusher Name');
    assert.equal(payload.user_email, 'pusher@example.com');
    assert.equal(payload.project_id, project.id);
    assert.deepEqual(Object.keys(payload.project), HOOK_PROJECT_KEYS);
    assert.equal(payload.project.web_url, 'http://labrador.test/pusher/hooked');
    assert.equal(payload.project.path_with_namespace, 'pusher/hooked');
    assert.equal(payload.project.default_branch, 'master');
    assert.deepEqual(
      payload.commits.map((commit: any) => commit.id),
      [first, second],
    );
    assert.deepEqual(Object.keys(payload.commits[0]), [
      'id',
      'message',
      'timestamp',
      'url',
      'author',
      'added',
      'modified',
      'removed',
    ]);
    assert.equal(payload.commits[0].url, `http://labrador.test/pusher/hooked/commit/${first}`);
    assert.deepEqual(payload.commits[1].added, ['second.txt']);
    assert.equal(payload.total_commits_count, 2);
    assert.deepEqual(Object.keys(payload.repository), [
      'name',
      'url',
      'description',
      'homepage',
      'git_http_url',
      'git_ssh_url',
      'visibility_level',
    ]);

    assert.equal(systemReceiver.received.length, 1);
    const system = systemReceiver.received[0];
    assert.equal(system.headers['x-gitlab-event'], 'System Hook');
    assert.deepEqual(system.body, { ...payload, commits: [], total_commits_count: 0 });
  });

  it('sends at most the last 20 commits with their total', async () => {
    // 23 commits in one git process (fast-import), each adding a file.
    const parent = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    let stream = '';
    for (let i = 0; i < 23; i++) {
      const message = `bulk ${i}`;
      stream +=
        `commit refs/heads/master\ncommitter Bulk <bulk@example.com> ${1700000000 + i} +0000\n` +
        `data ${message.length}\n${message}\n${i === 0 ? `from ${parent}\n` : ''}` +
        `M 100644 inline bulk-${i}.txt\ndata 2\n${i % 10}\n\n`;
    }
    execFileSync('git', ['fast-import', '--quiet'], {
      cwd: work,
      input: stream,
      env: { ...process.env, HOME: client.home },
    });
    await client.ok(['reset', '-q', '--hard', 'master'], work);
    const shas = (await client.ok(['rev-list', '--reverse', `${parent}..master`], work)).trim().split('\n');
    assert.equal(shas.length, 23);
    await client.ok(['push', '-q', url, 'master'], work);
    await t.server.hookWorker.drain();
    const payload = projectReceiver.received.at(-1)!.body;
    assert.equal(payload.total_commits_count, 23);
    assert.deepEqual(
      payload.commits.map((commit: any) => commit.id),
      shas.slice(-20),
    );
  });

  it('sends tag pushes to tag push hooks only (system hooks have tag_push_events off)', async () => {
    const project_ = projectReceiver.received.length;
    const system_ = systemReceiver.received.length;
    const head = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    await client.ok(['tag', '-a', 'v1.0', '-m', 'Release 1.0'], work);
    await client.ok(['push', '-q', url, 'v1.0'], work);
    await t.server.hookWorker.drain();
    const [delivery, ...rest] = projectReceiver.received.slice(project_);
    assert.deepEqual(rest, []);
    assert.equal(delivery.headers['x-gitlab-event'], 'Tag Push Hook');
    assert.equal(delivery.body.object_kind, 'tag_push');
    assert.equal(delivery.body.ref, 'refs/tags/v1.0');
    assert.equal(delivery.body.checkout_sha, head);
    assert.equal(delivery.body.message, 'Release 1.0\n');
    assert.deepEqual(
      delivery.body.commits.map((commit: any) => commit.id),
      [head],
    );
    assert.equal(systemReceiver.received.length, system_);
  });

  it('honours enable_ssl_verification with a self-signed https receiver', async () => {
    const secure = await startReceiver({ tls: selfSignedCertificate() });
    try {
      const verified = await addProjectHook({ url: secure.url, push_events: true });
      const unverified = await addProjectHook({
        url: secure.url.replace('/hook', '/insecure'),
        enable_ssl_verification: false,
      });
      assert.equal(unverified.enable_ssl_verification, false);
      await client.commit(work, 'over tls');
      await client.ok(['push', '-q', url, 'master'], work);
      await t.server.hookWorker.drain();

      assert.deepEqual(
        secure.received.map((delivery) => delivery.url),
        ['/insecure'],
      );
      assert.equal(secure.received[0].headers['x-gitlab-event'], 'Push Hook');
      const log = (hook: number) =>
        t.request('GET', `/api/v3/projects/${project.id}/hooks/${hook}/deliveries`, { token: t.rootToken });
      const [failed] = (await log(verified.id)).body;
      assert.equal(failed.status, 'failed');
      assert.equal(failed.attempts[0].status_code, null);
      assert.match(failed.attempts[0].error, /self[- ]signed|certificate/i);
      const [ok] = (await log(unverified.id)).body;
      assert.equal(ok.status, 'delivered');
      assert.equal(ok.attempts[0].status_code, 200);
    } finally {
      await secure.close();
    }
  });
});
