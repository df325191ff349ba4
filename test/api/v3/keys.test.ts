import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sshpk from 'sshpk';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';
import { freshPublicKey } from '../../helpers/ssh.ts';
import { assertUserIdsOfDigitsOnly } from '../../helpers/user-routes.ts';

const fixtureDir = path.join(import.meta.dirname, '../../fixtures/ssh-keys');
const fixtureFingerprints: Record<string, string> = JSON.parse(
  fs.readFileSync(path.join(fixtureDir, 'fingerprints.json'), 'utf8'),
);
const fixture = (name: string) => fs.readFileSync(path.join(fixtureDir, `${name}.pub`), 'utf8').trim();

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-keys-'));

/** What `ssh-keygen -l -E md5` prints for a public key file; undefined if this OpenSSH cannot read it. */
function sshKeygenFingerprint(file: string): string | undefined {
  try {
    const listing = execFileSync('ssh-keygen', ['-l', '-E', 'md5', '-f', file], { stdio: 'pipe' }).toString();
    return /MD5:((?:[0-9a-f]{2}:){15}[0-9a-f]{2})/.exec(listing)?.[1];
  } catch {
    return undefined;
  }
}

/** A fresh key from ssh-keygen, with its ssh-keygen fingerprint. */
function generateKey(type: string, bits?: number): { text: string; fingerprint: string } {
  const file = path.join(tmp, `${type}-${bits ?? 0}-${crypto.randomBytes(4).toString('hex')}`);
  const args = ['-q', '-t', type, '-N', '', '-C', `generated ${type}`, '-f', file];
  if (bits) args.push('-b', String(bits));
  execFileSync('ssh-keygen', args, { stdio: 'ignore' });
  return {
    text: fs.readFileSync(`${file}.pub`, 'utf8').trim(),
    fingerprint: sshKeygenFingerprint(`${file}.pub`)!,
  };
}

const freshKey = (comment = 'fresh') => freshPublicKey(comment);

describe('SSH keys', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let blocked: TestUser;
  const keyFields = ['id', 'title', 'key', 'created_at'];
  const recordFields = [
    'id',
    'user_id',
    'created_at',
    'updated_at',
    'key',
    'title',
    'type',
    'fingerprint',
    'public',
  ];

  before(async () => {
    t = await startTestApp();
    alice = await createUser(t, 'alice');
    bob = await createUser(t, 'bob');
    blocked = await createUser(t, 'blocked');
    const block = await t.request('PUT', `/api/v3/users/${blocked.id}/block`, { token: t.rootToken });
    assert.equal(block.status, 200, block.text);
  });
  after(async () => {
    await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const post = (token: string, body: Record<string, unknown>, url = '/api/v3/user/keys') =>
    t.request('POST', url, { token, body });

  it('adds, lists, shows and deletes a key of every type, fingerprinted as ssh-keygen does', async () => {
    const names = Object.keys(fixtureFingerprints);
    for (const name of names) {
      // The recorded fingerprints are ssh-keygen's (re-checked here wherever this OpenSSH reads the type).
      const live = sshKeygenFingerprint(path.join(fixtureDir, `${name}.pub`));
      if (live !== undefined || name !== 'dsa') assert.equal(live, fixtureFingerprints[name], name);
    }
    assert.deepEqual(names.sort(), ['dsa', 'ecdsa-256', 'ecdsa-384', 'ecdsa-521', 'ed25519', 'rsa']);
    const created = [];
    for (const name of names) {
      const response = await post(alice.token, { title: `my ${name}`, key: `  ${fixture(name)}\n` });
      assert.equal(response.status, 201, response.text);
      assert.deepEqual(Object.keys(response.body), keyFields);
      assert.equal(response.body.title, `my ${name}`);
      assert.equal(response.body.key, fixture(name), 'stored stripped, comment kept');
      assert.match(response.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      created.push(response.body);
    }

    const list = await t.request('GET', '/api/v3/user/keys', { token: alice.token });
    assert.equal(list.status, 200);
    assert.equal(list.headers['x-total'], undefined, 'not paginated');
    assert.deepEqual(list.body, created);

    const one = await t.request('GET', `/api/v3/user/keys/${created[0].id}`, { token: alice.token });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, created[0]);

    for (const [index, name] of names.entries()) {
      const deleted = await t.request('DELETE', `/api/v3/user/keys/${created[index].id}`, {
        token: alice.token,
      });
      assert.equal(deleted.status, 200);
      assert.deepEqual(Object.keys(deleted.body), recordFields);
      assert.equal(deleted.body.fingerprint, fixtureFingerprints[name], name);
      assert.equal(deleted.body.user_id, alice.id);
      assert.equal(deleted.body.key, fixture(name));
      assert.equal(deleted.body.type, null);
      assert.equal(deleted.body.public, false);
    }
    const empty = await t.request('GET', '/api/v3/user/keys', { token: alice.token });
    assert.deepEqual(empty.body, []);
  });

  it('agrees with the installed ssh-keygen on freshly generated keys', async () => {
    // DSA is left to the committed fixture: generating one is slow, and newer OpenSSH cannot.
    for (const [type, bits] of [['rsa', 2048], ['ecdsa', 384], ['ed25519']] as Array<[string, number?]>) {
      const generated = generateKey(type, bits);
      const created = await t.request('POST', '/api/v3/user/keys', {
        token: bob.token,
        form: { title: `generated ${type}`, key: generated.text },
      });
      assert.equal(created.status, 201, `${type}: ${created.text}`);
      const deleted = await t.request('DELETE', `/api/v3/user/keys/${created.body.id}`, { token: bob.token });
      assert.equal(deleted.body.fingerprint, generated.fingerprint, type);
    }
  });

  it('answers missing parameters with the validation hash', async () => {
    let response = await post(alice.token, { key: fixture('rsa') });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: { title: ["can't be blank"] } });
    response = await post(alice.token, { title: 'x', key: '   ' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: { key: ["can't be blank"] } });
    response = await post(alice.token, {});
    assert.deepEqual(response.body, { message: { title: ["can't be blank"], key: ["can't be blank"] } });
  });

  it('refuses keys that are not keys, with GitLab’s messages per field', async () => {
    const cases: Array<[unknown, Record<string, string[]>]> = [
      ['not a key at all', { key: ['is invalid'], fingerprint: ['cannot be generated'] }],
      ['ssh-rsa AAAAthisisnotbase64ofakey comment', { fingerprint: ['cannot be generated'] }],
      [
        `${fixture('ed25519')}\n${fixture('rsa')}`,
        { key: ['is invalid', 'should be a single line'], fingerprint: ['cannot be generated'] },
      ],
      [
        `${fixture('ed25519')}\r${fixture('rsa')}`,
        { key: ['should be a single line'], fingerprint: ['cannot be generated'] },
      ],
      [`ssh-rsa ${'A'.repeat(5000)}`, { key: ['is too long (maximum is 5000 characters)'] }],
      // The name in front must be the key's own type (and curve).
      [`ssh-rsa ${fixture('ed25519').split(' ')[1]}`, { fingerprint: ['cannot be generated'] }],
      [`ecdsa-sha2-nistp256 ${fixture('ecdsa-384').split(' ')[1]}`, { fingerprint: ['cannot be generated'] }],
      // A private key pasted by mistake.
      ['-----BEGIN OPENSSH PRIVATE KEY-----', { key: ['is invalid'], fingerprint: ['cannot be generated'] }],
      // PostgreSQL cannot store a NUL byte in text; the key itself is fine, its comment is not.
      [`${fixture('ed25519')} \u0000`, { key: ['is invalid'] }],
    ];
    for (const [key, errors] of cases) {
      const response = await post(alice.token, { title: 'bad', key });
      assert.equal(response.status, 400, String(key));
      assert.deepEqual(response.body, { message: errors }, String(key));
    }

    // A point that is not on its curve, and an RSA modulus below what OpenSSH reads.
    const blob = Buffer.from(fixture('ecdsa-256').split(' ')[1]!, 'base64');
    blob[blob.length - 3]! ^= 0xff;
    const offCurve = `ecdsa-sha2-nistp256 ${blob.toString('base64')}`;
    const { publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 768 });
    const smallRsa = sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');
    for (const key of [offCurve, smallRsa]) {
      const response = await post(alice.token, { title: 'bad', key });
      assert.deepEqual(response.body, { message: { fingerprint: ['cannot be generated'] } });
    }

    const longTitle = await post(alice.token, { title: 't'.repeat(256), key: 'ssh-nope' });
    assert.deepEqual(longTitle.body, {
      message: {
        title: ['is too long (maximum is 255 characters)'],
        fingerprint: ['cannot be generated'],
      },
    });
    const keys = await t.request('GET', '/api/v3/user/keys', { token: alice.token });
    assert.deepEqual(keys.body, []);
  });

  it('keeps a fingerprint unique across all users, however the key is spelled', async () => {
    const text = freshKey('first');
    const first = await post(alice.token, { title: 'mine', key: text });
    assert.equal(first.status, 201);
    const [type, base64] = text.split(' ');
    for (const [token, key] of [
      [alice.token, text],
      [bob.token, `${type} ${base64} another comment`],
      [bob.token, `${type}\t${base64}`],
    ] as const) {
      const response = await post(token, { title: 'again', key });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: { fingerprint: ['has already been taken'] } });
    }

    // An RSA exponent with a superfluous leading zero is the same key to ssh-keygen, so a duplicate.
    const rsa = fixture('rsa').split(' ');
    const rsaBlob = Buffer.from(rsa[1]!, 'base64');
    assert.equal((await post(alice.token, { title: 'rsa', key: fixture('rsa') })).status, 201);
    const eAt = 4 + rsaBlob.readUInt32BE(0);
    const eLength = rsaBlob.readUInt32BE(eAt);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(eLength + 1);
    const padded = Buffer.concat([
      rsaBlob.subarray(0, eAt),
      length,
      Buffer.from([0]),
      rsaBlob.subarray(eAt + 4),
    ]);
    const response = await post(bob.token, { title: 'padded', key: `ssh-rsa ${padded.toString('base64')}` });
    assert.deepEqual(response.body, { message: { fingerprint: ['has already been taken'] } });
  });

  it('settles concurrent duplicates with one 201 and 400 hashes, never a 500', async () => {
    const key = freshKey('raced');
    // Open enough pooled connections first (PostgreSQL), so the requests really overlap.
    await Promise.all(
      Array.from({ length: 8 }, () => t.request('GET', '/api/v3/user', { token: alice.token })),
    );
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        post(index % 2 ? alice.token : bob.token, { title: 'race', key }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    assert.deepEqual(statuses, [201, 400, 400, 400, 400, 400]);
    for (const response of responses.filter((r) => r.status === 400)) {
      assert.deepEqual(response.body, { message: { fingerprint: ['has already been taken'] } });
    }
  });

  it('hides other users’ keys from /user/keys, administrators included', async () => {
    const bobs = await post(bob.token, { title: 'bob', key: freshKey('bob') });
    for (const token of [alice.token, t.rootToken]) {
      const response = await t.request('GET', `/api/v3/user/keys/${bobs.body.id}`, { token });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { message: '404 Not found' });
    }
    for (const id of ['999999', 'abc', '99999999999']) {
      const response = await t.request('GET', `/api/v3/user/keys/${id}`, { token: bob.token });
      assert.deepEqual([response.status, response.body], [404, { message: '404 Not found' }]);
    }
    // Deleting someone else's key is a quiet no-op.
    const deleted = await t.request('DELETE', `/api/v3/user/keys/${bobs.body.id}`, { token: alice.token });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.text, 'null');
    assert.match(String(deleted.headers['content-type']), /application\/json/);
    const still = await t.request('GET', `/api/v3/user/keys/${bobs.body.id}`, { token: bob.token });
    assert.equal(still.status, 200);
    // Deleting one's own key twice: the row, then null.
    const first = await t.request('DELETE', `/api/v3/user/keys/${bobs.body.id}`, { token: bob.token });
    assert.equal(first.body.id, bobs.body.id);
    const second = await t.request('DELETE', `/api/v3/user/keys/${bobs.body.id}`, { token: bob.token });
    assert.deepEqual([second.status, second.text], [200, 'null']);
    const notNumeric = await t.request('DELETE', '/api/v3/user/keys/abc', { token: bob.token });
    assert.deepEqual([notNumeric.status, notNumeric.text], [200, 'null']);
  });

  it('answers 401 without a token and for blocked users, 403 to non-administrators', async () => {
    const routes: Array<[string, string]> = [
      ['GET', '/api/v3/user/keys'],
      ['GET', '/api/v3/user/keys/1'],
      ['POST', '/api/v3/user/keys'],
      ['DELETE', '/api/v3/user/keys/1'],
      ['GET', `/api/v3/users/${alice.id}/keys`],
      ['POST', `/api/v3/users/${alice.id}/keys`],
      ['DELETE', `/api/v3/users/${alice.id}/keys/1`],
    ];
    for (const [method, url] of routes) {
      for (const token of [undefined, blocked.token]) {
        const response = await t.request(method, url, { token, body: { title: 'x', key: freshKey() } });
        assert.deepEqual(
          [response.status, response.body],
          [401, { message: '401 Unauthorized' }],
          `${method} ${url}`,
        );
      }
      if (url.startsWith('/api/v3/users/')) {
        const response = await t.request(method, url, {
          token: bob.token,
          body: { title: 'x', key: freshKey() },
        });
        assert.deepEqual(
          [response.status, response.body],
          [403, { message: '403 Forbidden' }],
          `${method} ${url}`,
        );
      }
    }
  });

  it('lets administrators list, add and delete any user’s keys', async () => {
    const key = freshKey('by admin');
    const created = await post(t.rootToken, { title: 'from admin', key }, `/api/v3/users/${alice.id}/keys`);
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), keyFields);
    assert.equal(created.body.key, key);

    const own = await t.request('GET', `/api/v3/user/keys/${created.body.id}`, { token: alice.token });
    assert.deepEqual(own.body, created.body);
    const list = await t.request('GET', `/api/v3/users/${alice.id}/keys`, { token: t.rootToken });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, (await t.request('GET', '/api/v3/user/keys', { token: alice.token })).body);
    assert.ok(list.body.some((k: { id: number }) => k.id === created.body.id));
    const blockedList = await t.request('GET', `/api/v3/users/${blocked.id}/keys`, {
      token: t.rootToken,
    });
    assert.deepEqual([blockedList.status, blockedList.body], [200, []]);

    // Someone else's key under this user is not found.
    const bobs = await post(bob.token, { title: 'bob', key: freshKey('bob2') });
    const wrongOwner = await t.request('DELETE', `/api/v3/users/${alice.id}/keys/${bobs.body.id}`, {
      token: t.rootToken,
    });
    assert.deepEqual([wrongOwner.status, wrongOwner.body], [404, { message: '404 Key Not Found' }]);

    const deleted = await t.request('DELETE', `/api/v3/users/${alice.id}/keys/${created.body.id}`, {
      token: t.rootToken,
    });
    assert.equal(deleted.status, 200);
    assert.deepEqual(Object.keys(deleted.body), recordFields);
    assert.equal(deleted.body.id, created.body.id);
    const again = await t.request('DELETE', `/api/v3/users/${alice.id}/keys/${created.body.id}`, {
      token: t.rootToken,
    });
    assert.deepEqual([again.status, again.body], [404, { message: '404 Key Not Found' }]);
    const notNumeric = await t.request('DELETE', `/api/v3/users/${alice.id}/keys/abc`, {
      token: t.rootToken,
    });
    assert.deepEqual([notNumeric.status, notNumeric.body], [404, { message: '404 Key Not Found' }]);
  });

  it('reports every failed administrator add as 404 with GitLab’s body', async () => {
    const url = `/api/v3/users/${alice.id}/keys`;
    const taken = freshKey('taken');
    assert.equal((await post(bob.token, { title: 'taken', key: taken })).status, 201);
    const cases: Array<[string, Record<string, unknown>, unknown]> = [
      [url, { key: freshKey() }, { message: { title: ["can't be blank"] } }],
      [url, { title: 'x' }, { message: { key: ["can't be blank"] } }],
      [
        url,
        { title: 'x', key: 'garbage' },
        { message: { key: ['is invalid'], fingerprint: ['cannot be generated'] } },
      ],
      [url, { title: 'x', key: taken }, { message: { fingerprint: ['has already been taken'] } }],
      [url, { title: ['x'], key: taken }, { error: 'title is invalid' }],
      ['/api/v3/users/999999/keys', { title: 'x', key: freshKey() }, { message: '404 Not found' }],
      // Parameters are checked before the user.
      ['/api/v3/users/999999/keys', { title: 'x' }, { message: { key: ["can't be blank"] } }],
    ];
    for (const [target, body, expected] of cases) {
      const response = await post(t.rootToken, body, target);
      assert.deepEqual([response.status, response.body], [404, expected], JSON.stringify(body));
    }
  });

  it('finds users by digits only', () => assertUserIdsOfDigitsOnly(t, 'keys'));

  it('acts on the impersonated user’s keys under sudo', async () => {
    const headers = { sudo: alice.username };
    const created = await t.request('POST', '/api/v3/user/keys', {
      token: t.rootToken,
      headers,
      body: { title: 'via sudo', key: freshKey('sudo') },
    });
    assert.equal(created.status, 201);
    const mine = await t.request('GET', `/api/v3/user/keys/${created.body.id}`, { token: alice.token });
    assert.deepEqual(mine.body, created.body);
    const rootsOwn = await t.request('GET', '/api/v3/user/keys', { token: t.rootToken });
    assert.ok(!rootsOwn.body.some((k: { id: number }) => k.id === created.body.id));
  });

  it('shows any key with its owner to administrators at /keys/:id', async () => {
    const created = await post(alice.token, { title: 'lookup', key: freshKey('lookup') });
    const response = await t.request('GET', `/api/v3/keys/${created.body.id}`, { token: t.rootToken });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), [...keyFields, 'user']);
    assert.deepEqual({ ...response.body, user: undefined }, { ...created.body, user: undefined });
    assert.equal(response.body.user.id, alice.id);
    assert.equal(response.body.user.username, 'alice');
    assert.equal(response.body.user.email, 'alice@example.com');
    assert.ok('identities' in response.body.user && 'can_create_project' in response.body.user);
    const own = await t.request('GET', `/api/v3/keys/${created.body.id}`, { token: alice.token });
    assert.deepEqual([own.status, own.body], [403, { message: '403 Forbidden' }]);
    const anonymous = await t.request('GET', `/api/v3/keys/${created.body.id}`);
    assert.equal(anonymous.status, 401);
    for (const id of ['999999', 'abc']) {
      const missing = await t.request('GET', `/api/v3/keys/${id}`, { token: t.rootToken });
      assert.deepEqual([missing.status, missing.body], [404, { message: '404 Not found' }]);
    }
  });
});
