// v3 GET/PUT /application/settings as 8.13 had them: administrators only, 8.13's keys (visibilities as
// levels), the one store v4 reads, and default_projects_limit acting on users created afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';

const KEYS_8_13 = [
  'id',
  'default_projects_limit',
  'signup_enabled',
  'signin_enabled',
  'gravatar_enabled',
  'sign_in_text',
  'after_sign_up_text',
  'created_at',
  'updated_at',
  'home_page_url',
  'default_branch_protection',
  'restricted_visibility_levels',
  'max_attachment_size',
  'session_expire_delay',
  'default_project_visibility',
  'default_snippet_visibility',
  'default_group_visibility',
  'domain_whitelist',
  'domain_blacklist_enabled',
  'domain_blacklist',
  'user_oauth_applications',
  'after_sign_out_path',
  'container_registry_token_expire_delay',
  'repository_storage',
  'koding_enabled',
  'koding_url',
];

describe('API v3 application settings', () => {
  let t: TestApp;
  let user: TestUser;

  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'plain');
  });
  after(() => t.close());

  it("shows 8.13's keys to an administrator; 403 for others, 401 for visitors", async () => {
    const shown = await t.request('GET', '/api/v3/application/settings', { token: t.rootToken });
    assert.equal(shown.status, 200);
    assert.deepEqual(Object.keys(shown.body).sort(), [...KEYS_8_13].sort());
    assert.equal(shown.body.default_projects_limit, 10);
    assert.equal(shown.body.default_project_visibility, 0);
    assert.equal(shown.body.default_group_visibility, 0);
    assert.equal(shown.body.signup_enabled, false);
    assert.equal(shown.body.max_attachment_size, 10);
    const refused = await t.request('GET', '/api/v3/application/settings', { token: user.token });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { message: '403 Forbidden' });
    const put = await t.request('PUT', '/api/v3/application/settings', {
      token: user.token,
      body: { default_projects_limit: 1 },
    });
    assert.equal(put.status, 403);
    assert.equal((await t.request('GET', '/api/v3/application/settings')).status, 401);
  });

  it('writes the store v4 reads; v4 writes show in v3', async () => {
    const changed = await t.request('PUT', '/api/v3/application/settings', {
      token: t.rootToken,
      body: { default_project_visibility: 10, default_group_visibility: '20', gravatar_enabled: false },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.default_project_visibility, 10);
    assert.equal(changed.body.default_group_visibility, 20);
    const v4 = await t.request('GET', '/api/v4/application/settings', { token: t.rootToken });
    assert.equal(v4.body.default_project_visibility, 'internal');
    assert.equal(v4.body.default_group_visibility, 'public');
    // A v4 project created without a visibility follows the setting written through v3.
    const project = await t.request('POST', '/api/v4/projects', { token: user.token, body: { name: 'p' } });
    assert.equal(project.body.visibility, 'internal');
    await t.request('PUT', '/api/v4/application/settings', {
      token: t.rootToken,
      body: { default_project_visibility: 'private', default_group_visibility: 'private' },
    });
    const back = await t.request('GET', '/api/v3/application/settings', { token: t.rootToken });
    assert.equal(back.body.default_project_visibility, 0);
    assert.equal(back.body.default_group_visibility, 0);
  });

  it('default_projects_limit, set through either version, is what new users get', async () => {
    const v3 = await t.request('PUT', '/api/v3/application/settings', {
      token: t.rootToken,
      body: { default_projects_limit: 3 },
    });
    assert.equal(v3.status, 200);
    assert.equal(v3.body.default_projects_limit, 3);
    const made = await t.request('POST', '/api/v3/users', {
      token: t.rootToken,
      body: { email: 'three@example.com', password: 'secret-pass-1', username: 'three', name: 'Three' },
    });
    assert.equal(made.status, 201);
    assert.equal(made.body.projects_limit, 3);
    const v4 = await t.request('PUT', '/api/v4/application/settings', {
      token: t.rootToken,
      body: { default_projects_limit: 0 },
    });
    assert.equal(v4.body.default_projects_limit, 0);
    const zero = await t.request('POST', '/api/v4/users', {
      token: t.rootToken,
      body: { email: 'zero@example.com', password: 'secret-pass-1', username: 'zero', name: 'Zero' },
    });
    assert.equal(zero.status, 201);
    assert.equal(zero.body.projects_limit, 0);
    // Naming a limit still wins over the default.
    const named = await t.request('POST', '/api/v3/users', {
      token: t.rootToken,
      body: {
        email: 'five@example.com',
        password: 'secret-pass-1',
        username: 'five',
        name: 'Five',
        projects_limit: 5,
      },
    });
    assert.equal(named.body.projects_limit, 5);
    await t.request('PUT', '/api/v3/application/settings', {
      token: t.rootToken,
      body: { default_projects_limit: 10 },
    });
  });

  it('refuses bad values with 400 and changes nothing', async () => {
    const level = await t.request('PUT', '/api/v3/application/settings', {
      token: t.rootToken,
      body: { default_project_visibility: 5, default_projects_limit: 7 },
    });
    assert.equal(level.status, 400);
    assert.deepEqual(level.body, {
      message: { default_project_visibility: ['is not included in the list'] },
    });
    const negative = await t.request('PUT', '/api/v3/application/settings', {
      token: t.rootToken,
      body: { default_projects_limit: -1 },
    });
    assert.equal(negative.status, 400);
    assert.deepEqual(negative.body, {
      message: { default_projects_limit: ['must be greater than or equal to 0'] },
    });
    const word = await t.request('PUT', '/api/v3/application/settings', {
      token: t.rootToken,
      body: { default_projects_limit: 'many' },
    });
    assert.equal(word.status, 400);
    assert.deepEqual(word.body, { error: 'default_projects_limit is invalid' });
    const signup = await t.request('PUT', '/api/v3/application/settings', {
      token: t.rootToken,
      body: { signup_enabled: true },
    });
    assert.equal(signup.status, 400);
    const shown = await t.request('GET', '/api/v3/application/settings', { token: t.rootToken });
    assert.equal(shown.body.default_projects_limit, 10);
    assert.equal(shown.body.default_project_visibility, 0);
  });
});
