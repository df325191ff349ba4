// No N+1: a page of users costs the same number of queries whatever its size.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factory.ts';

describe('query count of GET /users', () => {
  let t: TestApp;
  let bulkToken: string;
  before(async () => {
    t = await startTestApp();
    // A few users through the API, with identities; the rest from the test factory.
    for (let i = 0; i < 5; i++) {
      const response = await t.request('POST', '/api/v3/users', {
        token: t.rootToken,
        body: {
          email: `api${i}@example.com`,
          password: 'password123',
          name: `Api ${i}`,
          username: `api${i}`,
          provider: 'ldapmain',
          extern_uid: `uid=api${i}`,
        },
      });
      assert.equal(response.status, 201);
    }
    for (let i = 0; i < 55; i++) {
      const user = await createUser(t, `bulk${i}`, {
        identity: { provider: 'github', externUid: String(i) },
      });
      if (i === 0) bulkToken = user.token;
    }
  });
  after(() => t.close());

  async function queriesFor(url: string, token: string): Promise<{ count: number; length: number }> {
    let count = 0;
    t.server.deps.db.onQuery = () => {
      count += 1;
    };
    try {
      const response = await t.request('GET', url, { token });
      assert.equal(response.status, 200);
      return { count, length: response.body.length };
    } finally {
      t.server.deps.db.onQuery = undefined;
    }
  }

  it('is the same for per_page=5 and per_page=50, for administrators and normal users', async () => {
    await t.request('GET', '/api/v3/user', { token: t.rootToken }); // the first sign-in stamp is a write
    await t.request('GET', '/api/v3/user', { token: bulkToken });
    for (const token of [t.rootToken, bulkToken]) {
      const small = await queriesFor('/api/v3/users?per_page=5', token);
      const large = await queriesFor('/api/v3/users?per_page=50', token);
      assert.equal(small.length, 5);
      assert.equal(large.length, 50);
      assert.equal(small.count, large.count);
      // token, count, page, identities, personal project counts (can_create_project)
      assert.ok(large.count <= 5, `${large.count} queries`);
      const searched = await queriesFor('/api/v3/users?search=bulk&per_page=50', token);
      assert.equal(searched.count, large.count);
    }
  });
});
