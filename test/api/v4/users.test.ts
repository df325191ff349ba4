// API v4's people resources over the same services as v3: GET /user (python-gitlab's gl.auth()), the
// users resource with v4's filters, order and statuses, keys and emails with pages and 204 deletes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';

const USER_BASIC = ['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url'];
const USER = [
  ...USER_BASIC,
  'created_at',
  'bio',
  'location',
  'public_email',
  'skype',
  'linkedin',
  'twitter',
  'discord',
  'website_url',
  'organization',
  'job_title',
  'pronouns',
  'bot',
  'work_information',
  'local_time',
  'followers',
  'following',
];
const USER_PUBLIC = [
  ...USER,
  'last_sign_in_at',
  'confirmed_at',
  'last_activity_on',
  'email',
  'theme_id',
  'color_scheme_id',
  'projects_limit',
  'current_sign_in_at',
  'identities',
  'can_create_group',
  'can_create_project',
  'two_factor_enabled',
  'external',
  'private_profile',
  'commit_email',
];
const USER_WITH_ADMIN = [...USER_PUBLIC, 'is_admin', 'note'];
const PUBLIC_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@example';

describe('API v4 users', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const root = () => t.rootToken;

  before(async () => {
    t = await startTestApp();
    alice = await createUser(t, 'alice', { name: 'Alice Liddell', email: 'alice@wonderland.example' });
    bob = await createUser(t, 'bob', { external: true });
  });
  after(() => t.close());

  describe('GET /user', () => {
    it('answers UserPublic to a user, field by field, with exactly application/json', async () => {
      const response = await t.request('GET', '/api/v4/user', { token: alice.token });
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.deepEqual(Object.keys(response.body), USER_PUBLIC);
      const body = response.body;
      assert.equal(body.id, alice.id);
      assert.equal(body.username, 'alice');
      assert.equal(body.name, 'Alice Liddell');
      assert.equal(body.state, 'active');
      assert.equal(body.locked, false);
      assert.match(body.avatar_url, /^http:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}/);
      assert.equal(body.web_url, `${t.config.externalUrl}/alice`);
      assert.equal(body.email, 'alice@wonderland.example');
      assert.equal(body.commit_email, 'alice@wonderland.example');
      assert.equal(body.bot, false);
      assert.equal(body.private_profile, false);
      assert.equal(body.can_create_group, true);
      assert.equal(body.can_create_project, true);
      assert.equal(body.projects_limit, 10);
      assert.deepEqual(body.identities, []);
      assert.equal(body.private_token, undefined);
      assert.equal(body.is_admin, undefined);
    });

    it('answers UserWithAdmin to an administrator, and 401 without a token', async () => {
      const response = await t.request('GET', '/api/v4/user', { token: root() });
      assert.deepEqual(Object.keys(response.body), USER_WITH_ADMIN);
      assert.equal(response.body.is_admin, true);
      assert.equal(response.body.username, 'root');
      const anonymous = await t.request('GET', '/api/v4/user');
      assert.equal(anonymous.status, 401);
    });

    it('leaves v3 GET /user as it was (is_admin in the middle, no v4 fields)', async () => {
      const response = await t.request('GET', '/api/v3/user', { token: alice.token });
      assert.equal(response.body.is_admin, false);
      assert.equal(response.body.locked, undefined);
      assert.equal(response.body.commit_email, undefined);
    });
  });

  describe('GET /users', () => {
    it('gives users the basic entity, newest first, paginated', async () => {
      const response = await t.request('GET', '/api/v4/users?per_page=2', { token: alice.token });
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.map((user: any) => user.username),
        ['bob', 'alice'],
      );
      for (const user of response.body) assert.deepEqual(Object.keys(user), USER_BASIC);
      assert.equal(response.headers['x-total'], '3');
      assert.equal(response.headers['x-next-page'], '2');
      assert.match(String(response.headers.link), /rel="next"/);
    });

    it('gives administrators UserWithAdmin, with order_by and sort', async () => {
      const response = await t.request('GET', '/api/v4/users?order_by=username&sort=asc', { token: root() });
      assert.deepEqual(
        response.body.map((user: any) => user.username),
        ['alice', 'bob', 'root'],
      );
      for (const user of response.body) assert.deepEqual(Object.keys(user), USER_WITH_ADMIN);
      const bad = await t.request('GET', '/api/v4/users?order_by=email', { token: root() });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { error: 'order_by does not have a valid value' });
    });

    it('filters by username, search, external, blocked, active and creation time', async () => {
      const names = async (query: string, token = root()) =>
        (await t.request('GET', `/api/v4/users?${query}`, { token })).body.map((user: any) => user.username);
      assert.deepEqual(await names('username=ALICE', alice.token), ['alice']);
      assert.deepEqual(await names('search=liddell', alice.token), ['alice']);
      assert.deepEqual(await names('external=true'), ['bob']);
      assert.deepEqual(await names('blocked=true'), []);
      assert.deepEqual((await names('active=true')).sort(), ['alice', 'bob', 'root']);
      assert.deepEqual(await names('created_after=2999-01-01T00:00:00Z'), []);
      assert.deepEqual((await names('created_before=2999-01-01')).length, 3);
      const bad = await t.request('GET', '/api/v4/users?created_after=yesterday', { token: root() });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { error: 'created_after is invalid' });
      const notBoolean = await t.request('GET', '/api/v4/users?blocked=maybe', { token: root() });
      assert.deepEqual(notBoolean.body, { error: 'blocked is invalid' });
    });
  });

  describe('GET /users/:id', () => {
    it('answers User to users, UserWithAdmin to administrators, 404 User Not Found', async () => {
      const asUser = await t.request('GET', `/api/v4/users/${bob.id}`, { token: alice.token });
      assert.equal(asUser.status, 200);
      assert.deepEqual(Object.keys(asUser.body), USER);
      assert.equal(asUser.body.username, 'bob');
      const asAdmin = await t.request('GET', `/api/v4/users/${bob.id}`, { token: root() });
      assert.deepEqual(Object.keys(asAdmin.body), USER_WITH_ADMIN);
      assert.equal(asAdmin.body.external, true);
      const missing = await t.request('GET', '/api/v4/users/999999', { token: alice.token });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: '404 User Not Found' });
    });
  });

  describe('POST, PUT, DELETE /users', () => {
    it('creates from query-string parameters (python-gitlab), with skip_confirmation', async () => {
      const query =
        'email=carol@example.com&username=carol&name=Carol&password=carol-password-1&skip_confirmation=true';
      const response = await t.request('POST', `/api/v4/users?${query}&admin=true&projects_limit=3`, {
        token: root(),
        body: {},
      });
      assert.equal(response.status, 201);
      assert.deepEqual(Object.keys(response.body), USER_WITH_ADMIN);
      assert.equal(response.body.username, 'carol');
      assert.equal(response.body.is_admin, true);
      assert.equal(response.body.projects_limit, 3);
      assert.notEqual(response.body.confirmed_at, null);
      const signIn = await t.request('POST', '/api/v3/session', {
        body: { login: 'carol', password: 'carol-password-1' },
      });
      assert.equal(signIn.status, 201);
    });

    it('makes a password for reset_password, and asks for one of the three otherwise', async () => {
      const made = await t.request('POST', '/api/v4/users', {
        token: root(),
        body: { email: 'dave@example.com', username: 'dave', name: 'Dave', reset_password: true },
      });
      assert.equal(made.status, 201);
      const none = await t.request('POST', '/api/v4/users', {
        token: root(),
        body: { email: 'erin@example.com', username: 'erin', name: 'Erin' },
      });
      assert.equal(none.status, 400);
      assert.deepEqual(none.body, {
        error:
          'password, reset_password, force_random_password are missing, at least one parameter must be provided',
      });
    });

    it('refuses missing parameters (400), duplicates (409), invalid values (400), non-admins (403)', async () => {
      const missing = await t.request('POST', '/api/v4/users', { token: root(), body: { password: 'x' } });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, { error: 'email is missing, name is missing, username is missing' });
      const duplicate = await t.request('POST', '/api/v4/users', {
        token: root(),
        body: { email: 'alice@wonderland.example', username: 'alice2', name: 'A', password: 'password-1234' },
      });
      assert.equal(duplicate.status, 409);
      assert.deepEqual(duplicate.body, { message: 'Email has already been taken' });
      const short = await t.request('POST', '/api/v4/users', {
        token: root(),
        body: { email: 'frank@example.com', username: 'frank', name: 'F', password: 'short' },
      });
      assert.equal(short.status, 400);
      assert.ok(short.body.message.password);
      const refused = await t.request('POST', '/api/v4/users', {
        token: alice.token,
        body: { email: 'g@example.com', username: 'g', name: 'G', password: 'password-1234' },
      });
      assert.equal(refused.status, 403);
    });

    it('modifies with v4 statuses: 409 for a taken username, 404 User Not Found', async () => {
      const changed = await t.request('PUT', `/api/v4/users/${bob.id}`, {
        token: root(),
        body: { bio: 'Builder', skype: 'bob.skype' },
      });
      assert.equal(changed.status, 200);
      assert.deepEqual(Object.keys(changed.body), USER_WITH_ADMIN);
      assert.equal(changed.body.bio, 'Builder');
      assert.equal(changed.body.skype, 'bob.skype');
      const taken = await t.request('PUT', `/api/v4/users/${bob.id}`, {
        token: root(),
        body: { username: 'alice' },
      });
      assert.equal(taken.status, 409);
      assert.deepEqual(taken.body, { message: 'Username has already been taken' });
      const missing = await t.request('PUT', '/api/v4/users/999999', { token: root(), body: { bio: 'x' } });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: '404 User Not Found' });
    });

    it('blocks and unblocks with POST: 201 true, then null (already blocked); not oneself', async () => {
      const block = await t.request('POST', `/api/v4/users/${bob.id}/block`, { token: root() });
      assert.equal(block.status, 201);
      assert.equal(block.body, true);
      const again = await t.request('POST', `/api/v4/users/${bob.id}/block`, { token: root() });
      assert.equal(again.status, 201);
      assert.equal(again.text, 'null');
      const shown = await t.request('GET', `/api/v4/users/${bob.id}`, { token: alice.token });
      assert.equal(shown.body.state, 'blocked');
      const unblock = await t.request('POST', `/api/v4/users/${bob.id}/unblock`, { token: root() });
      assert.equal(unblock.body, true);
      const unblockAgain = await t.request('POST', `/api/v4/users/${bob.id}/unblock`, { token: root() });
      assert.equal(unblockAgain.text, 'false');
      const self = await t.request('GET', '/api/v4/user', { token: root() });
      const own = await t.request('POST', `/api/v4/users/${self.body.id}/block`, { token: root() });
      assert.equal(own.status, 403);
      const refused = await t.request('POST', `/api/v4/users/${bob.id}/block`, { token: alice.token });
      assert.equal(refused.status, 403);
      const missing = await t.request('POST', '/api/v4/users/999999/block', { token: root() });
      assert.equal(missing.status, 404);
    });

    it('deletes with 204 (hard_delete accepted), then 404', async () => {
      const victim = await createUser(t, 'victim');
      const deleted = await t.request('DELETE', `/api/v4/users/${victim.id}?hard_delete=true`, {
        token: root(),
        body: {},
      });
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      const gone = await t.request('GET', `/api/v4/users/${victim.id}`, { token: root() });
      assert.equal(gone.status, 404);
      const again = await t.request('DELETE', `/api/v4/users/${victim.id}`, { token: root() });
      assert.equal(again.status, 404);
      assert.deepEqual(again.body, { message: '404 User Not Found' });
    });
  });

  describe('keys and emails', () => {
    it('adds, lists (paginated), shows and deletes (204) the caller’s own keys', async () => {
      const added = await t.request('POST', '/api/v4/user/keys', {
        token: alice.token,
        body: { title: 'laptop', key: PUBLIC_KEY },
      });
      assert.equal(added.status, 201);
      assert.deepEqual(Object.keys(added.body), [
        'id',
        'title',
        'created_at',
        'expires_at',
        'key',
        'usage_type',
      ]);
      assert.equal(added.body.title, 'laptop');
      assert.equal(added.body.expires_at, null);
      assert.equal(added.body.usage_type, 'auth_and_signing');
      const list = await t.request('GET', '/api/v4/user/keys', { token: alice.token });
      assert.deepEqual(
        list.body.map((key: any) => key.id),
        [added.body.id],
      );
      assert.equal(list.headers['x-total'], '1');
      const byName = await t.request('GET', '/api/v4/users/alice/keys', { token: bob.token });
      assert.deepEqual(
        byName.body.map((key: any) => key.id),
        [added.body.id],
      );
      const one = await t.request('GET', `/api/v4/users/${alice.id}/keys/${added.body.id}`, {
        token: bob.token,
      });
      assert.equal(one.body.key, PUBLIC_KEY);
      const missing = await t.request('POST', '/api/v4/user/keys', { token: alice.token, body: {} });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, { error: 'key is missing, title is missing' });
      const deleted = await t.request('DELETE', `/api/v4/user/keys/${added.body.id}`, { token: alice.token });
      assert.equal(deleted.status, 204);
      const gone = await t.request('GET', `/api/v4/user/keys/${added.body.id}`, { token: alice.token });
      assert.equal(gone.status, 404);
      assert.deepEqual(gone.body, { message: '404 Key Not Found' });
    });

    it('lets administrators manage another user’s keys and emails, nobody else', async () => {
      const key = await t.request('POST', `/api/v4/users/${bob.id}/keys`, {
        token: root(),
        body: { title: 'bob key', key: PUBLIC_KEY.replace('alice', 'bob') },
      });
      assert.equal(key.status, 201);
      const refused = await t.request('POST', `/api/v4/users/${bob.id}/keys`, {
        token: alice.token,
        body: { title: 'x', key: PUBLIC_KEY },
      });
      assert.equal(refused.status, 403);
      const removed = await t.request('DELETE', `/api/v4/users/${bob.id}/keys/${key.body.id}`, {
        token: root(),
      });
      assert.equal(removed.status, 204);

      const email = await t.request('POST', `/api/v4/users/${bob.id}/emails`, {
        token: root(),
        body: { email: 'bob.other@example.com', skip_confirmation: true },
      });
      assert.equal(email.status, 201);
      assert.deepEqual(email.body, { id: email.body.id, email: 'bob.other@example.com' });
      const list = await t.request('GET', `/api/v4/users/${bob.id}/emails`, { token: root() });
      assert.deepEqual(list.body, [email.body]);
      const hidden = await t.request('GET', `/api/v4/users/${bob.id}/emails`, { token: alice.token });
      assert.equal(hidden.status, 403);
      const deleted = await t.request('DELETE', `/api/v4/users/${bob.id}/emails/${email.body.id}`, {
        token: root(),
      });
      assert.equal(deleted.status, 204);
      const again = await t.request('DELETE', `/api/v4/users/${bob.id}/emails/${email.body.id}`, {
        token: root(),
      });
      assert.deepEqual(again.body, { message: '404 Email Not Found' });
    });

    it('adds, lists and deletes the caller’s own emails', async () => {
      const added = await t.request('POST', '/api/v4/user/emails', {
        token: alice.token,
        body: { email: 'Alice.Second@example.com' },
      });
      assert.equal(added.status, 201);
      assert.equal(added.body.email, 'alice.second@example.com');
      const list = await t.request('GET', '/api/v4/user/emails', { token: alice.token });
      assert.deepEqual(list.body, [added.body]);
      assert.equal(list.headers['x-total'], '1');
      const deleted = await t.request('DELETE', `/api/v4/user/emails/${added.body.id}`, {
        token: alice.token,
      });
      assert.equal(deleted.status, 204);
      const empty = await t.request('GET', '/api/v4/user/emails', { token: alice.token });
      assert.deepEqual(empty.body, []);
    });
  });
});
