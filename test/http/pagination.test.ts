import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('pagination parameters', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('falls back to the defaults for values that are not positive integers', async () => {
    const response = await t.request('GET', '/api/v3/users?page=abc&per_page=-3', { token: t.rootToken });
    assert.equal(response.status, 200);
    assert.equal(response.headers['x-page'], '1');
    assert.equal(response.headers['x-per-page'], '20');
  });

  it('caps per_page at 100', async () => {
    const response = await t.request('GET', '/api/v3/users?per_page=100000', { token: t.rootToken });
    assert.equal(response.headers['x-per-page'], '100');
  });

  it('answers an absurdly deep page with an empty list instead of failing', async () => {
    for (const path of ['/api/v3/users', '/api/v3/projects/visible', '/api/v3/users/1/events']) {
      const response = await t.request('GET', `${path}?page=100000000000000000000&per_page=100`, {
        token: t.rootToken,
      });
      assert.equal(response.status, 200, path);
      assert.deepEqual(response.body, [], path);
      assert.equal(response.headers['x-next-page'], '', path);
    }
  });
});
