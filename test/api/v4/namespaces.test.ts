// API v4 namespaces: the v4 entity (name, kind, full_path, parent_id, web_url), search, one by id or path.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { addGroupMember, createGroup, createUser, type TestUser } from '../../helpers/factory.ts';

const NAMESPACE = ['id', 'name', 'path', 'kind', 'full_path', 'parent_id', 'avatar_url', 'web_url'];

describe('API v4 namespaces', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let groupId: number;
  let hiddenId: number;

  before(async () => {
    t = await startTestApp();
    alice = await createUser(t, 'alice');
    bob = await createUser(t, 'bob');
    groupId = await createGroup(t, 'team');
    hiddenId = await createGroup(t, 'others');
    await addGroupMember(t, groupId, alice.id, 30);
  });
  after(() => t.close());

  it('lists the caller’s own namespace and groups, field by field, paginated', async () => {
    const response = await t.request('GET', '/api/v4/namespaces', { token: alice.token });
    assert.equal(response.status, 200);
    assert.equal(response.headers['x-total'], '2');
    for (const namespace of response.body) assert.deepEqual(Object.keys(namespace), NAMESPACE);
    const [own, team] = response.body;
    assert.deepEqual(
      { ...own, id: 0 },
      {
        id: 0,
        name: 'alice',
        path: 'alice',
        kind: 'user',
        full_path: 'alice',
        parent_id: null,
        avatar_url: null,
        web_url: `${t.config.externalUrl}/alice`,
      },
    );
    assert.equal(team.id, groupId);
    assert.equal(team.kind, 'group');
    assert.equal(team.name, 'Group team');
    assert.equal(team.web_url, `${t.config.externalUrl}/groups/team`);
    const search = await t.request('GET', '/api/v4/namespaces?search=TEA', { token: alice.token });
    assert.deepEqual(
      search.body.map((namespace: any) => namespace.path),
      ['team'],
    );
    const all = await t.request('GET', '/api/v4/namespaces', { token: t.rootToken });
    assert.ok(all.body.some((namespace: any) => namespace.id === hiddenId));
  });

  it('shows one by id or path, 404 Namespace Not Found when the list would not show it', async () => {
    const byId = await t.request('GET', `/api/v4/namespaces/${groupId}`, { token: alice.token });
    assert.equal(byId.status, 200);
    assert.equal(byId.body.path, 'team');
    const byPath = await t.request('GET', '/api/v4/namespaces/alice', { token: alice.token });
    assert.equal(byPath.body.kind, 'user');
    for (const [id, token] of [
      [String(hiddenId), alice.token],
      ['alice', bob.token],
      ['nothing-here', alice.token],
    ] as const) {
      const response = await t.request('GET', `/api/v4/namespaces/${id}`, { token });
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { message: '404 Namespace Not Found' });
    }
    const admin = await t.request('GET', `/api/v4/namespaces/${hiddenId}`, { token: t.rootToken });
    assert.equal(admin.status, 200);
  });

  it('leaves v3 namespaces as they were', async () => {
    const response = await t.request('GET', '/api/v3/namespaces', { token: alice.token });
    assert.deepEqual(Object.keys(response.body[0]), ['id', 'path', 'kind']);
  });
});
