// No N+1: a page of users costs the same number of queries whatever its size (performance.md rule 5).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('query count of GET /users', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    const db = t.server.deps.db.kysely;
    // 60 users through the API would spend most of the test hashing passwords; the rows the list reads
    // are what matters, so most are inserted directly, a few (with identities) through POST /users.
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
    const at = new Date().toISOString();
    for (let i = 0; i < 55; i++) {
      const user = await db
        .insertInto('users')
        .values({
          username: `bulk${i}`,
          name: `Bulk ${i}`,
          email: `bulk${i}@example.com`,
          encrypted_password: 'x',
          authentication_token: `bulk-token-${i}`,
          state: 'active',
          admin: 0,
          external: 0,
          can_create_group: 1,
          projects_limit: 10,
          bio: null,
          location: null,
          skype: '',
          linkedin: '',
          twitter: '',
          website_url: '',
          organization: null,
          theme_id: 1,
          color_scheme_id: 1,
          two_factor_enabled: 0,
          confirmed_at: at,
          last_sign_in_at: null,
          current_sign_in_at: null,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('identities')
        .values({ user_id: user.id, provider: 'github', extern_uid: String(i), created_at: at })
        .execute();
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
    await t.request('GET', '/api/v3/user', { token: 'bulk-token-0' });
    for (const token of [t.rootToken, 'bulk-token-0']) {
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
