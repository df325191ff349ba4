import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';
import { assertUserIdsOfDigitsOnly } from '../../helpers/user-routes.ts';

describe('Secondary emails', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let blocked: TestUser;

  before(async () => {
    t = await startTestApp();
    alice = await createUser(t, 'alice', { email: 'alice@example.com' });
    bob = await createUser(t, 'bob', { email: 'Bob.Primary@Example.com' });
    blocked = await createUser(t, 'blocked');
    const block = await t.request('PUT', `/api/v3/users/${blocked.id}/block`, { token: t.rootToken });
    assert.equal(block.status, 200, block.text);
  });
  after(() => t.close());

  const post = (token: string | undefined, body: Record<string, unknown>, url = '/api/v3/user/emails') =>
    t.request('POST', url, { token, body });

  it('adds (downcased and stripped), lists, shows and deletes secondary emails', async () => {
    const first = await post(alice.token, { email: '  Alice.Work@Example.COM \n' });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(Object.keys(first.body), ['id', 'email']);
    assert.equal(first.body.email, 'alice.work@example.com');
    const second = await t.request('POST', '/api/v3/user/emails', {
      token: alice.token,
      form: { email: 'alice+home@example.org' },
    });
    assert.equal(second.status, 201);

    const list = await t.request('GET', '/api/v3/user/emails', { token: alice.token });
    assert.equal(list.status, 200);
    assert.equal(list.headers['x-total'], undefined, 'not paginated');
    assert.deepEqual(list.body, [first.body, second.body], 'the primary email is not listed');

    const one = await t.request('GET', `/api/v3/user/emails/${second.body.id}`, { token: alice.token });
    assert.deepEqual([one.status, one.body], [200, second.body]);

    const deleted = await t.request('DELETE', `/api/v3/user/emails/${second.body.id}`, {
      token: alice.token,
    });
    assert.deepEqual([deleted.status, deleted.text], [200, 'null']);
    assert.match(String(deleted.headers['content-type']), /application\/json/);
    const again = await t.request('DELETE', `/api/v3/user/emails/${second.body.id}`, { token: alice.token });
    assert.deepEqual([again.status, again.text], [200, 'null']);
    const gone = await t.request('GET', `/api/v3/user/emails/${second.body.id}`, { token: alice.token });
    assert.deepEqual([gone.status, gone.body], [404, { message: '404 Not found' }]);
    const after = await t.request('GET', '/api/v3/user/emails', { token: alice.token });
    assert.deepEqual(after.body, [first.body]);
  });

  it('refuses blank, malformed and taken addresses with the validation hash', async () => {
    await post(bob.token, { email: 'bob.second@example.com' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "can't be blank"],
      [{ email: '   ' }, "can't be blank"],
      [{ email: 'no-at-sign' }, 'is invalid'],
      [{ email: 'two@@example.com' }, 'is invalid'],
      [{ email: 'spa ce@example.com' }, 'is invalid'],
      [{ email: '@example.com' }, 'is invalid'],
      [{ email: `a@b\u0000c` }, 'is invalid'],
      [{ email: `${'x'.repeat(250)}@example.com` }, 'is too long (maximum is 255 characters)'],
      // Taken: another user's primary (any case), another user's secondary, the caller's own primary.
      [{ email: 'bob.primary@example.com' }, 'has already been taken'],
      [{ email: 'BOB.SECOND@example.com' }, 'has already been taken'],
      [{ email: 'alice@example.com' }, 'has already been taken'],
      [{ email: 'admin@example.com' }, 'has already been taken'],
    ];
    for (const [body, message] of cases) {
      const response = await post(alice.token, body);
      assert.deepEqual(
        [response.status, response.body],
        [400, { message: { email: [message] } }],
        JSON.stringify(body),
      );
    }
    // The caller's own secondary address, again.
    const own = await post(bob.token, { email: 'Bob.Second@example.com' });
    assert.deepEqual(own.body, { message: { email: ['has already been taken'] } });
  });

  it('settles concurrent duplicates with one 201 and 400 hashes, never a 500', async () => {
    // Open enough pooled connections first (PostgreSQL), so the requests really overlap.
    await Promise.all(
      Array.from({ length: 8 }, () => t.request('GET', '/api/v3/user', { token: alice.token })),
    );
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        post(index % 2 ? alice.token : bob.token, {
          email: index % 2 ? 'raced@example.net' : 'RACED@example.net',
        }),
      ),
    );
    assert.deepEqual(responses.map((r) => r.status).sort(), [201, ...Array(11).fill(400)]);
    for (const response of responses.filter((r) => r.status === 400)) {
      assert.deepEqual(response.body, { message: { email: ['has already been taken'] } });
    }
  });

  it('keeps other users’ emails out of reach of /user/emails', async () => {
    const bobs = await post(bob.token, { email: 'bob.private@example.com' });
    for (const token of [alice.token, t.rootToken]) {
      const response = await t.request('GET', `/api/v3/user/emails/${bobs.body.id}`, { token });
      assert.deepEqual([response.status, response.body], [404, { message: '404 Not found' }]);
    }
    const notNumeric = await t.request('GET', '/api/v3/user/emails/abc', { token: bob.token });
    assert.deepEqual([notNumeric.status, notNumeric.body], [404, { message: '404 Not found' }]);
    const deleted = await t.request('DELETE', `/api/v3/user/emails/${bobs.body.id}`, { token: alice.token });
    assert.deepEqual([deleted.status, deleted.text], [200, 'null']);
    const still = await t.request('GET', `/api/v3/user/emails/${bobs.body.id}`, { token: bob.token });
    assert.equal(still.status, 200);
  });

  it('answers 401 without a token and for blocked users, 403 to non-administrators', async () => {
    const routes: Array<[string, string]> = [
      ['GET', '/api/v3/user/emails'],
      ['GET', '/api/v3/user/emails/1'],
      ['POST', '/api/v3/user/emails'],
      ['DELETE', '/api/v3/user/emails/1'],
      ['GET', `/api/v3/users/${alice.id}/emails`],
      ['POST', `/api/v3/users/${alice.id}/emails`],
      ['DELETE', `/api/v3/users/${alice.id}/emails/1`],
    ];
    for (const [method, url] of routes) {
      const body = { email: 'whoever@example.com' };
      for (const token of [undefined, blocked.token]) {
        const response = await t.request(method, url, { token, body });
        assert.deepEqual(
          [response.status, response.body],
          [401, { message: '401 Unauthorized' }],
          `${method} ${url}`,
        );
      }
      if (url.startsWith('/api/v3/users/')) {
        const response = await t.request(method, url, { token: bob.token, body });
        assert.deepEqual(
          [response.status, response.body],
          [403, { message: '403 Forbidden' }],
          `${method} ${url}`,
        );
      }
    }
    const nothing = await t.request('GET', '/api/v3/user/emails', { token: bob.token });
    assert.ok(!nothing.body.some((e: { email: string }) => e.email === 'whoever@example.com'));
  });

  it('lets administrators list, add and delete any user’s emails', async () => {
    const created = await post(
      t.rootToken,
      { email: 'Given.By@Admin.example' },
      `/api/v3/users/${alice.id}/emails`,
    );
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, { id: created.body.id, email: 'given.by@admin.example' });
    const list = await t.request('GET', `/api/v3/users/${alice.id}/emails`, { token: t.rootToken });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, (await t.request('GET', '/api/v3/user/emails', { token: alice.token })).body);
    assert.ok(list.body.some((e: { id: number }) => e.id === created.body.id));
    const empty = await t.request('GET', `/api/v3/users/${blocked.id}/emails`, { token: t.rootToken });
    assert.deepEqual([empty.status, empty.body], [200, []]);

    const bobs = await post(bob.token, { email: 'bob.third@example.com' });
    const wrongOwner = await t.request('DELETE', `/api/v3/users/${alice.id}/emails/${bobs.body.id}`, {
      token: t.rootToken,
    });
    assert.deepEqual([wrongOwner.status, wrongOwner.body], [404, { message: '404 Email Not Found' }]);

    const url = `/api/v3/users/${alice.id}/emails/${created.body.id}`;
    const deleted = await t.request('DELETE', url, { token: t.rootToken });
    assert.deepEqual([deleted.status, deleted.text], [200, 'null']);
    const again = await t.request('DELETE', url, { token: t.rootToken });
    assert.deepEqual([again.status, again.body], [404, { message: '404 Email Not Found' }]);
    const mine = await t.request('GET', `/api/v3/user/emails/${created.body.id}`, { token: alice.token });
    assert.equal(mine.status, 404);
  });

  it('reports every failed administrator add as 404 with GitLab’s body', async () => {
    const url = `/api/v3/users/${alice.id}/emails`;
    const cases: Array<[string, Record<string, unknown>, unknown]> = [
      [url, {}, { message: { email: ["can't be blank"] } }],
      [url, { email: 'nope' }, { message: { email: ['is invalid'] } }],
      [url, { email: 'bob.primary@example.com' }, { message: { email: ['has already been taken'] } }],
      [url, { email: { nested: true } }, { error: 'email is invalid' }],
      ['/api/v3/users/999999/emails', { email: 'fine@example.com' }, { message: '404 Not found' }],
      ['/api/v3/users/999999/emails', {}, { message: { email: ["can't be blank"] } }],
    ];
    for (const [target, body, expected] of cases) {
      const response = await post(t.rootToken, body, target);
      assert.deepEqual([response.status, response.body], [404, expected], JSON.stringify(body));
    }
  });

  it('finds users by digits only', () => assertUserIdsOfDigitsOnly(t, 'emails'));
});
