// The Variables API as GitLab 8.13 answered it (masters only; key format and uniqueness as Ci::Variable
// validated them), and the secret variables reaching a job after the predefined and the file's variables.
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
import { startCiProject } from '../../helpers/ci.ts';
import { RunnerClient } from '../../helpers/runner-client.ts';

describe('variables API', () => {
  let t: TestApp;
  let owner: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let base: string;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'varowner');
    developer = await createUser(t, 'vardev');
    stranger = await createUser(t, 'varstranger');
    project = await createProject(t, { owner, path: 'vars', visibility: 20 });
    await addProjectMember(t, project.id, developer.id, 30);
    base = `/api/v3/projects/${project.id}/variables`;
  });
  after(() => t.close());

  it('creates, lists, reads, changes and deletes variables', async () => {
    const created = await t.request('POST', base, {
      token: owner.token,
      body: { key: 'DEPLOY_KEY', value: 's3cret' },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body, { key: 'DEPLOY_KEY', value: 's3cret' });
    const second = await t.request('POST', base, { token: owner.token, form: { key: 'OTHER_1', value: '' } });
    assert.equal(second.status, 201);
    assert.deepEqual(second.body, { key: 'OTHER_1', value: '' });

    const list = await t.request('GET', base, { token: owner.token });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, [
      { key: 'DEPLOY_KEY', value: 's3cret' },
      { key: 'OTHER_1', value: '' },
    ]);
    assert.equal(list.headers['x-total'], '2');
    const paged = await t.request('GET', `${base}?per_page=1&page=2`, { token: owner.token });
    assert.deepEqual(paged.body, [{ key: 'OTHER_1', value: '' }]);

    const byPath = await t.request('GET', `/api/v3/projects/${owner.username}%2Fvars/variables/DEPLOY_KEY`, {
      token: owner.token,
    });
    assert.equal(byPath.status, 200);
    assert.deepEqual(byPath.body, { key: 'DEPLOY_KEY', value: 's3cret' });

    const changed = await t.request('PUT', `${base}/DEPLOY_KEY`, {
      token: owner.token,
      body: { value: 'new', key: 'IGNORED' },
    });
    assert.equal(changed.status, 200);
    assert.deepEqual(changed.body, { key: 'DEPLOY_KEY', value: 'new' });

    const removed = await t.request('DELETE', `${base}/OTHER_1`, { token: owner.token });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { key: 'OTHER_1', value: '' });
    const gone = await t.request('GET', `${base}/OTHER_1`, { token: owner.token });
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body, { message: '404 Variable Not Found' });
    for (const method of ['PUT', 'DELETE']) {
      const missing = await t.request(method, `${base}/OTHER_1`, {
        token: owner.token,
        body: { value: 'x' },
      });
      assert.equal(missing.status, 404, method);
      assert.deepEqual(missing.body, { message: '404 Variable Not Found' });
    }
    // Administrators are masters everywhere.
    const asRoot = await t.request('GET', `${base}/DEPLOY_KEY`, { token: t.rootToken });
    assert.equal(asRoot.status, 200);
  });

  it('refuses a taken key, a bad key and missing parameters in GitLab’s words', async () => {
    await t.request('POST', base, { token: owner.token, body: { key: 'TAKEN', value: '1' } });
    const taken = await t.request('POST', base, { token: owner.token, body: { key: 'TAKEN', value: '2' } });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body, { message: { key: ['has already been taken'] } });

    const format = await t.request('POST', base, {
      token: owner.token,
      body: { key: 'bad-key', value: '1' },
    });
    assert.equal(format.status, 400);
    assert.deepEqual(format.body, { message: { key: ["can contain only letters, digits and '_'."] } });

    const blank = await t.request('POST', base, { token: owner.token, body: { key: '', value: '1' } });
    assert.equal(blank.status, 400);
    assert.deepEqual(blank.body, {
      message: { key: ["can't be blank", "can contain only letters, digits and '_'."] },
    });

    const long = await t.request('POST', base, {
      token: owner.token,
      body: { key: 'K'.repeat(256), value: '1' },
    });
    assert.equal(long.status, 400);
    assert.deepEqual(long.body, { message: { key: ['is too long (maximum is 255 characters)'] } });

    const none = await t.request('POST', base, { token: owner.token, body: {} });
    assert.equal(none.status, 400);
    assert.deepEqual(none.body, { error: 'key is missing, value is missing' });
    const noValue = await t.request('POST', base, { token: owner.token, body: { key: 'NOVALUE' } });
    assert.deepEqual(noValue.body, { error: 'value is missing' });

    // The same key in another project is fine.
    const elsewhere = await createProject(t, { owner, path: 'vars2' });
    const other = await t.request('POST', `/api/v3/projects/${elsewhere.id}/variables`, {
      token: owner.token,
      body: { key: 'TAKEN', value: '3' },
    });
    assert.equal(other.status, 201);
  });

  it('is for masters only: 401 anonymous, 403 developers, 404 strangers to a private project', async () => {
    assert.equal((await t.request('GET', base)).status, 401);
    const dev = await t.request('GET', base, { token: developer.token });
    assert.equal(dev.status, 403);
    assert.deepEqual(dev.body, { message: '403 Forbidden' });
    const devPost = await t.request('POST', base, { token: developer.token, body: { key: 'A', value: 'b' } });
    assert.equal(devPost.status, 403);
    // A public project: strangers see it but may not touch its variables.
    assert.equal((await t.request('GET', base, { token: stranger.token })).status, 403);
    const hidden = await createProject(t, { owner, path: 'varshidden', visibility: 0 });
    const secret = await t.request('GET', `/api/v3/projects/${hidden.id}/variables`, {
      token: stranger.token,
    });
    assert.equal(secret.status, 404);
    assert.deepEqual(secret.body, { message: '404 Project Not Found' });
  });

  it('answers 403 while the project has builds turned off', async () => {
    const off = await createProject(t, { owner, path: 'varsoff' });
    await t.server.deps.db.kysely
      .updateTable('projects')
      .set({ builds_enabled: 0 })
      .where('id', '=', off.id)
      .execute();
    const reply = await t.request('GET', `/api/v3/projects/${off.id}/variables`, { token: owner.token });
    assert.equal(reply.status, 403);
  });
});

describe('secret variables in a job', () => {
  it('come after the predefined and the file’s variables, hidden, and stay out of hook payloads', async () => {
    const ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: 'var-runner-token' }, 'varjob');
    try {
      const { t, owner, project } = ci;
      const as = { token: owner.token };
      for (const [key, value] of [
        ['SECRET_ONE', 'value-of-secret-one'],
        ['SHARED', 'from-secret'],
      ]) {
        const reply = await t.request('POST', `/api/v3/projects/${project.id}/variables`, {
          ...as,
          body: { key, value },
        });
        assert.equal(reply.status, 201);
      }
      const hook = await t.request('POST', `/api/v3/projects/${project.id}/hooks`, {
        ...as,
        body: { url: 'http://127.0.0.1:9/h', build_events: true, pipeline_events: true },
      });
      assert.equal(hook.status, 201);
      await ci.push({
        '.gitlab-ci.yml': 'variables: {SHARED: from-file, FILE_ONLY: f}\njob: {script: env}\n',
      });
      const runner = new RunnerClient(ci.base);
      assert.equal((await runner.register('var-runner-token')).status, 201);
      const job = await runner.requestJob();
      assert.ok(job);
      const keys = job.variables.map((v) => v.key);
      const at = (key: string, from = 0) => keys.indexOf(key, from);
      assert.ok(at('CI_PIPELINE_ID') < at('FILE_ONLY'));
      assert.ok(at('SHARED') < at('FILE_ONLY'));
      const secretShared = at('SHARED', at('SHARED') + 1);
      assert.ok(secretShared > at('FILE_ONLY'), 'the secret SHARED comes after the file’s');
      assert.deepEqual(job.variables[secretShared], { key: 'SHARED', value: 'from-secret', public: false });
      assert.deepEqual(job.variables[at('SECRET_ONE')], {
        key: 'SECRET_ONE',
        value: 'value-of-secret-one',
        public: false,
      });
      assert.deepEqual(job.variables[at('FILE_ONLY')], { key: 'FILE_ONLY', value: 'f', public: true });

      await runner.update(job, 'success', 'done\n');
      const payloads = await t.server.deps.db.kysely
        .selectFrom('hook_deliveries')
        .select(['event', 'payload'])
        .execute();
      assert.ok(payloads.some((row) => row.event === 'Build Hook'));
      for (const row of payloads) {
        assert.ok(!row.payload.includes('value-of-secret-one'), row.event);
        assert.ok(!row.payload.includes('from-secret'), row.event);
      }
    } finally {
      await ci.close();
    }
  });
});
