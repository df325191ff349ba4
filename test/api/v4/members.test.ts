// API v4 members of projects and groups: the v4 Member entity (UserBasic + access_level, created_at,
// expires_at), 409 on a duplicate for both, 204 on delete, and /members/all with the group's members.
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

const MEMBER = [
  'id',
  'username',
  'name',
  'state',
  'locked',
  'avatar_url',
  'web_url',
  'access_level',
  'created_at',
  'expires_at',
];

describe('API v4 members', () => {
  let t: TestApp;
  let owner: TestUser;
  let dev: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let groupId: number;
  let project: TestProject;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'owner');
    dev = await createUser(t, 'dev');
    guest = await createUser(t, 'guest');
    outsider = await createUser(t, 'outsider');
    groupId = await createGroup(t, 'crew', 0);
    await addGroupMember(t, groupId, owner.id, 50);
    await addGroupMember(t, groupId, guest.id, 10);
    project = await createProject(t, { owner, path: 'ship', namespace: 'crew' });
    await addProjectMember(t, project.id, guest.id, 30);
  });
  after(() => t.close());

  for (const type of ['projects', 'groups'] as const) {
    const path = () => (type === 'projects' ? `/api/v4/projects/${project.id}` : `/api/v4/groups/${groupId}`);

    it(`${type}: adds (201, v4 entity with expires_at), refuses a duplicate with 409`, async () => {
      const added = await t.request('POST', `${path()}/members`, {
        token: owner.token,
        body: { user_id: dev.id, access_level: 30, expires_at: '2999-12-31' },
      });
      assert.equal(added.status, 201);
      assert.deepEqual(Object.keys(added.body), MEMBER);
      assert.equal(added.body.id, dev.id);
      assert.equal(added.body.username, 'dev');
      assert.equal(added.body.access_level, 30);
      assert.equal(added.body.expires_at, '2999-12-31');
      assert.match(added.body.created_at, /^\d{4}-\d\d-\d\dT/);
      const duplicate = await t.request('POST', `${path()}/members`, {
        token: owner.token,
        body: { user_id: dev.id, access_level: 30 },
      });
      assert.equal(duplicate.status, 409);
      assert.deepEqual(duplicate.body, { message: 'Member already exists' });
      const missing = await t.request('POST', `${path()}/members`, { token: owner.token, body: {} });
      assert.deepEqual(missing.body, { error: 'user_id is missing, access_level is missing' });
    });

    it(`${type}: shows, changes and removes (204); refuses non-managers (403)`, async () => {
      const shown = await t.request('GET', `${path()}/members/${dev.id}`, { token: dev.token });
      assert.equal(shown.status, 200);
      assert.equal(shown.body.access_level, 30);
      const refused = await t.request('PUT', `${path()}/members/${dev.id}`, {
        token: dev.token,
        body: { access_level: 40 },
      });
      assert.equal(refused.status, 403);
      const changed = await t.request('PUT', `${path()}/members/${dev.id}`, {
        token: owner.token,
        body: { access_level: 40 },
      });
      assert.equal(changed.status, 200);
      assert.equal(changed.body.access_level, 40);
      assert.equal(changed.body.expires_at, '2999-12-31');
      const list = await t.request('GET', `${path()}/members?per_page=1`, { token: owner.token });
      assert.equal(list.body.length, 1);
      assert.equal(list.headers['x-total'], type === 'projects' ? '2' : '3');
      const removed = await t.request('DELETE', `${path()}/members/${dev.id}`, {
        token: owner.token,
        body: {},
      });
      assert.equal(removed.status, 204);
      assert.equal(removed.text, '');
      const again = await t.request('DELETE', `${path()}/members/${dev.id}`, { token: owner.token });
      assert.equal(again.status, 404);
      const hidden = await t.request('GET', `${path()}/members`, { token: outsider.token });
      assert.equal(hidden.status, 404);
    });
  }

  it('lists a project’s members with its group’s under /members/all, each user once at the highest level', async () => {
    const own = await t.request('GET', `/api/v4/projects/${project.id}/members`, { token: owner.token });
    assert.deepEqual(
      own.body.map((member: any) => [member.username, member.access_level]),
      [['guest', 30]],
    );
    const all = await t.request('GET', `/api/v4/projects/${project.id}/members/all`, { token: owner.token });
    assert.equal(all.status, 200);
    for (const member of all.body) assert.deepEqual(Object.keys(member), MEMBER);
    assert.deepEqual(
      all.body.map((member: any) => [member.username, member.access_level]),
      [
        ['owner', 50],
        ['guest', 30],
      ],
    );
    assert.equal(all.headers['x-total'], '2');
    const one = await t.request('GET', `/api/v4/projects/${project.id}/members/all/${owner.id}`, {
      token: guest.token,
    });
    assert.equal(one.body.access_level, 50);
    const none = await t.request('GET', `/api/v4/projects/${project.id}/members/all/${outsider.id}`, {
      token: guest.token,
    });
    assert.equal(none.status, 404);
    const group = await t.request('GET', `/api/v4/groups/${groupId}/members/all`, { token: guest.token });
    assert.deepEqual(
      group.body.map((member: any) => member.username),
      ['owner', 'guest'],
    );
  });

  it('leaves v3 project members idempotent (201 again, no 409)', async () => {
    const body = { user_id: outsider.id, access_level: 20 };
    const first = await t.request('POST', `/api/v3/projects/${project.id}/members`, {
      token: owner.token,
      body,
    });
    assert.equal(first.status, 201);
    const second = await t.request('POST', `/api/v3/projects/${project.id}/members`, {
      token: owner.token,
      body,
    });
    assert.equal(second.status, 201);
    assert.deepEqual(Object.keys(second.body), [
      'name',
      'username',
      'id',
      'state',
      'avatar_url',
      'web_url',
      'access_level',
      'expires_at',
    ]);
  });
});
