// The counters kept beside their rows (issue_counts, ci_list_counts and project_counts by triggers; a
// project's star_count by the star service) stay equal to a count of the rows they stand for when two
// servers (two processes' worth: two connection pools on one database) change those rows at the same
// time: issues created, closed, reopened and deleted; pipelines with builds inserted and deleted; projects
// created, flipped and deleted; stars given and taken back. On PostgreSQL the writes overlap in
// transactions of their own. SQLite serves one file from one process, so there both halves go through
// the one server, whose writes take turns: that still checks the triggers' sums for every way a row comes,
// changes or goes.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { seedPipeline } from '../helpers/ci.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import type { Server } from '../../src/server.ts';

const onPostgres = Boolean(process.env.LABRADOR_TEST_PG_URL);
const range = (count: number) => Array.from({ length: count }, (_, index) => index);

describe('counters under concurrent changes from two servers', () => {
  let t: TestApp;
  let other: Server;
  let owner: TestUser;
  let projects: TestProject[];

  before(async () => {
    t = await startTestApp();
    other = onPostgres ? await t.sibling() : t.server;
    owner = await createUser(t, 'countersowner', { projectsLimit: 100 });
    projects = [
      await createProject(t, { owner, path: 'counted-a', visibility: 20 }),
      await createProject(t, { owner, path: 'counted-b', visibility: 20 }),
    ];
  });
  after(async () => {
    if (other !== t?.server) await other?.close();
    await t?.close();
  });

  /** The i-th change goes through one server or the other, alternately. */
  async function call(i: number, method: string, url: string, token: string, body?: object) {
    const server = i % 2 === 0 ? t.server : other;
    const response = await server.app.inject({
      method: method as 'GET',
      url,
      headers: { 'private-token': token },
      ...(body ? { payload: body } : {}),
    });
    return { status: response.statusCode, body: response.body === '' ? null : JSON.parse(response.body) };
  }

  /** Rows of a query with numbers as numbers, sorted, for comparing one query with another. */
  async function rows(query: string): Promise<string[]> {
    const result = await sql.raw<Record<string, unknown>>(query).execute(t.server.deps.db.kysely);
    return result.rows.map((row) => Object.values(row).map(Number).join(' ')).sort();
  }

  it('issue_counts: opened and total equal a count of the issues', async () => {
    const issuesOf = (i: number) => `/api/v3/projects/${projects[i % 2]!.id}/issues`;
    const created = await Promise.all(
      range(60).map((i) => call(i, 'POST', issuesOf(i), owner.token, { title: `race ${i}` })),
    );
    for (const reply of created) assert.equal(reply.status, 201);
    const issue = (i: number) => `${issuesOf(i)}/${created[i]!.body.id}`;
    // At once, on alternating servers: closes, deletes, a close racing a delete of the same issue,
    // close-then-reopen chains, and more creates.
    const changes = range(60).map(async (i) => {
      const kind = i % 5;
      if (kind === 0) return [await call(i, 'PUT', issue(i), owner.token, { state_event: 'close' })];
      if (kind === 1) return [await call(i, 'DELETE', issue(i), owner.token)];
      if (kind === 2) {
        return Promise.all([
          call(i, 'PUT', issue(i), owner.token, { state_event: 'close' }),
          call(i + 1, 'DELETE', issue(i), owner.token),
        ]);
      }
      if (kind === 3) {
        const closed = await call(i, 'PUT', issue(i), owner.token, { state_event: 'close' });
        return [closed, await call(i + 1, 'PUT', issue(i), owner.token, { state_event: 'reopen' })];
      }
      return [await call(i, 'POST', issuesOf(i), owner.token, { title: `late ${i}` })];
    });
    for (const reply of (await Promise.all(changes)).flat()) {
      // A close that lost the race to its issue's deletion answers 404; nothing answers 500.
      assert.ok([200, 201, 404].includes(reply.status), `${reply.status} ${JSON.stringify(reply.body)}`);
    }

    const counted = await rows(
      `select project_id, sum(1 - closed) as opened, count(*) as total from issues group by project_id`,
    );
    assert.equal(counted.length, 2);
    assert.deepEqual(
      await rows(`select project_id, opened, total from issue_counts where total > 0`),
      counted,
    );
    for (const [index, project] of projects.entries()) {
      const read = await call(index, 'GET', `/api/v3/projects/${project.id}`, owner.token);
      const opened = Number(counted.find((row) => row.startsWith(`${project.id} `))!.split(' ')[1]);
      assert.equal(read.body.open_issues_count, opened);
    }
  });

  it('ci_list_counts: builds and pipelines equal a count of the rows', async () => {
    const dbs = [t.server.deps.db.kysely, other.deps.db.kysely];
    const seed = (i: number) =>
      seedPipeline(t, projects[i % 2]!, {
        sha: crypto.randomBytes(20).toString('hex'),
        db: dbs[i % 2],
        builds: [
          { name: 'test', status: 'success' },
          { name: 'deploy', status: 'pending', startedAt: null },
        ],
      });
    const first = await Promise.all(range(30).map(seed));
    // 30 more pipelines while 10 of the first ones are deleted (their builds cascade with them): 25
    // pipelines of 2 builds each per project.
    await Promise.all([
      ...range(30).map((i) => seed(i + 1)),
      ...first
        .filter((_, i) => i % 3 === 0)
        .map(({ pipeline }, i) =>
          dbs[i % 2]!.deleteFrom('ci_pipelines').where('id', '=', pipeline.id).execute(),
        ),
    ]);

    const counted = await rows(
      `select p.id, (select count(*) from ci_builds b where b.project_id = p.id and b.type = 'build') as builds,
         (select count(*) from ci_pipelines q where q.project_id = p.id) as pipelines
       from projects p where p.id in (${projects.map((project) => project.id).join(', ')})`,
    );
    assert.deepEqual(counted, projects.map((project) => `${project.id} 50 25`).sort());
    assert.deepEqual(
      await rows(
        `select project_id, builds, pipelines from ci_list_counts
         where project_id in (${projects.map((project) => project.id).join(', ')})`,
      ),
      counted,
    );
  });

  it('project_counts: each level and archived state equals a count of the projects', async () => {
    const created = await Promise.all(
      range(20).map((i) =>
        call(i, 'POST', '/api/v3/projects', owner.token, {
          name: `racer${i}`,
          visibility_level: (i % 3) * 10,
        }),
      ),
    );
    for (const reply of created) assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const project = (i: number) => `/api/v3/projects/${created[i]!.body.id}`;
    const changes = range(20).map((i) => {
      if (i % 4 === 0) return call(i, 'DELETE', project(i), owner.token);
      if (i % 4 === 1) return call(i, 'POST', `${project(i)}/archive`, owner.token);
      return call(i, 'PUT', project(i), owner.token, {
        name: `racer${i}`,
        visibility_level: ((i + 1) % 3) * 10,
      });
    });
    for (const reply of await Promise.all(changes)) {
      assert.ok([200, 201].includes(reply.status), `${reply.status} ${JSON.stringify(reply.body)}`);
    }

    const counted = await rows(
      `select visibility_level, archived, count(*) from projects group by visibility_level, archived`,
    );
    assert.deepEqual(
      await rows(
        `select visibility_level, archived, sum(count) from project_counts
         group by visibility_level, archived having sum(count) <> 0`,
      ),
      counted,
    );
  });

  it('star_count equals the stars given', async () => {
    const fans = await Promise.all(range(12).map((i) => createUser(t, `fan${i}`)));
    const project = `/api/v3/projects/${projects[0]!.id}`;
    // Every fan stars at once; half of them take it back at the same time as the star may land.
    const replies = await Promise.all(
      fans.flatMap((fan, i) => [
        call(i, 'POST', `${project}/star`, fan.token),
        ...(i % 2 === 0 ? [call(i + 1, 'DELETE', `${project}/star`, fan.token)] : []),
      ]),
    );
    // 304: starred already, or not starred (yet) when taken back.
    for (const reply of replies) assert.ok([200, 201, 304].includes(reply.status), `${reply.status}`);

    const [stars] = await rows(
      `select count(*) from users_star_projects where project_id = ${projects[0]!.id}`,
    );
    const read = await call(0, 'GET', project, owner.token);
    assert.equal(read.body.star_count, Number(stars));
    assert.ok(Number(stars) >= 6, `the fans who never took their star back: ${stars}`);
  });
});
