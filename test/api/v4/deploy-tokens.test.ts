// v4's deploy tokens of projects and groups: create (201, the `gldt-` secret shown once), list (`active`),
// one, delete (204, then 404), the administrators' list; the refusals (403 for developers, 404 for hidden
// projects, 400 for bad scopes and usernames); and a real `git clone` over HTTP with a token's username
// and secret, for its project and for a project of its group, never a push.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../../helpers/git.ts';

const FIELDS = ['id', 'name', 'username', 'expires_at', 'scopes', 'revoked', 'expired'];

describe('API v4 deploy tokens', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let master: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let other: TestProject;
  let inGroup: TestProject;
  let groupId: number;

  const tokensOf = (p: { id: number }) => `/api/v4/projects/${p.id}/deploy_tokens`;

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    master = await createUser(t, 'dtmaster');
    developer = await createUser(t, 'dtdev');
    stranger = await createUser(t, 'dtstranger');
    project = await createProject(t, { owner: master, path: 'tokened', commit: true });
    other = await createProject(t, { owner: master, path: 'untokened', commit: true });
    groupId = await createGroup(t, 'dtgroup', 0);
    await addGroupMember(t, groupId, master.id, 40);
    await addGroupMember(t, groupId, developer.id, 30);
    inGroup = await createProject(t, { owner: master, path: 'grouped', namespace: 'dtgroup', commit: true });
    await addProjectMember(t, project.id, developer.id, 30);
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('creates a project token (201) with its secret once; lists and shows it without', async () => {
    const created = await t.request('POST', tokensOf(project), {
      token: master.token,
      body: { name: 'ci', scopes: ['read_repository', 'read_registry'], expires_at: '2099-01-02T03:04:05Z' },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body), [...FIELDS, 'token']);
    assert.match(created.body.token, /^gldt-[A-Za-z0-9_-]{20}$/);
    assert.equal(created.body.username, `gitlab+deploy-token-${created.body.id}`);
    assert.deepEqual(created.body.scopes, ['read_repository', 'read_registry']);
    assert.equal(created.body.expires_at, '2099-01-02T03:04:05.000Z');
    assert.equal(created.body.revoked, false);
    assert.equal(created.body.expired, false);
    const listed = await t.request('GET', tokensOf(project), { token: master.token });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers['x-total'], '1');
    assert.deepEqual(Object.keys(listed.body[0]), FIELDS);
    const one = await t.request('GET', `${tokensOf(project)}/${created.body.id}`, { token: master.token });
    assert.deepEqual(one.body, listed.body[0]);
    const elsewhere = await t.request('GET', `${tokensOf(other)}/${created.body.id}`, {
      token: master.token,
    });
    assert.equal(elsewhere.status, 404);
  });

  it('takes scopes as a comma-separated string and a chosen username; refuses bad input with 400', async () => {
    const made = await t.request(
      'POST',
      `${tokensOf(project)}?name=named&scopes=read_repository,write_registry`,
      {
        token: master.token,
        body: { username: 'deployer.bot' },
      },
    );
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.username, 'deployer.bot');
    assert.deepEqual(made.body.scopes, ['read_repository', 'write_registry']);
    const missing = await t.request('POST', tokensOf(project), { token: master.token, body: { name: 'x' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'scopes is missing' });
    const bad = await t.request('POST', tokensOf(project), {
      token: master.token,
      body: { name: 'x', scopes: ['api'] },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { error: 'scopes does not have a valid value' });
    const user = await t.request('POST', tokensOf(project), {
      token: master.token,
      body: { name: 'x', scopes: ['read_repository'], username: 'no spaces' },
    });
    assert.equal(user.status, 400);
    assert.deepEqual(user.body, {
      message: { username: ["can contain only letters, digits, '_', '-', '+', and '.'"] },
    });
  });

  it('refuses developers (403) and hides the project from strangers (404)', async () => {
    const dev = await t.request('GET', tokensOf(project), { token: developer.token });
    assert.equal(dev.status, 403);
    const devCreate = await t.request('POST', tokensOf(project), {
      token: developer.token,
      body: { name: 'x', scopes: ['read_repository'] },
    });
    assert.equal(devCreate.status, 403);
    const hidden = await t.request('GET', tokensOf(project), { token: stranger.token });
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    assert.equal((await t.request('GET', '/api/v4/deploy_tokens', { token: master.token })).status, 403);
    assert.equal((await t.request('GET', tokensOf(project))).status, 401);
  });

  it('clones over HTTP with the username and secret; refuses a push, another project, a wrong name', async () => {
    const made = await t.request('POST', tokensOf(project), {
      token: master.token,
      body: { name: 'clone', scopes: ['read_repository'] },
    });
    const { username, token } = made.body;
    await client.ok(['clone', '-q', repoUrl(base, project.fullPath, username, token), 'dt-clone']);
    const work = await client.workTree('dt-work', ['change']);
    const push = await client.run(
      ['push', '-q', repoUrl(base, project.fullPath, username, token), 'HEAD:side'],
      work,
    );
    assert.notEqual(push.code, 0);
    assert.match(push.stderr, /403/);
    const another = await client.run([
      'clone',
      '-q',
      repoUrl(base, other.fullPath, username, token),
      'dt-other',
    ]);
    assert.notEqual(another.code, 0);
    const wrongName = await client.run([
      'clone',
      '-q',
      repoUrl(base, project.fullPath, 'someone', token),
      'dt-w',
    ]);
    assert.notEqual(wrongName.code, 0);
    assert.match(wrongName.stderr, /Authentication failed|401|Access denied/);

    const registryOnly = await t.request('POST', tokensOf(project), {
      token: master.token,
      body: { name: 'registry', scopes: ['read_registry'] },
    });
    const noRepo = await client.run([
      'clone',
      '-q',
      repoUrl(base, project.fullPath, registryOnly.body.username, registryOnly.body.token),
      'dt-registry',
    ]);
    assert.notEqual(noRepo.code, 0);

    const deleted = await t.request('DELETE', `${tokensOf(project)}/${made.body.id}`, {
      token: master.token,
    });
    assert.equal(deleted.status, 204);
    const gone = await client.run([
      'clone',
      '-q',
      repoUrl(base, project.fullPath, username, token),
      'dt-gone',
    ]);
    assert.notEqual(gone.code, 0);
    const again = await t.request('DELETE', `${tokensOf(project)}/${made.body.id}`, { token: master.token });
    assert.equal(again.status, 404);
  });

  it("a group's token clones the group's projects; masters manage it, developers may not", async () => {
    const url = `/api/v4/groups/${groupId}/deploy_tokens`;
    const made = await t.request('POST', url, {
      token: master.token,
      body: { name: 'group', scopes: ['read_repository'], username: 'group-bot' },
    });
    assert.equal(made.status, 201, made.text);
    await client.ok([
      'clone',
      '-q',
      repoUrl(base, inGroup.fullPath, 'group-bot', made.body.token),
      'dt-group',
    ]);
    const outside = await client.run([
      'clone',
      '-q',
      repoUrl(base, project.fullPath, 'group-bot', made.body.token),
      'dt-o',
    ]);
    assert.notEqual(outside.code, 0);
    const byPath = await t.request('GET', '/api/v4/groups/dtgroup/deploy_tokens', { token: master.token });
    assert.deepEqual(
      byPath.body.map((token: { name: string }) => token.name),
      ['group'],
    );
    assert.equal((await t.request('GET', url, { token: developer.token })).status, 403);
    assert.equal((await t.request('GET', url, { token: stranger.token })).status, 404);
  });

  it('lists every token for administrators, only the active ones with active=true', async () => {
    const expired = await t.request('POST', tokensOf(other), {
      token: master.token,
      body: { name: 'old', scopes: ['read_repository'], expires_at: '2020-01-01' },
    });
    assert.equal(expired.status, 201);
    assert.equal(expired.body.expired, true);
    const all = await t.request('GET', '/api/v4/deploy_tokens?per_page=100', { token: t.rootToken });
    assert.equal(all.status, 200);
    const names = all.body.map((token: { name: string }) => token.name);
    assert.ok(names.includes('old') && names.includes('group') && names.includes('ci'), names.join());
    const active = await t.request('GET', '/api/v4/deploy_tokens?active=true&per_page=100', {
      token: t.rootToken,
    });
    assert.ok(!active.body.some((token: { name: string }) => token.name === 'old'));
    assert.equal(active.body.length, all.body.length - 1);
    const clone = await client.run([
      'clone',
      '-q',
      repoUrl(base, other.fullPath, expired.body.username, expired.body.token),
      'dt-expired',
    ]);
    assert.notEqual(clone.code, 0);
  });
});
