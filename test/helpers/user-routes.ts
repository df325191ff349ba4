// What the routes of a user's own things (/users/:uid/keys, /users/:uid/emails) share in GitLab 8.13: the
// router takes a :uid of digits only, so any other answers its bare 404 to everyone, and a well-formed
// id of no user answers 404 User Not Found to an administrator.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';

/** Checks both answers on `/api/v3/users/:uid/<resource>` and on one item of it, `…/<resource>/1`. */
export async function assertUserIdsOfDigitsOnly(t: TestApp, resource: 'keys' | 'emails'): Promise<void> {
  for (const token of [t.rootToken, undefined]) {
    for (const [method, url] of [
      ['GET', `/api/v3/users/alice/${resource}`],
      ['POST', `/api/v3/users/1x/${resource}`],
      ['DELETE', `/api/v3/users/x/${resource}/1`],
      ['DELETE', `/api/v3/users/-1/${resource}/1`],
    ] as const) {
      const response = await t.request(method, url, { token });
      assert.deepEqual([response.status, response.body], [404, { error: '404 Not Found' }], url);
    }
  }
  for (const uid of ['999999', '99999999999']) {
    const list = await t.request('GET', `/api/v3/users/${uid}/${resource}`, { token: t.rootToken });
    assert.deepEqual([list.status, list.body], [404, { message: '404 User Not Found' }]);
    const deleted = await t.request('DELETE', `/api/v3/users/${uid}/${resource}/1`, { token: t.rootToken });
    assert.deepEqual([deleted.status, deleted.body], [404, { message: '404 User Not Found' }]);
  }
}
