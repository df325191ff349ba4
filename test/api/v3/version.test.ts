import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

describe('GET /version and cross-cutting behaviour', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('answers version and revision to a signed-in caller', async () => {
    const response = await t.request('GET', '/api/v3/version', { token: t.rootToken });
    assert.equal(response.status, 200);
    assert.equal(response.body.version, '8.13.0');
    assert.equal(typeof response.body.revision, 'string');
  });

  it('answers 401 without a token and with an unknown one', async () => {
    for (const token of [undefined, 'nope']) {
      const response = await t.request('GET', '/api/v3/version', { token });
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, { message: '401 Unauthorized' });
    }
  });

  it('takes the private_token parameter too', async () => {
    const response = await t.request('GET', `/api/v3/version?private_token=${t.rootToken}`);
    assert.equal(response.status, 200);
  });

  it("answers unknown routes with GitLab's catch-all 404", async () => {
    const response = await t.request('GET', '/api/v3/nothing/here', { token: t.rootToken });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { error: '404 Not Found' });
  });

  it('answers malformed JSON with a 400 and a JSON body', async () => {
    const response = await t.server.app.inject({
      method: 'POST',
      url: '/api/v3/version',
      headers: { 'private-token': t.rootToken, 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    assert.equal(response.statusCode, 400);
    assert.equal(typeof JSON.parse(response.body).error, 'string');
  });
});
