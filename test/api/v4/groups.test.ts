// API v4 groups over v3's services: string visibility, GroupDetail with projects, v4's list filters and
// order, 202 on delete, and the group's projects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addGroupMember,
  createGroup,
  createProject,
  createUser,
  type TestUser,
} from '../../helpers/factory.ts';

const GROUP = [
  'id',
  'web_url',
  'name',
  'path',
  'description',
  'visibility',
  'share_with_group_lock',
  'require_two_factor_authentication',
  'two_factor_grace_period',
  'project_creation_level',
  'auto_devops_enabled',
  'subgroup_creation_level',
  'emails_disabled',
  'emails_enabled',
  'mentions_disabled',
  'lfs_enabled',
  'default_branch',
  'default_branch_protection',
  'avatar_url',
  'request_access_enabled',
  'full_name',
  'full_path',
  'created_at',
  'parent_id',
  'shared_runners_setting',
];
const GROUP_DETAIL = [...GROUP, 'shared_with_groups', 'prevent_sharing_groups_outside_hierarchy'];

describe('API v4 groups', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let zooId: number;
  let alphaId: number;

  before(async () => {
    t = await startTestApp();
    alice = await createUser(t, 'alice');
    bob = await createUser(t, 'bob');
    zooId = await createGroup(t, 'zoo', 20);
    alphaId = await createGroup(t, 'alpha', 0);
    await createGroup(t, 'inner', 10);
    await addGroupMember(t, zooId, alice.id, 50);
    await addGroupMember(t, alphaId, alice.id, 30);
    await createProject(t, { owner: alice, path: 'lion', namespace: 'zoo', visibility: 20 });
  });
  after(() => t.close());

  it('creates with a string visibility; GroupDetail without projects; the creator owns it', async () => {
    const response = await t.request('POST', '/api/v4/groups', {
      token: bob.token,
      body: { name: 'Bob Group', path: 'bobs', description: 'Hi', visibility: 'internal' },
    });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body), GROUP_DETAIL);
    assert.equal(response.body.visibility, 'internal');
    assert.equal(response.body.full_path, 'bobs');
    assert.equal(response.body.full_name, 'Bob Group');
    assert.equal(response.body.parent_id, null);
    assert.equal(response.body.web_url, `${t.config.externalUrl}/groups/bobs`);
    const members = await t.request('GET', `/api/v4/groups/${response.body.id}/members`, {
      token: bob.token,
    });
    assert.deepEqual(
      members.body.map((member: any) => [member.username, member.access_level]),
      [['bob', 50]],
    );
  });

  it('refuses a missing name or path, a bad visibility and a parent_id (400)', async () => {
    const missing = await t.request('POST', '/api/v4/groups', { token: bob.token, body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'name is missing, path is missing' });
    const visibility = await t.request('POST', '/api/v4/groups', {
      token: bob.token,
      body: { name: 'x', path: 'x', visibility: 'secret' },
    });
    assert.deepEqual(visibility.body, { error: 'visibility does not have a valid value' });
    const parent = await t.request('POST', '/api/v4/groups', {
      token: bob.token,
      body: { name: 'y', path: 'y', parent_id: zooId },
    });
    assert.equal(parent.status, 400);
  });

  it('lists member groups by name, all_available ones, owned ones, min_access_level', async () => {
    const paths = async (query: string, token = alice.token) =>
      (await t.request('GET', `/api/v4/groups${query}`, { token })).body.map((group: any) => group.path);
    const list = await t.request('GET', '/api/v4/groups', { token: alice.token });
    assert.equal(list.status, 200);
    for (const group of list.body) assert.deepEqual(Object.keys(group), GROUP);
    assert.deepEqual(await paths(''), ['alpha', 'zoo']);
    assert.equal(list.headers['x-total'], '2');
    assert.deepEqual(await paths('?sort=desc'), ['zoo', 'alpha']);
    assert.deepEqual(await paths('?owned=true'), ['zoo']);
    assert.deepEqual(await paths('?min_access_level=30'), ['alpha', 'zoo']);
    assert.deepEqual(await paths('?min_access_level=40'), ['zoo']);
    assert.deepEqual(await paths('?search=AL'), ['alpha']);
    assert.deepEqual(await paths('?all_available=true&order_by=id', bob.token), ['zoo', 'inner', 'bobs']);
    assert.deepEqual(await paths('?statistics=true&order_by=path', t.rootToken), [
      'alpha',
      'bobs',
      'inner',
      'zoo',
    ]);
    const bad = await t.request('GET', '/api/v4/groups?order_by=size', { token: alice.token });
    assert.deepEqual(bad.body, { error: 'order_by does not have a valid value' });
  });

  it('shows a group by id or path with its projects, or without (with_projects=false); 404 hidden', async () => {
    const byPath = await t.request('GET', '/api/v4/groups/zoo', { token: bob.token });
    assert.equal(byPath.status, 200);
    assert.deepEqual(Object.keys(byPath.body), [...GROUP_DETAIL, 'projects', 'shared_projects']);
    assert.deepEqual(
      byPath.body.projects.map((project: any) => project.path),
      ['lion'],
    );
    assert.deepEqual(byPath.body.shared_projects, []);
    const bare = await t.request('GET', `/api/v4/groups/${zooId}?with_projects=false`, { token: bob.token });
    assert.deepEqual(Object.keys(bare.body), GROUP_DETAIL);
    const hidden = await t.request('GET', '/api/v4/groups/alpha', { token: bob.token });
    assert.equal(hidden.status, 404);
  });

  it('lists the group projects, paginated', async () => {
    const response = await t.request('GET', '/api/v4/groups/zoo/projects', { token: bob.token });
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((project: any) => project.path),
      ['lion'],
    );
    assert.equal(response.headers['x-total'], '1');
  });

  it('edits for owners only, visibility as a string', async () => {
    const edited = await t.request('PUT', '/api/v4/groups/zoo', {
      token: alice.token,
      body: { description: 'Animals', visibility: 'public' },
    });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.description, 'Animals');
    assert.equal(edited.body.visibility, 'public');
    // Its public project keeps the group from becoming less visible, as in GitLab.
    const narrower = await t.request('PUT', '/api/v4/groups/zoo', {
      token: alice.token,
      body: { visibility: 'private' },
    });
    assert.equal(narrower.status, 400);
    assert.ok(narrower.body.message.visibility_level);
    const refused = await t.request('PUT', '/api/v4/groups/alpha', {
      token: alice.token,
      body: { description: 'x' },
    });
    assert.equal(refused.status, 403);
  });

  it('deletes for owners with 202 Accepted; others are refused', async () => {
    const refused = await t.request('DELETE', '/api/v4/groups/alpha', { token: alice.token });
    assert.equal(refused.status, 403);
    const deleted = await t.request('DELETE', '/api/v4/groups/bobs', { token: bob.token, body: {} });
    assert.equal(deleted.status, 202);
    assert.deepEqual(deleted.body, { message: '202 Accepted' });
    const gone = await t.request('GET', '/api/v4/groups/bobs', { token: bob.token });
    assert.equal(gone.status, 404);
  });

  it('leaves v3 groups as they were (visibility_level)', async () => {
    const response = await t.request('GET', '/api/v3/groups/zoo', { token: alice.token });
    assert.equal(response.body.visibility_level, 20);
    assert.equal(response.body.visibility, undefined);
  });
});
