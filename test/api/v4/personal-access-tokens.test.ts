// Personal access tokens over the API: made for oneself or (administrators) for anyone, shown once,
// stored as a digest, listed, revoked; accepted as PRIVATE-TOKEN, private_token and Bearer on v3 and v4;
// held to their scopes on every route; refused from their expiry day or once revoked, also by another
// server process on the same database.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../../helpers/app.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';
import { today } from '../../../src/lib/clock.ts';
import type { Server } from '../../../src/server.ts';

const UNAUTHORIZED = { message: '401 Unauthorized' };
const insufficient = (scope: string) => ({
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope,
});

function dayOffset(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe('API v4 personal access tokens', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    alice = await createUser(t, 'alice');
    bob = await createUser(t, 'bob');
  });
  after(() => t.close());

  async function makeToken(user: { token: string }, scopes: string[], extra: Record<string, unknown> = {}) {
    const response = await t.request('POST', '/api/v4/user/personal_access_tokens', {
      token: user.token,
      body: { name: `t-${scopes.join('-')}`, scopes, ...extra },
    });
    assert.equal(response.status, 201, response.text);
    return response.body as { id: number; token: string };
  }

  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  it('POST /user/personal_access_tokens answers the entity with the secret, once; only a digest is kept', async () => {
    const expiry = dayOffset(30);
    const response = await t.request('POST', '/api/v4/user/personal_access_tokens', {
      token: alice.token,
      body: { name: 'laptop', scopes: ['api', 'read_user'], expires_at: expiry, description: 'for glab' },
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers['content-type'], 'application/json');
    const body = response.body;
    assert.deepEqual(Object.keys(body), [
      'id',
      'name',
      'revoked',
      'created_at',
      'description',
      'scopes',
      'user_id',
      'last_used_at',
      'active',
      'expires_at',
      'token',
    ]);
    assert.equal(typeof body.id, 'number');
    assert.equal(body.name, 'laptop');
    assert.equal(body.revoked, false);
    assert.match(body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(body.description, 'for glab');
    assert.deepEqual(body.scopes, ['api', 'read_user']);
    assert.equal(body.user_id, alice.id);
    assert.equal(body.last_used_at, null);
    assert.equal(body.active, true);
    assert.equal(body.expires_at, expiry);
    assert.match(body.token, /^glpat-[A-Za-z0-9_-]{20}$/);

    const row = await t.server.deps.db.kysely
      .selectFrom('personal_access_tokens')
      .selectAll()
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.token_digest, crypto.createHash('sha256').update(body.token).digest('hex'));
    assert.ok(!Object.values(row).includes(body.token), 'the secret itself is stored nowhere');

    // Never shown again.
    const again = await t.request('GET', `/api/v4/personal_access_tokens/${body.id}`, { token: alice.token });
    assert.equal(again.status, 200);
    assert.equal(again.body.token, undefined);
    const { token: _secret, ...entity } = body;
    assert.deepEqual(again.body, entity);
  });

  it('a token works as PRIVATE-TOKEN, private_token and Bearer, on v3 and v4; the private token still works', async () => {
    const { token } = await makeToken(alice, ['api']);
    for (const url of ['/api/v3/user', '/api/v4/version']) {
      const header = await t.request('GET', url, { token });
      assert.equal(header.status, 200, url);
      const param = await t.request('GET', `${url}?private_token=${token}`);
      assert.equal(param.status, 200, url);
      const viaBearer = await t.request('GET', url, bearer(token));
      assert.equal(viaBearer.status, 200, url);
    }
    const me = await t.request('GET', '/api/v3/user', bearer(token));
    assert.equal(me.body.username, 'alice');
    // v3's private token: PRIVATE-TOKEN on v4 and on v3 as before.
    assert.equal(
      (await t.request('GET', '/api/v4/personal_access_tokens', { token: alice.token })).status,
      200,
    );
    assert.equal((await t.request('GET', '/api/v3/user', { token: alice.token })).body.username, 'alice');
    // An unknown token of either shape.
    for (const wrong of ['glpat-nosuchtokenatall00', 'nosuchprivatetoken00']) {
      const refused = await t.request('GET', '/api/v4/version', { token: wrong });
      assert.equal(refused.status, 401);
      assert.deepEqual(refused.body, UNAUTHORIZED);
      assert.equal((await t.request('GET', '/api/v4/version', bearer(wrong))).status, 401);
    }
  });

  it('refuses bad parameters with 400 in GitLab shapes', async () => {
    const post = (body: Record<string, unknown>) =>
      t.request('POST', '/api/v4/user/personal_access_tokens', { token: alice.token, body });
    const missing = await post({});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'name is missing, scopes is missing' });
    const unknown = await post({ name: 'x', scopes: ['api', 'everything'] });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body, { error: 'scopes does not have a valid value' });
    const badDay = await post({ name: 'x', scopes: ['api'], expires_at: '2030-02-30' });
    assert.equal(badDay.status, 400);
    assert.deepEqual(badDay.body, { error: 'expires_at is invalid' });
    const past = await post({ name: 'x', scopes: ['api'], expires_at: dayOffset(-1) });
    assert.equal(past.status, 400);
    assert.deepEqual(past.body, { message: { expires_at: ['cannot be in the past'] } });
    const blank = await post({ name: '', scopes: [] });
    assert.equal(blank.status, 400);
    assert.deepEqual(blank.body, { message: { name: ["can't be blank"], scopes: ["can't be blank"] } });
    const count = await t.server.deps.db.kysely
      .selectFrom('personal_access_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', 'x')
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  });

  it('POST /users/:user_id/personal_access_tokens is for administrators', async () => {
    const made = await t.request('POST', `/api/v4/users/${bob.id}/personal_access_tokens`, {
      token: t.rootToken,
      body: { name: 'ci', scopes: ['read_repository'] },
    });
    assert.equal(made.status, 201);
    assert.equal(made.body.user_id, bob.id);
    assert.deepEqual(made.body.scopes, ['read_repository']);
    assert.equal(made.body.expires_at, null);
    const notAdmin = await t.request('POST', `/api/v4/users/${bob.id}/personal_access_tokens`, {
      token: alice.token,
      body: { name: 'ci', scopes: ['api'] },
    });
    assert.equal(notAdmin.status, 403);
    assert.deepEqual(notAdmin.body, { message: '403 Forbidden' });
    const nobody = await t.request('POST', '/api/v4/users/999999/personal_access_tokens', {
      token: t.rootToken,
      body: { name: 'ci', scopes: ['api'] },
    });
    assert.equal(nobody.status, 404);
    assert.deepEqual(nobody.body, { message: '404 User Not Found' });
  });

  it('GET /personal_access_tokens lists one’s own, paginated; administrators filter by user_id', async () => {
    const carol = await createUser(t, 'carol');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await makeToken(carol, ['read_api'])).id);
    const first = await t.request('GET', '/api/v4/personal_access_tokens?per_page=2', { token: carol.token });
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.map((token: { id: number }) => token.id),
      [ids[2], ids[1]],
    );
    assert.equal(first.headers['x-total'], '3');
    assert.equal(first.headers['x-total-pages'], '2');
    assert.equal(first.headers['x-next-page'], '2');
    assert.match(String(first.headers.link), /page=2&per_page=2>; rel="next"/);
    const second = await t.request('GET', '/api/v4/personal_access_tokens?per_page=2&page=2', {
      token: carol.token,
    });
    assert.deepEqual(
      second.body.map((token: { id: number }) => token.id),
      [ids[0]],
    );
    assert.ok(first.body.every((token: { user_id: number }) => token.user_id === carol.id));

    const others = await t.request('GET', `/api/v4/personal_access_tokens?user_id=${alice.id}`, {
      token: carol.token,
    });
    assert.equal(others.status, 401);
    assert.deepEqual(others.body, UNAUTHORIZED);
    const mine = await t.request('GET', `/api/v4/personal_access_tokens?user_id=${carol.id}`, {
      token: carol.token,
    });
    assert.equal(mine.body.length, 3);
    const admin = await t.request('GET', `/api/v4/personal_access_tokens?user_id=${carol.id}`, {
      token: t.rootToken,
    });
    assert.equal(admin.status, 200);
    assert.deepEqual(
      admin.body.map((token: { id: number }) => token.id),
      [ids[2], ids[1], ids[0]],
    );
    await t.request('DELETE', `/api/v4/personal_access_tokens/${ids[1]}`, { token: carol.token });
    const active = await t.request('GET', `/api/v4/personal_access_tokens?user_id=${carol.id}&state=active`, {
      token: t.rootToken,
    });
    assert.deepEqual(
      active.body.map((token: { id: number }) => token.id),
      [ids[2], ids[0]],
    );
    const revoked = await t.request('GET', '/api/v4/personal_access_tokens?revoked=true', {
      token: carol.token,
    });
    assert.deepEqual(
      revoked.body.map((token: { id: number; active: boolean }) => [token.id, token.active]),
      [[ids[1], false]],
    );
    const badState = await t.request('GET', '/api/v4/personal_access_tokens?state=sleepy', {
      token: carol.token,
    });
    assert.equal(badState.status, 400);
    assert.deepEqual(badState.body, { error: 'state does not have a valid value' });
  });

  it('GET /personal_access_tokens/:id: one’s own; 401 for someone else’s; administrators see any, 404 for none', async () => {
    const { id } = await makeToken(bob, ['read_user']);
    assert.equal(
      (await t.request('GET', `/api/v4/personal_access_tokens/${id}`, { token: bob.token })).status,
      200,
    );
    const other = await t.request('GET', `/api/v4/personal_access_tokens/${id}`, { token: alice.token });
    assert.equal(other.status, 401);
    assert.deepEqual(other.body, UNAUTHORIZED);
    const missingForUser = await t.request('GET', '/api/v4/personal_access_tokens/999999', {
      token: alice.token,
    });
    assert.equal(missingForUser.status, 401);
    const admin = await t.request('GET', `/api/v4/personal_access_tokens/${id}`, { token: t.rootToken });
    assert.equal(admin.status, 200);
    assert.equal(admin.body.user_id, bob.id);
    const missing = await t.request('GET', '/api/v4/personal_access_tokens/999999', { token: t.rootToken });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Not Found' });
  });

  it('/personal_access_tokens/self shows and revokes the token in use', async () => {
    const { id, token } = await makeToken(alice, ['api']);
    const self = await t.request('GET', '/api/v4/personal_access_tokens/self', { token });
    assert.equal(self.status, 200);
    assert.equal(self.body.id, id);
    assert.equal(self.body.active, true);
    const noToken = await t.request('GET', '/api/v4/personal_access_tokens/self', { token: alice.token });
    assert.equal(noToken.status, 404);
    const revoked = await t.request('DELETE', '/api/v4/personal_access_tokens/self', bearer(token));
    assert.equal(revoked.status, 204);
    assert.equal(revoked.text, '');
    const after = await t.request('GET', '/api/v4/personal_access_tokens/self', { token });
    assert.equal(after.status, 401);
    assert.deepEqual(after.body, UNAUTHORIZED);
    const shown = await t.request('GET', `/api/v4/personal_access_tokens/${id}`, { token: alice.token });
    assert.equal(shown.body.revoked, true);
    assert.equal(shown.body.active, false);
  });

  it('DELETE /personal_access_tokens/:id revokes one’s own (204); someone else’s is a 400, none a 404', async () => {
    const { id, token } = await makeToken(bob, ['api']);
    const other = await t.request('DELETE', `/api/v4/personal_access_tokens/${id}`, {
      token: alice.token,
      body: {},
    });
    assert.equal(other.status, 400);
    assert.deepEqual(other.body, { message: '400 Bad request' });
    assert.equal((await t.request('GET', '/api/v3/user', { token })).status, 200);
    const missing = await t.request('DELETE', '/api/v4/personal_access_tokens/999999', {
      token: alice.token,
    });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Not found' });
    const own = await t.request('DELETE', `/api/v4/personal_access_tokens/${id}`, { token: bob.token });
    assert.equal(own.status, 204);
    const refused = await t.request('GET', '/api/v3/user', { token });
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, UNAUTHORIZED);
    // An administrator revokes anyone's.
    const second = await makeToken(bob, ['api']);
    const admin = await t.request('DELETE', `/api/v4/personal_access_tokens/${second.id}`, {
      token: t.rootToken,
    });
    assert.equal(admin.status, 204);
    assert.equal((await t.request('GET', '/api/v4/version', { token: second.token })).status, 401);
  });

  it('an expired token is refused from its expiry day on', async () => {
    const { id, token } = await makeToken(alice, ['api'], { expires_at: dayOffset(1) });
    assert.equal((await t.request('GET', '/api/v3/user', { token })).status, 200);
    const db = t.server.deps.db.kysely;
    await db
      .updateTable('personal_access_tokens')
      .set({ expires_at: today() })
      .where('id', '=', id)
      .execute();
    for (const url of ['/api/v3/user', '/api/v4/version']) {
      const refused = await t.request('GET', url, { token });
      assert.equal(refused.status, 401, url);
      assert.deepEqual(refused.body, UNAUTHORIZED);
    }
    const shown = await t.request('GET', `/api/v4/personal_access_tokens/${id}`, { token: alice.token });
    assert.equal(shown.body.active, false);
    assert.equal(shown.body.revoked, false);
  });

  it('read_api reads everything and writes nothing, on v3 and v4', async () => {
    const { token } = await makeToken(alice, ['read_api']);
    assert.equal((await t.request('GET', '/api/v3/projects', { token })).status, 200);
    assert.equal((await t.request('GET', '/api/v4/personal_access_tokens', { token })).status, 200);
    assert.equal((await t.request('HEAD', '/api/v3/user', { token })).status, 200);
    const v3 = await t.request('POST', '/api/v3/projects', { token, body: { name: 'nope' } });
    assert.equal(v3.status, 403);
    assert.deepEqual(v3.body, insufficient('api read_api'));
    const v4 = await t.request('POST', '/api/v4/user/personal_access_tokens', {
      token,
      body: { name: 'escalate', scopes: ['api'] },
    });
    assert.equal(v4.status, 403);
    assert.deepEqual(v4.body, insufficient('read_user api read_api'));
    const revoke = await t.request('DELETE', '/api/v4/personal_access_tokens/self', { token });
    assert.equal(revoke.status, 403);
    assert.deepEqual(revoke.body, insufficient('api read_api'));
    // An unknown path is still GitLab's JSON 404, whatever the scope.
    const unknown = await t.request('POST', '/api/v4/no/such/thing', { token, body: {} });
    assert.equal(unknown.status, 404);
  });

  it('read_user reads the user routes only; repository scopes reach no API route', async () => {
    const readUser = (await makeToken(alice, ['read_user'])).token;
    assert.equal((await t.request('GET', '/api/v3/user', { token: readUser })).status, 200);
    assert.equal((await t.request('GET', `/api/v3/users/${bob.id}`, { token: readUser })).status, 200);
    assert.equal((await t.request('GET', '/api/v3/user/keys', { token: readUser })).status, 200);
    const projects = await t.request('GET', '/api/v3/projects', { token: readUser });
    assert.equal(projects.status, 403);
    assert.deepEqual(projects.body, insufficient('api read_api'));
    const write = await t.request('PUT', `/api/v3/users/${alice.id}`, {
      token: readUser,
      body: { bio: 'x' },
    });
    assert.equal(write.status, 403);
    assert.deepEqual(write.body, insufficient('read_user api read_api'));
    assert.equal((await t.request('GET', '/api/v4/version', { token: readUser })).status, 403);
    for (const scope of ['read_repository', 'write_repository']) {
      const { token } = await makeToken(alice, [scope]);
      for (const url of ['/api/v3/user', '/api/v3/projects', '/api/v4/version']) {
        const refused = await t.request('GET', url, { token });
        assert.equal(refused.status, 403, `${scope} ${url}`);
        assert.equal(refused.body.error, 'insufficient_scope');
      }
    }
  });

  it('sudo with a token needs the sudo scope, and an administrator', async () => {
    const adminApi = await t.request('POST', '/api/v4/user/personal_access_tokens', {
      token: t.rootToken,
      body: { name: 'admin', scopes: ['api'] },
    });
    const adminSudo = await t.request('POST', '/api/v4/user/personal_access_tokens', {
      token: t.rootToken,
      body: { name: 'admin-sudo', scopes: ['api', 'sudo'] },
    });
    const withoutScope = await t.request('GET', '/api/v3/user', {
      token: adminApi.body.token,
      headers: { sudo: 'bob' },
    });
    assert.equal(withoutScope.status, 403);
    assert.deepEqual(withoutScope.body, insufficient('sudo'));
    assert.equal(
      (await t.request('GET', '/api/v3/user', { token: adminApi.body.token })).body.username,
      'root',
    );
    const asBob = await t.request('GET', '/api/v3/user?sudo=bob', { token: adminSudo.body.token });
    assert.equal(asBob.status, 200);
    assert.equal(asBob.body.username, 'bob');
    const notAdmin = (await makeToken(alice, ['api', 'sudo'])).token;
    const refused = await t.request('GET', '/api/v3/user', { token: notAdmin, headers: { sudo: 'bob' } });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { message: '403 Forbidden  - Must be admin to use sudo' });
    // The private token sudoes as before.
    const privateSudo = await t.request('GET', '/api/v3/user', {
      token: t.rootToken,
      headers: { sudo: 'bob' },
    });
    assert.equal(privateSudo.body.username, 'bob');
  });

  it('last_used_at is stamped on use, at most once a minute', async () => {
    const { id, token } = await makeToken(alice, ['api']);
    const db = t.server.deps.db;
    const writes: string[] = [];
    db.onQuery = (sql) => {
      if (/^\s*update\b/i.test(sql) && sql.includes('personal_access_tokens')) writes.push(sql);
    };
    try {
      assert.equal((await t.request('GET', '/api/v4/version', { token })).status, 200);
      assert.equal(writes.length, 1);
      for (let i = 0; i < 3; i++) await t.request('GET', '/api/v4/version', { token });
      assert.equal(writes.length, 1, 'no write within the minute');
    } finally {
      db.onQuery = undefined;
    }
    const shown = await t.request('GET', `/api/v4/personal_access_tokens/${id}`, { token: alice.token });
    assert.match(shown.body.last_used_at, /^\d{4}-\d\d-\d\dT/);
    // A stamp older than the minute moves again.
    await db.kysely
      .updateTable('personal_access_tokens')
      .set({ last_used_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', id)
      .execute();
    await t.request('GET', '/api/v4/version', { token });
    const moved = await t.request('GET', `/api/v4/personal_access_tokens/${id}`, { token: alice.token });
    assert.ok(moved.body.last_used_at > '2020-01-01T00:00:00.000Z');
  });

  it('a deleted user takes their tokens along', async () => {
    const dave = await createUser(t, 'dave');
    await makeToken(dave, ['api']);
    assert.equal((await t.request('DELETE', `/api/v3/users/${dave.id}`, { token: t.rootToken })).status, 200);
    const left = await t.server.deps.db.kysely
      .selectFrom('personal_access_tokens')
      .select('id')
      .where('user_id', '=', dave.id)
      .execute();
    assert.deepEqual(left, []);
  });

  describe('with a second server on the same database', () => {
    let other: Server;
    before(async () => {
      other = await t.sibling();
    });
    after(() => other.close());

    it('a token revoked by the other server is refused by this one', async () => {
      const { id, token } = await makeToken(alice, ['api']);
      // Twice: the second answer may come from the read cache.
      for (let i = 0; i < 2; i++)
        assert.equal((await t.request('GET', '/api/v3/user', { token })).status, 200);
      const revoked = await other.app.inject({
        method: 'DELETE',
        url: `/api/v4/personal_access_tokens/${id}`,
        headers: { 'private-token': alice.token },
      });
      assert.equal(revoked.statusCode, 204);
      const refused = await eventually(
        t,
        () => t.request('GET', '/api/v3/user', { token }),
        (r) => r.status === 401,
      );
      assert.equal(refused.status, 401);
      assert.deepEqual(refused.body, UNAUTHORIZED);
    });
  });
});
