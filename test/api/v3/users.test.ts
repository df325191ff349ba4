import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';
import { USER_BASIC_KEYS, USER_FULL_KEYS, USER_KEYS } from '../../helpers/entity-keys.ts';

const NAMESPACE_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";

describe('users', () => {
  let t: TestApp;
  let alice: TestUser;
  let blocked: TestUser;
  const root = () => t.rootToken;

  before(async () => {
    t = await startTestApp();
    alice = await createUser(t, 'alice', { name: 'Alice Liddell', email: 'alice@wonderland.example' });
    blocked = await createUser(t, 'mallory', { name: 'Mallory Blocked' });
    const block = await t.request('PUT', `/api/v3/users/${blocked.id}/block`, { token: root() });
    assert.equal(block.status, 200);
  });
  after(() => t.close());

  describe('GET /users', () => {
    it('gives administrators the full form, with identities, paginated', async () => {
      const response = await t.request('GET', '/api/v3/users?per_page=2', { token: root() });
      assert.equal(response.status, 200);
      assert.equal(response.body.length, 2);
      assert.deepEqual(Object.keys(response.body[0]), USER_FULL_KEYS);
      assert.equal(response.body[0].username, 'root');
      assert.equal(response.body[1].username, 'alice');
      assert.equal(response.headers['x-per-page'], '2');
      assert.equal(response.headers['x-page'], '1');
      assert.equal(response.headers['x-next-page'], '2');
      assert.ok(Number(response.headers['x-total']) >= 3);
      assert.match(String(response.headers.link), /rel="next"/);
    });

    it('gives normal users the basic form', async () => {
      const response = await t.request('GET', '/api/v3/users', { token: alice.token });
      assert.equal(response.status, 200);
      for (const user of response.body) assert.deepEqual(Object.keys(user), USER_BASIC_KEYS);
      const mallory = response.body.find((user: any) => user.username === 'mallory');
      assert.equal(mallory.state, 'blocked');
    });

    it('searches username, email and name case-insensitively', async () => {
      const byName = await t.request('GET', '/api/v3/users?search=LIDDELL', { token: alice.token });
      assert.deepEqual(
        byName.body.map((user: any) => user.username),
        ['alice'],
      );
      const byEmail = await t.request('GET', '/api/v3/users?search=WONDERLAND.example', { token: root() });
      assert.deepEqual(
        byEmail.body.map((user: any) => user.username),
        ['alice'],
      );
      const byUsername = await t.request('GET', '/api/v3/users?search=aLLor', { token: root() });
      assert.deepEqual(
        byUsername.body.map((user: any) => user.username),
        ['mallory'],
      );
      assert.equal(byUsername.headers['x-total'], '1');
      // LIKE wildcards in the search text are literal.
      const wildcard = await t.request('GET', '/api/v3/users?search=%25', { token: root() });
      assert.deepEqual(wildcard.body, []);
      assert.equal(wildcard.headers['x-total'], '0');
      assert.equal(wildcard.headers['x-total-pages'], '0');
    });

    it('looks a username up exactly, without pagination', async () => {
      const response = await t.request('GET', '/api/v3/users?username=alice', { token: alice.token });
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.map((user: any) => user.id),
        [alice.id],
      );
      assert.equal(response.headers['x-total'], undefined);
      assert.equal(response.headers.link, undefined);
      const partial = await t.request('GET', '/api/v3/users?username=ali', { token: alice.token });
      assert.deepEqual(partial.body, []);
    });

    it('filters active users when `active` is given', async () => {
      const response = await t.request('GET', '/api/v3/users?active=true&per_page=100', { token: root() });
      const names = response.body.map((user: any) => user.username);
      assert.ok(names.includes('alice'));
      assert.ok(!names.includes('mallory'));
      assert.equal(Number(response.headers['x-total']), response.body.length);
    });

    it('refuses blocked users and anonymous callers with 401', async () => {
      for (const token of [blocked.token, undefined, 'not-a-token']) {
        const response = await t.request('GET', '/api/v3/users', { token });
        assert.equal(response.status, 401);
        assert.deepEqual(response.body, { message: '401 Unauthorized' });
      }
    });
  });

  describe('GET /users/:id', () => {
    it('shows the full form to administrators and the user form to others', async () => {
      const asAdmin = await t.request('GET', `/api/v3/users/${alice.id}`, { token: root() });
      assert.equal(asAdmin.status, 200);
      assert.deepEqual(Object.keys(asAdmin.body), USER_FULL_KEYS);
      assert.equal(asAdmin.body.email, 'alice@wonderland.example');
      const asUser = await t.request('GET', `/api/v3/users/1`, { token: alice.token });
      assert.equal(asUser.status, 200);
      assert.deepEqual(Object.keys(asUser.body), USER_KEYS);
      assert.equal(asUser.body.is_admin, true);
      assert.equal(asUser.body.organization, '');
    });

    it('answers 404 for a missing user and the catch-all for a non-numeric id', async () => {
      const missing = await t.request('GET', '/api/v3/users/999999', { token: alice.token });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: '404 Not found' });
      const huge = await t.request('GET', '/api/v3/users/99999999999999999999', { token: root() });
      assert.deepEqual(huge.body, { message: '404 Not found' });
      const word = await t.request('GET', '/api/v3/users/alice', { token: alice.token });
      assert.equal(word.status, 404);
      assert.deepEqual(word.body, { error: '404 Not Found' });
    });

    it('refuses blocked and anonymous callers', async () => {
      assert.equal(
        (await t.request('GET', `/api/v3/users/${alice.id}`, { token: blocked.token })).status,
        401,
      );
      assert.equal((await t.request('GET', `/api/v3/users/${alice.id}`)).status, 401);
    });
  });

  describe('POST /users', () => {
    const valid = (overrides: Record<string, unknown> = {}) => ({
      email: 'new@example.com',
      password: 'password123',
      name: 'New Person',
      username: 'newperson',
      ...overrides,
    });

    it('creates a user with every optional attribute and answers 201 with the full form', async () => {
      const response = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: {
          email: 'Dora@Example.com',
          password: 'password123',
          name: 'Dora',
          username: 'dora',
          skype: 'dora.skype',
          linkedin: 'dora-li',
          twitter: '@dora',
          website_url: 'https://dora.example',
          organization: 'Explorers',
          bio: 'Explores.',
          location: 'Jungle',
          projects_limit: 42,
          admin: true,
          can_create_group: false,
          confirm: false,
          provider: 'ldapmain',
          extern_uid: 'uid=dora,ou=people',
        },
      });
      assert.equal(response.status, 201, response.text);
      assert.deepEqual(Object.keys(response.body), USER_FULL_KEYS);
      const user = response.body;
      assert.equal(user.email, 'dora@example.com');
      assert.equal(user.username, 'dora');
      assert.equal(user.skype, 'dora.skype');
      assert.equal(user.linkedin, 'dora-li');
      assert.equal(user.twitter, '@dora');
      assert.equal(user.website_url, 'https://dora.example');
      assert.equal(user.organization, 'Explorers');
      assert.equal(user.bio, 'Explores.');
      assert.equal(user.location, 'Jungle');
      assert.equal(user.projects_limit, 42);
      assert.equal(user.is_admin, true);
      assert.equal(user.can_create_group, false);
      assert.equal(user.can_create_project, true);
      assert.equal(user.external, false);
      assert.equal(user.state, 'active');
      assert.equal(user.last_sign_in_at, null);
      assert.match(user.confirmed_at, /Z$/);
      assert.deepEqual(user.identities, [{ provider: 'ldapmain', extern_uid: 'uid=dora,ou=people' }]);
      assert.equal(user.private_token, undefined);
      const again = await t.request('GET', `/api/v3/users/${user.id}`, { token: root() });
      assert.deepEqual(again.body, user);
    });

    it('applies the defaults and takes external users’ rights away', async () => {
      const plain = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ username: 'plain', email: 'plain@example.com' }),
      });
      assert.equal(plain.status, 201);
      assert.equal(plain.body.projects_limit, 10);
      assert.equal(plain.body.can_create_group, true);
      assert.equal(plain.body.is_admin, false);
      assert.deepEqual(plain.body.identities, []);
      const external = await t.request('POST', '/api/v3/users', {
        token: root(),
        form: {
          ...valid({ username: 'outsider', email: 'outsider@example.com' }),
          external: 'true',
          projects_limit: '5',
        } as Record<string, string>,
      });
      assert.equal(external.status, 201, external.text);
      assert.equal(external.body.external, true);
      assert.equal(external.body.can_create_group, false);
      assert.equal(external.body.projects_limit, 0);
      assert.equal(external.body.can_create_project, false);
    });

    it('asks for email, password, name and username in that order', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'email'],
        [{ email: 'x@example.com' }, 'password'],
        [{ email: 'x@example.com', password: 'password123' }, 'name'],
        [{ email: 'x@example.com', password: 'password123', name: 'X' }, 'username'],
        [{ email: '  ', password: 'password123', name: 'X', username: 'x' }, 'email'],
      ];
      for (const [body, missing] of cases) {
        const response = await t.request('POST', '/api/v3/users', { token: root(), body });
        assert.equal(response.status, 400);
        assert.deepEqual(response.body, { message: `400 (Bad request) "${missing}" not given` });
      }
    });

    it('reports every validation failure in one hash, in GitLab’s field order', async () => {
      const response = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({
          email: 'not-an-email',
          password: 'short',
          bio: 'b'.repeat(256),
          projects_limit: -1,
          username: '-bad.',
        }),
      });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, {
        message: {
          email: ['is invalid'],
          password: ['is too short (minimum is 8 characters)'],
          bio: ['is too long (maximum is 255 characters)'],
          projects_limit: ['must be greater than or equal to 0'],
          username: [NAMESPACE_MESSAGE],
        },
      });
      const other = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ password: 'p'.repeat(129), projects_limit: 'lots', username: 'repo.git' }),
      });
      assert.deepEqual(other.body, {
        message: {
          password: ['is too long (maximum is 128 characters)'],
          projects_limit: ['is not a number'],
          username: [NAMESPACE_MESSAGE],
        },
      });
    });

    it('accepts the boundaries: 8 and 128 character passwords, a 255 character bio, limit 0', async () => {
      const eight = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({
          username: 'eight',
          email: 'eight@example.com',
          password: '12345678',
          bio: 'é'.repeat(255),
          projects_limit: 0,
        }),
      });
      assert.equal(eight.status, 201, eight.text);
      assert.equal(eight.body.projects_limit, 0);
      assert.equal(eight.body.can_create_project, false);
      const long = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ username: 'longpw', email: 'longpw@example.com', password: 'x'.repeat(128) }),
      });
      assert.equal(long.status, 201);
      const session = await t.request('POST', '/api/v3/session', {
        body: { login: 'longpw', password: 'x'.repeat(128) },
      });
      assert.equal(session.status, 201);
    });

    it('keeps indexed values within 255 characters', async () => {
      const response = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({
          email: `${'e'.repeat(250)}@example.com`,
          username: 'u'.repeat(256),
          provider: 'ldapmain',
          extern_uid: 'x'.repeat(256),
        }),
      });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, {
        message: {
          email: ['is too long (maximum is 255 characters)'],
          'identities.extern_uid': ['is too long (maximum is 255 characters)'],
          username: ['is too long (maximum is 255 characters)'],
        },
      });
      const longest = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ username: 'u'.repeat(255), email: `${'e'.repeat(243)}@example.com` }),
      });
      assert.equal(longest.status, 201, longest.text);
    });

    it('refuses reserved names', async () => {
      for (const name of ['admin', 'users', 'robots.txt', '.well-known']) {
        const response = await t.request('POST', '/api/v3/users', {
          token: root(),
          body: valid({ username: name }),
        });
        assert.equal(response.status, 400, name);
        assert.ok(response.body.message.username.includes(`${name} is a reserved name`), response.text);
      }
    });

    it('answers 409 when another user has exactly that email or username, else the 400 hash', async () => {
      const email = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ email: 'alice@wonderland.example', password: 'short' }),
      });
      assert.equal(email.status, 409);
      assert.deepEqual(email.body, { message: 'Email has already been taken' });
      // Emails are stored lower-cased (Devise), so a different case is the same email.
      const emailCase = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ email: 'ALICE@Wonderland.example' }),
      });
      assert.deepEqual(emailCase.body, { message: 'Email has already been taken' });
      const username = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ username: 'alice' }),
      });
      assert.equal(username.status, 409);
      assert.deepEqual(username.body, { message: 'Username has already been taken' });
      const usernameCase = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ username: 'ALICE' }),
      });
      assert.equal(usernameCase.status, 400);
      assert.deepEqual(usernameCase.body, { message: { username: ['has already been taken'] } });
    });

    it('keeps usernames apart from group paths and emails apart from secondary emails', async () => {
      const db = t.server.deps.db.kysely;
      const at = new Date().toISOString();
      // Fixtures for rows whose endpoints other areas build: a group and a secondary email.
      await db
        .insertInto('namespaces')
        .values({
          name: 'Acme',
          path: 'acme',
          owner_id: null,
          type: 'Group',
          description: '',
          visibility_level: 20,
          request_access_enabled: 0,
          lfs_enabled: 1,
          share_with_group_lock: 0,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await db
        .insertInto('emails')
        .values({ user_id: alice.id, email: 'alias@example.com', created_at: at })
        .execute();
      const group = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ username: 'Acme' }),
      });
      assert.equal(group.status, 400);
      assert.deepEqual(group.body, { message: { username: ['has already been taken'] } });
      const secondary = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ email: 'Alias@example.com' }),
      });
      assert.equal(secondary.status, 400);
      assert.deepEqual(secondary.body, { message: { email: ['has already been taken'] } });
      const renameToGroup = await t.request('PUT', `/api/v3/users/${alice.id}`, {
        token: root(),
        body: { username: 'acme' },
      });
      assert.equal(renameToGroup.status, 404);
      assert.deepEqual(renameToGroup.body, { message: { username: ['has already been taken'] } });
    });

    it('checks identities: provider required with extern_uid, extern_uid unique per provider', async () => {
      const noProvider = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ extern_uid: 'someone' }),
      });
      assert.equal(noProvider.status, 400);
      assert.deepEqual(noProvider.body, { message: { 'identities.provider': ["can't be blank"] } });
      const taken = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ provider: 'ldapmain', extern_uid: 'uid=dora,ou=people' }),
      });
      assert.equal(taken.status, 400);
      assert.deepEqual(taken.body, { message: { 'identities.extern_uid': ['has already been taken'] } });
    });

    it('is for administrators only', async () => {
      const normal = await t.request('POST', '/api/v3/users', { token: alice.token, body: valid() });
      assert.equal(normal.status, 403);
      assert.deepEqual(normal.body, { message: '403 Forbidden' });
      assert.equal(
        (await t.request('POST', '/api/v3/users', { token: blocked.token, body: valid() })).status,
        401,
      );
      assert.equal((await t.request('POST', '/api/v3/users', { body: valid() })).status, 401);
      const bad = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: valid({ admin: 'maybe' }),
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { error: 'admin is invalid' });
    });
  });

  describe('PUT /users/:id', () => {
    let bob: TestUser;
    before(async () => {
      bob = await createUser(t, 'bob', { name: 'Bob', admin: true, projectsLimit: 7 });
    });

    it('changes only what was sent', async () => {
      const response = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { bio: 'Builder', website_url: 'https://bob.example', organization: 'Bob & Co', name: '' },
      });
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(Object.keys(response.body), USER_FULL_KEYS);
      assert.equal(response.body.bio, 'Builder');
      assert.equal(response.body.website_url, 'https://bob.example');
      assert.equal(response.body.organization, 'Bob & Co');
      assert.equal(response.body.name, 'Bob');
      assert.equal(response.body.is_admin, true);
      assert.equal(response.body.projects_limit, 7);
      const demote = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        form: { admin: 'false', can_create_group: '0', projects_limit: '3', skype: 'bobsk' },
      });
      assert.equal(demote.status, 200);
      assert.equal(demote.body.is_admin, false);
      assert.equal(demote.body.can_create_group, false);
      assert.equal(demote.body.projects_limit, 3);
      assert.equal(demote.body.skype, 'bobsk');
      assert.equal(demote.body.bio, 'Builder');
    });

    it('changes the password and the email', async () => {
      const response = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { password: 'new-password-1', email: 'Bob.New@Example.com' },
      });
      assert.equal(response.status, 200);
      assert.equal(response.body.email, 'bob.new@example.com');
      const old = await t.request('POST', '/api/v3/session', {
        body: { login: 'bob', password: bob.password },
      });
      assert.equal(old.status, 401);
      const fresh = await t.request('POST', '/api/v3/session', {
        body: { email: 'bob.new@example.com', password: 'new-password-1' },
      });
      assert.equal(fresh.status, 201);
    });

    it('renames the personal namespace with the username', async () => {
      const response = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { username: 'robert' },
      });
      assert.equal(response.status, 200);
      assert.equal(response.body.username, 'robert');
      assert.equal(response.body.web_url, 'http://labrador.test/robert');
      const namespace = await t.server.deps.db.kysely
        .selectFrom('namespaces')
        .select(['path', 'name'])
        .where('owner_id', '=', bob.id)
        .where('type', 'is', null)
        .executeTakeFirstOrThrow();
      assert.deepEqual(namespace, { path: 'robert', name: 'robert' });
      // The old name is free again, the new one is not.
      const reuse = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: { email: 'bob2@example.com', password: 'password123', name: 'Bob Two', username: 'bob' },
      });
      assert.equal(reuse.status, 201, reuse.text);
      const clash = await t.request('PUT', `/api/v3/users/${reuse.body.id}`, {
        token: root(),
        body: { username: 'robert' },
      });
      assert.equal(clash.status, 404);
      assert.deepEqual(clash.body, { message: 'Username has already been taken' });
      // A change of case is the user's own namespace, not a collision.
      const recase = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { username: 'Robert' },
      });
      assert.equal(recase.status, 200);
      assert.equal(recase.body.username, 'Robert');
    });

    it('adds an identity or updates the one of that provider', async () => {
      const add = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { provider: 'github', extern_uid: '1001' },
      });
      assert.deepEqual(add.body.identities, [{ provider: 'github', extern_uid: '1001' }]);
      const update = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { provider: 'github', extern_uid: '2002' },
      });
      assert.deepEqual(update.body.identities, [{ provider: 'github', extern_uid: '2002' }]);
      const second = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { provider: 'ldapmain', extern_uid: 'uid=bob' },
      });
      assert.deepEqual(second.body.identities, [
        { provider: 'github', extern_uid: '2002' },
        { provider: 'ldapmain', extern_uid: 'uid=bob' },
      ]);
    });

    it('answers every failure with 404 and GitLab’s message', async () => {
      const email = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { email: 'alice@wonderland.example' },
      });
      assert.equal(email.status, 404);
      assert.deepEqual(email.body, { message: 'Email has already been taken' });
      const username = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { username: 'alice' },
      });
      assert.equal(username.status, 404);
      assert.deepEqual(username.body, { message: 'Username has already been taken' });
      const invalid = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { password: 'short', projects_limit: -5, username: 'projects' },
      });
      assert.equal(invalid.status, 404);
      assert.deepEqual(invalid.body, {
        message: {
          password: ['is too short (minimum is 8 characters)'],
          projects_limit: ['must be greater than or equal to 0'],
          username: ['projects is a reserved name'],
        },
      });
      const missing = await t.request('PUT', '/api/v3/users/999999', { token: root(), body: { bio: 'x' } });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: '404 Not found' });
      // Nothing of a refused change was kept.
      const after = await t.request('GET', `/api/v3/users/${bob.id}`, { token: root() });
      assert.equal(after.body.username, 'Robert');
    });

    it('lets a user’s own secondary email become the primary, keeping the old one as secondary', async () => {
      const db = t.server.deps.db.kysely;
      await db
        .insertInto('emails')
        .values({ user_id: bob.id, email: 'robert@work.example', created_at: new Date().toISOString() })
        .execute();
      const response = await t.request('PUT', `/api/v3/users/${bob.id}`, {
        token: root(),
        body: { email: 'robert@work.example' },
      });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.email, 'robert@work.example');
      const secondaries = await db
        .selectFrom('emails')
        .select('email')
        .where('user_id', '=', bob.id)
        .execute();
      assert.deepEqual(
        secondaries.map((row) => row.email),
        ['bob.new@example.com'],
      );
    });

    it('is for administrators only', async () => {
      const normal = await t.request('PUT', `/api/v3/users/${alice.id}`, {
        token: alice.token,
        body: { admin: true },
      });
      assert.equal(normal.status, 403);
      assert.equal(
        (await t.request('PUT', `/api/v3/users/${alice.id}`, { token: blocked.token })).status,
        401,
      );
      assert.equal((await t.request('PUT', `/api/v3/users/${alice.id}`)).status, 401);
      const word = await t.request('PUT', '/api/v3/users/alice', { token: root(), body: { bio: 'x' } });
      assert.deepEqual(word.body, { error: '404 Not Found' });
    });
  });

  describe('DELETE /users/:id', () => {
    it('deletes the user with keys, emails, identities and namespace, and answers the full form', async () => {
      const carol = await createUser(t, 'carol', { identity: { provider: 'github', externUid: 'carol-1' } });
      const db = t.server.deps.db.kysely;
      const at = new Date().toISOString();
      await db
        .insertInto('emails')
        .values({ user_id: carol.id, email: 'carol@alt.example', created_at: at })
        .execute();
      await db
        .insertInto('keys')
        .values({
          user_id: carol.id,
          title: 'k',
          key: 'ssh-ed25519 AAAA',
          fingerprint: 'carol-fp',
          created_at: at,
          updated_at: at,
        })
        .execute();

      const normal = await t.request('DELETE', `/api/v3/users/${carol.id}`, { token: alice.token });
      assert.equal(normal.status, 403);
      assert.equal((await t.request('DELETE', `/api/v3/users/${carol.id}`)).status, 401);

      const response = await t.request('DELETE', `/api/v3/users/${carol.id}`, { token: root() });
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body), USER_FULL_KEYS);
      assert.equal(response.body.username, 'carol');
      assert.deepEqual(response.body.identities, [{ provider: 'github', extern_uid: 'carol-1' }]);

      assert.equal((await t.request('GET', `/api/v3/users/${carol.id}`, { token: root() })).status, 404);
      assert.equal((await t.request('GET', '/api/v3/user', { token: carol.token })).status, 401);
      for (const table of ['keys', 'emails', 'identities'] as const) {
        const rows = await db.selectFrom(table).select('id').where('user_id', '=', carol.id).execute();
        assert.equal(rows.length, 0, table);
      }
      const namespaces = await db
        .selectFrom('namespaces')
        .select('id')
        .where('owner_id', '=', carol.id)
        .execute();
      assert.equal(namespaces.length, 0);
      // Name, email and extern_uid are free again.
      const again = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: {
          email: carol.email,
          password: 'password123',
          name: 'Carol',
          username: 'carol',
          provider: 'github',
          extern_uid: 'carol-1',
        },
      });
      assert.equal(again.status, 201, again.text);
    });

    it('is idempotent: an unknown user is 200 with null', async () => {
      const response = await t.request('DELETE', '/api/v3/users/999999', { token: root() });
      assert.equal(response.status, 200);
      assert.equal(response.text, 'null');
      assert.match(String(response.headers['content-type']), /application\/json/);
      const word = await t.request('DELETE', '/api/v3/users/carol', { token: root() });
      assert.deepEqual(word.body, { error: '404 Not Found' });
    });
  });

  describe('block and unblock', () => {
    it('blocks (true, then false) and the blocked user gets 401 everywhere', async () => {
      const eve = await createUser(t, 'eve');
      const first = await t.request('PUT', `/api/v3/users/${eve.id}/block`, { token: root() });
      assert.equal(first.status, 200);
      assert.equal(first.text, 'true');
      const second = await t.request('PUT', `/api/v3/users/${eve.id}/block`, { token: root() });
      assert.equal(second.text, 'false');
      for (const [method, url] of [
        ['GET', '/api/v3/user'],
        ['GET', '/api/v3/users'],
        ['GET', `/api/v3/users/${eve.id}`],
        ['GET', '/api/v3/version'],
      ]) {
        const response = await t.request(method, url, { token: eve.token });
        assert.equal(response.status, 401, url);
        assert.deepEqual(response.body, { message: '401 Unauthorized' });
      }
      const shown = await t.request('GET', `/api/v3/users/${eve.id}`, { token: root() });
      assert.equal(shown.body.state, 'blocked');
      const session = await t.request('POST', '/api/v3/session', {
        body: { login: 'eve', password: eve.password },
      });
      assert.equal(session.status, 401);

      const unblock = await t.request('PUT', `/api/v3/users/${eve.id}/unblock`, { token: root() });
      assert.equal(unblock.status, 200);
      assert.equal(unblock.text, 'true');
      assert.equal(
        (await t.request('PUT', `/api/v3/users/${eve.id}/unblock`, { token: root() })).text,
        'false',
      );
      assert.equal((await t.request('GET', '/api/v3/user', { token: eve.token })).status, 200);
    });

    it('answers 404 User Not Found, 403 for normal users and 401 without a token', async () => {
      for (const action of ['block', 'unblock']) {
        const missing = await t.request('PUT', `/api/v3/users/999999/${action}`, { token: root() });
        assert.equal(missing.status, 404);
        assert.deepEqual(missing.body, { message: '404 User Not Found' });
        const normal = await t.request('PUT', `/api/v3/users/${alice.id}/${action}`, { token: alice.token });
        assert.equal(normal.status, 403);
        assert.equal((await t.request('PUT', `/api/v3/users/${alice.id}/${action}`)).status, 401);
        assert.equal(
          (await t.request('PUT', `/api/v3/users/${alice.id}/${action}`, { token: blocked.token })).status,
          401,
        );
      }
    });
  });

  describe('text at the boundary', () => {
    const valid = (username: string) => ({
      email: `${username}@example.com`,
      password: 'password1234',
      name: `Name ${username}`,
      username,
    });

    it('refuses a NUL byte in any text attribute as the model refuses a bad value: 400 on create, 404 on edit', async () => {
      for (const field of ['email', 'name', 'username', 'bio', 'skype']) {
        const body = { ...valid('nulcreate'), [field]: 'a\u0000b' };
        const created = await t.request('POST', '/api/v3/users', { token: root(), body });
        assert.equal(created.status, 400, field);
        assert.deepEqual(created.body, { message: { [field]: ['is invalid'] } }, field);
        const edited = await t.request('PUT', `/api/v3/users/${alice.id}`, {
          token: root(),
          body: { [field]: 'a\u0000b' },
        });
        assert.equal(edited.status, 404, field);
        assert.deepEqual(edited.body, { message: { [field]: ['is invalid'] } }, field);
      }
      const lookup = await t.request('GET', '/api/v3/users?username=nulcreate', { token: root() });
      assert.deepEqual(lookup.body, []);
      const shown = await t.request('GET', `/api/v3/users/${alice.id}`, { token: root() });
      assert.equal(shown.body.email, 'alice@wonderland.example');
      assert.equal(shown.body.name, 'Alice Liddell');
    });

    it('answers a NUL byte in a primary email as it answers one in a secondary email', async () => {
      const nul = 'a\u0000b@example.com';
      const primary = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: { ...valid('nulmail'), email: nul },
      });
      const secondary = await t.request('POST', '/api/v3/user/emails', {
        token: alice.token,
        body: { email: nul },
      });
      assert.equal(primary.status, 400);
      assert.equal(secondary.status, 400);
      assert.deepEqual(primary.body, secondary.body);
      assert.deepEqual(primary.body, { message: { email: ['is invalid'] } });
      // Administrators' failures are 404s, for the primary (PUT) and a secondary email alike.
      const primaryByAdmin = await t.request('PUT', `/api/v3/users/${alice.id}`, {
        token: root(),
        body: { email: nul },
      });
      const secondaryByAdmin = await t.request('POST', `/api/v3/users/${alice.id}/emails`, {
        token: root(),
        body: { email: nul },
      });
      assert.equal(primaryByAdmin.status, 404);
      assert.equal(secondaryByAdmin.status, 404);
      assert.deepEqual(primaryByAdmin.body, secondaryByAdmin.body);
    });

    it("bounds every text column at 255 characters, as GitLab's varchar(255) columns did", async () => {
      const long = 'x'.repeat(256);
      const fields: Record<string, string> = {
        name: long,
        username: long,
        email: `${'x'.repeat(244)}@example.com`,
        skype: long,
        linkedin: long,
        twitter: long,
        website_url: long,
        location: long,
        organization: long,
      };
      const tooLong = ['is too long (maximum is 255 characters)'];
      for (const [field, value] of Object.entries(fields)) {
        const created = await t.request('POST', '/api/v3/users', {
          token: root(),
          body: { ...valid('longish'), [field]: value },
        });
        assert.equal(created.status, 400, field);
        assert.deepEqual(created.body.message[field], tooLong, field);
        const edited = await t.request('PUT', `/api/v3/users/${alice.id}`, {
          token: root(),
          body: { [field]: value },
        });
        assert.equal(edited.status, 404, field);
        assert.deepEqual(edited.body.message[field], tooLong, field);
      }
      assert.deepEqual(
        (await t.request('GET', '/api/v3/users?username=longish', { token: root() })).body,
        [],
      );
    });

    it('takes 255 characters, counted as characters rather than bytes', async () => {
      const created = await t.request('POST', '/api/v3/users', {
        token: root(),
        body: {
          ...valid('fullwidth'),
          name: 'é'.repeat(255),
          organization: '組'.repeat(255),
          website_url: `https://${'w'.repeat(247)}`,
        },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.name, 'é'.repeat(255));
      assert.equal(created.body.organization, '組'.repeat(255));
    });
  });
});
