import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createUser,
  type TestUser,
} from '../../helpers/factory.ts';

describe('project lists and search', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let external: TestUser;
  const ids: Record<string, number> = {};

  const names = (body: Array<{ name: string }>) => body.map((p) => p.name);

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'owner', { projectsLimit: 50 });
    member = await createUser(t, 'member');
    outsider = await createUser(t, 'outsider');
    external = await createUser(t, 'extern', { external: true });
    for (const [name, visibility, description] of [
      ['alpha', 0, 'the first'],
      ['bravo', 10, 'second one'],
      ['charlie', 20, 'third'],
      ['delta', 20, 'has alpha in its description'],
    ] as const) {
      const r = await t.request('POST', '/api/v3/projects', {
        token: owner.token,
        body: { name, visibility_level: visibility, description },
      });
      assert.equal(r.status, 201);
      ids[name] = r.body.id;
    }
    await addProjectMember(t, ids.alpha, member.id, 30);
    await t.server.deps.db.kysely
      .updateTable('projects')
      .set({ archived: 1 })
      .where('id', '=', ids.delta)
      .execute();
    const at = new Date().toISOString();
    await t.server.deps.db.kysely
      .insertInto('users_star_projects')
      .values([
        { project_id: ids.alpha, user_id: outsider.id, created_at: at, updated_at: at },
        { project_id: ids.charlie, user_id: outsider.id, created_at: at, updated_at: at },
      ])
      .execute();
  });
  after(() => t.close());

  it('GET /projects: memberships only (newest first), with permissions and pagination headers', async () => {
    let r = await t.request('GET', '/api/v3/projects', { token: owner.token });
    assert.equal(r.status, 200);
    assert.deepEqual(names(r.body), ['delta', 'charlie', 'bravo', 'alpha']);
    assert.equal(r.headers['x-total'], '4');
    assert.equal(r.headers['x-total-pages'], '1');
    assert.ok(r.body[0].permissions);
    assert.ok(r.body[0].runners_token, 'master and up see the token in lists');
    r = await t.request('GET', '/api/v3/projects', { token: member.token });
    assert.deepEqual(names(r.body), ['alpha']);
    assert.equal(r.body[0].runners_token, undefined);
    assert.deepEqual(r.body[0].permissions.project_access, { access_level: 30, notification_level: 3 });
    r = await t.request('GET', '/api/v3/projects', { token: t.rootToken });
    assert.deepEqual(r.body, [], 'administrators list only their own memberships');
    r = await t.request('GET', '/api/v3/projects?per_page=2&page=2', { token: owner.token });
    assert.deepEqual(names(r.body), ['bravo', 'alpha']);
    assert.equal(r.headers['x-page'], '2');
    assert.equal(r.headers['x-prev-page'], '1');
    assert.match(String(r.headers.link), /rel="first"/);
  });

  it('filters, orders and simplifies', async () => {
    let r = await t.request('GET', '/api/v3/projects?archived=true', { token: owner.token });
    assert.deepEqual(names(r.body), ['delta']);
    r = await t.request('GET', '/api/v3/projects?archived=false', { token: owner.token });
    assert.deepEqual(names(r.body), ['charlie', 'bravo', 'alpha']);
    r = await t.request('GET', '/api/v3/projects?visibility=PUBLIC', { token: owner.token });
    assert.deepEqual(names(r.body), ['delta', 'charlie']);
    r = await t.request('GET', '/api/v3/projects?visibility=secret', { token: owner.token });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { error: 'visibility does not have a valid value' });
    r = await t.request('GET', '/api/v3/projects?order_by=name&sort=asc', { token: owner.token });
    assert.deepEqual(names(r.body), ['alpha', 'bravo', 'charlie', 'delta']);
    r = await t.request('GET', '/api/v3/projects?order_by=bogus&sort=bogus', { token: owner.token });
    assert.deepEqual(names(r.body), ['delta', 'charlie', 'bravo', 'alpha']);
    r = await t.request('GET', '/api/v3/projects?search=ALPHA&order_by=id&sort=asc', { token: owner.token });
    assert.deepEqual(names(r.body), ['alpha', 'delta'], 'lists search descriptions too');
    r = await t.request('GET', '/api/v3/projects?search=100%25', { token: owner.token });
    assert.deepEqual(r.body, [], 'LIKE wildcards are literal');
    r = await t.request('GET', '/api/v3/projects?simple=true&order_by=id&sort=asc', { token: owner.token });
    assert.deepEqual(Object.keys(r.body[0]), [
      'id',
      'http_url_to_repo',
      'web_url',
      'name',
      'name_with_namespace',
      'path',
      'path_with_namespace',
    ]);
    r = await t.request('GET', '/api/v3/projects?simple=false', { token: owner.token });
    assert.ok('permissions' in r.body[0], 'simple=false is the full form');
  });

  it('/visible, /owned, /starred, /all', async () => {
    let r = await t.request('GET', '/api/v3/projects/visible?order_by=name&sort=asc', {
      token: outsider.token,
    });
    assert.deepEqual(names(r.body), ['bravo', 'charlie', 'delta']);
    assert.equal(r.body[0].permissions.project_access, null);
    r = await t.request('GET', '/api/v3/projects/visible?order_by=name&sort=asc', { token: external.token });
    assert.deepEqual(names(r.body), ['charlie', 'delta'], 'external users do not see internal projects');
    r = await t.request('GET', '/api/v3/projects/visible?order_by=name&sort=asc', { token: member.token });
    assert.deepEqual(names(r.body), ['alpha', 'bravo', 'charlie', 'delta']);

    r = await t.request('GET', '/api/v3/projects/owned', { token: owner.token });
    assert.equal(r.body.length, 4);
    r = await t.request('GET', '/api/v3/projects/owned', { token: member.token });
    assert.deepEqual(r.body, []);

    r = await t.request('GET', '/api/v3/projects/starred', { token: outsider.token });
    assert.deepEqual(
      names(r.body),
      ['charlie'],
      'a starred private project the caller cannot see is left out',
    );
    assert.equal('permissions' in r.body[0], false);

    r = await t.request('GET', '/api/v3/projects/all', { token: owner.token });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { message: '403 Forbidden' });
    r = await t.request('GET', '/api/v3/projects/all?order_by=id&sort=asc', { token: t.rootToken });
    assert.deepEqual(names(r.body), ['alpha', 'bravo', 'charlie', 'delta']);
    assert.ok(r.body[0].runners_token);

    r = await t.request('GET', '/api/v3/projects');
    assert.equal(r.status, 401);
  });

  it('owned includes projects of groups the caller owns', async () => {
    const group = await createGroup(t, 'crew', 0);
    const boss = await createUser(t, 'boss');
    await addGroupMember(t, group, boss.id, 50);
    const r = await t.request('POST', '/api/v3/projects', {
      token: boss.token,
      body: { name: 'crewwork', namespace_id: group },
    });
    assert.equal(r.status, 201);
    const owned = await t.request('GET', '/api/v3/projects/owned', { token: boss.token });
    assert.deepEqual(names(owned.body), ['crewwork']);
    assert.deepEqual(owned.body[0].permissions, {
      project_access: null,
      group_access: { access_level: 50, notification_level: 3 },
    });
  });

  it('GET /projects/search/:query matches name or path of visible projects', async () => {
    let r = await t.request('GET', '/api/v3/projects/search/ALPH', { token: outsider.token });
    assert.deepEqual(r.body, [], 'private alpha is hidden; delta matches only by description');
    r = await t.request('GET', '/api/v3/projects/search/alph', { token: member.token });
    assert.deepEqual(names(r.body), ['alpha']);
    assert.equal('permissions' in r.body[0], false);
    r = await t.request('GET', '/api/v3/projects/search/a?order_by=name&sort=asc&per_page=2', {
      token: owner.token,
    });
    assert.deepEqual(names(r.body), ['alpha', 'bravo']);
    assert.equal(r.headers['x-total'], '4');
  });
});
