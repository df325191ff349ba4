// Sign-in, sessions, form tokens, security headers and the failed sign-in limiter, as a browser
// without script and git / API clients observe them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factory.ts';
import { WebClient } from '../helpers/web.ts';

function setCookies(headers: Record<string, unknown>): string[] {
  const raw = headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)];
}

describe('pages: sessions and sign-in', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('every page carries the security headers; the stylesheet is hashed and cached for a year', async () => {
    const web = new WebClient(t);
    const page = await web.get('/users/sign_in');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html; charset=utf-8/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.equal(page.headers['referrer-policy'], 'strict-origin-when-cross-origin');
    assert.doesNotMatch(page.text, /<script>|<script [^>]*>[^<]/, 'no inline script');
    const css = /<link rel="stylesheet" href="(\/-\/assets\/application-[0-9a-f]{16}\.css)"/.exec(page.text);
    assert.ok(css, 'hashed stylesheet link');
    const sheet = await web.get(css[1]);
    assert.equal(sheet.status, 200);
    assert.match(String(sheet.headers['content-type']), /^text\/css/);
    assert.equal(sheet.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal((await web.get('/-/assets/application-0000000000000000.css')).status, 404);
    // An icon link, so the browser does not ask for /favicon.ico (a 404 in its console) on every page.
    const icon =
      /<link rel="icon" type="image\/svg\+xml" href="(\/-\/assets\/favicon-[0-9a-f]{16}\.svg)"/.exec(
        page.text,
      );
    assert.ok(icon, 'hashed icon link');
    const iconFile = await web.get(icon[1]);
    assert.equal(iconFile.status, 200);
    assert.equal(iconFile.headers['content-type'], 'image/svg+xml');
    assert.match(iconFile.text, /^<svg /);
    // A 404 page has the headers too.
    const missing = await web.get('/nobody-here-at-all');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['x-frame-options'], 'DENY');
  });

  it('root signs in with the password, sees its name, and signing out ends the session for good', async () => {
    const web = new WebClient(t);
    await web.get('/users/sign_in');
    const signedIn = await web.post('/users/sign_in', {
      'user[login]': 'root',
      'user[password]': t.rootPassword,
      redirect_to: '/explore/projects',
    });
    assert.equal(signedIn.status, 302);
    assert.equal(signedIn.headers.location, '/explore/projects');
    const cookie = setCookies(signedIn.headers).find((line) => line.startsWith('_labrador_session='));
    assert.ok(cookie);
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.match(cookie, /Max-Age=604800/i);
    assert.doesNotMatch(cookie, /Secure/i, 'plain http external URL: no Secure flag');
    const home = await web.get('/');
    assert.equal(home.status, 200);
    assert.match(home.text, /Your projects/);
    assert.match(home.text, /href="\/root"/);

    const stolen = web.cookies.get('_labrador_session')!;
    const out = await web.post('/users/sign_out');
    assert.equal(out.status, 302);
    assert.equal(out.headers.location, '/users/sign_in?done=signed_out');
    assert.match((await web.get(out.headers.location!)).text, /role="status">Signed out successfully\.</);
    assert.doesNotMatch((await web.get('/users/sign_in')).text, /Signed out/);
    // The old cookie, replayed, is nobody.
    const replay = new WebClient(t);
    replay.cookies.set('_labrador_session', stolen);
    const after = await replay.get('/dashboard/projects');
    assert.equal(after.status, 302);
    assert.match(String(after.headers.location), /^\/users\/sign_in\?redirect_to=%2Fdashboard%2Fprojects/);
  });

  it('an offsite redirect_to is ignored', async () => {
    const web = new WebClient(t);
    await web.get('/users/sign_in');
    const response = await web.post('/users/sign_in', {
      'user[login]': 'root',
      'user[password]': t.rootPassword,
      redirect_to: '//evil.example/',
    });
    assert.equal(response.status, 302);
    assert.equal(response.headers.location, '/');
  });

  it('email login works; a wrong password is 401 with Devise text and the login kept (escaped)', async () => {
    const user = await createUser(t, undefined, { name: 'Mail Person' });
    const web = new WebClient(t, '10.0.0.5');
    assert.equal((await web.signIn(user.email, user.password)).status, 302);
    const other = new WebClient(t, '10.0.0.5');
    await other.get('/users/sign_in');
    const wrong = await other.post('/users/sign_in', { 'user[login]': '"><b>x', 'user[password]': 'nope' });
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /Invalid Login or password\./);
    assert.match(wrong.text, /value="&quot;>&lt;b>x"/);
  });

  it("blocked and ldap_blocked users are refused with GitLab's text", async () => {
    for (const state of ['blocked', 'ldap_blocked']) {
      const user = await createUser(t);
      await t.server.deps.db.kysely.updateTable('users').set({ state }).where('id', '=', user.id).execute();
      const web = new WebClient(t, '10.0.0.6');
      const response = await web.signIn(user.username, user.password);
      assert.equal(response.status, 401);
      assert.match(response.text, /Your account has been blocked\. Please contact your GitLab administrator/);
      assert.equal(web.cookies.has('_labrador_session'), false);
    }
  });

  it('blocking a user ends their sessions: an unblock does not let an old browser back in', async () => {
    const user = await createUser(t);
    const web = new WebClient(t, '10.0.0.7');
    assert.equal((await web.signIn(user.username, user.password)).status, 302);
    assert.equal((await web.get('/profile')).status, 200);
    const block = await t.request('PUT', `/api/v3/users/${user.id}/block`, { token: t.rootToken });
    assert.equal(block.status, 200);
    const unblock = await t.request('PUT', `/api/v3/users/${user.id}/unblock`, { token: t.rootToken });
    assert.equal(unblock.status, 200);
    const after = await web.get('/profile');
    assert.equal(after.status, 302);
    assert.match(String(after.headers.location), /^\/users\/sign_in/);
  });

  it('a form without the token, or with a wrong one, is 422 and changes nothing', async () => {
    const web = new WebClient(t);
    await web.signIn('root', t.rootPassword);
    const noToken = await web.request('POST', '/users/sign_out', {});
    assert.equal(noToken.status, 422);
    assert.match(noToken.text, /rejected/);
    const wrongToken = await web.request('POST', '/users/sign_out', { authenticity_token: 'x'.repeat(43) });
    assert.equal(wrongToken.status, 422);
    // Still signed in.
    assert.equal((await web.get('/dashboard/projects')).status, 200);
    // A sign-in form posted from elsewhere (no cookie of ours) is refused before any password check.
    const stranger = new WebClient(t);
    const forged = await stranger.request('POST', '/users/sign_in', {
      'user[login]': 'root',
      'user[password]': t.rootPassword,
    });
    assert.equal(forged.status, 422);
    assert.equal(stranger.cookies.has('_labrador_session'), false);
  });

  it('the eleventh wrong password in a minute is refused without a check, on the form, the API and git', async () => {
    const attacker = '10.9.9.9';
    const web = new WebClient(t, attacker);
    await web.get('/users/sign_in');
    for (let i = 0; i < 10; i++) {
      const response = await web.post('/users/sign_in', {
        'user[login]': 'root',
        'user[password]': `guess-${i}`,
      });
      assert.equal(response.status, 401, `guess ${i}`);
    }
    // Banned: even the right password is refused, and says so.
    const banned = await web.post('/users/sign_in', {
      'user[login]': 'root',
      'user[password]': t.rootPassword,
    });
    assert.equal(banned.status, 429);
    assert.match(banned.text, /Too many failed sign-ins/);
    assert.ok(Number(banned.headers['retry-after']) > 0);
    const api = await t.server.app.inject({
      method: 'POST',
      url: '/api/v3/session',
      payload: { login: 'root', password: t.rootPassword },
      remoteAddress: attacker,
    });
    assert.equal(api.statusCode, 429);
    assert.deepEqual(JSON.parse(api.body), { message: '429 Too Many Requests' });

    // The rightful owner from another address is not refused, on any surface.
    const owner = new WebClient(t, '10.1.1.1');
    assert.equal((await owner.signIn('root', t.rootPassword)).status, 302);
    const apiOwner = await t.server.app.inject({
      method: 'POST',
      url: '/api/v3/session',
      payload: { login: 'root', password: t.rootPassword },
      remoteAddress: '10.1.1.1',
    });
    assert.equal(apiOwner.statusCode, 201);
  });

  it('git HTTP basic auth and POST /session count failures into the same limiter', async () => {
    const owner = await createUser(t);
    const project = await createProject(t, { owner, path: 'limited', commit: true });
    const attacker = '10.8.8.8';
    const basic = (password: string) =>
      `Basic ${Buffer.from(`${owner.username}:${password}`).toString('base64')}`;
    const gitGet = (password: string, address: string) =>
      t.server.app.inject({
        method: 'GET',
        url: `/${project.fullPath}.git/info/refs?service=git-upload-pack`,
        headers: { authorization: basic(password) },
        remoteAddress: address,
      });
    for (let i = 0; i < 5; i++) assert.equal((await gitGet(`wrong-${i}`, attacker)).statusCode, 401);
    for (let i = 0; i < 5; i++) {
      const response = await t.server.app.inject({
        method: 'POST',
        url: '/api/v3/session',
        payload: { login: owner.username, password: `wrong-${i}` },
        remoteAddress: attacker,
      });
      assert.equal(response.statusCode, 401);
    }
    const refused = await gitGet(owner.password, attacker);
    assert.equal(refused.statusCode, 429);
    assert.match(refused.body, /Too many failed sign-ins/);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal((await gitGet(owner.password, '10.2.2.2')).statusCode, 200);
  });

  it('a ban ends: once its time has passed the address may try again', async () => {
    const address = '10.7.7.7';
    const web = new WebClient(t, address);
    await web.get('/users/sign_in');
    for (let i = 0; i < 10; i++)
      await web.post('/users/sign_in', { 'user[login]': 'root', 'user[password]': 'no' });
    assert.equal(
      (await web.post('/users/sign_in', { 'user[login]': 'root', 'user[password]': 'no' })).status,
      429,
    );
    // Move the ban into the past, as time would.
    await t.server.deps.db.kysely
      .updateTable('sign_in_bans')
      .set({ banned_until: new Date(Date.now() - 1000).toISOString() })
      .where('address', '=', address)
      .execute();
    assert.equal((await web.signIn('root', t.rootPassword)).status, 302);
  });
});

describe('pages: sessions behind https', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ LABRADOR_EXTERNAL_URL: 'https://labrador.test' });
  });
  after(() => t.close());

  it('the session cookie is Secure', async () => {
    const web = new WebClient(t);
    const response = await web.signIn('root', t.rootPassword);
    const cookie = setCookies(response.headers).find((line) => line.startsWith('_labrador_session='));
    assert.ok(cookie);
    assert.match(cookie, /; Secure/);
  });
});

describe('pages: the sign-in limiter behind a reverse proxy', () => {
  let t: TestApp;
  const proxy = '10.8.0.1';
  before(async () => {
    t = await startTestApp({ LABRADOR_TRUSTED_PROXIES: `${proxy}, 10.9.0.0/16` });
  });
  after(() => t.close());

  async function failTenTimes(web: WebClient): Promise<void> {
    await web.get('/users/sign_in');
    for (let i = 0; i < 10; i++) {
      const response = await web.post('/users/sign_in', {
        'user[login]': 'root',
        'user[password]': `no-${i}`,
      });
      assert.equal(response.status, 401, `guess ${i}`);
    }
  }
  const signInStatus = async (web: WebClient) => (await web.signIn('root', t.rootPassword)).status;

  it('ignores X-Forwarded-For from an address that is not a trusted proxy', async () => {
    // Each forged header names another client; the limiter still sees the one address they came from.
    let forged = 0;
    const attacker = new WebClient(t, '10.7.7.7', {});
    await attacker.get('/users/sign_in');
    for (let i = 0; i < 10; i++) {
      const web = new WebClient(t, '10.7.7.7', { 'x-forwarded-for': `203.0.113.${++forged}` });
      web.cookies.set('_labrador_csrf', attacker.cookies.get('_labrador_csrf')!);
      web.csrf = attacker.csrf;
      const response = await web.post('/users/sign_in', {
        'user[login]': 'root',
        'user[password]': `no-${i}`,
      });
      assert.equal(response.status, 401, `guess ${i}`);
    }
    assert.equal(
      await signInStatus(new WebClient(t, '10.7.7.7', { 'x-forwarded-for': '203.0.113.200' })),
      429,
    );
  });

  it("takes the client from a trusted proxy's X-Forwarded-For: one client banned, the others not", async () => {
    await failTenTimes(new WebClient(t, proxy, { 'x-forwarded-for': '198.51.100.7' }));
    assert.equal(await signInStatus(new WebClient(t, proxy, { 'x-forwarded-for': '198.51.100.7' })), 429);
    assert.equal(await signInStatus(new WebClient(t, proxy, { 'x-forwarded-for': '198.51.100.8' })), 302);
    // A range: a proxy of 10.9.0.0/16 is believed too.
    await failTenTimes(new WebClient(t, '10.9.3.4', { 'x-forwarded-for': '198.51.100.9' }));
    assert.equal(
      await signInStatus(new WebClient(t, '10.9.3.4', { 'x-forwarded-for': '198.51.100.9' })),
      429,
    );
    assert.equal(
      await signInStatus(new WebClient(t, '10.9.3.4', { 'x-forwarded-for': '198.51.100.10' })),
      302,
    );
  });
});
