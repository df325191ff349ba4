// Triggers over HTTP: who may manage them (masters, while builds are on), their shapes, and a trigger call
// that runs a pipeline whose jobs a runner takes with CI_BUILD_TRIGGERED and the call's variables; jobs
// pick `only/except: triggers`, `[ci skip]` does not stop it, and every refusal answers 8.13's words.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { commitFile, type TestProject } from '../../helpers/factory.ts';
import { createRoles, createRolesProject, ROLES, type Role, type Roles } from '../../helpers/ci-roles.ts';
import { buildsOf, pipelinesOf } from '../../helpers/ci.ts';
import { listen } from '../../helpers/git.ts';
import { RunnerClient } from '../../helpers/runner-client.ts';
import { git } from '../../../src/git/exec.ts';

const REGISTRATION_TOKEN = 'triggers-registration-token';
const TRIGGER_KEYS = ['token', 'created_at', 'updated_at', 'deleted_at', 'last_used'];

const CI_FILE = `
always:
  script: echo always
triggered:
  script: echo triggered
  only: [triggers]
pushed:
  script: echo pushed
  except: [triggers]
`;

describe('triggers API', () => {
  let t: TestApp;
  let roles: Roles;
  let priv: TestProject;
  let pub: TestProject;
  let other: TestProject;
  let base: string;

  before(async () => {
    t = await startTestApp({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN });
    roles = await createRoles(t, 'trg');
    priv = await createRolesProject(t, roles, 'trgpriv', 0);
    pub = await createRolesProject(t, roles, 'trgpub', 20);
    other = await createRolesProject(t, roles, 'trgother', 0);
    base = await listen(t);
  });
  after(() => t.close());

  const as = (role: Role) => ({ token: roles.token[role] });

  // What each caller gets from the management routes: masters and admins act, other members 403,
  // strangers 404 on a private project and 403 on a public one, no token 401.
  const EXPECTED: Record<Role, { private: number; public: number }> = {
    admin: { private: 200, public: 200 },
    master: { private: 200, public: 200 },
    developer: { private: 403, public: 403 },
    reporter: { private: 403, public: 403 },
    guest: { private: 403, public: 403 },
    stranger: { private: 404, public: 403 },
    anonymous: { private: 401, public: 401 },
  };
  const BODIES: Record<number, unknown> = {
    401: { message: '401 Unauthorized' },
    403: { message: '403 Forbidden' },
    404: { message: '404 Project Not Found' },
  };

  it('lets masters and admins manage triggers and refuses everyone else as 8.13 did', async () => {
    for (const [project, kind] of [
      [priv, 'private'],
      [pub, 'public'],
    ] as const) {
      for (const role of ROLES) {
        const expected = EXPECTED[role][kind];
        const made = await t.request('POST', `/api/v3/projects/${project.id}/triggers`, as('master'));
        const calls = [
          ['GET', `/api/v3/projects/${project.id}/triggers`, expected],
          ['GET', `/api/v3/projects/${project.id}/triggers/${made.body.token}`, expected],
          ['POST', `/api/v3/projects/${project.id}/triggers`, expected === 200 ? 201 : expected],
          ['DELETE', `/api/v3/projects/${project.id}/triggers/${made.body.token}`, expected],
        ] as const;
        for (const [method, path, status] of calls) {
          const response = await t.request(method, path, as(role));
          assert.equal(response.status, status, `${role} ${method} ${path} on ${kind}`);
          if (status >= 400) assert.deepEqual(response.body, BODIES[status], `${role} ${method} ${kind}`);
        }
      }
    }
  });

  it('refuses masters while builds are off', async () => {
    const project = await createRolesProject(t, roles, 'trgoff', 0);
    await t.server.deps.db.kysely
      .updateTable('projects')
      .set({ builds_enabled: 0 })
      .where('id', '=', project.id)
      .execute();
    const response = await t.request('GET', `/api/v3/projects/${project.id}/triggers`, as('master'));
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { message: '403 Forbidden' });
  });

  it('creates, shows, lists and deletes a trigger in 8.13 shapes', async () => {
    const project = await createRolesProject(t, roles, 'trgshape', 0);
    const created = await t.request('POST', `/api/v3/projects/${project.id}/triggers`, as('master'));
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), TRIGGER_KEYS);
    assert.match(created.body.token, /^[0-9a-f]{30}$/);
    assert.match(created.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(created.body.updated_at, created.body.created_at);
    assert.equal(created.body.deleted_at, null);
    assert.equal(created.body.last_used, null);

    const second = await t.request('POST', `/api/v3/projects/${project.id}/triggers`, as('master'));
    const list = await t.request('GET', `/api/v3/projects/${project.id}/triggers?per_page=1`, as('master'));
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, [created.body]);
    assert.equal(list.headers['x-total'], '2');
    assert.equal(list.headers['x-total-pages'], '2');

    const shown = await t.request(
      'GET',
      `/api/v3/projects/${project.id}/triggers/${second.body.token}`,
      as('master'),
    );
    assert.deepEqual(shown.body, second.body);

    const unknown = await t.request('GET', `/api/v3/projects/${project.id}/triggers/nope`, as('master'));
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: '404 Trigger Not Found' });
    // Another project's trigger is not this project's.
    const foreign = await t.request(
      'GET',
      `/api/v3/projects/${other.id}/triggers/${second.body.token}`,
      as('master'),
    );
    assert.deepEqual(foreign.body, { message: '404 Trigger Not Found' });

    const deleted = await t.request(
      'DELETE',
      `/api/v3/projects/${project.id}/triggers/${created.body.token}`,
      as('master'),
    );
    assert.equal(deleted.status, 200);
    assert.deepEqual(Object.keys(deleted.body), TRIGGER_KEYS);
    assert.equal(deleted.body.token, created.body.token);
    assert.match(deleted.body.deleted_at, /^\d{4}-/);
    const again = await t.request(
      'DELETE',
      `/api/v3/projects/${project.id}/triggers/${created.body.token}`,
      as('master'),
    );
    assert.deepEqual([again.status, again.body], [404, { message: '404 Trigger Not Found' }]);
    const after = await t.request('GET', `/api/v3/projects/${project.id}/triggers`, as('master'));
    assert.deepEqual(
      after.body.map((trigger: { token: string }) => trigger.token),
      [second.body.token],
    );
  });

  it('runs a pipeline for the trigger whose jobs carry the variables and CI_BUILD_TRIGGERED', async () => {
    const project = await createRolesProject(t, roles, 'trgrun', 0);
    const sha = await commitFile(project.repoPath, '.gitlab-ci.yml', CI_FILE);
    const trigger = (await t.request('POST', `/api/v3/projects/${project.id}/triggers`, as('master'))).body;

    const response = await t.request('POST', `/api/v3/projects/${project.id}/trigger/builds`, {
      form: {
        token: trigger.token,
        ref: 'master',
        'variables[DEPLOY_TO]': 'staging',
        'variables[EMPTY]': '',
      },
    });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(Object.keys(response.body), ['id', 'variables']);
    assert.equal(typeof response.body.id, 'number');
    assert.deepEqual(response.body.variables, { DEPLOY_TO: 'staging', EMPTY: '' });

    const [pipeline] = await pipelinesOf(t, project.id);
    assert.equal(pipeline.sha, sha);
    assert.equal(pipeline.ref, 'master');
    assert.equal(pipeline.user_id, null);
    assert.equal(pipeline.status, 'pending');
    const builds = await buildsOf(t, pipeline.id);
    assert.deepEqual(builds.map((build) => build.name).sort(), ['always', 'triggered']);
    for (const build of builds) assert.equal(build.trigger_request_id, response.body.id);

    const shown = await t.request(
      'GET',
      `/api/v3/projects/${project.id}/triggers/${trigger.token}`,
      as('master'),
    );
    assert.match(shown.body.last_used, /^\d{4}-/);

    const runner = new RunnerClient(base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
    const names: string[] = [];
    for (let i = 0; i < 2; i++) {
      const job = await runner.requestJob();
      assert.ok(job, 'a pending triggered build');
      names.push(job.name);
      const variables = new Map(job.variables.map((v) => [v.key, v]));
      assert.deepEqual(variables.get('CI_BUILD_TRIGGERED'), {
        key: 'CI_BUILD_TRIGGERED',
        value: 'true',
        public: true,
      });
      assert.deepEqual(variables.get('DEPLOY_TO'), { key: 'DEPLOY_TO', value: 'staging', public: false });
      assert.deepEqual(variables.get('EMPTY'), { key: 'EMPTY', value: '', public: false });
      assert.equal((await runner.update(job, 'success', 'done\n')).status, 200);
    }
    assert.deepEqual(names.sort(), ['always', 'triggered']);
  });

  it('takes JSON variables, tags, full ref names and commits marked [ci skip]', async () => {
    const project = await createRolesProject(t, roles, 'trgjson', 0);
    const sha = await commitFile(project.repoPath, '.gitlab-ci.yml', CI_FILE);
    await git(['tag', 'v1', sha], { cwd: project.repoPath });
    const trigger = (await t.request('POST', `/api/v3/projects/${project.id}/triggers`, as('master'))).body;
    const url = `/api/v3/projects/${encodeURIComponent(project.fullPath)}/trigger/builds`;

    const json = await t.request('POST', url, {
      body: { token: trigger.token, ref: 'v1', variables: { A: 'b' } },
    });
    assert.equal(json.status, 201, json.text);
    assert.deepEqual(json.body.variables, { A: 'b' });
    const full = await t.request('POST', url, { body: { token: trigger.token, ref: 'refs/heads/master' } });
    assert.equal(full.status, 201, full.text);
    assert.equal(full.body.variables, null);

    const pipelines = await pipelinesOf(t, project.id);
    assert.deepEqual(
      pipelines.map((p) => [p.ref, p.tag]),
      [
        ['v1', 1],
        ['master', 0],
      ],
    );
  });

  it('answers 8.13 refusals for a trigger call', async () => {
    const project = await createRolesProject(t, roles, 'trgbad', 0);
    await commitFile(project.repoPath, '.gitlab-ci.yml', 'only_pushed:\n  script: x\n  except: [triggers]\n');
    const trigger = (await t.request('POST', `/api/v3/projects/${project.id}/triggers`, as('master'))).body;
    const foreign = (await t.request('POST', `/api/v3/projects/${other.id}/triggers`, as('master'))).body;
    const url = `/api/v3/projects/${project.id}/trigger/builds`;
    const cases: Array<[string, Record<string, unknown>, number, unknown, string?]> = [
      ['no ref', { token: trigger.token }, 400, { message: '400 (Bad request) "ref" not given' }],
      ['no token', { ref: 'master' }, 400, { message: '400 (Bad request) "token" not given' }],
      ['unknown token', { ref: 'master', token: 'nope' }, 404, { message: '404 Not Found' }],
      ['another project', { ref: 'master', token: foreign.token }, 401, { message: '401 Unauthorized' }],
      [
        'unknown project',
        { ref: 'master', token: trigger.token },
        404,
        { message: '404 Not Found' },
        '/api/v3/projects/999999/trigger/builds',
      ],
      [
        'variables not a hash',
        { ref: 'master', token: trigger.token, variables: 'value' },
        400,
        { message: 'variables needs to be a hash' },
      ],
      [
        'variables not texts',
        { ref: 'master', token: trigger.token, variables: { KEY: ['1', '2'] } },
        400,
        { message: 'variables needs to be a map of key-valued strings' },
      ],
      [
        'variable a number',
        { ref: 'master', token: trigger.token, variables: { KEY: 1 } },
        400,
        { message: 'variables needs to be a map of key-valued strings' },
      ],
      ['unknown ref', { ref: 'nope', token: trigger.token }, 400, { message: 'No builds created' }],
      ['no job for triggers', { ref: 'master', token: trigger.token }, 400, { message: 'No builds created' }],
    ];
    for (const [label, body, status, expected, path] of cases) {
      const response = await t.request('POST', path ?? url, { body });
      assert.deepEqual([response.status, response.body], [status, expected], label);
    }
    // Form arrays under a variable are no text either.
    const form = await t.request('POST', url, {
      form: { token: trigger.token, ref: 'master', 'variables[K][]': '1' },
    });
    assert.deepEqual(form.body, { message: 'variables needs to be a map of key-valued strings' });
    // Nothing was written by the refused calls.
    assert.deepEqual(await pipelinesOf(t, project.id), []);
    const triggers = await t.request('GET', `/api/v3/projects/${project.id}/triggers`, as('master'));
    assert.equal(triggers.body[0].last_used, null);

    // A deleted trigger no longer runs anything.
    await t.request('DELETE', `/api/v3/projects/${project.id}/triggers/${trigger.token}`, as('master'));
    const gone = await t.request('POST', url, { body: { ref: 'master', token: trigger.token } });
    assert.deepEqual([gone.status, gone.body], [404, { message: '404 Not Found' }]);
  });
});
