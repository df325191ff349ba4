// v4's CI variables at the three levels (project: masters; group: owners; instance: administrators):
// the Ci::Variable shape, create/read/update/delete (204), the masking rule (400 for a value a log
// cannot hide), types and scopes; and what a runner's job gets from them: the instance's, then the
// group's, then the project's, protected ones only on a protected branch, masked values hidden in the
// stored trace.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  addProtectedBranch,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { commitFiles } from '../../helpers/ci.ts';
import { GitClient, listen, repoUrl } from '../../helpers/git.ts';
import { RunnerClient } from '../../helpers/runner-client.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const REGISTRATION = 'ci-variables-registration';
const MASKED = 'S3cr3t-Value_1234';

describe('API v4 CI variables', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let admin: TestUser;
  let owner: TestUser;
  let master: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let groupId: number;
  let project: TestProject;
  let work: string;
  let runner: RunnerClient;

  const levels = () => [
    { name: 'project', url: `/api/v4/projects/${project.id}/variables`, user: () => master },
    { name: 'group', url: `/api/v4/groups/${groupId}/variables`, user: () => owner },
    { name: 'instance', url: '/api/v4/admin/ci/variables', user: () => admin },
  ];

  before(async () => {
    t = await startTestApp({ LABRADOR_RUNNER_TOKEN: REGISTRATION });
    base = await listen(t);
    client = new GitClient();
    admin = await createUser(t, 'varadmin', { admin: true });
    owner = await createUser(t, 'varowner');
    master = await createUser(t, 'varmaster');
    developer = await createUser(t, 'vardev');
    stranger = await createUser(t, 'varstranger');
    groupId = await createGroup(t, 'vargroup', 0);
    await addGroupMember(t, groupId, owner.id, AccessLevel.Owner);
    project = await createProject(t, { owner, namespace: 'vargroup', path: 'app' });
    await addProjectMember(t, project.id, master.id, AccessLevel.Master);
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    work = await client.workTree('varwork');
    await client.ok(
      ['remote', 'add', 'origin', repoUrl(base, project.fullPath, owner.username, owner.password)],
      work,
    );
    runner = new RunnerClient(base);
    assert.equal((await runner.register(REGISTRATION)).status, 201);
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('creates, reads, updates and deletes variables at every level', async () => {
    for (const level of levels()) {
      const token = level.user().token;
      const created = await t.request('POST', level.url, {
        token,
        body: { key: 'DEPLOY_KEY', value: 'one', variable_type: 'file', protected: true },
      });
      assert.equal(created.status, 201, level.name);
      const expected: Record<string, unknown> = {
        variable_type: 'file',
        key: 'DEPLOY_KEY',
        value: 'one',
        protected: true,
        masked: false,
        raw: false,
        ...(level.name === 'instance' ? {} : { environment_scope: '*' }),
        description: null,
      };
      assert.deepEqual(created.body, expected, level.name);
      const list = await t.request('GET', level.url, { token });
      assert.equal(list.status, 200);
      assert.deepEqual(list.body, [expected]);
      assert.equal(list.headers['x-total'], '1');
      const one = await t.request('GET', `${level.url}/DEPLOY_KEY`, { token });
      assert.deepEqual(one.body, expected);
      const updated = await t.request('PUT', `${level.url}/DEPLOY_KEY`, {
        token,
        body: { value: 'two', protected: false },
      });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.value, 'two');
      assert.equal(updated.body.protected, false);
      assert.equal(updated.body.variable_type, 'file');
      const taken = await t.request('POST', level.url, { token, body: { key: 'DEPLOY_KEY', value: 'x' } });
      assert.equal(taken.status, 400);
      assert.deepEqual(taken.body, { message: { key: ['has already been taken'] } });
      const deleted = await t.request('DELETE', `${level.url}/DEPLOY_KEY`, { token });
      assert.equal(deleted.status, 204);
      assert.equal((await t.request('GET', `${level.url}/DEPLOY_KEY`, { token })).status, 404);
    }
  });

  it('refuses masking a value a log cannot hide, and bad input', async () => {
    for (const level of levels()) {
      const token = level.user().token;
      for (const value of ['short', 'two\nlines of it', 'has spaces in it', 'quote"s-and-more']) {
        const refused = await t.request('POST', level.url, {
          token,
          body: { key: 'M', value, masked: true },
        });
        assert.equal(refused.status, 400, `${level.name} ${JSON.stringify(value)}`);
        assert.deepEqual(refused.body, { message: { value: ['is invalid'] } });
      }
      const missing = await t.request('POST', level.url, { token, body: { key: 'NOVALUE' } });
      assert.deepEqual(missing.body, { error: 'value is missing' });
      const badType = await t.request('POST', level.url, {
        token,
        body: { key: 'T', value: 'v', variable_type: 'folder' },
      });
      assert.deepEqual(badType.body, { error: 'variable_type does not have a valid value' });
      const badKey = await t.request('POST', level.url, { token, body: { key: 'not ok', value: 'v' } });
      assert.equal(badKey.status, 400);
    }
    // Masking an existing variable checks the value it has.
    const url = `/api/v4/projects/${project.id}/variables`;
    await t.request('POST', url, { token: master.token, body: { key: 'PLAIN', value: 'tiny' } });
    const mask = await t.request('PUT', `${url}/PLAIN`, { token: master.token, body: { masked: true } });
    assert.equal(mask.status, 400);
    assert.equal((await t.request('DELETE', `${url}/PLAIN`, { token: master.token })).status, 204);
  });

  it('lets only masters, group owners and administrators near them', async () => {
    const [projectLevel, groupLevel, instanceLevel] = levels();
    assert.equal((await t.request('GET', projectLevel!.url, { token: developer.token })).status, 403);
    assert.equal((await t.request('GET', projectLevel!.url, { token: stranger.token })).status, 404);
    assert.equal((await t.request('GET', groupLevel!.url, { token: master.token })).status, 403);
    assert.equal((await t.request('GET', groupLevel!.url, { token: stranger.token })).status, 404);
    assert.equal((await t.request('GET', instanceLevel!.url, { token: owner.token })).status, 403);
    assert.equal((await t.request('GET', instanceLevel!.url)).status, 401);
  });

  it("hands a job the instance's, the group's and the project's variables, protected ones only on protected branches", async () => {
    const add = (url: string, token: string, body: Record<string, unknown>) =>
      t
        .request('POST', url, { token, body })
        .then((response) => assert.equal(response.status, 201, response.text));
    const [projectLevel, groupLevel, instanceLevel] = levels();
    await add(instanceLevel!.url, admin.token, { key: 'SHARED', value: 'instance' });
    await add(instanceLevel!.url, admin.token, { key: 'INSTANCE_ONLY', value: 'i' });
    await add(groupLevel!.url, owner.token, { key: 'SHARED', value: 'group' });
    await add(groupLevel!.url, owner.token, { key: 'GROUP_ONLY', value: 'g' });
    await add(projectLevel!.url, master.token, { key: 'SHARED', value: 'project' });
    await add(projectLevel!.url, master.token, { key: 'RELEASE_TOKEN', value: 'p', protected: true });
    await add(projectLevel!.url, master.token, {
      key: 'STAGING_ONLY',
      value: 's',
      environment_scope: 'staging',
    });
    await add(projectLevel!.url, master.token, { key: 'API_SECRET', value: MASKED, masked: true });
    await addProtectedBranch(t, project.id, 'master');

    await commitFiles(client, work, { '.gitlab-ci.yml': 'job:\n  script: echo\n' }, 'ci');
    await client.ok(['push', '-q', 'origin', 'master'], work);
    const onMaster = (await runner.requestJob())!;
    const secrets = onMaster.variables.filter(
      (variable) => !variable.public && variable.key !== 'CI_BUILD_TOKEN',
    );
    assert.deepEqual(
      secrets.map((variable) => `${variable.key}=${variable.value}`),
      [
        'SHARED=instance',
        'INSTANCE_ONLY=i',
        'SHARED=group',
        'GROUP_ONLY=g',
        'SHARED=project',
        'RELEASE_TOKEN=p',
        `API_SECRET=${MASKED}`,
      ],
    );
    assert.equal((await runner.update(onMaster, 'success', `using ${MASKED} now\n`)).status, 200);
    const trace = await t.request('GET', `/api/v4/projects/${project.id}/jobs/${onMaster.id}/trace`, {
      token: master.token,
    });
    assert.equal(trace.text, `using ${'x'.repeat(MASKED.length)} now\n`);

    await client.ok(['push', '-q', 'origin', 'master:feature'], work);
    const onFeature = (await runner.requestJob())!;
    assert.equal(onFeature.ref, 'feature');
    const keys = onFeature.variables.filter((variable) => !variable.public).map((variable) => variable.key);
    assert.equal(keys.includes('RELEASE_TOKEN'), false);
    assert.equal(keys.includes('GROUP_ONLY'), true);
  });
});
