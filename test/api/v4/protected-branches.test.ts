// v4's protected branches API: the ProtectedBranch entity from Labrador's rules, 409 on a duplicate,
// wildcards, 204 deletes, masters only, and that the rules it writes are what `git push` obeys.
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
import { AccessLevel } from '../../../src/domain/types.ts';

const MASTERS = { access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null };
const DEVELOPERS = {
  access_level: 30,
  access_level_description: 'Developers + Maintainers',
  user_id: null,
  group_id: null,
};

describe('API v4 protected branches', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let work: string;

  const rules = () => `/api/v4/projects/${project.id}/protected_branches`;
  const rule = (name: string) => `${rules()}/${encodeURIComponent(name)}`;
  const url = (user: TestUser) => repoUrl(base, project.fullPath, user.username, user.password);
  const refSha = async (ref: string) =>
    (await client.run(['--git-dir', project.repoPath, 'rev-parse', '--verify', '-q', ref])).stdout.trim();

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'olga');
    developer = await createUser(t, 'deb');
    stranger = await createUser(t, 'sam');
    project = await createProject(t, { owner, path: 'guarded' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    work = await client.workTree('guarded-work', ['base']);
    await client.ok(['push', '-q', url(owner), 'master'], work);
    // The first push protected master (GitLab's default); `stable` is ours to protect.
    await client.ok(['checkout', '-q', '-b', 'stable'], work);
    await client.ok(['push', '-q', url(owner), 'stable'], work);
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('protects a branch (201, masters by default) and a developer`s git push is refused', async () => {
    const created = await t.request('POST', rules(), { token: owner.token, body: { name: 'stable' } });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), [
      'id',
      'name',
      'push_access_levels',
      'merge_access_levels',
      'allow_force_push',
      'unprotect_access_levels',
      'code_owner_approval_required',
    ]);
    assert.equal(typeof created.body.id, 'number');
    assert.equal(created.body.name, 'stable');
    assert.deepEqual(created.body.push_access_levels, [MASTERS]);
    assert.deepEqual(created.body.merge_access_levels, [MASTERS]);
    assert.equal(created.body.allow_force_push, false);
    assert.deepEqual(created.body.unprotect_access_levels, []);
    assert.equal(created.body.code_owner_approval_required, false);

    const before = await refSha('refs/heads/stable');
    await client.commit(work, 'developer change');
    const refused = await client.run(['push', url(developer), 'stable'], work);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /You are not allowed to push code to protected branches on this project\./);
    assert.equal(await refSha('refs/heads/stable'), before);

    const branch = await t.request('GET', `/api/v4/projects/${project.id}/repository/branches/stable`, {
      token: developer.token,
    });
    assert.equal(branch.body.protected, true);
    assert.equal(branch.body.can_push, false);
  });

  it('answers 409 when the name is already protected', async () => {
    const again = await t.request('POST', rules(), { token: owner.token, body: { name: 'stable' } });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, { message: "Protected branch 'stable' already exists" });
  });

  it('protects a wildcard with developers allowed to push; developers push to matching branches', async () => {
    const created = await t.request('POST', rules(), {
      token: owner.token,
      body: { name: 'release/*', push_access_level: 30, merge_access_level: '30' },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.push_access_levels, [DEVELOPERS]);
    assert.deepEqual(created.body.merge_access_levels, [DEVELOPERS]);
    const sha = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    await client.ok(['push', '-q', url(developer), 'HEAD:refs/heads/release/1.0'], work);
    assert.equal(await refSha('refs/heads/release/1.0'), sha);
    const branch = await t.request(
      'GET',
      `/api/v4/projects/${project.id}/repository/branches/${encodeURIComponent('release/1.0')}`,
      { token: developer.token },
    );
    assert.equal(branch.body.protected, true);
    assert.equal(branch.body.developers_can_push, true);
    assert.equal(branch.body.can_push, true);
    // Protected, so not even a developer who may push can delete it.
    const removal = await client.run(['push', url(developer), ':refs/heads/release/1.0'], work);
    assert.notEqual(removal.code, 0);
  });

  it('lists the rules by name, paginated, and shows one by its URL-encoded name', async () => {
    const list = await t.request('GET', `${rules()}?per_page=1`, { token: owner.token });
    assert.equal(list.status, 200);
    assert.equal(list.headers['x-total'], '3');
    assert.deepEqual(
      list.body.map((r: any) => r.name),
      ['master'],
    );
    const one = await t.request('GET', rule('release/*'), { token: owner.token });
    assert.equal(one.status, 200);
    assert.equal(one.body.name, 'release/*');
    const missing = await t.request('GET', rule('nope'), { token: owner.token });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Not found' });
  });

  it('refuses developers (403), strangers (404), a missing name and levels it cannot keep (400)', async () => {
    const byDeveloper = await t.request('GET', rules(), { token: developer.token });
    assert.equal(byDeveloper.status, 403);
    const create = await t.request('POST', rules(), { token: developer.token, body: { name: 'x' } });
    assert.equal(create.status, 403);
    const hidden = await t.request('GET', rules(), { token: stranger.token });
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    const noName = await t.request('POST', rules(), { token: owner.token, body: {} });
    assert.equal(noName.status, 400);
    assert.deepEqual(noName.body, { error: 'name is missing' });
    for (const [body, field] of [
      [{ name: 'x', push_access_level: 0 }, 'push_access_level'],
      [{ name: 'x', merge_access_level: 60 }, 'merge_access_level'],
      [{ name: 'x', push_access_level: 'many' }, 'push_access_level'],
      [{ name: 'x', allow_force_push: true }, 'allow_force_push'],
    ] as const) {
      const refused = await t.request('POST', rules(), { token: owner.token, body });
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.match(String(refused.body.error), new RegExp(`^${field} `));
    }
    const list = await t.request('GET', rules(), { token: owner.token });
    assert.deepEqual(
      list.body.map((r: any) => r.name),
      ['master', 'release/*', 'stable'],
    );
  });

  it('unprotects with 204; then the developer`s push goes through', async () => {
    const byDeveloper = await t.request('DELETE', rule('stable'), { token: developer.token });
    assert.equal(byDeveloper.status, 403);
    const deleted = await t.request('DELETE', rule('stable'), { token: owner.token, body: {} });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    const again = await t.request('DELETE', rule('stable'), { token: owner.token });
    assert.equal(again.status, 404);
    const sha = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    await client.ok(['push', '-q', url(developer), 'stable'], work);
    assert.equal(await refSha('refs/heads/stable'), sha);
  });
});
