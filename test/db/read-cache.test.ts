// The hot reads answer from a cache while the database is unchanged. A change committed elsewhere (another
// server process on the same database, an administrator's command) must end that: the next requests see
// it. On SQLite at once (every cached read asks the database whether anything was committed since); on
// PostgreSQL as soon as the change notification arrives, which the test waits for with a deadline.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { createProject, createUser, type TestUser } from '../helpers/factory.ts';
import type { Server } from '../../src/server.ts';

describe('read cache and changes made by another server', () => {
  let t: TestApp;
  let other: Server;
  let user: TestUser;
  let projectId: number;
  before(async () => {
    t = await startTestApp();
    other = await t.sibling();
    user = await createUser(t);
    projectId = (await createProject(t, { owner: user, path: 'cached', visibility: 10 })).id;
  });
  after(async () => {
    await other.close();
    await t.close();
  });

  /** The same request on the other server, as root. */
  async function onOther(method: string, url: string, body?: Record<string, unknown>) {
    const response = await other.app.inject({
      method: method as 'GET',
      url,
      headers: { 'private-token': t.rootToken },
      ...(body ? { payload: body } : {}),
    });
    assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
  }

  it('a user blocked by another server is refused by this one', async () => {
    // Read twice: the second answer may come from the cache.
    for (let i = 0; i < 2; i++) {
      assert.equal((await t.request('GET', '/api/v3/user', { token: user.token })).status, 200);
    }
    await onOther('PUT', `/api/v3/users/${user.id}/block`);
    const after = await eventually(
      t,
      () => t.request('GET', '/api/v3/user', { token: user.token }),
      (r) => r.status === 401,
    );
    assert.equal(after.status, 401);
    await onOther('PUT', `/api/v3/users/${user.id}/unblock`);
    const back = await eventually(
      t,
      () => t.request('GET', '/api/v3/user', { token: user.token }),
      (r) => r.status === 200,
    );
    assert.equal(back.status, 200);
  });

  it('a project made private by another server is hidden from non-members here', async () => {
    const stranger = await createUser(t);
    for (let i = 0; i < 2; i++) {
      const seen = await t.request('GET', `/api/v3/projects/${projectId}`, { token: stranger.token });
      assert.equal(seen.status, 200);
      assert.equal(seen.body.visibility_level, 10);
    }
    await onOther('PUT', `/api/v3/projects/${projectId}`, { name: 'cached', visibility_level: 0 });
    const hidden = await eventually(
      t,
      () => t.request('GET', `/api/v3/projects/${projectId}`, { token: stranger.token }),
      (r) => r.status === 404,
    );
    assert.equal(hidden.status, 404);
    const owner = await t.request('GET', `/api/v3/projects/${projectId}`, { token: user.token });
    assert.equal(owner.status, 200);
    assert.equal(owner.body.visibility_level, 0);
  });
});
