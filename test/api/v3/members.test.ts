import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';

const MEMBER_KEYS = [
  'name',
  'username',
  'id',
  'state',
  'avatar_url',
  'web_url',
  'access_level',
  'expires_at',
];

describe('project members', () => {
  let t: TestApp;
  let owner: TestUser;
  let dev: TestUser;
  let guest: TestUser;
  let other: TestUser;
  let project: TestProject;
  let base: string;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'owner');
    dev = await createUser(t, 'dev');
    guest = await createUser(t, 'guest');
    other = await createUser(t, 'other');
    project = await createProject(t, { owner, path: 'proj', visibility: 0 });
    base = `/api/v3/projects/${project.id}/members`;
  });
  after(() => t.close());

  it('adds members (201, idempotent), and records a joined event in the same transaction', async () => {
    const added = await t.request('POST', base, {
      token: owner.token,
      body: { user_id: dev.id, access_level: 30, expires_at: '2099-01-31' },
    });
    assert.equal(added.status, 201);
    assert.deepEqual(Object.keys(added.body), MEMBER_KEYS);
    assert.equal(added.body.username, 'dev');
    assert.equal(added.body.access_level, 30);
    assert.equal(added.body.expires_at, '2099-01-31');
    const again = await t.request('POST', base, {
      token: owner.token,
      body: { user_id: dev.id, access_level: 10 },
    });
    assert.equal(again.status, 201);
    assert.equal(again.body.access_level, 30);
    await t.request('POST', base, {
      token: owner.token,
      form: { user_id: String(guest.id), access_level: '10' },
    });

    const rows = await t.server.deps.db.kysely
      .selectFrom('events')
      .select(['action', 'author_id'])
      .where('project_id', '=', project.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(rows, [
      { action: 8, author_id: dev.id },
      { action: 8, author_id: guest.id },
    ]);
  });

  it('answers Grape-style parameter errors, unknown levels and users', async () => {
    assert.deepEqual((await t.request('POST', base, { token: owner.token, body: {} })).body, {
      error: 'user_id is missing, access_level is missing',
    });
    assert.deepEqual(
      (await t.request('POST', base, { token: owner.token, body: { user_id: 'x', access_level: 30 } })).body,
      { error: 'user_id is invalid' },
    );
    assert.deepEqual(
      (
        await t.request('POST', base, {
          token: owner.token,
          body: { user_id: other.id, access_level: 30, expires_at: 'soon' },
        })
      ).body,
      { error: 'expires_at is invalid' },
    );
    const level = await t.request('POST', base, {
      token: owner.token,
      body: { user_id: other.id, access_level: 50 },
    });
    assert.equal(level.status, 422);
    assert.deepEqual(level.body, { message: 'Access level is not known' });
    const nobody = await t.request('POST', base, {
      token: owner.token,
      body: { user_id: 99999, access_level: 30 },
    });
    assert.equal(nobody.status, 404);
    assert.equal((await t.request('GET', `${base}/abc`, { token: owner.token })).status, 400);
  });

  it('lets only masters manage members; hides private projects from outsiders', async () => {
    const byDev = await t.request('POST', base, {
      token: dev.token,
      body: { user_id: other.id, access_level: 10 },
    });
    assert.deepEqual(byDev.body, { message: '403 Forbidden' });
    assert.equal(
      (await t.request('PUT', `${base}/${guest.id}`, { token: dev.token, body: { access_level: 20 } }))
        .status,
      403,
    );
    assert.equal((await t.request('DELETE', `${base}/${guest.id}`, { token: dev.token })).status, 403);
    assert.deepEqual((await t.request('GET', base, { token: other.token })).body, {
      message: '404 Project Not Found',
    });
    assert.equal((await t.request('GET', base)).status, 401);
  });

  it('lists, shows and searches members', async () => {
    const list = await t.request('GET', base, { token: guest.token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((m: any) => [m.username, m.access_level]),
      [
        ['owner', 40],
        ['dev', 30],
        ['guest', 10],
      ],
    );
    assert.equal(list.headers['x-total'], '3');
    const search = await t.request('GET', `${base}?query=GUE`, { token: guest.token });
    assert.deepEqual(
      search.body.map((m: any) => m.username),
      ['guest'],
    );
    const one = await t.request('GET', `${base}/${dev.id}`, { token: guest.token });
    assert.equal(one.body.access_level, 30);
    assert.deepEqual((await t.request('GET', `${base}/${other.id}`, { token: guest.token })).body, {
      message: '404 Not found',
    });
    const byPath = await t.request('GET', `/api/v3/projects/owner%2Fproj/members`, { token: guest.token });
    assert.equal(byPath.body.length, 3);
  });

  it('changes a level, keeps the expiry unless given, refuses unknown levels', async () => {
    const changed = await t.request('PUT', `${base}/${dev.id}`, {
      token: owner.token,
      body: { access_level: 40 },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.access_level, 40);
    assert.equal(changed.body.expires_at, '2099-01-31');
    assert.deepEqual((await t.request('PUT', `${base}/${dev.id}`, { token: owner.token, body: {} })).body, {
      error: 'access_level is missing',
    });
    assert.equal(
      (await t.request('PUT', `${base}/${dev.id}`, { token: owner.token, body: { access_level: 5 } })).status,
      422,
    );
    assert.deepEqual(
      (await t.request('PUT', `${base}/${other.id}`, { token: owner.token, body: { access_level: 20 } }))
        .body,
      { message: '404 Not found' },
    );
  });

  it('removes members (left event), lets members leave, is idempotent, never removes the owner', async () => {
    const removed = await t.request('DELETE', `${base}/${dev.id}`, { token: owner.token });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.username, 'dev');
    assert.deepEqual((await t.request('DELETE', `${base}/${dev.id}`, { token: owner.token })).body, {
      message: 'Access revoked',
      id: dev.id,
    });
    const left = await t.request('DELETE', `${base}/${guest.id}`, { token: guest.token });
    assert.equal(left.status, 200);
    assert.deepEqual((await t.request('DELETE', `${base}/${owner.id}`, { token: owner.token })).body, {
      message: '403 Forbidden',
    });
    const actions = (
      await t.server.deps.db.kysely
        .selectFrom('events')
        .select(['action', 'author_id'])
        .where('project_id', '=', project.id)
        .orderBy('id')
        .execute()
    ).map((row) => [row.action, row.author_id]);
    assert.deepEqual(actions.slice(-2), [
      [9, dev.id],
      [9, guest.id],
    ]);
  });
});

describe('group members', () => {
  let t: TestApp;
  let owner: TestUser;
  let second: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  const base = '/api/v3/groups/team/members';

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'gowner');
    second = await createUser(t, 'second');
    member = await createUser(t, 'member');
    outsider = await createUser(t, 'outsider');
    const created = await t.request('POST', '/api/v3/groups', {
      token: owner.token,
      body: { name: 'Team', path: 'team', visibility_level: 0 },
    });
    assert.equal(created.status, 201);
  });
  after(() => t.close());

  it('adds members with levels up to owner; a second add is a 409', async () => {
    const added = await t.request('POST', base, {
      token: owner.token,
      body: { user_id: member.id, access_level: 30 },
    });
    assert.equal(added.status, 201);
    assert.equal(added.body.access_level, 30);
    const dup = await t.request('POST', base, {
      token: owner.token,
      body: { user_id: member.id, access_level: 30 },
    });
    assert.equal(dup.status, 409);
    assert.deepEqual(dup.body, { message: 'Member already exists' });
    const ownerAdd = await t.request('POST', base, {
      token: owner.token,
      body: { user_id: second.id, access_level: 50 },
    });
    assert.equal(ownerAdd.body.access_level, 50);
    assert.equal(
      (
        await t.request('POST', base, {
          token: owner.token,
          body: { user_id: outsider.id, access_level: 60 },
        })
      ).status,
      422,
    );
    // Masters and below may not manage group members; outsiders cannot see a private group.
    assert.equal(
      (
        await t.request('POST', base, {
          token: member.token,
          body: { user_id: outsider.id, access_level: 10 },
        })
      ).status,
      403,
    );
    assert.deepEqual((await t.request('GET', base, { token: outsider.token })).body, {
      message: '404 Group Not Found',
    });
  });

  it('keeps at least one owner', async () => {
    assert.equal((await t.request('DELETE', `${base}/${second.id}`, { token: owner.token })).status, 200);
    const last = await t.request('DELETE', `${base}/${owner.id}`, { token: owner.token });
    assert.equal(last.status, 403);
    const demote = await t.request('PUT', `${base}/${owner.id}`, {
      token: owner.token,
      body: { access_level: 40 },
    });
    assert.equal(demote.status, 403);
    const admin = await t.request('DELETE', `${base}/${owner.id}`, { token: t.rootToken });
    assert.equal(admin.status, 403);
    const list = await t.request('GET', base, { token: member.token });
    assert.deepEqual(
      list.body.map((m: any) => [m.username, m.access_level]),
      [
        ['gowner', 50],
        ['member', 30],
      ],
    );
  });

  it('lets members leave; an unknown member is a 404', async () => {
    assert.deepEqual((await t.request('DELETE', `${base}/${outsider.id}`, { token: owner.token })).body, {
      message: `404 Member: user_id:${outsider.id} Not Found`,
    });
    assert.equal((await t.request('DELETE', `${base}/${member.id}`, { token: member.token })).status, 200);
    assert.deepEqual((await t.request('GET', `${base}/${member.id}`, { token: owner.token })).body, {
      message: '404 Not found',
    });
  });

  it('two owners removing each other at once leave one owner', async () => {
    await t.request('POST', base, { token: owner.token, body: { user_id: second.id, access_level: 50 } });
    const [a, b] = await Promise.all([
      t.request('DELETE', `${base}/${second.id}`, { token: owner.token }),
      t.request('DELETE', `${base}/${owner.id}`, { token: second.token }),
    ]);
    // The loser is refused as the last owner (403) or, when the other removal committed first, no longer
    // sees the private group at all (404); either way exactly one removal succeeds.
    const statuses = [a.status, b.status].sort();
    assert.equal(statuses[0], 200);
    assert.ok([403, 404].includes(statuses[1]), `second removal answered ${statuses[1]}`);
    const owners = await t.server.deps.db.kysely
      .selectFrom('members')
      .select('user_id')
      .where('source_type', '=', 'Namespace')
      .where('access_level', '=', 50)
      .execute();
    assert.equal(owners.length, 1);
  });
});

describe('GET /namespaces', () => {
  let t: TestApp;
  let user: TestUser;
  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'nsuser');
    await createUser(t, 'someone');
    await t.request('POST', '/api/v3/groups', { token: user.token, body: { name: 'Mine', path: 'mine' } });
    await t.request('POST', '/api/v3/groups', {
      token: t.rootToken,
      body: { name: 'Theirs', path: 'theirs' },
    });
  });
  after(() => t.close());

  it('shows administrators every namespace and others their own and their groups', async () => {
    const admin = await t.request('GET', '/api/v3/namespaces', { token: t.rootToken });
    assert.equal(admin.status, 200);
    assert.deepEqual(
      admin.body.map((n: any) => [n.path, n.kind]),
      [
        ['root', 'user'],
        ['nsuser', 'user'],
        ['someone', 'user'],
        ['mine', 'group'],
        ['theirs', 'group'],
      ],
    );
    assert.deepEqual(Object.keys(admin.body[0]), ['id', 'path', 'kind']);
    const mine = await t.request('GET', '/api/v3/namespaces', { token: user.token });
    assert.deepEqual(
      mine.body.map((n: any) => n.path),
      ['nsuser', 'mine'],
    );
    const search = await t.request('GET', '/api/v3/namespaces?search=the', { token: t.rootToken });
    assert.deepEqual(
      search.body.map((n: any) => n.path),
      ['theirs'],
    );
    assert.equal(search.headers['x-total'], '1');
    assert.equal((await t.request('GET', '/api/v3/namespaces')).status, 401);
  });
});
