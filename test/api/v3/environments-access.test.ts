// Who may do what with environments and deployments, v3 (8.13's ProjectPolicy) and v4 side by side:
// reporters read, guests and outsiders of a public project are refused (403), a hidden project is a 404,
// developers create (and, in v4, edit, stop and delete a stopped one), masters edit and delete in v3;
// nothing while builds are off. Bad input answers GitLab's 400s.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createRoles, createRolesProject, type Role, type Roles } from '../../helpers/ci-roles.ts';
import type { TestProject } from '../../helpers/factory.ts';

describe('environments and deployments: access and input', () => {
  let t: TestApp;
  let roles: Roles;
  let priv: TestProject;
  let pub: TestProject;
  let sha = '';

  const call = (role: Role, method: string, url: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token: roles.token[role], body });

  before(async () => {
    t = await startTestApp();
    roles = await createRoles(t, 'envacc');
    priv = await createRolesProject(t, roles, 'envpriv', 0, { commit: true });
    pub = await createRolesProject(t, roles, 'envpub', 20, { commit: true });
    sha = execFileSync('git', ['--git-dir', priv.repoPath, 'rev-parse', 'master']).toString().trim();
    for (const project of [priv, pub]) {
      const made = await call('developer', 'POST', `/api/v4/projects/${project.id}/deployments`, {
        environment: 'production',
        sha,
        ref: 'master',
        tag: false,
        status: 'success',
      });
      assert.equal(made.status, 201, made.text);
    }
  });
  after(() => t.close());

  it('lets reporters and above read, refuses guests and outsiders, hides private projects', async () => {
    const expected: Record<Role, [number, number]> = {
      admin: [200, 200],
      master: [200, 200],
      developer: [200, 200],
      reporter: [200, 200],
      guest: [403, 403],
      stranger: [404, 403],
      anonymous: [401, 401],
    };
    for (const [role, [onPrivate, onPublic]] of Object.entries(expected) as Array<[Role, [number, number]]>) {
      for (const version of ['v3', 'v4']) {
        for (const path of ['environments', 'deployments']) {
          const a = await call(role, 'GET', `/api/${version}/projects/${priv.id}/${path}`);
          assert.equal(a.status, onPrivate, `${role} ${version} private ${path}`);
          const b = await call(role, 'GET', `/api/${version}/projects/${pub.id}/${path}`);
          assert.equal(b.status, onPublic, `${role} ${version} public ${path}`);
          if (a.status === 200) assert.equal(a.body.length, 1);
        }
      }
    }
    const hidden = await call('stranger', 'GET', `/api/v3/projects/${priv.id}/environments`);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
  });

  it('lets developers create, masters edit and delete under v3', async () => {
    const url = `/api/v3/projects/${priv.id}/environments`;
    assert.equal((await call('reporter', 'POST', url, { name: 'qa' })).status, 403);
    const created = await call('developer', 'POST', url, {
      name: 'qa',
      external_url: 'https://qa.example.com',
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body), ['id', 'name', 'external_url', 'project']);
    assert.equal(created.body.external_url, 'https://qa.example.com');
    const id = created.body.id;
    assert.equal((await call('developer', 'PUT', `${url}/${id}`, { name: 'qa2' })).status, 403);
    const edited = await call('master', 'PUT', `${url}/${id}`, { name: 'qa2', external_url: '' });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.name, 'qa2');
    assert.equal(edited.body.external_url, null);
    assert.equal((await call('developer', 'DELETE', `${url}/${id}`)).status, 403);
    const deleted = await call('master', 'DELETE', `${url}/${id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.name, 'qa2');
    assert.equal((await call('master', 'DELETE', `${url}/${id}`)).status, 404);
    assert.deepEqual((await call('master', 'PUT', `${url}/${id}`, { name: 'x' })).body, {
      message: '404 Not found',
    });
  });

  it('answers bad input with GitLab 400s', async () => {
    const v3 = `/api/v3/projects/${priv.id}/environments`;
    const v4 = `/api/v4/projects/${priv.id}/environments`;
    assert.deepEqual((await call('master', 'POST', v3, {})).body, { error: 'name is missing' });
    assert.deepEqual((await call('master', 'POST', v4, {})).body, { error: 'name is missing' });
    const taken = await call('master', 'POST', v3, { name: 'production' });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body, { message: { name: ['has already been taken'] } });
    const bad = await call('master', 'POST', v4, { name: 'a*b', external_url: 'not a url' });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, {
      message: {
        name: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces"],
        external_url: ['must be a valid URL'],
      },
    });
    assert.equal((await call('master', 'POST', v4, { name: 'x', tier: 'moon' })).status, 400);
    assert.equal((await call('master', 'POST', v4, { name: 'x', slug: 'y' })).status, 400);
    assert.equal((await call('master', 'GET', `${v4}/abc`)).status, 400);
    assert.equal((await call('master', 'GET', `${v4}/999999`)).status, 404);
    assert.equal((await call('master', 'GET', `${v4}?name=a&search=abc`)).status, 400);
    const deployments = `/api/v4/projects/${priv.id}/deployments`;
    assert.deepEqual((await call('master', 'POST', deployments, { environment: 'x' })).body, {
      error: 'sha is missing, ref is missing, tag is missing, status is missing',
    });
    assert.equal(
      (
        await call('master', 'POST', deployments, {
          environment: 'x',
          sha,
          ref: 'master',
          tag: false,
          status: 'blocked',
        })
      ).status,
      400,
    );
    assert.equal((await call('master', 'GET', `${deployments}?sort=sideways`)).status, 400);
    assert.equal((await call('master', 'GET', `${deployments}?status=lost`)).status, 400);
  });

  it('lets v4 developers edit, stop and delete only a stopped environment', async () => {
    const url = `/api/v4/projects/${priv.id}/environments`;
    const created = await call('developer', 'POST', url, { name: 'review/one', tier: 'development' });
    assert.equal(created.status, 201);
    assert.equal(created.body.tier, 'development');
    assert.equal(created.body.state, 'available');
    const id = created.body.id;
    assert.equal(
      (await call('reporter', 'PUT', `${url}/${id}`, { external_url: 'https://a.example.com' })).status,
      403,
    );
    const edited = await call('developer', 'PUT', `${url}/${id}`, { external_url: 'https://a.example.com' });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.external_url, 'https://a.example.com');
    assert.equal((await call('developer', 'DELETE', `${url}/${id}`)).status, 403);
    assert.equal((await call('reporter', 'POST', `${url}/${id}/stop`)).status, 403);
    const stopped = await call('developer', 'POST', `${url}/${id}/stop`);
    assert.equal(stopped.status, 200);
    assert.equal(stopped.body.state, 'stopped');
    const deleted = await call('developer', 'DELETE', `${url}/${id}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal((await call('developer', 'GET', `${url}/${id}`)).status, 404);
  });

  it('refuses a job-made deployment a status change, and the reporter any', async () => {
    const url = `/api/v4/projects/${priv.id}/deployments`;
    const [one] = (await call('developer', 'GET', url)).body;
    assert.equal((await call('reporter', 'PUT', `${url}/${one.id}`, { status: 'failed' })).status, 403);
    const changed = await call('developer', 'PUT', `${url}/${one.id}`, { status: 'failed' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.status, 'failed');
    assert.equal(changed.body.deployable, null);
  });

  it('shows nothing while builds are off', async () => {
    const off = await call('master', 'PUT', `/api/v3/projects/${priv.id}`, {
      name: 'envpriv',
      builds_enabled: false,
    });
    assert.equal(off.status, 200);
    assert.equal((await call('master', 'GET', `/api/v3/projects/${priv.id}/environments`)).status, 403);
    assert.equal((await call('master', 'GET', `/api/v4/projects/${priv.id}/deployments`)).status, 403);
    await call('master', 'PUT', `/api/v3/projects/${priv.id}`, { name: 'envpriv', builds_enabled: true });
  });
  it('refuses guests a deployment, and deletes deployments with their project', async () => {
    const url = `/api/v4/projects/${pub.id}/deployments`;
    const made = await call('guest', 'POST', url, {
      environment: 'x',
      sha,
      ref: 'master',
      tag: false,
      status: 'success',
    });
    assert.equal(made.status, 403);
    const own = await call('developer', 'POST', url, {
      environment: 'x',
      sha,
      ref: 'master',
      tag: true,
      status: 'success',
    });
    assert.equal(own.status, 201);
    assert.equal(own.body.environment.name, 'x');
    assert.equal(own.body.iid, 2);
    const deleted = await t.request('DELETE', `/api/v4/projects/${pub.id}`, { token: roles.owner.token });
    assert.equal(deleted.status, 202);
    const rows = await t.server.deps.db.kysely
      .selectFrom('deployments')
      .select('id')
      .where('project_id', '=', pub.id)
      .execute();
    assert.deepEqual(rows, []);
  });
});
