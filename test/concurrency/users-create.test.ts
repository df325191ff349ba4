// 200 concurrent POST /users over a real socket: 100 distinct users and a duplicate of each. The unique
// indexes settle the races; every loser gets GitLab's 409 (or 400), never a 500.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('concurrent user creation', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startTestApp();
    await t.server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.server.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  const post = async (body: Record<string, string>) => {
    const response = await fetch(`${base}/api/v3/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'private-token': t.rootToken },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any, username: body.username };
  };

  it('creates exactly the 100 distinct users and answers every duplicate with 409/400', async () => {
    const requests: Array<Record<string, string>> = [];
    for (let i = 0; i < 100; i++) {
      const user = {
        email: `racer${i}@example.com`,
        password: 'password123',
        name: `Racer ${i}`,
        username: `racer${i}`,
      };
      requests.push(user);
      // Half the duplicates repeat the whole user, half only the username (other letter case, other email).
      requests.push(
        i % 2 === 0 ? { ...user } : { ...user, email: `other${i}@example.com`, username: `Racer${i}` },
      );
    }
    // Interleave so that a user and its duplicate are in flight together.
    const results = await Promise.all(requests.map((body) => post(body)));

    const created = results.filter((result) => result.status === 201);
    const refused = results.filter((result) => result.status !== 201);
    assert.equal(created.length, 100);
    assert.equal(refused.length, 100);
    for (const result of refused) {
      assert.ok(
        result.status === 409 || result.status === 400,
        `${result.status} ${JSON.stringify(result.body)}`,
      );
      const message = result.body.message;
      assert.ok(
        message === 'Email has already been taken' ||
          message === 'Username has already been taken' ||
          JSON.stringify(message) === JSON.stringify({ username: ['has already been taken'] }),
        JSON.stringify(result.body),
      );
    }
    const createdNames = new Set(created.map((result) => result.body.username.toLowerCase()));
    assert.equal(createdNames.size, 100);

    const list = await fetch(`${base}/api/v3/users?search=racer&per_page=100`, {
      headers: { 'private-token': t.rootToken },
    });
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('x-total'), '100');
    const listed = (await list.json()) as Array<{ username: string }>;
    assert.equal(new Set(listed.map((user) => user.username.toLowerCase())).size, 100);

    // Every created user has its personal namespace.
    const namespaces = await t.server.deps.db.kysely
      .selectFrom('namespaces')
      .select('path')
      .where('type', 'is', null)
      .execute();
    assert.equal(namespaces.filter((row) => row.path.toLowerCase().startsWith('racer')).length, 100);

    // And the server keeps answering.
    const me = await fetch(`${base}/api/v3/user`, { headers: { 'private-token': t.rootToken } });
    assert.equal(me.status, 200);
  });
});
