// Commit statuses over HTTP: who may read (reporters; anyone signed in on public and internal projects)
// and report (developers), the CommitStatus shape field by field, 8.13's transitions and refusals, the
// status landing in the commit's pipeline (made when missing) and moving its status, and the list's
// latest / all / ref / stage / name filters over builds and external statuses alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { commitFile, type TestProject } from '../../helpers/factory.ts';
import { createRoles, createRolesProject, ROLES, type Role, type Roles } from '../../helpers/ci-roles.ts';
import { buildsOf, pipelinesOf } from '../../helpers/ci.ts';
import { git } from '../../../src/git/exec.ts';
import { USER_BASIC_KEYS } from '../../helpers/entity-keys.ts';

const STATUS_KEYS = [
  'id',
  'sha',
  'ref',
  'status',
  'name',
  'target_url',
  'description',
  'created_at',
  'started_at',
  'finished_at',
  'allow_failure',
  'author',
];
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('commit statuses API', () => {
  let t: TestApp;
  let roles: Roles;
  const projects: Record<'private' | 'internal' | 'public', TestProject> = {} as never;
  const shas: Record<string, string> = {};

  before(async () => {
    t = await startTestApp();
    roles = await createRoles(t, 'cst');
    for (const [kind, visibility] of [
      ['private', 0],
      ['internal', 10],
      ['public', 20],
    ] as const) {
      projects[kind] = await createRolesProject(t, roles, `cst${kind}`, visibility);
      shas[kind] = await commitFile(projects[kind].repoPath, 'README.md', `# ${kind}\n`);
    }
  });
  after(() => t.close());

  const as = (role: Role) => ({ token: roles.token[role] });
  const BODIES: Record<number, unknown> = {
    401: { message: '401 Unauthorized' },
    403: { message: '403 Forbidden' },
    404: { message: '404 Project Not Found' },
  };

  it('lets reporters and signed-in callers of public and internal projects read statuses', async () => {
    const expected: Record<Role, [number, number, number]> = {
      // private, internal, public
      admin: [200, 200, 200],
      master: [200, 200, 200],
      developer: [200, 200, 200],
      reporter: [200, 200, 200],
      guest: [403, 200, 200],
      stranger: [404, 200, 200],
      anonymous: [401, 401, 401],
    };
    for (const role of ROLES) {
      for (const [index, kind] of (['private', 'internal', 'public'] as const).entries()) {
        const url = `/api/v3/projects/${projects[kind].id}/repository/commits/${shas[kind]}/statuses`;
        const response = await t.request('GET', url, as(role));
        const status = expected[role][index];
        assert.equal(response.status, status, `${role} on ${kind}`);
        assert.deepEqual(response.body, status === 200 ? [] : BODIES[status], `${role} on ${kind}`);
      }
    }
  });

  it('lets developers and above report statuses', async () => {
    const expected: Record<Role, [number, number, number]> = {
      admin: [201, 201, 201],
      master: [201, 201, 201],
      developer: [201, 201, 201],
      reporter: [403, 403, 403],
      guest: [403, 403, 403],
      stranger: [404, 403, 403],
      anonymous: [401, 401, 401],
    };
    for (const role of ROLES) {
      for (const [index, kind] of (['private', 'internal', 'public'] as const).entries()) {
        const url = `/api/v3/projects/${projects[kind].id}/statuses/${shas[kind]}`;
        const response = await t.request('POST', url, {
          ...as(role),
          body: { state: 'success', name: `by-${role}` },
        });
        const status = expected[role][index];
        assert.equal(response.status, status, `${role} on ${kind}: ${response.text}`);
        if (status !== 201) assert.deepEqual(response.body, BODIES[status], `${role} on ${kind}`);
      }
    }
  });

  it('reports a status in the CommitStatus shape, in a pipeline made for the commit', async () => {
    const project = await createRolesProject(t, roles, 'cstshape', 0);
    const sha = await commitFile(project.repoPath, 'a.txt', 'a\n');
    const url = `/api/v3/projects/${project.id}/statuses/${sha}`;
    const developer = roles.users.developer;

    const pending = await t.request('POST', url, { ...as('developer'), body: { state: 'pending' } });
    assert.equal(pending.status, 201, pending.text);
    assert.deepEqual(Object.keys(pending.body), STATUS_KEYS);
    const body = pending.body;
    assert.equal(typeof body.id, 'number');
    assert.equal(body.sha, sha);
    // No ref given: the first branch holding the commit.
    assert.equal(body.ref, 'master');
    assert.equal(body.status, 'pending');
    assert.equal(body.name, 'default');
    assert.equal(body.target_url, null);
    assert.equal(body.description, null);
    assert.match(body.created_at, TIME);
    assert.equal(body.started_at, null);
    assert.equal(body.finished_at, null);
    assert.equal(body.allow_failure, false);
    assert.deepEqual(Object.keys(body.author), USER_BASIC_KEYS);
    assert.equal(body.author.id, developer.id);
    assert.equal(body.author.username, developer.username);
    assert.equal(body.author.web_url, `http://labrador.test/${developer.username}`);

    let [pipeline] = await pipelinesOf(t, project.id);
    assert.deepEqual(
      [pipeline.sha, pipeline.ref, pipeline.status, pipeline.user_id],
      [sha, 'master', 'pending', developer.id],
    );

    // The same caller, name and ref move the open status; the pipeline follows.
    const running = await t.request('POST', url, {
      ...as('developer'),
      body: { state: 'running', target_url: 'https://ci.example.com/1', description: 'checking' },
    });
    assert.equal(running.status, 201, running.text);
    assert.equal(running.body.id, body.id);
    assert.equal(running.body.status, 'running');
    assert.equal(running.body.target_url, 'https://ci.example.com/1');
    assert.equal(running.body.description, 'checking');
    assert.match(running.body.started_at, TIME);
    [pipeline] = await pipelinesOf(t, project.id);
    assert.equal(pipeline.status, 'running');

    const done = await t.request('POST', url, { ...as('developer'), form: { state: 'success' } });
    assert.equal(done.body.id, body.id);
    assert.equal(done.body.status, 'success');
    assert.equal(done.body.description, 'checking');
    assert.match(done.body.finished_at, TIME);
    [pipeline] = await pipelinesOf(t, project.id);
    assert.equal(pipeline.status, 'success');

    // A finished status is not reopened: a new report starts a new one (the list shows the newest).
    const again = await t.request('POST', url, { ...as('developer'), body: { state: 'failed' } });
    assert.notEqual(again.body.id, body.id);
    assert.equal(again.body.status, 'failed');
    const pipelines = await pipelinesOf(t, project.id);
    assert.equal(pipelines.length, 1);
    assert.equal(pipelines[0].status, 'failed');
    assert.equal((await buildsOf(t, pipeline.id)).length, 2);

    // Another caller's status of the same name is theirs: a new row.
    const master = await t.request('POST', url, { ...as('master'), body: { state: 'pending' } });
    const masterRunning = await t.request('POST', url, { ...as('master'), body: { state: 'canceled' } });
    assert.equal(masterRunning.body.id, master.body.id);
    assert.equal(masterRunning.body.status, 'canceled');
  });

  it('takes context, ref and a branch name for the sha', async () => {
    const project = await createRolesProject(t, roles, 'cstopts', 0);
    const sha = await commitFile(project.repoPath, 'a.txt', 'a\n');
    const response = await t.request('POST', `/api/v3/projects/${project.id}/statuses/master`, {
      ...as('developer'),
      body: { state: 'success', context: 'coverage', ref: 'develop', target_url: 'url', description: 'test' },
    });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(
      [
        response.body.sha,
        response.body.name,
        response.body.ref,
        response.body.target_url,
        response.body.description,
      ],
      [sha, 'coverage', 'develop', 'url', 'test'],
    );
    const named = await t.request('POST', `/api/v3/projects/${project.id}/statuses/${sha}`, {
      ...as('developer'),
      body: { state: 'success', context: 'ignored', name: 'lint' },
    });
    assert.equal(named.body.name, 'lint');
    const pipelines = await pipelinesOf(t, project.id);
    assert.deepEqual(
      pipelines.map((p) => [p.ref, p.status]),
      [
        ['develop', 'success'],
        ['master', 'success'],
      ],
    );
  });

  it('refuses bad reports with 8.13 texts and writes nothing', async () => {
    const project = await createRolesProject(t, roles, 'cstbad', 0);
    const sha = await commitFile(project.repoPath, 'a.txt', 'a\n');
    const url = `/api/v3/projects/${project.id}/statuses/${sha}`;
    const post = (body: Record<string, unknown>, path = url) =>
      t.request('POST', path, { ...as('developer'), body });

    const cases: Array<[string, Promise<{ status: number; body: unknown }>, number, unknown]> = [
      ['no state', post({}), 400, { message: '400 (Bad request) "state" not given' }],
      ['invalid state', post({ state: 'invalid' }), 400, { message: 'invalid state' }],
      [
        'unknown commit',
        post({ state: 'success' }, `/api/v3/projects/${project.id}/statuses/${'f'.repeat(40)}`),
        404,
        { message: '404 Commit Not Found' },
      ],
    ];
    for (const [label, promise, status, body] of cases) {
      const response = await promise;
      assert.deepEqual([response.status, response.body], [status, body], label);
    }
    // A commit on no branch, without a ref: nothing to attach the status to.
    const tree = (
      await git(['write-tree'], {
        cwd: project.repoPath,
        env: { GIT_INDEX_FILE: `${project.repoPath}/empty-index` },
      })
    ).trim();
    const loose = (
      await git(['commit-tree', tree, '-m', 'loose'], {
        cwd: project.repoPath,
        env: {
          GIT_AUTHOR_NAME: 'a',
          GIT_AUTHOR_EMAIL: 'a@x',
          GIT_COMMITTER_NAME: 'a',
          GIT_COMMITTER_EMAIL: 'a@x',
        },
      })
    ).trim();
    const noRef = await post({ state: 'success' }, `/api/v3/projects/${project.id}/statuses/${loose}`);
    assert.deepEqual([noRef.status, noRef.body], [404, { message: '404 References for commit Not Found' }]);
    assert.deepEqual(await pipelinesOf(t, project.id), []);

    // Transitions the state machine refuses; the refused report changes nothing.
    assert.equal((await post({ state: 'pending' })).status, 201);
    const twice = await post({ state: 'pending' });
    assert.deepEqual(twice.body, {
      message:
        'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")',
    });
    assert.equal(twice.status, 400);
    assert.equal((await post({ state: 'running' })).status, 201);
    const runningTwice = await post({ state: 'running' });
    assert.deepEqual(
      [runningTwice.status, runningTwice.body],
      [
        400,
        {
          message:
            'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")',
        },
      ],
    );
    const [pipeline] = await pipelinesOf(t, project.id);
    const rows = await buildsOf(t, pipeline.id);
    assert.deepEqual(
      rows.map((row) => [row.type, row.status]),
      [['external', 'running']],
    );
  });

  it('lists the newest status per name, or all, filtered by ref, stage and name', async () => {
    const project = await createRolesProject(t, roles, 'cstlist', 0);
    const sha = await commitFile(project.repoPath, '.gitlab-ci.yml', 'rspec:\n  script: rspec\n');
    // A pipeline with a build, through a trigger.
    const trigger = (await t.request('POST', `/api/v3/projects/${project.id}/triggers`, as('master'))).body;
    const triggered = await t.request('POST', `/api/v3/projects/${project.id}/trigger/builds`, {
      body: { token: trigger.token, ref: 'master' },
    });
    assert.equal(triggered.status, 201, triggered.text);
    const post = (body: Record<string, unknown>) =>
      t.request('POST', `/api/v3/projects/${project.id}/statuses/${sha}`, { ...as('developer'), body });
    const first = (await post({ state: 'failed', name: 'lint' })).body;
    const second = (await post({ state: 'success', name: 'lint' })).body;
    const other = (await post({ state: 'running', name: 'lint', ref: 'develop' })).body;

    // The external status joined the trigger's pipeline: a pending build and a success make it running.
    const pipelines = await pipelinesOf(t, project.id);
    assert.deepEqual(
      pipelines.map((p) => [p.ref, p.status]),
      [
        ['master', 'running'],
        ['develop', 'running'],
      ],
    );
    const [build] = (await buildsOf(t, pipelines[0].id)).filter((row) => row.type === 'build');

    const list = async (query = '') => {
      const response = await t.request(
        'GET',
        `/api/v3/projects/${project.id}/repository/commits/${sha}/statuses${query}`,
        as('reporter'),
      );
      assert.equal(response.status, 200, response.text);
      return response;
    };
    const latest = await list();
    assert.deepEqual(
      latest.body.map((s: { id: number }) => s.id),
      [build.id, second.id, other.id],
    );
    assert.equal(latest.headers['x-total'], '3');
    const shownBuild = latest.body[0];
    assert.deepEqual(Object.keys(shownBuild), STATUS_KEYS);
    assert.deepEqual(
      [shownBuild.name, shownBuild.status, shownBuild.ref, shownBuild.sha, shownBuild.author],
      ['rspec', 'pending', 'master', sha, null],
    );
    assert.deepEqual(
      (await list('?all=true')).body.map((s: { id: number }) => s.id),
      [build.id, first.id, second.id, other.id],
    );
    assert.deepEqual(
      (await list('?ref=develop')).body.map((s: { id: number }) => s.id),
      [other.id],
    );
    assert.deepEqual(
      (await list('?stage=test')).body.map((s: { id: number }) => s.id),
      [build.id],
    );
    assert.deepEqual(
      (await list('?name=lint&all=1')).body.map((s: { id: number }) => s.id),
      [first.id, second.id, other.id],
    );
    const paged = await list('?per_page=2&page=2');
    assert.deepEqual(
      paged.body.map((s: { id: number }) => s.id),
      [other.id],
    );
    assert.equal(paged.headers['x-total-pages'], '2');
    // A branch name names the commit too.
    const byBranch = await t.request(
      'GET',
      `/api/v3/projects/${project.id}/repository/commits/master/statuses`,
      as('reporter'),
    );
    assert.equal(byBranch.body.length, 3);
    const unknown = await t.request(
      'GET',
      `/api/v3/projects/${project.id}/repository/commits/${'e'.repeat(40)}/statuses`,
      as('reporter'),
    );
    assert.deepEqual([unknown.status, unknown.body], [404, { message: '404 Commit Not Found' }]);
  });

  it('announces the pipeline’s moves to hooks, and no build hook for an external status', async () => {
    const project = await createRolesProject(t, roles, 'csthooks', 0);
    const sha = await commitFile(project.repoPath, 'a.txt', 'a\n');
    const hook = await t.request('POST', `/api/v3/projects/${project.id}/hooks`, {
      ...as('master'),
      body: { url: 'http://127.0.0.1:9/hook', push_events: false, build_events: true, pipeline_events: true },
    });
    assert.equal(hook.status, 201);
    for (const state of ['pending', 'success']) {
      const response = await t.request('POST', `/api/v3/projects/${project.id}/statuses/${sha}`, {
        ...as('developer'),
        body: { state },
      });
      assert.equal(response.status, 201);
    }
    const deliveries = await t.server.deps.db.kysely
      .selectFrom('hook_deliveries')
      .select(['event', 'payload'])
      .where('hook_kind', '=', 'project')
      .where('hook_id', '=', hook.body.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      deliveries.map((delivery) => [delivery.event, JSON.parse(delivery.payload).object_attributes.status]),
      [
        ['Pipeline Hook', 'pending'],
        ['Pipeline Hook', 'success'],
      ],
    );
  });
});
