import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { USER_FULL_KEYS } from '../../helpers/entity-keys.ts';

describe('GET /user', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('shows the administrator form of the caller, field for field', async () => {
    const response = await t.request('GET', '/api/v3/user', { token: t.rootToken });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), USER_FULL_KEYS);
    assert.equal(response.body.username, 'root');
    assert.equal(response.body.name, 'Administrator');
    assert.equal(response.body.email, 'admin@example.com');
    assert.equal(response.body.is_admin, true);
    assert.equal(response.body.web_url, 'http://labrador.test/root');
    assert.match(response.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(response.body.current_sign_in_at, /Z$/);
    assert.equal(response.body.private_token, undefined);
  });

  it('answers 401 without a token', async () => {
    const response = await t.request('GET', '/api/v3/user');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { message: '401 Unauthorized' });
  });
});
