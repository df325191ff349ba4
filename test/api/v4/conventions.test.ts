// What every /api/v4 route shares: the exact JSON content type, GitLab's JSON 404 for any unknown path
// or method (never a page, never the pages' CSRF refusal), the caller required as in v3.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';

describe('API v4 conventions', () => {
  let t: TestApp;
  let user: TestUser;

  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'alice');
  });
  after(() => t.close());

  it('GET /version answers three dotted parts with exactly application/json', async () => {
    const response = await t.request('GET', '/api/v4/version', { token: user.token });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    assert.match(response.body.version, /^\d+\.\d+\.\d+$/);
    assert.equal(response.body.revision, 'labrador');
    assert.equal(response.body.enterprise, false);
    const metadata = await t.request('GET', '/api/v4/metadata', { token: user.token });
    assert.deepEqual(metadata.body, response.body);
  });

  it('asks for a caller: 401 without a token', async () => {
    const response = await t.request('GET', '/api/v4/version');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { message: '401 Unauthorized' });
    assert.equal(response.headers['content-type'], 'application/json');
  });

  it('answers an unknown path of any method with the JSON 404, signed in or not', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
      for (const token of [undefined, user.token]) {
        const response = await t.request(method, '/api/v4/no/such/thing', { token, body: {} });
        assert.equal(response.status, 404, `${method} ${token ? 'signed in' : 'anonymous'}`);
        assert.deepEqual(response.body, { error: '404 Not Found' });
        assert.equal(response.headers['content-type'], 'application/json');
      }
    }
  });

  it('leaves /api/v3 as it was: 8.13 version', async () => {
    const response = await t.request('GET', '/api/v3/version', { token: user.token });
    assert.deepEqual(response.body, { version: '8.13.0', revision: 'labrador' });
  });
});
