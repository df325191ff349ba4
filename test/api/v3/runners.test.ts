// Runners over HTTP: the caller's runners (specific runners of projects they manage), every runner for
// administrators, one runner's details, its settings and removal, and per project the runners it may use,
// enabling a specific runner and taking one away, with 8.13's rules and texts about shared and locked
// runners and who may see or change which runner.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { createRoles, createRolesProject, ROLES, type Role, type Roles } from '../../helpers/ci-roles.ts';
import { assignRunner } from '../../../src/db/repositories/runners.ts';
import { registerRunner } from '../../../src/services/ci/runners.ts';
import type { CiRunnerRow } from '../../../src/db/types.ts';

const REGISTRATION_TOKEN = 'runners-api-registration-token';
const RUNNER_KEYS = ['id', 'description', 'active', 'is_shared', 'name'];
const DETAIL_KEYS = [
  ...RUNNER_KEYS,
  'tag_list',
  'run_untagged',
  'locked',
  'version',
  'revision',
  'platform',
  'architecture',
  'contacted_at',
];
const BASIC_PROJECT_KEYS = [
  'id',
  'http_url_to_repo',
  'web_url',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
];

const refused = (reason: string) => ({ message: `403 Forbidden  - ${reason}` });

describe('runners API', () => {
  let t: TestApp;
  let roles: Roles;
  let priv: TestProject;
  let pub: TestProject;
  let foreign: TestProject;
  let solo: TestUser;
  let shared: CiRunnerRow;
  let privRunner: CiRunnerRow;
  let pubRunner: CiRunnerRow;
  let locked: CiRunnerRow;
  let both: CiRunnerRow;
  let foreignRunner: CiRunnerRow;

  const register = (token: string, description: string, extra: { locked?: boolean; tagList?: string } = {}) =>
    registerRunner(t.server.deps, {
      token,
      description,
      tagList: extra.tagList,
      locked: extra.locked,
      info: {
        name: 'gitlab-ci-multi-runner',
        version: '1.7.0',
        revision: 'c66b00d',
        platform: 'linux',
        architecture: 'amd64',
      },
    });

  before(async () => {
    t = await startTestApp({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN });
    roles = await createRoles(t, 'rnr');
    priv = await createRolesProject(t, roles, 'rnrpriv', 0);
    pub = await createRolesProject(t, roles, 'rnrpub', 20);
    foreign = await createProject(t, { owner: roles.users.stranger, path: 'rnrforeign' });
    solo = await createUser(t, 'rnrsolo');
    await addProjectMember(t, priv.id, solo.id, 40);
    shared = await register(REGISTRATION_TOKEN, 'shared');
    privRunner = await register(priv.runners_token, 'priv', { tagList: 'docker, linux' });
    pubRunner = await register(pub.runners_token, 'pub');
    locked = await register(priv.runners_token, 'locked', { locked: true });
    both = await register(priv.runners_token, 'both');
    await assignRunner(t.server.deps.db.kysely, both.id, pub.id, new Date().toISOString());
    foreignRunner = await register(foreign.runners_token, 'foreign');
  });
  after(() => t.close());

  const as = (role: Role | TestUser) => ({
    token: typeof role === 'string' ? roles.token[role] : role.token,
  });
  const ids = (body: Array<{ id: number }>) => body.map((runner) => runner.id);

  it('lists the caller’s specific runners, with 8.13’s scopes', async () => {
    const expected: Record<Role, number[]> = {
      // An administrator sees only the runners of projects they manage here too.
      admin: [],
      master: [privRunner.id, pubRunner.id, locked.id, both.id],
      developer: [],
      reporter: [],
      guest: [],
      stranger: [foreignRunner.id],
      anonymous: [],
    };
    for (const role of ROLES) {
      const response = await t.request('GET', '/api/v3/runners', as(role));
      if (role === 'anonymous') {
        assert.deepEqual([response.status, response.body], [401, { message: '401 Unauthorized' }]);
        continue;
      }
      assert.equal(response.status, 200, role);
      assert.deepEqual(ids(response.body), expected[role], role);
    }
    const owner = await t.request('GET', '/api/v3/runners', { token: roles.owner.token });
    assert.deepEqual(ids(owner.body), expected.master);
    const mine = await t.request('GET', '/api/v3/runners', as(solo));
    assert.deepEqual(ids(mine.body), [privRunner.id, locked.id, both.id]);
    assert.deepEqual(Object.keys(mine.body[0]), RUNNER_KEYS);
    assert.deepEqual(mine.body[0], {
      id: privRunner.id,
      description: 'priv',
      active: true,
      is_shared: false,
      name: 'gitlab-ci-multi-runner',
    });
    assert.equal(mine.headers['x-total'], '3');

    for (const scope of ['specific', 'shared', 'bogus']) {
      const bad = await t.request('GET', `/api/v3/runners?scope=${scope}`, as(solo));
      assert.deepEqual([bad.status, bad.body], [400, { message: 'Scope contains invalid value' }], scope);
    }
    assert.deepEqual(ids((await t.request('GET', '/api/v3/runners?scope=active', as(solo))).body), [
      privRunner.id,
      locked.id,
      both.id,
    ]);
    assert.deepEqual(ids((await t.request('GET', '/api/v3/runners?scope=paused', as(solo))).body), []);
    // Never contacted since registration: not online.
    assert.deepEqual(ids((await t.request('GET', '/api/v3/runners?scope=online', as(solo))).body), []);
  });

  it('lists every runner for administrators only', async () => {
    const all = await t.request('GET', '/api/v3/runners/all', as('admin'));
    assert.equal(all.status, 200);
    assert.deepEqual(ids(all.body), [
      shared.id,
      privRunner.id,
      pubRunner.id,
      locked.id,
      both.id,
      foreignRunner.id,
    ]);
    assert.deepEqual(ids((await t.request('GET', '/api/v3/runners/all?scope=shared', as('admin'))).body), [
      shared.id,
    ]);
    assert.deepEqual(
      ids((await t.request('GET', '/api/v3/runners/all?scope=specific&per_page=2&page=2', as('admin'))).body),
      [locked.id, both.id],
    );
    const bad = await t.request('GET', '/api/v3/runners/all?scope=nope', as('admin'));
    assert.deepEqual([bad.status, bad.body], [400, { message: 'Scope contains invalid value' }]);
    for (const role of ['master', 'developer', 'stranger'] as const) {
      const response = await t.request('GET', '/api/v3/runners/all', as(role));
      assert.deepEqual([response.status, response.body], [403, { message: '403 Forbidden' }], role);
    }
    assert.equal((await t.request('GET', '/api/v3/runners/all')).status, 401);
  });

  it('shows a runner’s details to those who may see it', async () => {
    const details = await t.request('GET', `/api/v3/runners/${privRunner.id}`, as(solo));
    assert.equal(details.status, 200, details.text);
    assert.deepEqual(Object.keys(details.body), [...DETAIL_KEYS, 'token', 'projects']);
    const body = details.body;
    assert.deepEqual(
      [body.id, body.description, body.active, body.is_shared, body.name],
      [privRunner.id, 'priv', true, false, 'gitlab-ci-multi-runner'],
    );
    assert.deepEqual(body.tag_list, ['docker', 'linux']);
    assert.equal(body.run_untagged, true);
    assert.equal(body.locked, false);
    assert.deepEqual(
      [body.version, body.revision, body.platform, body.architecture],
      ['1.7.0', 'c66b00d', 'linux', 'amd64'],
    );
    assert.equal(body.contacted_at, null);
    assert.equal(body.token, privRunner.token);
    assert.equal(body.projects.length, 1);
    assert.deepEqual(Object.keys(body.projects[0]), BASIC_PROJECT_KEYS);
    assert.deepEqual(body.projects[0], {
      id: priv.id,
      http_url_to_repo: `http://labrador.test/${priv.fullPath}.git`,
      web_url: `http://labrador.test/${priv.fullPath}`,
      name: priv.name,
      name_with_namespace: `${roles.owner.name} / ${priv.name}`,
      path: priv.path,
      path_with_namespace: priv.fullPath,
    });
    // Only the projects the caller belongs to; administrators see every one.
    const soloBoth = await t.request('GET', `/api/v3/runners/${both.id}`, as(solo));
    assert.deepEqual(
      soloBoth.body.projects.map((p: { id: number }) => p.id),
      [priv.id],
    );
    const adminBoth = await t.request('GET', `/api/v3/runners/${both.id}`, as('admin'));
    assert.deepEqual(
      adminBoth.body.projects.map((p: { id: number }) => p.id),
      [priv.id, pub.id],
    );

    // Shared runners: anyone signed in sees them, without the token unless an administrator.
    const sharedByDeveloper = await t.request('GET', `/api/v3/runners/${shared.id}`, as('developer'));
    assert.equal(sharedByDeveloper.status, 200);
    assert.deepEqual(Object.keys(sharedByDeveloper.body), [...DETAIL_KEYS, 'projects']);
    const sharedByAdmin = await t.request('GET', `/api/v3/runners/${shared.id}`, as('admin'));
    assert.equal(sharedByAdmin.body.token, shared.token);

    for (const role of ['developer', 'reporter', 'guest', 'stranger'] as const) {
      const response = await t.request('GET', `/api/v3/runners/${privRunner.id}`, as(role));
      assert.deepEqual([response.status, response.body], [403, refused('No access granted')], role);
    }
    const unknown = await t.request('GET', '/api/v3/runners/999999', as('admin'));
    assert.deepEqual([unknown.status, unknown.body], [404, { message: '404 Not found' }]);
    assert.equal((await t.request('GET', '/api/v3/runners/abc', as('admin'))).status, 404);
    assert.equal((await t.request('GET', `/api/v3/runners/${shared.id}`)).status, 401);
  });

  it('changes a runner’s settings with 8.13’s rules', async () => {
    const runner = await register(pub.runners_token, 'settings');
    const url = `/api/v3/runners/${runner.id}`;
    const changed = await t.request('PUT', url, {
      ...as('master'),
      body: {
        description: 'renamed',
        active: false,
        tag_list: ['ruby', 'pg'],
        run_untagged: false,
        locked: true,
      },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(
      [
        changed.body.description,
        changed.body.active,
        changed.body.tag_list,
        changed.body.run_untagged,
        changed.body.locked,
      ],
      ['renamed', false, ['ruby', 'pg'], false, true],
    );
    // Blank values change nothing; a comma-separated tag list is split.
    const form = await t.request('PUT', url, {
      ...as('master'),
      form: { description: '', tag_list: 'a, b' },
    });
    assert.deepEqual([form.body.description, form.body.tag_list], ['renamed', ['a', 'b']]);
    const paused = await t.request('GET', '/api/v3/runners?scope=paused', as('master'));
    assert.deepEqual(ids(paused.body), [runner.id]);

    const untagged = await register(pub.runners_token, 'untagged');
    const invalid = await t.request('PUT', `/api/v3/runners/${untagged.id}`, {
      ...as('master'),
      body: { run_untagged: false },
    });
    assert.deepEqual(
      [invalid.status, invalid.body],
      [
        400,
        { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } },
      ],
    );

    const cases: Array<[Role, number, number, unknown]> = [
      ['master', shared.id, 403, refused('Runner is shared')],
      ['developer', runner.id, 403, refused('No access granted')],
      ['stranger', runner.id, 403, refused('No access granted')],
      ['admin', 999999, 404, { message: '404 Not found' }],
      ['anonymous', runner.id, 401, { message: '401 Unauthorized' }],
    ];
    for (const [role, id, status, body] of cases) {
      const response = await t.request('PUT', `/api/v3/runners/${id}`, {
        ...as(role),
        body: { description: 'x' },
      });
      assert.deepEqual([response.status, response.body], [status, body], `${role} ${id}`);
    }
    const byAdmin = await t.request('PUT', `/api/v3/runners/${shared.id}`, {
      ...as('admin'),
      body: { description: 'all' },
    });
    assert.deepEqual([byAdmin.status, byAdmin.body.description], [200, 'all']);
  });

  it('removes runners as 8.13 allowed', async () => {
    const runner = await register(priv.runners_token, 'doomed');
    const shared2 = await register(REGISTRATION_TOKEN, 'shared2');
    const cases: Array<[Role, number, number, unknown]> = [
      ['master', shared2.id, 403, refused('Runner is shared')],
      ['master', both.id, 403, refused('Runner associated with more than one project')],
      ['developer', runner.id, 403, refused('No access granted')],
      ['stranger', runner.id, 403, refused('No access granted')],
      ['anonymous', runner.id, 401, { message: '401 Unauthorized' }],
      ['master', 999999, 404, { message: '404 Not found' }],
    ];
    for (const [role, id, status, body] of cases) {
      const response = await t.request('DELETE', `/api/v3/runners/${id}`, as(role));
      assert.deepEqual([response.status, response.body], [status, body], `${role} ${id}`);
    }
    const deleted = await t.request('DELETE', `/api/v3/runners/${runner.id}`, as('master'));
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, {
      id: runner.id,
      description: 'doomed',
      active: true,
      is_shared: false,
      name: 'gitlab-ci-multi-runner',
    });
    assert.equal((await t.request('GET', `/api/v3/runners/${runner.id}`, as('admin'))).status, 404);
    assert.equal((await t.request('DELETE', `/api/v3/runners/${shared2.id}`, as('admin'))).status, 200);
  });

  it('lists a project’s runners (its own and the shared ones) for its masters', async () => {
    const expected: Record<Role, [number, number]> = {
      admin: [200, 200],
      master: [200, 200],
      developer: [403, 403],
      reporter: [403, 403],
      guest: [403, 403],
      stranger: [404, 403],
      anonymous: [401, 401],
    };
    for (const role of ROLES) {
      for (const [index, project] of [priv, pub].entries()) {
        const response = await t.request('GET', `/api/v3/projects/${project.id}/runners`, as(role));
        assert.equal(response.status, expected[role][index], `${role} ${project.path}`);
      }
    }
    const list = await t.request('GET', `/api/v3/projects/${priv.id}/runners`, as('master'));
    assert.deepEqual(ids(list.body).includes(shared.id), true);
    assert.deepEqual(
      ids(list.body).filter((id) => id !== shared.id && id <= foreignRunner.id),
      [privRunner.id, locked.id, both.id],
    );
    assert.deepEqual(Object.keys(list.body[0]), RUNNER_KEYS);
    assert.deepEqual(
      ids((await t.request('GET', `/api/v3/projects/${priv.id}/runners?scope=shared`, as('master'))).body)[0],
      shared.id,
    );
    const specific = await t.request(
      'GET',
      `/api/v3/projects/${pub.id}/runners?scope=specific`,
      as('master'),
    );
    assert.ok(ids(specific.body).includes(pubRunner.id) && ids(specific.body).includes(both.id));
    assert.ok(!ids(specific.body).includes(privRunner.id));
    const bad = await t.request('GET', `/api/v3/projects/${priv.id}/runners?scope=x`, as('master'));
    assert.deepEqual([bad.status, bad.body], [400, { message: 'Scope contains invalid value' }]);
  });

  it('enables a specific runner for another project and takes it away again', async () => {
    const runner = await register(priv.runners_token, 'movable');
    const enable = (project: TestProject, body: Record<string, unknown>, role: Role | TestUser = 'master') =>
      t.request('POST', `/api/v3/projects/${project.id}/runners`, { ...as(role), body });

    const enabled = await enable(pub, { runner_id: runner.id });
    assert.equal(enabled.status, 201, enabled.text);
    assert.deepEqual(enabled.body, {
      id: runner.id,
      description: 'movable',
      active: true,
      is_shared: false,
      name: 'gitlab-ci-multi-runner',
    });
    const cases: Array<[string, Promise<{ status: number; body: unknown }>, number, unknown]> = [
      [
        'again',
        enable(pub, { runner_id: runner.id }),
        409,
        { message: 'Runner was already enabled for this project' },
      ],
      ['shared', enable(pub, { runner_id: shared.id }), 403, refused('Runner is shared')],
      ['locked', enable(pub, { runner_id: locked.id }), 403, refused('Runner is locked')],
      [
        'locked for an admin',
        enable(pub, { runner_id: locked.id }, 'admin'),
        403,
        refused('Runner is locked'),
      ],
      ['not the caller’s', enable(pub, { runner_id: foreignRunner.id }), 403, refused('No access granted')],
      ['no runner_id', enable(pub, {}), 400, { message: '400 (Bad request) "runner_id" not given' }],
      ['unknown', enable(pub, { runner_id: 999999 }), 404, { message: '404 Not found' }],
      ['developer', enable(pub, { runner_id: runner.id }, 'developer'), 403, { message: '403 Forbidden' }],
      [
        'stranger, private',
        enable(priv, { runner_id: runner.id }, 'stranger'),
        404,
        { message: '404 Project Not Found' },
      ],
      [
        'stranger, public',
        enable(pub, { runner_id: runner.id }, 'stranger'),
        403,
        { message: '403 Forbidden' },
      ],
      ['anonymous', enable(pub, { runner_id: runner.id }, 'anonymous'), 401, { message: '401 Unauthorized' }],
    ];
    for (const [label, promise, status, body] of cases) {
      const response = await promise;
      assert.deepEqual([response.status, response.body], [status, body], label);
    }
    // Administrators may enable any specific runner.
    const foreignToPub = await enable(pub, { runner_id: foreignRunner.id }, 'admin');
    assert.equal(foreignToPub.status, 201);

    const disable = (project: TestProject, id: number | string, role: Role = 'master') =>
      t.request('DELETE', `/api/v3/projects/${project.id}/runners/${id}`, as(role));
    assert.deepEqual((await disable(pub, runner.id, 'developer')).status, 403);
    const disabled = await disable(pub, runner.id);
    assert.equal(disabled.status, 200);
    assert.deepEqual(disabled.body.id, runner.id);
    const gone = await disable(pub, runner.id);
    assert.deepEqual([gone.status, gone.body], [404, { message: '404 Runner Not Found' }]);
    const last = await disable(priv, runner.id);
    assert.deepEqual(
      [last.status, last.body],
      [403, refused('Only one project associated with the runner. Please remove the runner instead')],
    );
    for (const id of [999999, 'abc', shared.id]) {
      const response = await disable(priv, id);
      assert.deepEqual(
        [response.status, response.body],
        [404, { message: '404 Runner Not Found' }],
        String(id),
      );
    }
    const details = await t.request('GET', `/api/v3/runners/${runner.id}`, as('admin'));
    assert.deepEqual(
      details.body.projects.map((p: { id: number }) => p.id),
      [priv.id],
    );
  });

  it('never leaves a runner without a project when two projects drop it at once', async () => {
    const runner = await register(priv.runners_token, 'contested');
    await assignRunner(t.server.deps.db.kysely, runner.id, pub.id, new Date().toISOString());
    const [a, b] = await Promise.all(
      [priv, pub].map((project) =>
        t.request('DELETE', `/api/v3/projects/${project.id}/runners/${runner.id}`, as('master')),
      ),
    );
    // Either may win; exactly one does, and the other is told the runner has one project left.
    assert.deepEqual([a.status, b.status].sort(), [200, 403]);
    const loser = a.status === 403 ? a : b;
    assert.deepEqual(
      loser.body,
      refused('Only one project associated with the runner. Please remove the runner instead'),
    );
    const details = await t.request('GET', `/api/v3/runners/${runner.id}`, as('admin'));
    assert.equal(details.body.projects.length, 1);
  });
});
