// v4's instance endpoints for administrators: GET/PUT /application/settings (the settings Labrador acts
// on: v4 creations follow default_branch_name and the default visibilities, the hooks' local-requests
// switch is stored), GET /application/statistics; the refusals; /license is a CE server's 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';
import {
  allowsLocalRequestsFromSystemHooks,
  allowsLocalRequestsFromWebHooks,
} from '../../../src/services/instance/application-settings.ts';

describe('API v4 application settings and statistics', () => {
  let t: TestApp;
  let user: TestUser;

  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'plain');
  });
  after(() => t.close());

  it('shows the defaults to an administrator, refuses others (403) and visitors (401)', async () => {
    const shown = await t.request('GET', '/api/v4/application/settings', { token: t.rootToken });
    assert.equal(shown.status, 200);
    assert.equal(shown.body.default_branch_name, 'main');
    assert.equal(shown.body.default_project_visibility, 'private');
    assert.equal(shown.body.default_group_visibility, 'private');
    assert.equal(shown.body.allow_local_requests_from_web_hooks_and_services, false);
    assert.equal(shown.body.allow_local_requests_from_system_hooks, false);
    assert.equal(shown.body.signup_enabled, false);
    assert.equal(shown.body.max_artifacts_size, 100);
    const refused = await t.request('GET', '/api/v4/application/settings', { token: user.token });
    assert.equal(refused.status, 403);
    const put = await t.request('PUT', '/api/v4/application/settings', {
      token: user.token,
      body: { default_branch_name: 'x' },
    });
    assert.equal(put.status, 403);
    assert.equal((await t.request('GET', '/api/v4/application/settings')).status, 401);
  });

  it('changes settings from the query string or the body; they survive a restart', async () => {
    const changed = await t.request(
      'PUT',
      '/api/v4/application/settings?allow_local_requests_from_web_hooks_and_services=true',
      { token: t.rootToken, body: { default_branch_name: 'trunk', default_project_visibility: 'Internal' } },
    );
    assert.equal(changed.status, 200);
    assert.equal(changed.body.default_branch_name, 'trunk');
    assert.equal(changed.body.default_project_visibility, 'internal');
    assert.equal(changed.body.allow_local_requests_from_web_hooks_and_services, true);
    // What the outbound guard of hook deliveries asks follows the stored setting.
    const db = t.server.deps.db.kysely;
    assert.equal(await allowsLocalRequestsFromWebHooks(db), true);
    assert.equal(await allowsLocalRequestsFromSystemHooks(db), false);
    const on = await t.request('PUT', '/api/v4/application/settings', {
      token: t.rootToken,
      body: { allow_local_requests_from_system_hooks: true },
    });
    assert.equal(on.body.allow_local_requests_from_system_hooks, true);
    assert.equal(await allowsLocalRequestsFromSystemHooks(db), true);
    await t.request('PUT', '/api/v4/application/settings', {
      token: t.rootToken,
      body: { allow_local_requests_from_system_hooks: false },
    });
    await t.restart();
    const shown = await t.request('GET', '/api/v4/application/settings', { token: t.rootToken });
    assert.equal(shown.body.default_branch_name, 'trunk');
    assert.equal(shown.body.allow_local_requests_from_web_hooks_and_services, true);
    assert.equal(shown.body.allow_local_requests_from_system_hooks, false);
  });

  it('v4 creations follow the settings: the HEAD of a new repository and the default visibilities', async () => {
    const project = await t.request('POST', '/api/v4/projects', {
      token: user.token,
      body: { name: 'headed' },
    });
    assert.equal(project.status, 201);
    assert.equal(project.body.visibility, 'internal');
    const commit = await t.request('POST', `/api/v4/projects/${project.body.id}/repository/files/a.txt`, {
      token: user.token,
      body: { branch: 'trunk', content: 'a', commit_message: 'first' },
    });
    assert.equal(commit.status, 201);
    const after = await t.request('GET', `/api/v4/projects/${project.body.id}`, { token: user.token });
    assert.equal(after.body.default_branch, 'trunk');
    const v3 = await t.request('POST', '/api/v3/projects', {
      token: user.token,
      body: { name: 'old-style' },
    });
    assert.equal(v3.status, 201);
    assert.equal(v3.body.visibility_level, 0);
    const group = await t.request('POST', '/api/v4/groups', {
      token: t.rootToken,
      body: { name: 'quiet', path: 'quiet' },
    });
    assert.equal(group.status, 201);
    assert.equal(group.body.visibility, 'private');
  });

  it('refuses bad values with 400 and changes nothing', async () => {
    const branch = await t.request('PUT', '/api/v4/application/settings', {
      token: t.rootToken,
      body: { default_branch_name: 'bad..name', default_group_visibility: 'public' },
    });
    assert.equal(branch.status, 400);
    assert.deepEqual(branch.body, { message: { default_branch_name: ['is invalid'] } });
    const visibility = await t.request('PUT', '/api/v4/application/settings', {
      token: t.rootToken,
      body: { default_group_visibility: 'secret' },
    });
    assert.equal(visibility.status, 400);
    assert.deepEqual(visibility.body, {
      message: { default_group_visibility: ['is not included in the list'] },
    });
    const flag = await t.request('PUT', '/api/v4/application/settings', {
      token: t.rootToken,
      body: { allow_local_requests_from_system_hooks: 'maybe' },
    });
    assert.equal(flag.status, 400);
    assert.deepEqual(flag.body, { error: 'allow_local_requests_from_system_hooks is invalid' });
    const signup = await t.request('PUT', '/api/v4/application/settings', {
      token: t.rootToken,
      body: { signup_enabled: true },
    });
    assert.equal(signup.status, 400);
    const shown = await t.request('GET', '/api/v4/application/settings', { token: t.rootToken });
    assert.equal(shown.body.default_branch_name, 'trunk');
    assert.equal(shown.body.default_group_visibility, 'private');
  });

  it('counts the instance for administrators, as delimited strings', async () => {
    const stats = await t.request('GET', '/api/v4/application/statistics', { token: t.rootToken });
    assert.equal(stats.status, 200);
    assert.equal(stats.body.users, '2');
    assert.equal(stats.body.active_users, '2');
    assert.equal(stats.body.projects, '2');
    assert.equal(stats.body.groups, '1');
    assert.equal(stats.body.issues, '0');
    assert.equal(stats.body.snippets, '0');
    const snippet = await t.request('POST', '/api/v4/snippets', {
      token: user.token,
      body: { title: 'counted', content: 'x' },
    });
    assert.equal(snippet.status, 201, snippet.text);
    const after = await t.request('GET', '/api/v4/application/statistics', { token: t.rootToken });
    assert.equal(after.body.snippets, '1');
    assert.equal(
      (await t.request('GET', '/api/v4/application/statistics', { token: user.token })).status,
      403,
    );
  });

  it('answers GET /license as a CE server does: 404', async () => {
    const license = await t.request('GET', '/api/v4/license', { token: t.rootToken });
    assert.equal(license.status, 404);
    assert.deepEqual(license.body, { error: '404 Not Found' });
    const version = await t.request('GET', '/api/v4/version', { token: t.rootToken });
    assert.match(version.body.version, /^\d+\.\d+\.\d+$/);
  });
});
