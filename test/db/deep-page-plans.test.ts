// PostgreSQL only: a deep page of a long list (page 101 at 20 a page) is found by walking an index in list
// order and stepping over the rows before it, never by sorting the list or reading the rows it steps over.
// With the tables filled and vacuumed (what autovacuum keeps: statistics, and the visibility map that lets
// a walk stay in the index), the statement that picks a page's ids in each long list — /projects/visible,
// a project's events, a project's builds — is checked with EXPLAIN (ANALYZE): an Index Only Scan walks at
// least offset + limit entries with no heap fetch, no table is read whole, and a sort, if any, orders the
// page's own rows only. The rows themselves are read by id afterwards (a deferred join). And the project
// lists' count and page-ids statements, run as named prepared statements as the server runs them, keep
// PostgreSQL's generic plan instead of being planned again at every run (which cost more than the page).
// (SQLite's plans of the same statements are checked by query-plans.test.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { seedPipeline } from '../helpers/ci.ts';
import { copyRow } from '../helpers/copy-row.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';

const onPostgres = Boolean(process.env.LABRADOR_TEST_PG_URL);
/** Projects of other users (a third each private, internal, public): 3,000 visible to the viewer. */
const PROJECTS = 4500;
/** Users who are masters of the copied projects. */
const USERS = 1000;
/** Group namespaces the projects are spread over. */
const NAMESPACES = 300;
/** Events and builds of the viewer's project. */
const ROWS = 2200;
/** Events and builds of the other projects. */
const OTHER_ROWS = 40_000;
const PER_PAGE = 20;
const PAGE = 101;
const LONG_TABLES = ['projects', 'events', 'ci_builds'];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

function nodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodes)];
}

describe(
  'deep pages of long lists on PostgreSQL: an index-only walk, no sort of the list',
  { skip: onPostgres ? false : 'PostgreSQL only: SQLite’s plans are checked by query-plans.test.ts' },
  () => {
    let t: TestApp;
    let admin: pg.Client;
    let viewer: TestUser;
    let project: TestProject;

    before(async () => {
      t = await startTestApp();
      admin = new pg.Client({ connectionString: t.config.databaseUrl });
      await admin.connect();
      viewer = await createUser(t, 'deepviewer');
      const other = await createUser(t, 'deepowner');
      project = await createProject(t, { owner: viewer, path: 'deep', visibility: 0 });
      const model = await createProject(t, { owner: other, path: 'model', visibility: 20 });
      const { builds } = await seedPipeline(t, project, {
        sha: 'c'.repeat(40),
        builds: [{ name: 'model', status: 'success' }],
      });
      // Copies of the model project, one second apart, a third at each visibility level, spread over
      // NAMESPACES groups; events and builds of other projects beside the viewer project's (the planner
      // reads a small table whole, so the tables are filled as an instance's are: many owners, many projects).
      const namespace = await admin.query<{ id: number }>(
        'select namespace_id as id from projects where id = $1',
        [model.id],
      );
      const firstGroup = await copyRow(admin, 'namespaces', namespace.rows[0]!.id, NAMESPACES, {
        name: `'g-' || g`,
        path: `'g-' || g`,
        owner_id: 'null',
        type: `'Group'`,
      });
      const firstProject = await copyRow(admin, 'projects', model.id, PROJECTS - 1, {
        namespace_id: `${firstGroup} + g % ${NAMESPACES}`,
        name: `'p-' || g`,
        path: `'p-' || g`,
        runners_token: `'deep-' || g`,
        visibility_level: '(g % 3) * 10',
        created_at: `to_char(timestamp '2016-01-01' + g * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      });
      const spread = `${firstProject} + g % ${PROJECTS - 1}`;
      // Each copied project has a master among USERS other users, as every project has its creator.
      const firstUser = await copyRow(admin, 'users', other.id, USERS, {
        username: `'deep-user-' || g`,
        email: `'deep-user-' || g || '@example.com'`,
        authentication_token: `'deep-token-' || g`,
      });
      const { rows: membership } = await admin.query<{ id: number }>(
        `select id from members where source_type = 'Project' and source_id = $1`,
        [model.id],
      );
      await copyRow(admin, 'members', membership[0]!.id, PROJECTS - 1, {
        source_id: spread,
        user_id: `${firstUser} + g % ${USERS}`,
      });
      await admin.query(
        `insert into events (project_id, author_id, action, created_at, updated_at)
         select ${spread}, $1, 5, '2016-01-01T00:00:00.000Z', '2016-01-01T00:00:00.000Z'
         from generate_series(1, $2) g`,
        [other.id, OTHER_ROWS],
      );
      await admin.query(
        `insert into events (project_id, author_id, action, created_at, updated_at)
         select $1, $2, 5, '2016-01-01T00:00:00.000Z', '2016-01-01T00:00:00.000Z' from generate_series(1, $3)`,
        [project.id, viewer.id, ROWS],
      );
      await copyRow(admin, 'ci_builds', builds[0]!.id, OTHER_ROWS, {
        token: `'other-' || g`,
        project_id: spread,
      });
      await copyRow(admin, 'ci_builds', builds[0]!.id, ROWS - 1, { token: `'deep-' || g` });
      await admin.query('vacuum analyze');
    });
    after(async () => {
      await admin?.end();
      await t?.close();
    });

    /** The statement of a GET that picks its page (the one with an offset), with its parameters. */
    async function pageStatement(url: string): Promise<[string, readonly unknown[]]> {
      const statements: Array<[string, readonly unknown[]]> = [];
      t.server.deps.db.onQuery = (sql, parameters) => statements.push([sql, parameters]);
      try {
        const response = await t.request('GET', url, { token: viewer.token });
        assert.equal(response.status, 200, response.text);
        assert.equal((response.body as unknown[]).length, PER_PAGE, url);
      } finally {
        t.server.deps.db.onQuery = undefined;
      }
      const paging = statements.filter(([sql]) => / offset \$\d+/.test(sql));
      assert.equal(paging.length, 1, `${url}: ${paging.map(([sql]) => sql).join('\n')}`);
      return paging[0]!;
    }

    async function assertIndexWalk(url: string) {
      const [sql, parameters] = await pageStatement(url);
      const { rows } = await admin.query(`explain (analyze, format json) ${sql}`, parameters as unknown[]);
      const plan = nodes(rows[0]['QUERY PLAN'][0].Plan as PlanNode);
      const shown = plan.map(
        (node) =>
          `${node['Node Type']} ${node['Index Name'] ?? node['Relation Name'] ?? ''} rows=${node['Actual Rows']} heap=${node['Heap Fetches'] ?? '-'}`,
      );
      const context = `${url}\n  ${shown.join('\n  ')}\n  in: ${sql}`;
      const skipped = (PAGE - 1) * PER_PAGE;
      const walks = plan.filter(
        (node) => node['Node Type'] === 'Index Only Scan' && node['Actual Rows'] >= skipped + PER_PAGE,
      );
      assert.equal(walks.length, 1, `one index-only walk over the rows before the page:\n${context}`);
      assert.equal(walks[0]!['Heap Fetches'], 0, `the walk reads no table page:\n${context}`);
      for (const node of plan) {
        assert.ok(
          !(node['Node Type'] === 'Seq Scan' && LONG_TABLES.includes(node['Relation Name'] ?? '')),
          `no table read whole:\n${context}`,
        );
        if (node['Node Type'] === 'Sort') {
          assert.ok(node['Actual Rows'] <= PER_PAGE + 1, `a sort of the page's rows only:\n${context}`);
        }
      }
    }

    it('GET /projects/visible?page=101: walks projects_list_created_at, steps over 2,000 visible projects', async () => {
      await assertIndexWalk(`/api/v3/projects/visible?per_page=${PER_PAGE}&page=${PAGE}`);
    });

    it('the project lists’ count and page ids keep PostgreSQL’s generic plan (not planned at every run)', async () => {
      // The server runs them as named prepared statements; PostgreSQL plans each execution anew when it
      // judges its generic plan worse than a custom one. Run here the same way, on one connection.
      const kept: string[] = [];
      for (const url of [
        '/api/v3/projects?per_page=20',
        `/api/v3/projects/visible?per_page=20&page=${PAGE}`,
      ]) {
        const statements: Array<[string, readonly unknown[]]> = [];
        t.server.deps.db.onQuery = (sql, parameters) => statements.push([sql, parameters]);
        try {
          assert.equal((await t.request('GET', url, { token: viewer.token })).status, 200);
        } finally {
          t.server.deps.db.onQuery = undefined;
        }
        const listed = statements.filter(
          ([sql]) => /^select count\(\*\) as "count" from "projects"/.test(sql) || / offset \$\d+$/.test(sql),
        );
        assert.equal(listed.length, 2, `${url}: the count and the page ids\n${listed.join('\n')}`);
        for (const [text, values] of listed) {
          const name = `kept_${kept.length}`;
          for (let run = 0; run < 8; run++) await admin.query({ name, text, values: values as unknown[] });
          const { rows } = await admin.query<{ generic: string; custom: string }>(
            'select generic_plans as generic, custom_plans as custom from pg_prepared_statements where name = $1',
            [name],
          );
          const what = text.startsWith('select count') ? 'count' : 'page ids';
          kept.push(`${url} ${what}: generic ${rows[0]!.generic}, custom ${rows[0]!.custom}`);
        }
      }
      assert.ok(
        kept.every((line) => !/generic 0,/.test(line)),
        `statements planned at every run:\n${kept.join('\n')}`,
      );
    });

    it('GET /projects/:id/events?page=101 and /builds?page=101: walk the project’s index', async () => {
      await assertIndexWalk(`/api/v3/projects/${project.id}/events?per_page=${PER_PAGE}&page=${PAGE}`);
      await assertIndexWalk(`/api/v3/projects/${project.id}/builds?per_page=${PER_PAGE}&page=${PAGE}`);
    });
  },
);
