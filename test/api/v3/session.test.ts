import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, USER_LOGIN_KEYS, type CreatedUser } from '../../helpers/users.ts';

describe('POST /session', () => {
  let t: TestApp;
  let dave: CreatedUser;
  before(async () => {
    t = await startTestApp();
    dave = await createUser(t, { username: 'Dave', email: 'dave@example.com', password: 'dave-secret-1' });
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
    const blocked = await createUser(t, { username: 'blockee', password: 'blockee-pass' });
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
  let erin: CreatedUser;
  let frank: CreatedUser;
  before(async () => {
    t = await startTestApp();
    erin = await createUser(t, { username: 'erin' });
    frank = await createUser(t, { username: 'frank' });
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
    for (const sudo of ['nobody', '999999']) {
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
