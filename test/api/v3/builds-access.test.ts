// Who may read builds and pipelines and act on them, on private, internal and public projects with
// `public_builds` on and off: no token 401; a hidden project 404; reporters read builds (and anyone who
// may read a public or internal project while `public_builds` is on); pipelines are read by reporters and
// by anyone on a public or internal project; developers act. Then the 400 and 404 answers of each route.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  commitFile,
  createProject,
  createUser,
  type TestUser,
} from '../../helpers/factory.ts';
import { seedPipeline } from '../../helpers/ci.ts';
import { git } from '../../../src/git/exec.ts';

type Role = 'admin' | 'master' | 'developer' | 'reporter' | 'guest' | 'nonMember' | 'none';
const ROLES: Role[] = ['admin', 'master', 'developer', 'reporter', 'guest', 'nonMember', 'none'];
const LEVELS: Partial<Record<Role, number>> = { master: 40, developer: 30, reporter: 20, guest: 10 };

interface Case {
  name: string;
  visibility: number;
  publicBuilds: boolean;
  id: number;
  sha: string;
  buildId: number;
  manualId: number;
  pipelineId: number;
  repoPath: string;
}

const CASES: Array<Pick<Case, 'name' | 'visibility' | 'publicBuilds'>> = [
  { name: 'private', visibility: 0, publicBuilds: true },
  { name: 'private-off', visibility: 0, publicBuilds: false },
  { name: 'internal', visibility: 10, publicBuilds: true },
  { name: 'internal-off', visibility: 10, publicBuilds: false },
  { name: 'public', visibility: 20, publicBuilds: true },
  { name: 'public-off', visibility: 20, publicBuilds: false },
];

const UNAUTHORIZED = { status: 401, body: { message: '401 Unauthorized' } };
const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } };
const HIDDEN = { status: 404, body: { message: '404 Project Not Found' } };

function readBuilds(role: Role, c: Case, ok: number): { status: number; body?: unknown } {
  if (role === 'none') return UNAUTHORIZED;
  if (role === 'nonMember' && c.visibility === 0) return HIDDEN;
  if (role === 'guest' || role === 'nonMember') {
    return c.visibility !== 0 && c.publicBuilds ? { status: ok } : FORBIDDEN;
  }
  return { status: ok };
}

function readPipelines(role: Role, c: Case, ok: number): { status: number; body?: unknown } {
  if (role === 'none') return UNAUTHORIZED;
  if (role === 'nonMember' && c.visibility === 0) return HIDDEN;
  if (role === 'guest' || role === 'nonMember') return c.visibility !== 0 ? { status: ok } : FORBIDDEN;
  return { status: ok };
}

function act(role: Role, c: Case, ok: number): { status: number; body?: unknown } {
  if (role === 'none') return UNAUTHORIZED;
  if (role === 'nonMember' && c.visibility === 0) return HIDDEN;
  if (role === 'guest' || role === 'nonMember' || role === 'reporter') return FORBIDDEN;
  return { status: ok };
}

const ENDPOINTS: Array<{
  name: string;
  method: string;
  /** Run for the roles whose answer can differ only (reporter stands for master, developer, admin). */
  refusalsOnly?: boolean;
  url: (c: Case) => string;
  expect: (role: Role, c: Case) => { status: number; body?: unknown };
}> = [
  {
    name: 'list',
    method: 'GET',
    url: (c) => `/projects/${c.id}/builds`,
    expect: (r, c) => readBuilds(r, c, 200),
  },
  {
    name: 'commit builds',
    method: 'GET',
    refusalsOnly: true,
    url: (c) => `/projects/${c.id}/repository/commits/${c.sha}/builds`,
    expect: (r, c) => readBuilds(r, c, 200),
  },
  {
    name: 'one build',
    method: 'GET',
    refusalsOnly: true,
    url: (c) => `/projects/${c.id}/builds/${c.buildId}`,
    expect: (r, c) => readBuilds(r, c, 200),
  },
  {
    name: 'trace',
    method: 'GET',
    refusalsOnly: true,
    url: (c) => `/projects/${c.id}/builds/${c.buildId}/trace`,
    expect: (r, c) => readBuilds(r, c, 200),
  },
  {
    name: 'artifacts',
    method: 'GET',
    refusalsOnly: true,
    url: (c) => `/projects/${c.id}/builds/${c.buildId}/artifacts`,
    expect: (r, c) => readBuilds(r, c, 200),
  },
  {
    name: 'artifacts by ref',
    method: 'GET',
    refusalsOnly: true,
    url: (c) => `/projects/${c.id}/builds/artifacts/master/download?job=compile`,
    expect: (r, c) => readBuilds(r, c, 200),
  },
  {
    name: 'pipelines',
    method: 'GET',
    url: (c) => `/projects/${c.id}/pipelines`,
    expect: (r, c) => readPipelines(r, c, 200),
  },
  {
    name: 'one pipeline',
    method: 'GET',
    url: (c) => `/projects/${c.id}/pipelines/${c.pipelineId}`,
    expect: (r, c) => readPipelines(r, c, 200),
  },
  // Cancel of a finished build or pipeline changes nothing, so every allowed role may run it.
  {
    name: 'cancel build',
    method: 'POST',
    url: (c) => `/projects/${c.id}/builds/${c.buildId}/cancel`,
    expect: (r, c) => act(r, c, 201),
  },
  {
    name: 'cancel pipeline',
    method: 'POST',
    url: (c) => `/projects/${c.id}/pipelines/${c.pipelineId}/cancel`,
    expect: (r, c) => act(r, c, 200),
  },
];

// The other actions change state: only their refusals are run for every role.
const REFUSED_ACTIONS: Array<(c: Case) => string> = [
  (c) => `/projects/${c.id}/builds/${c.buildId}/retry`,
  (c) => `/projects/${c.id}/builds/${c.buildId}/erase`,
  (c) => `/projects/${c.id}/builds/${c.buildId}/artifacts/keep`,
  (c) => `/projects/${c.id}/builds/${c.manualId}/play`,
  (c) => `/projects/${c.id}/pipelines/${c.pipelineId}/retry`,
];

describe('builds and pipelines: access', () => {
  let t: TestApp;
  const tokens: Partial<Record<Role, string>> = {};
  const cases: Case[] = [];

  before(async () => {
    t = await startTestApp();
    const owner = await createUser(t, 'bacowner');
    const users: Partial<Record<Role, TestUser>> = {};
    for (const role of ['master', 'developer', 'reporter', 'guest', 'nonMember'] as const) {
      users[role] = await createUser(t, `bac${role.toLowerCase()}`);
      tokens[role] = users[role]!.token;
    }
    tokens.admin = t.rootToken;
    // The projects are independent: set them up side by side.
    const made = await Promise.all(
      CASES.map(async (spec) => {
        const project = await createProject(t, {
          owner,
          path: `bac-${spec.name}`,
          visibility: spec.visibility,
          commit: true,
        });
        await t.server.deps.db.kysely
          .updateTable('projects')
          .set({ public_builds: spec.publicBuilds ? 1 : 0 })
          .where('id', '=', project.id)
          .execute();
        for (const [role, level] of Object.entries(LEVELS)) {
          await addProjectMember(t, project.id, users[role as Role]!.id, level);
        }
        const sha = (await git(['rev-parse', 'master'], { cwd: project.repoPath })).trim();
        const { pipeline, builds } = await seedPipeline(t, project, {
          sha,
          builds: [
            { name: 'compile', status: 'success', artifacts: { 'out.txt': 'built' }, trace: 'compiled\n' },
            { name: 'deploy', status: 'skipped', when: 'manual', startedAt: null },
          ],
        });
        return {
          ...spec,
          id: project.id,
          repoPath: project.repoPath,
          sha,
          pipelineId: pipeline.id,
          buildId: builds[0]!.id,
          manualId: builds[1]!.id,
        } as Case;
      }),
    );
    cases.push(...made);
  });
  after(() => t?.close());

  it('answers each role on each kind of project as 8.13 did (with public_builds honoured everywhere)', async () => {
    const problems: string[] = [];
    // One chain of requests per project, side by side (what they change is nothing: cancels of finished
    // builds and refusals).
    await Promise.all(
      cases.map(async (c) => {
        for (const role of ROLES) {
          for (const endpoint of ENDPOINTS) {
            if (endpoint.refusalsOnly && ['admin', 'master', 'developer'].includes(role)) continue;
            const expected = endpoint.expect(role, c);
            const response = await t.request(endpoint.method, `/api/v3${endpoint.url(c)}`, {
              token: tokens[role],
            });
            const wrongBody =
              expected.body !== undefined && JSON.stringify(response.body) !== JSON.stringify(expected.body);
            if (response.status !== expected.status || wrongBody) {
              problems.push(
                `${endpoint.name} as ${role} on ${c.name}: ${response.status} ${response.text.slice(0, 80)}, expected ${expected.status}`,
              );
            }
          }
          for (const url of REFUSED_ACTIONS) {
            const expected = act(role, c, 0);
            if (expected.status === 0) continue;
            const response = await t.request('POST', `/api/v3${url(c)}`, { token: tokens[role] });
            if (
              response.status !== expected.status ||
              JSON.stringify(response.body) !== JSON.stringify(expected.body)
            ) {
              problems.push(`POST ${url(c)} as ${role} on ${c.name}: ${response.status} ${response.text}`);
            }
          }
        }
      }),
    );
    assert.deepEqual(problems.sort(), []);
  });

  it('hides builds and pipelines from everyone while builds are off', async () => {
    const c = cases.find((item) => item.name === 'public')!;
    const db = t.server.deps.db.kysely;
    await db.updateTable('projects').set({ builds_enabled: 0 }).where('id', '=', c.id).execute();
    try {
      for (const url of [`/projects/${c.id}/builds`, `/projects/${c.id}/pipelines`]) {
        const response = await t.request('GET', `/api/v3${url}`, { token: tokens.master });
        assert.equal(response.status, 403, url);
      }
      const cancel = await t.request('POST', `/api/v3/projects/${c.id}/builds/${c.buildId}/cancel`, {
        token: tokens.master,
      });
      assert.equal(cancel.status, 403);
    } finally {
      await db.updateTable('projects').set({ builds_enabled: 1 }).where('id', '=', c.id).execute();
    }
  });

  describe('bad requests and missing things', () => {
    let c: Case;
    const get = (url: string) => t.request('GET', `/api/v3${url}`, { token: t.rootToken });
    const post = (url: string) => t.request('POST', `/api/v3${url}`, { token: t.rootToken });
    before(() => {
      c = cases.find((item) => item.name === 'private')!;
    });

    it('takes scope as a string, an array or indexed keys; an unknown one is a 400', async () => {
      const names = async (query: string) => {
        const response = await get(`/projects/${c.id}/builds?${query}`);
        assert.equal(response.status, 200, response.text);
        return response.body.map((build: { name: string }) => build.name);
      };
      assert.deepEqual(await names(''), ['deploy', 'compile']);
      assert.deepEqual(await names('scope=success'), ['compile']);
      assert.deepEqual(await names('scope[]=success&scope[]=skipped'), ['deploy', 'compile']);
      assert.deepEqual(await names('scope[0]=skipped'), ['deploy']);
      assert.deepEqual(await names('scope=running'), []);
      for (const query of ['scope=bogus', 'scope[]=success&scope[]=bogus']) {
        const response = await get(`/projects/${c.id}/builds?${query}`);
        assert.equal(response.status, 400);
        assert.deepEqual(response.body, { message: 'Scope contains invalid value(s)' });
      }
      const commit = await get(`/projects/${c.id}/repository/commits/${c.sha}/builds?scope=bogus`);
      assert.equal(commit.status, 400);
    });

    it('paginates with GitLab headers, newest first', async () => {
      const response = await get(`/projects/${c.id}/builds?per_page=1&page=2`);
      assert.equal(response.status, 200);
      assert.equal(response.body.length, 1);
      assert.equal(response.body[0].id, c.buildId);
      assert.equal(response.headers['x-total'], '2');
      assert.equal(response.headers['x-total-pages'], '2');
      assert.equal(response.headers['x-page'], '2');
      assert.equal(response.headers['x-per-page'], '1');
      assert.equal(response.headers['x-next-page'], '');
      assert.equal(response.headers['x-prev-page'], '1');
      assert.match(String(response.headers.link), /rel="prev".*rel="first".*rel="last"/);
      const beyond = await get(`/projects/${c.id}/builds?page=5`);
      assert.deepEqual(beyond.body, []);
      assert.equal(beyond.headers['x-total'], '2');
    });

    it('answers 404 for unknown builds, commits and pipelines, [] for a commit without builds', async () => {
      for (const url of [
        `/projects/${c.id}/builds/999999`,
        `/projects/${c.id}/builds/abc`,
        `/projects/${c.id}/builds/999999/trace`,
        `/projects/${c.id}/builds/999999/artifacts`,
        `/projects/${c.id}/repository/commits/${'f'.repeat(40)}/builds`,
      ]) {
        const response = await get(url);
        assert.equal(response.status, 404, url);
        assert.deepEqual(response.body, { message: '404 Not Found' }, url);
      }
      for (const url of [`/projects/${c.id}/builds/999999/cancel`, `/projects/${c.id}/builds/999999/retry`]) {
        const response = await post(url);
        assert.equal(response.status, 404, url);
        assert.deepEqual(response.body, { message: '404 Not Found' });
      }
      // A commit of the repository without any pipeline.
      const newer = await commitFile(c.repoPath, 'other.txt', 'other');
      const none = await get(`/projects/${c.id}/repository/commits/${newer}/builds`);
      assert.equal(none.status, 200);
      assert.deepEqual(none.body, []);
      assert.equal(none.headers['x-total'], '0');
      const pipelines = await get(`/projects/${c.id}/pipelines/999999`);
      assert.equal(pipelines.status, 404);
      assert.deepEqual(pipelines.body, { message: '404 Not found' });
      const invalid = await get(`/projects/${c.id}/pipelines/abc`);
      assert.equal(invalid.status, 400);
      assert.deepEqual(invalid.body, { error: 'pipeline_id is invalid' });
      const play = await post(`/projects/${c.id}/builds/abc/play`);
      assert.equal(play.status, 400);
      assert.deepEqual(play.body, { error: 'build_id is invalid' });
      const scope = await get(`/projects/${c.id}/pipelines?scope=bogus`);
      assert.equal(scope.status, 400);
      assert.deepEqual(scope.body, { error: 'scope does not have a valid value' });
    });
  });
});
