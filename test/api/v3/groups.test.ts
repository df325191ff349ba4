import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser, type TestUser } from '../../helpers/factory.ts';
import { repositoryPath } from '../../../src/git/repository.ts';

const GROUP_KEYS = [
  'id',
  'name',
  'path',
  'description',
  'visibility_level',
  'lfs_enabled',
  'avatar_url',
  'web_url',
  'request_access_enabled',
];

describe('groups', () => {
  let t: TestApp;
  let alice: TestUser; // creates groups
  let bob: TestUser; // member of some
  let carol: TestUser; // outsider
  let nogroups: TestUser;

  before(async () => {
    t = await startTestApp();
    alice = await createUser(t, 'alice');
    bob = await createUser(t, 'bob');
    carol = await createUser(t, 'carol');
    nogroups = await createUser(t, 'nogroups', { canCreateGroup: false });
  });
  after(() => t.close());

  const post = (token: string, body: Record<string, unknown>) =>
    t.request('POST', '/api/v3/groups', { token, body });

  it('creates a group, makes the creator its owner and shows the Group entity', async () => {
    const response = await post(alice.token, { name: 'Alpha Team', path: 'alpha', description: 'First' });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body), GROUP_KEYS);
    assert.equal(response.body.name, 'Alpha Team');
    assert.equal(response.body.path, 'alpha');
    assert.equal(response.body.description, 'First');
    assert.equal(response.body.visibility_level, 20);
    assert.equal(response.body.lfs_enabled, true);
    assert.equal(response.body.avatar_url, null);
    assert.equal(response.body.web_url, 'http://labrador.test/groups/alpha');
    assert.equal(response.body.request_access_enabled, false);

    const members = await t.request('GET', '/api/v3/groups/alpha/members', { token: alice.token });
    assert.equal(members.status, 200);
    assert.equal(members.body.length, 1);
    assert.equal(members.body[0].username, 'alice');
    assert.equal(members.body[0].access_level, 50);
    assert.equal(members.body[0].expires_at, null);
  });

  it('refuses users without can_create_group and reports missing or taken names GitLab-style', async () => {
    assert.deepEqual((await post(nogroups.token, { name: 'x', path: 'x' })).body, {
      message: '403 Forbidden',
    });
    const noName = await post(alice.token, { path: 'p1' });
    assert.equal(noName.status, 400);
    assert.deepEqual(noName.body, { message: '400 (Bad request) "name" not given' });
    assert.deepEqual((await post(alice.token, { name: 'p1' })).body, {
      message: '400 (Bad request) "path" not given',
    });
    const taken = await post(alice.token, { name: 'Other', path: 'ALPHA' });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body, { message: 'Failed to save group {:path=>["has already been taken"]}' });
    // A user's namespace path is taken too.
    const userPath = await post(alice.token, { name: 'Bobs', path: 'bob' });
    assert.deepEqual(userPath.body, { message: 'Failed to save group {:path=>["has already been taken"]}' });
    const both = await post(alice.token, { name: 'Alpha Team', path: 'projects' });
    assert.equal(both.status, 400);
    assert.equal(
      both.body.message,
      'Failed to save group {:name=>["has already been taken"], :path=>["projects is a reserved name"]}',
    );
    const badPath = await post(alice.token, { name: 'Bad', path: '-bad' });
    assert.match(badPath.body.message, /:path=>\["can contain only letters, digits/);
    assert.equal((await post(alice.token, { name: 'V', path: 'vv', visibility_level: 'x' })).status, 400);
  });

  it('lists all groups for administrators and only member groups for others, with search and pages', async () => {
    await post(alice.token, { name: 'Beta', path: 'beta', visibility_level: 0 });
    await post(bob.token, { name: 'Gamma', path: 'gamma' });
    const admin = await t.request('GET', '/api/v3/groups', { token: t.rootToken });
    assert.deepEqual(
      admin.body.map((g: any) => g.path),
      ['alpha', 'beta', 'gamma'],
    );
    assert.equal(admin.headers['x-total'], '3');
    const mine = await t.request('GET', '/api/v3/groups', { token: alice.token });
    assert.deepEqual(
      mine.body.map((g: any) => g.path),
      ['alpha', 'beta'],
    );
    const search = await t.request('GET', '/api/v3/groups?search=ALP', { token: alice.token });
    assert.deepEqual(
      search.body.map((g: any) => g.path),
      ['alpha'],
    );
    const paged = await t.request('GET', '/api/v3/groups?per_page=1&page=2', { token: t.rootToken });
    assert.deepEqual(
      paged.body.map((g: any) => g.path),
      ['beta'],
    );
    assert.equal(paged.headers['x-total-pages'], '3');
    assert.match(String(paged.headers.link), /rel="next"/);
    const skip = await t.request('GET', `/api/v3/groups?skip_groups[]=${admin.body[0].id}`, {
      token: t.rootToken,
    });
    assert.deepEqual(
      skip.body.map((g: any) => g.path),
      ['beta', 'gamma'],
    );
    assert.deepEqual((await t.request('GET', '/api/v3/groups', { token: carol.token })).body, []);
    assert.equal((await t.request('GET', '/api/v3/groups')).status, 401);
  });

  it('shows a group by id or path with its visible projects, and hides private groups from outsiders', async () => {
    const byPath = await t.request('GET', '/api/v3/groups/beta', { token: alice.token });
    assert.equal(byPath.status, 200);
    assert.deepEqual(Object.keys(byPath.body), [...GROUP_KEYS, 'projects', 'shared_projects']);
    const byId = await t.request('GET', `/api/v3/groups/${byPath.body.id}`, { token: t.rootToken });
    assert.equal(byId.body.path, 'beta');
    assert.deepEqual((await t.request('GET', '/api/v3/groups/beta', { token: carol.token })).body, {
      message: '404 Group Not Found',
    });
    assert.equal((await t.request('GET', '/api/v3/groups/nope', { token: alice.token })).status, 404);
    assert.equal((await t.request('GET', '/api/v3/groups/99999', { token: alice.token })).status, 404);

    // Public group, one public and one private project: outsiders see only the public one.
    await createProject(t, { owner: alice, namespace: 'alpha', path: 'open', visibility: 20 });
    await createProject(t, { owner: alice, namespace: 'alpha', path: 'secret', visibility: 0 });
    const outsider = await t.request('GET', '/api/v3/groups/alpha', { token: carol.token });
    assert.deepEqual(
      outsider.body.projects.map((p: any) => p.path),
      ['open'],
    );
    const owner = await t.request('GET', '/api/v3/groups/alpha', { token: alice.token });
    assert.deepEqual(
      owner.body.projects.map((p: any) => p.path),
      ['open', 'secret'],
    );
    assert.equal(owner.body.projects[0].namespace.path, 'alpha');
    const list = await t.request('GET', '/api/v3/groups/alpha/projects', { token: carol.token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((p: any) => p.path),
      ['open'],
    );
    assert.equal(list.headers['x-total'], '1');
    const all = await t.request('GET', '/api/v3/groups/alpha/projects', { token: t.rootToken });
    assert.equal(all.headers['x-total'], '2');

    // A private group becomes readable to someone who can see one of its projects.
    await createProject(t, { owner: alice, namespace: 'beta', path: 'inner', visibility: 10 });
    const seen = await t.request('GET', '/api/v3/groups/beta', { token: carol.token });
    assert.equal(seen.status, 200);
    assert.deepEqual(
      seen.body.projects.map((p: any) => p.path),
      ['inner'],
    );
  });

  it('edits a group for owners only; a path change moves its repositories', async () => {
    assert.equal(
      (await t.request('PUT', '/api/v3/groups/alpha', { token: carol.token, body: {} })).status,
      403,
    );
    await t.request('POST', '/api/v3/groups/alpha/members', {
      token: alice.token,
      body: { user_id: bob.id, access_level: 40 },
    });
    const master = await t.request('PUT', '/api/v3/groups/alpha', {
      token: bob.token,
      body: { description: 'x' },
    });
    assert.deepEqual(master.body, { message: '403 Forbidden' });

    const taken = await t.request('PUT', '/api/v3/groups/alpha', {
      token: alice.token,
      body: { path: 'gamma' },
    });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body, { message: { path: ['has already been taken'] } });
    const lower = await t.request('PUT', '/api/v3/groups/alpha', {
      token: alice.token,
      body: { visibility_level: 10 },
    });
    assert.deepEqual(lower.body, {
      message: {
        visibility_level: ['internal is not allowed since there are projects with higher visibility.'],
      },
    });

    const oldRepo = repositoryPath(t.config.dataDir, 'alpha', 'open');
    assert.ok(fs.existsSync(oldRepo));
    const renamed = await t.request('PUT', '/api/v3/groups/alpha', {
      token: alice.token,
      body: { path: 'alpha2', description: 'Renamed', request_access_enabled: true },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.path, 'alpha2');
    assert.equal(renamed.body.description, 'Renamed');
    assert.equal(renamed.body.request_access_enabled, true);
    assert.equal(renamed.body.projects.length, 2);
    assert.equal(renamed.body.projects[0].path_with_namespace, 'alpha2/open');
    assert.ok(!fs.existsSync(oldRepo));
    assert.ok(fs.existsSync(repositoryPath(t.config.dataDir, 'alpha2', 'open')));
    assert.equal((await t.request('GET', '/api/v3/groups/alpha', { token: alice.token })).status, 404);
  });

  it('deletes a group for owners, with its projects, repositories and memberships', async () => {
    assert.deepEqual((await t.request('DELETE', '/api/v3/groups/gamma', { token: alice.token })).body, {
      message: '403 Forbidden',
    });
    const deleted = await t.request('DELETE', '/api/v3/groups/gamma', { token: bob.token });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.path, 'gamma');
    assert.equal((await t.request('GET', '/api/v3/groups/gamma', { token: t.rootToken })).status, 404);

    const repo = repositoryPath(t.config.dataDir, 'alpha2', 'open');
    assert.ok(fs.existsSync(repo));
    const group = await t.request('GET', '/api/v3/groups/alpha2', { token: alice.token });
    const projectIds = group.body.projects.map((p: any) => p.id);
    const withProjects = await t.request('DELETE', '/api/v3/groups/alpha2', { token: alice.token });
    assert.equal(withProjects.status, 200);
    assert.ok(!fs.existsSync(repo));
    assert.ok(!fs.existsSync(path.join(t.config.dataDir, 'repositories', 'alpha2')));
    for (const id of projectIds) {
      assert.equal((await t.request('GET', `/api/v3/projects/${id}`, { token: t.rootToken })).status, 404);
    }
    const db = t.server.deps.db.kysely;
    const left = await db
      .selectFrom('members')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('source_type', '=', 'Namespace'),
            eb('source_id', 'in', [deleted.body.id, group.body.id]),
          ]),
          eb.and([eb('source_type', '=', 'Project'), eb('source_id', 'in', projectIds)]),
        ]),
      )
      .execute();
    assert.equal(left.length, 0);
  });
});
