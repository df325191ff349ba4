// v4's branches beside v3's: the v4 Branch entity (merged, can_push, default, web_url, the Commit
// entity), search and pagination, create with `branch`, 204 deletes, merged_branches, protect/unprotect.
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
import { GitClient } from '../../helpers/git.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

describe('API v4 branches', () => {
  let t: TestApp;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let work: string;
  let first: string;
  let second: string;

  const base = () => `/api/v4/projects/${project.id}/repository/branches`;
  const branchUrl = (name: string, suffix = '') => `${base()}/${encodeURIComponent(name)}${suffix}`;
  const refSha = async (ref: string) =>
    (await client.run(['--git-dir', project.repoPath, 'rev-parse', '--verify', '-q', ref])).stdout.trim();

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    owner = await createUser(t, 'brenda');
    developer = await createUser(t, 'devon');
    guest = await createUser(t, 'gina');
    stranger = await createUser(t, 'sam');
    project = await createProject(t, { owner, path: 'branchy' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    work = await client.workTree('branchy');
    first = await client.commit(work, 'first');
    await client.ok(['commit', '-q', '--allow-empty', '-m', 'second\n\nwith a body'], work, {
      GIT_AUTHOR_DATE: '2015-12-24T16:51:14+01:00',
      GIT_COMMITTER_DATE: '2015-12-25T08:00:00-05:30',
    });
    second = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    await client.ok(['branch', 'feature/one', first], work);
    await client.ok(['checkout', '-q', '-b', 'ahead'], work);
    await client.commit(work, 'ahead of master');
    await client.ok(['checkout', '-q', 'master'], work);
    await client.ok(['push', '-q', project.repoPath, '--all'], work);
    await t.server.deps.db.kysely
      .updateTable('projects')
      .set({ default_branch: 'master' })
      .where('id', '=', project.id)
      .execute();
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('lists branches in the v4 Branch shape, paginated, with merged, can_push and default', async () => {
    const response = await t.request('GET', `${base()}?per_page=2`, { token: developer.token });
    assert.equal(response.status, 200);
    assert.equal(response.headers['x-total'], '3');
    assert.equal(response.headers['x-total-pages'], '2');
    assert.equal(response.headers['x-next-page'], '2');
    assert.deepEqual(
      response.body.map((b: any) => b.name),
      ['ahead', 'feature/one'],
    );
    const page2 = await t.request('GET', `${base()}?per_page=2&page=2`, { token: developer.token });
    assert.deepEqual(
      page2.body.map((b: any) => b.name),
      ['master'],
    );
    const [master] = page2.body;
    assert.deepEqual(Object.keys(master), [
      'name',
      'commit',
      'merged',
      'protected',
      'developers_can_push',
      'developers_can_merge',
      'can_push',
      'default',
      'web_url',
    ]);
    assert.deepEqual(master.commit, {
      id: second,
      short_id: second.slice(0, 8),
      created_at: '2015-12-25T08:00:00.000-05:30',
      parent_ids: [first],
      title: 'second',
      message: 'second\n\nwith a body\n',
      author_name: 'Test Author',
      author_email: 'author@example.com',
      authored_date: '2015-12-24T16:51:14.000+01:00',
      committer_name: 'Test Author',
      committer_email: 'author@example.com',
      committed_date: '2015-12-25T08:00:00.000-05:30',
      trailers: {},
      extended_trailers: {},
      web_url: `${t.config.externalUrl}/${project.fullPath}/commit/${second}`,
    });
    assert.equal(master.merged, false);
    assert.equal(master.default, true);
    assert.equal(master.protected, false);
    assert.equal(master.can_push, true);
    assert.equal(master.web_url, `${t.config.externalUrl}/${project.fullPath}/tree/master`);
    const [ahead, feature] = response.body;
    assert.equal(ahead.merged, false, 'a branch ahead of master is not merged');
    assert.equal(feature.merged, true, 'a branch behind master is merged');
    assert.equal(feature.default, false);
    assert.equal(feature.web_url, `${t.config.externalUrl}/${project.fullPath}/tree/feature/one`);
  });

  it('searches by substring, ^prefix and suffix$', async () => {
    const names = async (search: string) =>
      (
        await t.request('GET', `${base()}?search=${encodeURIComponent(search)}`, { token: developer.token })
      ).body.map((b: any) => b.name);
    assert.deepEqual(await names('e'), ['ahead', 'feature/one', 'master']);
    assert.deepEqual(await names('^fea'), ['feature/one']);
    assert.deepEqual(await names('er$'), ['master']);
    assert.deepEqual(await names('^master$'), ['master']);
    assert.deepEqual(await names('nothing'), []);
  });

  it('shows one branch with slashes URL-encoded; refuses hidden, guests and missing branches', async () => {
    const one = await t.request('GET', branchUrl('feature/one'), { token: developer.token });
    assert.equal(one.status, 200);
    assert.equal(one.body.name, 'feature/one');
    assert.equal(one.body.commit.id, first);
    assert.equal(one.headers['content-type'], 'application/json');

    const missing = await t.request('GET', branchUrl('nope'), { token: developer.token });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Branch Not Found' });
    const hidden = await t.request('GET', base(), { token: stranger.token });
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    const forGuest = await t.request('GET', base(), { token: guest.token });
    assert.equal(forGuest.status, 403);
    const anonymous = await t.request('GET', base());
    assert.equal(anonymous.status, 401);
  });

  it('creates a branch from `branch` and `ref` (201), refusing a missing parameter and guests', async () => {
    const created = await t.request('POST', base(), {
      token: developer.token,
      body: { branch: 'topic/new', ref: first },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'topic/new');
    assert.equal(created.body.commit.id, first);
    assert.equal(created.body.merged, true);
    assert.equal(created.body.can_push, true);
    assert.equal(await refSha('refs/heads/topic/new'), first);

    const missing = await t.request('POST', base(), { token: developer.token, body: { ref: 'master' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'branch is missing' });
    const noRef = await t.request('POST', `${base()}?branch=x`, { token: developer.token });
    assert.equal(noRef.status, 400);
    assert.deepEqual(noRef.body, { error: 'ref is missing' });
    const exists = await t.request('POST', base(), {
      token: developer.token,
      body: { branch: 'topic/new', ref: 'master' },
    });
    assert.equal(exists.status, 400);
    assert.deepEqual(exists.body, { message: 'Branch already exists' });
    const badRef = await t.request('POST', base(), {
      token: developer.token,
      body: { branch: 'other', ref: 'no-such-ref' },
    });
    assert.equal(badRef.status, 400);
    assert.deepEqual(badRef.body, { message: 'Invalid reference name' });
    const forGuest = await t.request('POST', base(), {
      token: guest.token,
      body: { branch: 'guest', ref: 'master' },
    });
    assert.equal(forGuest.status, 403);
    assert.equal(await refSha('refs/heads/guest'), '');
  });

  it('deletes a branch with 204 and no body; 404 for a missing one, 405 for the default', async () => {
    const deleted = await t.request('DELETE', branchUrl('topic/new'), { token: developer.token, body: {} });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal(await refSha('refs/heads/topic/new'), '');
    const again = await t.request('DELETE', branchUrl('topic/new'), { token: developer.token });
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { message: 'No such branch' });
    const head = await t.request('DELETE', branchUrl('master'), { token: owner.token });
    assert.equal(head.status, 405);
    assert.equal(await refSha('refs/heads/master'), second);
  });

  it('protects and unprotects through PUT …/protect|unprotect; can_push follows for developers', async () => {
    const protectedBranch = await t.request('PUT', branchUrl('master', '/protect'), { token: owner.token });
    assert.equal(protectedBranch.status, 200);
    assert.equal(protectedBranch.body.protected, true);
    assert.equal(protectedBranch.body.web_url, `${t.config.externalUrl}/${project.fullPath}/tree/master`);
    const seen = await t.request('GET', branchUrl('master'), { token: developer.token });
    assert.equal(seen.body.protected, true);
    assert.equal(seen.body.developers_can_push, false);
    assert.equal(seen.body.can_push, false);
    const forOwner = await t.request('GET', branchUrl('master'), { token: owner.token });
    assert.equal(forOwner.body.can_push, true);
    const byDeveloper = await t.request('PUT', branchUrl('master', '/unprotect'), { token: developer.token });
    assert.equal(byDeveloper.status, 403);
    const unprotected = await t.request('PUT', branchUrl('master', '/unprotect'), { token: owner.token });
    assert.equal(unprotected.status, 200);
    assert.equal(unprotected.body.protected, false);
  });

  it('deletes merged branches (202), keeping the default, protected and unmerged ones', async () => {
    await client.ok(['push', '-q', project.repoPath, `${first}:refs/heads/merged/a`], work);
    await client.ok(['push', '-q', project.repoPath, `${first}:refs/heads/kept`], work);
    await t.request('PUT', branchUrl('kept', '/protect'), { token: owner.token });
    const forGuest = await t.request('DELETE', `/api/v4/projects/${project.id}/repository/merged_branches`, {
      token: guest.token,
    });
    assert.equal(forGuest.status, 403);
    const response = await t.request('DELETE', `/api/v4/projects/${project.id}/repository/merged_branches`, {
      token: developer.token,
    });
    assert.equal(response.status, 202);
    assert.deepEqual(response.body, { message: '202 Accepted' });
    const names = (await t.request('GET', base(), { token: developer.token })).body.map((b: any) => b.name);
    assert.deepEqual(names, ['ahead', 'kept', 'master']);
  });

  it('leaves v3 as it was: the RepoBranch shape', async () => {
    const response = await t.request('GET', `/api/v3/projects/${project.id}/repository/branches/master`, {
      token: developer.token,
    });
    assert.deepEqual(Object.keys(response.body), [
      'name',
      'commit',
      'protected',
      'developers_can_push',
      'developers_can_merge',
    ]);
  });
});
