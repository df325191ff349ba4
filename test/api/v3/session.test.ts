import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';
import { USER_LOGIN_KEYS } from '../../helpers/entity-keys.ts';

describe('POST /session', () => {
  let t: TestApp;
  let dave: TestUser;
  before(async () => {
    t = await startTestApp();
    dave = await createUser(t, 'Dave', { email: 'dave@example.com', password: 'dave-secret-1' });
  });
  after(() => t.close());

  it('signs in by username, case-insensitively, and answers 201 with the private token', async () => {
    const response = await t.request('POST', '/api/v3/session', {
      body: { login: 'dAVE', password: 'dave-secret-1' },
    });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body), USER_LOGIN_KEYS);
    assert.equal(response.body.username, 'Dave');
    assert.equal(response.body.private_token, dave.token);
    const me = await t.request('GET', '/api/v3/user', { token: response.body.private_token });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, dave.id);
  });

  it('takes an email as login (a login with @) or as the email parameter, form-encoded too', async () => {
    const asLogin = await t.request('POST', '/api/v3/session', {
      body: { login: 'DAVE@example.com', password: 'dave-secret-1' },
    });
    assert.equal(asLogin.status, 201);
    const asEmail = await t.request('POST', '/api/v3/session', {
      form: { email: 'dave@EXAMPLE.com', password: 'dave-secret-1' },
    });
    assert.equal(asEmail.status, 201);
    assert.equal(asEmail.body.id, dave.id);
  });

  it('moves the sign-in stamps on every sign-in', async () => {
    const first = await t.request('POST', '/api/v3/session', {
      body: { login: 'dave', password: 'dave-secret-1' },
    });
    const second = await t.request('POST', '/api/v3/session', {
      body: { login: 'dave', password: 'dave-secret-1' },
    });
    assert.equal(second.body.last_sign_in_at, first.body.current_sign_in_at);
    assert.ok(second.body.current_sign_in_at >= first.body.current_sign_in_at);
    const shown = await t.request('GET', `/api/v3/users/${dave.id}`, { token: t.rootToken });
    assert.equal(shown.body.current_sign_in_at, second.body.current_sign_in_at);
  });

  it('answers 401 for a wrong password, an unknown login or missing parameters', async () => {
    const cases = [
      { login: 'dave', password: 'wrong-password' },
      { login: 'nobody', password: 'dave-secret-1' },
      { login: 'nobody@example.com', password: 'dave-secret-1' },
      { login: 'dave' },
      { password: 'dave-secret-1' },
      {},
    ];
    for (const body of cases) {
      const response = await t.request('POST', '/api/v3/session', { body });
      assert.equal(response.status, 401, JSON.stringify(body));
      assert.deepEqual(response.body, { message: '401 Unauthorized' });
    }
  });

  it('refuses blocked users (GitLab handed them a token)', async () => {
    const blocked = await createUser(t, 'blockee', { password: 'blockee-pass' });
    await t.request('PUT', `/api/v3/users/${blocked.id}/block`, { token: t.rootToken });
    const response = await t.request('POST', '/api/v3/session', {
      body: { login: 'blockee', password: 'blockee-pass' },
    });
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { message: '401 Unauthorized' });
  });

  it('works for the administrator with the configured password', async () => {
    const response = await t.request('POST', '/api/v3/session', {
      body: { login: 'root', password: t.rootPassword },
    });
    assert.equal(response.status, 201);
    assert.equal(response.body.private_token, t.rootToken);
    assert.equal(response.body.is_admin, true);
  });
});

describe('sudo', () => {
  let t: TestApp;
  let erin: TestUser;
  let frank: TestUser;
  before(async () => {
    t = await startTestApp();
    erin = await createUser(t, 'erin');
    frank = await createUser(t, 'frank');
  });
  after(() => t.close());

  it('lets an administrator act as a user by id or username, as a parameter or the SUDO header', async () => {
    const variants = [
      { url: `/api/v3/user?sudo=${erin.id}` },
      { url: '/api/v3/user?sudo=erin' },
      { url: '/api/v3/user', headers: { sudo: String(erin.id) } },
      { url: '/api/v3/user', headers: { sudo: 'ERIN' } },
    ];
    for (const variant of variants) {
      const response = await t.request('GET', variant.url, { token: t.rootToken, headers: variant.headers });
      assert.equal(response.status, 200, JSON.stringify(variant));
      assert.equal(response.body.username, 'erin');
      // 8.13.10: GET /user under sudo shows the impersonated user's token.
      assert.equal(response.body.private_token, erin.token);
    }
  });

  it('acts with the impersonated user’s rights', async () => {
    const asErin = await t.request('POST', '/api/v3/users?sudo=erin', {
      token: t.rootToken,
      body: { email: 'x@example.com', password: 'password123', name: 'X', username: 'x' },
    });
    assert.equal(asErin.status, 403);
    const list = await t.request('GET', '/api/v3/users', { token: t.rootToken, headers: { sudo: 'erin' } });
    assert.deepEqual(Object.keys(list.body[0]), ['name', 'username', 'id', 'state', 'avatar_url', 'web_url']);
  });

  it('answers 403 to non-administrators, even for themselves', async () => {
    for (const sudo of ['erin', String(frank.id), 'frank']) {
      const response = await t.request('GET', '/api/v3/user', { token: frank.token, headers: { sudo } });
      assert.equal(response.status, 403);
      assert.deepEqual(response.body, { message: '403 Forbidden  - Must be admin to use sudo' });
    }
  });

  it('answers 404 for an unknown user', async () => {
    for (const sudo of ['nobody', '999999', '2147483648', '99999999999999999999']) {
      const response = await t.request('GET', `/api/v3/user?sudo=${sudo}`, { token: t.rootToken });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { message: `404 No user id or username for: ${sudo} Not Found` });
    }
  });

  it('without a token is still 401', async () => {
    const response = await t.request('GET', '/api/v3/user?sudo=erin');
    assert.equal(response.status, 401);
  });
});

describe('password hashing cost', () => {
  let t: TestApp;
  before(async () => {
    // The suite hashes cheaply; this app starts at the production default to check both kinds of hash.
    t = await startTestApp({ LABRADOR_PASSWORD_HASH_COST: '' });
  });
  after(() => t.close());

  async function storedHash(app: TestApp, username: string): Promise<string> {
    const row = await app.server.deps.db.kysely
      .selectFrom('users')
      .select('encrypted_password')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    return row.encrypted_password;
  }

  it('hashes new passwords at N = 16384 by default, and still signs in users hashed at another cost', async () => {
    const created = await t.request('POST', '/api/v3/users', {
      token: t.rootToken,
      body: { email: 'hash@example.com', password: 'hash-password-1', name: 'Hash', username: 'hash' },
    });
    assert.equal(created.status, 201);
    assert.match(await storedHash(t, 'hash'), /^scrypt\$16384\$8\$1\$/);
    const signIn = await t.request('POST', '/api/v3/session', {
      body: { login: 'hash', password: 'hash-password-1' },
    });
    assert.equal(signIn.status, 201);

    // A user hashed at a cheaper cost (as in the other tests) keeps its own parameters.
    const cheap = await startTestApp({ LABRADOR_PASSWORD_HASH_COST: '4' });
    try {
      await createUser(cheap, 'cheap', { password: 'cheap-password-1' });
      const hash = await storedHash(cheap, 'cheap');
      assert.match(hash, /^scrypt\$16\$8\$1\$/);
      await t.server.deps.db.kysely
        .updateTable('users')
        .set({ encrypted_password: hash })
        .where('username', '=', 'hash')
        .execute();
    } finally {
      await cheap.close();
    }
    const again = await t.request('POST', '/api/v3/session', {
      body: { login: 'hash', password: 'cheap-password-1' },
    });
    assert.equal(again.status, 201);
  });
});
