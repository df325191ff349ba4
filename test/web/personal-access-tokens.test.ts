// /profile/personal_access_tokens as a browser without script uses it: a token made on the page is shown
// once and works on the API with its scopes; a bad form comes back with the API's words; revoke works
// and needs the form token; the page is linked from the profile's tabs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factory.ts';
import { WebClient, signedInClient } from '../helpers/web.ts';

const PAGE = '/profile/personal_access_tokens';

describe('pages: personal access tokens', () => {
  let t: TestApp;
  let user: TestUser;
  let web: WebClient;
  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'patty');
    web = await signedInClient(t, user);
  });
  after(() => t.close());

  it('signed out, the page asks for sign-in', async () => {
    const response = await new WebClient(t).get(PAGE);
    assert.equal(response.status, 302);
    assert.equal(response.headers.location, '/users/sign_in?redirect_to=%2Fprofile%2Fpersonal_access_tokens');
  });

  it('is linked from the profile tabs and offers every scope', async () => {
    const profile = await web.get('/profile');
    assert.match(profile.text, /href="\/profile\/personal_access_tokens"/);
    const page = await web.get(PAGE);
    assert.equal(page.status, 200);
    for (const scope of ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'sudo']) {
      assert.match(page.text, new RegExp(`name="personal_access_token\\[scopes\\]\\[\\]" value="${scope}"`));
    }
    assert.match(page.text, /no active personal access tokens/);
  });

  it('makes a token shown once, which works with its scopes, and revokes it', async () => {
    await web.get(PAGE);
    const made = await web.post(PAGE, {
      'personal_access_token[name]': 'script <x>',
      'personal_access_token[expires_at]': '',
      'personal_access_token[scopes][0]': 'read_api',
      'personal_access_token[scopes][1]': 'read_user',
    });
    assert.equal(made.status, 200);
    const secret = /id="created-personal-access-token" type="text" readonly value="([^"]+)"/i.exec(
      made.text,
    )?.[1];
    assert.ok(secret !== undefined && secret.startsWith('glpat-'), made.text);
    assert.match(made.text, /script &lt;x>/);
    assert.equal((await t.request('GET', '/api/v3/user', { token: secret })).body.username, 'patty');
    assert.equal(
      (await t.request('POST', '/api/v3/projects', { token: secret, body: { name: 'n' } })).status,
      403,
    );
    const listed = await t.request('GET', '/api/v4/personal_access_tokens', { token: user.token });
    assert.deepEqual(
      listed.body.map((token: { name: string; scopes: string[]; expires_at: null }) => [
        token.name,
        token.scopes,
        token.expires_at,
      ]),
      [['script <x>', ['read_api', 'read_user'], null]],
    );
    // The page afterwards lists it, without the secret.
    const page = await web.get(PAGE);
    assert.ok(!page.text.includes(secret));
    assert.match(page.text, /Active personal access tokens \(1\)/);

    const id = listed.body[0].id;
    // Without the form token nothing happens.
    assert.equal((await web.request('POST', `${PAGE}/${id}/revoke`, {})).status, 422);
    assert.equal((await t.request('GET', '/api/v3/user', { token: secret })).status, 200);
    await web.get(PAGE);
    const revoked = await web.post(`${PAGE}/${id}/revoke`);
    assert.equal(revoked.status, 302);
    assert.equal(revoked.headers.location, `${PAGE}?done=revoked`);
    assert.equal((await t.request('GET', '/api/v3/user', { token: secret })).status, 401);
    const after = await web.get(`${PAGE}?done=revoked`);
    assert.match(after.text, /was revoked/);
    assert.match(after.text, /no active personal access tokens/);
  });

  it("refuses a bad form with what was typed; someone else's token is not revoked", async () => {
    await web.get(PAGE);
    const noScope = await web.post(PAGE, { 'personal_access_token[name]': 'kept name' });
    assert.equal(noScope.status, 422);
    assert.match(noScope.text, /Scopes can(&#x27;|'|&#39;)t be blank/);
    assert.match(noScope.text, /value="kept name"/);
    const past = await web.post(PAGE, {
      'personal_access_token[name]': 'old',
      'personal_access_token[expires_at]': '2001-01-01',
      'personal_access_token[scopes][]': 'api',
    });
    assert.equal(past.status, 422);
    assert.match(past.text, /Expires at cannot be in the past/);

    const other = await createUser(t, 'other');
    const theirs = await t.request('POST', '/api/v4/user/personal_access_tokens', {
      token: other.token,
      body: { name: 'theirs', scopes: ['api'] },
    });
    await web.get(PAGE);
    assert.equal((await web.post(`${PAGE}/${theirs.body.id}/revoke`)).status, 302);
    assert.equal((await t.request('GET', '/api/v3/user', { token: theirs.body.token })).status, 200);
  });
});
