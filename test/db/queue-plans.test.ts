// PostgreSQL only: the work queues (hook deliveries, builds handed to runners, pushes left to process)
// are claimed with FOR UPDATE SKIP LOCKED or found by status, and must walk their indexes, not the whole
// table: finished rows pile up without bound while the pending ones stay few. The test fills each queue's
// table with finished rows, has the planner's statistics taken (ANALYZE), runs the real claims (a hook
// delivery, a shared and a specific runner asking for a build, the start-up search for pending pushes),
// and checks each statement they sent with EXPLAIN: none may plan a Seq Scan of those tables, nor walk a
// whole index of them (an index scan whose condition leaves the index's first column free reads every
// entry: what the planner picks for `status = 'running'` once no index leads with status).
// (SQLite's plans of the same statements are checked by query-plans.test.ts.)
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { seedPipeline } from '../helpers/ci.ts';
import { copyRow } from '../helpers/copy-row.ts';
import { createProject, createUser, type TestProject } from '../helpers/factory.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { recoverPendingPushes } from '../../src/services/push/push.ts';

const onPostgres = Boolean(process.env.LABRADOR_TEST_PG_URL);
const SHARED_TOKEN = 'queue-plans-shared-token';
/** Finished rows per queue: enough that a sequential scan is the planner's only other way. */
const FINISHED_ROWS = 20_000;
const QUEUE_TABLES = ['hook_deliveries', 'ci_builds', 'pushes'];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** Each index of the queue tables by name: its table and the column it is ordered by first. */
type QueueIndexes = Map<string, { table: string; leading: string }>;

/** What in `node` and below reads a queue table whole: a sequential scan, or an index walked end to end. */
function wholeReads(node: PlanNode, indexes: QueueIndexes): string[] {
  const problems: string[] = [];
  const type = node['Node Type'];
  if (type === 'Seq Scan' && QUEUE_TABLES.includes(node['Relation Name'] ?? '')) {
    problems.push(`Seq Scan on ${node['Relation Name']}`);
  }
  const index = indexes.get(node['Index Name'] ?? '');
  if (index && /^(Index Scan|Index Only Scan|Bitmap Index Scan)$/.test(type)) {
    const bounded = new RegExp(`\\(${index.leading} (=|<|>)`).test(node['Index Cond'] ?? '');
    if (!bounded) {
      problems.push(
        `${type} using ${node['Index Name']} on ${index.table} without a condition on its first ` +
          `column ${index.leading} (${node['Index Cond'] ?? 'no condition'})`,
      );
    }
  }
  return [...problems, ...(node.Plans ?? []).flatMap((child) => wholeReads(child, indexes))];
}

describe(
  'query plans of the work queues on PostgreSQL',
  { skip: onPostgres ? false : 'PostgreSQL only: SKIP LOCKED claims and their plans are PostgreSQL’s' },
  () => {
    let t: TestApp;
    let admin: pg.Client;
    let receiver: Receiver;
    let project: TestProject;
    let hookId: number;
    const statements = new Map<string, readonly unknown[]>();

    before(async () => {
      t = await startTestApp({ LABRADOR_RUNNER_TOKEN: SHARED_TOKEN });
      admin = new pg.Client({ connectionString: t.config.databaseUrl });
      await admin.connect();
      receiver = await startReceiver();
      const owner = await createUser(t, 'queueplans');
      project = await createProject(t, { owner, path: 'queued' });
      const hook = await t.request('POST', '/api/v3/hooks', {
        token: t.rootToken,
        body: { url: receiver.url },
      });
      assert.equal(hook.status, 201);
      hookId = hook.body.id;
      // Two pending builds (one for each runner) beside the finished ones copied from the first.
      const { builds } = await seedPipeline(t, project, {
        sha: crypto.randomBytes(20).toString('hex'),
        status: 'pending',
        builds: [
          { name: 'for-shared', status: 'pending', startedAt: null },
          { name: 'for-specific', status: 'pending', startedAt: null },
        ],
      });
      await seedFinishedRows(builds[0]!);
    });
    after(async () => {
      if (t) t.server.deps.db.onQuery = undefined;
      await admin?.end();
      await receiver?.close();
      await t?.close();
    });

    /** Finished builds spread over finished pipelines (as a project's history is), deliveries and pushes. */
    async function seedFinishedRows(build: { id: number; pipeline_id: number }) {
      const pipelines = FINISHED_ROWS / 10;
      const first = await copyRow(admin, 'ci_pipelines', build.pipeline_id, pipelines, {
        status: `'success'`,
        sha: 'md5(g::text)',
      });
      await copyRow(admin, 'ci_builds', build.id, FINISHED_ROWS, {
        status: `'success'`,
        token: `'finished-' || g`,
        pipeline_id: `${Number(first)} + g % ${pipelines}`,
      });
      await admin.query(
        `insert into hook_deliveries (hook_kind, hook_id, event, payload, status, attempts, next_attempt_at,
           created_at, updated_at)
         select 'system', $1, 'system_hook', '{}', 'delivered', 1, '2020-01-01T00:00:00.000Z',
           '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z'
         from generate_series(1, $2)`,
        [hookId, FINISHED_ROWS],
      );
      await admin.query(
        `insert into pushes (project_id, user_id, changes, status, applied_changes, created_at, processed_at)
         select $1, null, '[]', 'processed', '[]', '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z'
         from generate_series(1, $2)`,
        [project.id, FINISHED_ROWS],
      );
      await admin.query(`analyze ${QUEUE_TABLES.join(', ')}`);
    }

    it('claims a delivery, a build for each kind of runner, and looks for pending pushes', async () => {
      t.server.deps.db.onQuery = (sql, parameters) => {
        if (!statements.has(sql)) statements.set(sql, parameters);
      };
      // GET /hooks/:id sends the hook a test event: one delivery through the worker's claim.
      assert.equal((await t.request('GET', `/api/v3/hooks/${hookId}`, { token: t.rootToken })).status, 200);
      await t.server.hookWorker.drain();
      assert.equal(receiver.received.length, 1);

      const taken: string[] = [];
      for (const registrationToken of [SHARED_TOKEN, project.runners_token]) {
        const runner = await t.request('POST', '/ci/api/v1/runners/register.json', {
          body: { token: registrationToken },
        });
        assert.equal(runner.status, 201, runner.text);
        const job = await t.request('POST', '/ci/api/v1/builds/register.json', {
          body: { token: runner.body.token },
        });
        assert.equal(job.status, 201, job.text);
        taken.push(job.body.name);
      }
      assert.deepEqual(taken.sort(), ['for-shared', 'for-specific']);

      assert.equal(await recoverPendingPushes(t.server.deps), 0);
      t.server.deps.db.onQuery = undefined;

      const sent = [...statements.keys()];
      for (const table of ['hook_deliveries', 'ci_builds']) {
        const claims = sent.filter(
          (sql) => sql.includes(`"${table}"`) && /for update.* skip locked/i.test(sql),
        );
        // The shared runner's claim orders by builds already running per project; the specific one's does not.
        assert.ok(
          claims.length >= (table === 'ci_builds' ? 2 : 1),
          `claims of ${table}: ${claims.join('\n')}`,
        );
      }
      assert.ok(
        sent.some((sql) => /from "pushes" where "status" = \$1/.test(sql)),
        'the pending pushes search',
      );
    });

    it('plans none of those statements as a whole read of a queue table', async () => {
      const touching = [...statements].filter(([sql]) =>
        QUEUE_TABLES.some((table) => sql.includes(`"${table}"`)),
      );
      assert.ok(touching.length > 5, `only ${touching.length} statements on the queue tables`);
      const { rows: found } = await admin.query<{ name: string; table: string; leading: string }>(
        `select i.relname as name, t.relname as table, a.attname as leading
         from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
         join pg_attribute a on a.attrelid = x.indrelid and a.attnum = x.indkey[0]
         where t.relname = any($1)`,
        [QUEUE_TABLES],
      );
      const indexes: QueueIndexes = new Map(found.map((row) => [row.name, row]));
      const problems: string[] = [];
      for (const [sql, parameters] of touching) {
        const { rows } = await admin.query(`explain (format json) ${sql}`, parameters as unknown[]);
        const plan = rows[0]['QUERY PLAN'][0].Plan as PlanNode;
        for (const problem of wholeReads(plan, indexes)) problems.push(`${problem}\n    in: ${sql}`);
      }
      assert.deepEqual(problems, [], `statements reading a queue table whole:\n${problems.join('\n')}`);
    });
  },
);
