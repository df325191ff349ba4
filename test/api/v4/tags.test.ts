// v4's tags beside v3's: the v4 Tag entity (target, Commit entity, release, protected, created_at),
// search, order and pagination, create (201) without release notes, delete (204), the refusals.
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

describe('API v4 tags', () => {
  let t: TestApp;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let first: string;
  let second: string;

  const base = () => `/api/v4/projects/${project.id}/repository/tags`;
  const tagUrl = (name: string) => `${base()}/${encodeURIComponent(name)}`;
  const refSha = async (ref: string) =>
    (await client.run(['--git-dir', project.repoPath, 'rev-parse', '--verify', '-q', ref])).stdout.trim();

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    owner = await createUser(t, 'tara');
    developer = await createUser(t, 'dora');
    guest = await createUser(t, 'gus');
    stranger = await createUser(t, 'stan');
    project = await createProject(t, { owner, path: 'tagged' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    const work = await client.workTree('tagged');
    first = await client.commit(work, 'first');
    await client.ok(['tag', 'v1.9', first], work);
    await client.ok(['commit', '-q', '--allow-empty', '-m', 'second'], work, {
      GIT_COMMITTER_DATE: '2030-01-01T00:00:00+00:00',
    });
    second = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    await client.ok(['tag', '-a', 'v1.10', '-m', 'Release 1.10'], work, {
      GIT_COMMITTER_DATE: '2030-01-02T10:00:00+02:00',
    });
    await client.ok(['push', '-q', project.repoPath, 'master', '--tags'], work);
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('lists tags in the v4 Tag shape, newest commit first by default, paginated', async () => {
    const response = await t.request('GET', base(), { token: developer.token });
    assert.equal(response.status, 200);
    assert.equal(response.headers['x-total'], '2');
    assert.deepEqual(
      response.body.map((tag: any) => tag.name),
      ['v1.10', 'v1.9'],
    );
    const [annotated, light] = response.body;
    assert.deepEqual(Object.keys(annotated), [
      'name',
      'message',
      'target',
      'commit',
      'release',
      'protected',
      'created_at',
    ]);
    assert.equal(annotated.message, 'Release 1.10');
    assert.equal(annotated.target, await refSha('refs/tags/v1.10'));
    assert.notEqual(annotated.target, second);
    assert.equal(annotated.commit.id, second);
    assert.equal(annotated.commit.title, 'second');
    assert.equal(annotated.commit.web_url, `${t.config.externalUrl}/${project.fullPath}/commit/${second}`);
    assert.equal(annotated.release, null);
    assert.equal(annotated.protected, false);
    assert.equal(annotated.created_at, '2030-01-02T10:00:00.000+02:00');
    assert.equal(light.message, null);
    assert.equal(light.target, first);
    assert.equal(light.created_at, null);

    const page = await t.request('GET', `${base()}?per_page=1&page=2`, { token: developer.token });
    assert.deepEqual(
      page.body.map((tag: any) => tag.name),
      ['v1.9'],
    );
  });

  it('orders by name and version, searches, refuses an unknown order', async () => {
    const names = async (query: string) =>
      (await t.request('GET', `${base()}?${query}`, { token: developer.token })).body.map(
        (tag: any) => tag.name,
      );
    assert.deepEqual(await names('order_by=name&sort=asc'), ['v1.10', 'v1.9']);
    assert.deepEqual(await names('order_by=version&sort=asc'), ['v1.9', 'v1.10']);
    assert.deepEqual(await names('order_by=version'), ['v1.10', 'v1.9']);
    assert.deepEqual(await names('search=10'), ['v1.10']);
    assert.deepEqual(await names('search=%5Ev1.9'), ['v1.9']);
    const bad = await t.request('GET', `${base()}?order_by=size`, { token: developer.token });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { error: 'order_by does not have a valid value' });
  });

  it('shows one tag; 404 for a missing one, hidden projects and 403 for guests', async () => {
    const one = await t.request('GET', tagUrl('v1.9'), { token: developer.token });
    assert.equal(one.status, 200);
    assert.equal(one.body.commit.id, first);
    const missing = await t.request('GET', tagUrl('v9'), { token: developer.token });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Tag Not Found' });
    assert.equal((await t.request('GET', base(), { token: stranger.token })).status, 404);
    assert.equal((await t.request('GET', base(), { token: guest.token })).status, 403);
  });

  it('creates a tag (201) with a message, ignoring v3`s release_description; refuses what it must', async () => {
    const created = await t.request('POST', base(), {
      token: developer.token,
      body: { tag_name: 'release/2.0', ref: 'master', message: 'Two', release_description: 'notes' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'release/2.0');
    assert.equal(created.body.message, 'Two');
    assert.equal(created.body.commit.id, second);
    assert.equal(created.body.release, null);
    assert.match(created.body.created_at, /^\d{4}-\d\d-\d\dT/);

    const missing = await t.request('POST', base(), { token: developer.token, body: { ref: 'master' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'tag_name is missing' });
    const exists = await t.request('POST', base(), {
      token: developer.token,
      body: { tag_name: 'v1.9', ref: 'master' },
    });
    assert.equal(exists.status, 400);
    assert.deepEqual(exists.body, { message: 'Tag v1.9 already exists' });
    const badRef = await t.request('POST', base(), {
      token: developer.token,
      body: { tag_name: 'v3', ref: 'nowhere' },
    });
    assert.equal(badRef.status, 400);
    const byGuest = await t.request('POST', base(), {
      token: guest.token,
      body: { tag_name: 'g', ref: 'master' },
    });
    assert.equal(byGuest.status, 403);
    assert.equal(await refSha('refs/tags/g'), '');
  });

  it('deletes a tag with 204 and no body (masters: developers may not change tags); 404 when gone', async () => {
    const byDeveloper = await t.request('DELETE', tagUrl('release/2.0'), { token: developer.token });
    assert.equal(byDeveloper.status, 400);
    assert.deepEqual(byDeveloper.body, {
      message: 'You are not allowed to change existing tags on this project.',
    });
    const deleted = await t.request('DELETE', tagUrl('release/2.0'), { token: owner.token, body: {} });
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal(deleted.text, '');
    assert.equal(await refSha('refs/tags/release/2.0'), '');
    const again = await t.request('DELETE', tagUrl('release/2.0'), { token: owner.token });
    assert.equal(again.status, 404);
  });

  it('has no …/release routes in v4, and leaves v3`s RepoTag as it was', async () => {
    const release = await t.request('POST', `${tagUrl('v1.9')}/release`, {
      token: developer.token,
      body: { description: 'x' },
    });
    assert.equal(release.status, 404);
    const v3 = await t.request('GET', `/api/v3/projects/${project.id}/repository/tags/v1.9`, {
      token: developer.token,
    });
    assert.deepEqual(Object.keys(v3.body), ['name', 'message', 'commit', 'release']);
  });
});
