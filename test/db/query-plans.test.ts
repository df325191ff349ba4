// Every statement the workload causes, checked with SQLite's EXPLAIN QUERY PLAN (with the parameters it
// ran with): a SCAN of a table that grows fails the test.
// PostgreSQL plans depend on statistics of a near-empty test database, so this runs on SQLite only;
// queue-plans.test.ts checks the work queues on PostgreSQL with their tables filled.
import assert from 'node:assert/strict';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { workload, type WorkloadContext } from './workload.ts';

const onPostgres = Boolean(process.env.LABRADOR_TEST_PG_URL);

/** Tables that stay tiny whatever the load; scanning them costs nothing. */
// system_hooks: a handful of administrator-made rows; every system event goes to all of them by definition.
// sqlite_master: the schema catalog, read when the instance check asks which migrations have run.
// CONSTANT: `select 1` of the health check reads no table at all.
const SMALL_TABLES = new Set([
  'settings',
  'kysely_migration',
  'kysely_migration_lock',
  'system_hooks',
  'sqlite_master',
  'CONSTANT',
]);

/**
 * Whole-table work that the API asks for by definition, each with its statement and why it is accepted.
 * Nothing else may scan a growing table.
 */
const ACCEPTED_SCANS: Array<{ table: string; statement: RegExp; detail?: RegExp; why: string }> = [
  {
    table: 'users',
    statement: /^select count\(\*\) as "count" from "users"(?: where \(lower\(users\.username\) like)?/,
    why: 'X-Total of GET /users (admin-wide list) counts every user, or every substring match',
  },
  {
    table: 'users',
    statement:
      /^select \* from "users" where "id" in \(select "users"\."id" from "users" (?:where \(lower\(users\.username\) like .*\) )?order by "users"\."id" limit \? offset \?\)/,
    why:
      'GET /users pages walk the primary key in order and stop after offset+limit ids; a substring ' +
      'search (LIKE %x%) cannot use a B-tree index (a trigram index would)',
  },
  {
    table: 'namespaces',
    statement: /^select count\(\*\) as "count" from "namespaces"(?: where \(lower\(namespaces\.name\) like)?/,
    why: 'X-Total of GET /namespaces for administrators counts every namespace, or every substring match',
  },
  {
    table: 'namespaces',
    statement:
      /^select \* from "namespaces" where "id" in \(select "namespaces"\."id" from "namespaces" (?:where \(lower\(namespaces\.name\) like .*\) )?order by "namespaces"\."id" limit \? offset \?\)/,
    why:
      'GET /namespaces for administrators walks the primary key in order and stops after offset+limit ids; ' +
      'a substring search (LIKE %x%) cannot use a B-tree index',
  },
];

ACCEPTED_SCANS.push(
  {
    table: 'keys',
    statement: /^select \* from "keys" where "type" = \? order by "id"$/,
    why: 'GET /deploy_keys (administrators) lists every deploy key by definition; it walks the keys_deploy partial index only',
  },
  {
    table: 'p',
    statement: /pragma_table_info\(tl\.name\) as "p"/,
    why: 'the migrator lists the columns of each table of the schema catalog (instance check)',
  },
  {
    table: 'p',
    statement:
      /^select "p"\."id" from "projects" as "p" where \("p"\."visibility_level" >= \? or "p"\."id" in \(.*\)\)(?: and .*)? order by "p"\."(?:id|name|path|created_at|updated_at|last_activity_at)" (?:asc|desc)(?:, "p"\."id" (?:asc|desc))? limit \? offset \?$/,
    detail:
      /^SCAN p USING COVERING INDEX projects_list_(?:id|name|path|created_at|updated_at|last_activity_at)$/,
    why:
      'GET /projects/visible walks the projects_list_<order> index in list order, decides visibility (and ' +
      'the archived filter) from the index entry, and stops after offset+limit visible projects instead of ' +
      'sorting every project the caller may see; a substring search (LIKE %x%) cannot use a B-tree index',
  },
  {
    table: 'p',
    statement:
      /^select "p"\."id" from "projects" as "p" where \("p"\."visibility_level" >= \? or "p"\."id" in \(.*\)\) and \(lower\("p"\."name"\) like .* order by "p"\."(?:id|name|path|created_at|updated_at|last_activity_at)" (?:asc|desc)(?:, "p"\."id" (?:asc|desc))? limit \? offset \?$/,
    detail: /^SCAN p USING INDEX projects_list_(?:id|name|path|created_at|updated_at|last_activity_at)$/,
    why:
      'GET /projects/search/:query and ?search= walk the same index in list order but read each project ' +
      'row for the substring match on name, path and description (LIKE %x% cannot use a B-tree index)',
  },
  {
    table: 'p',
    statement:
      /^select "p"\."id" from "projects" as "p"(?: where "p"\."archived" = \?)? order by "p"\."(?:id|name|path|created_at|updated_at|last_activity_at)" (?:asc|desc)(?:, "p"\."id" (?:asc|desc))? limit \? offset \?$/,
    detail:
      /^SCAN p USING COVERING INDEX projects_list_(?:id|name|path|created_at|updated_at|last_activity_at)$/,
    why: 'GET /projects/all (administrators) walks the projects_list_<order> index and stops after offset+limit ids',
  },
);

// Builds and pipelines lists: what is scanned is a derived table that an index walk already bounded
// (the capped count reads at most COUNT_CAP + 1 index entries; a multi-status page at most offset + limit
// ids per status), never the table.
ACCEPTED_SCANS.push({
  table: 'capped',
  statement:
    /^select count\(\*\) as "count" from \(select .* from "ci_(builds|pipelines)" where .* limit \?\) as "capped"$/,
  why: 'X-Total of build and pipeline lists counts at most COUNT_CAP + 1 rows of an index walk',
});
ACCEPTED_SCANS.push({
  table: 'capped',
  statement:
    /^select count\(\*\) as "count" from \(select "issues"\."id" from "issues" where .* limit \?\) as "capped"$/,
  why: 'X-Total of a filtered issue list counts at most COUNT_CAP + 1 rows of an index walk',
});
for (let index = 0; index < 7; index += 1) {
  ACCEPTED_SCANS.push({
    table: `s${index}`,
    statement:
      /^select \* from "ci_(builds|pipelines)" where "id" in \(select "id" from \(select "id" from "ci_(builds|pipelines)" where .* order by "id" desc limit \?\) as "s0" union all /,
    why: 'a page of builds or pipelines in several statuses merges one bounded index walk per status',
  });
}
ACCEPTED_SCANS.push({
  table: 'ci_runners',
  statement:
    /^select (?:count\(\*\) as "count"|\*) from "ci_runners"(?: where "(?:active|contacted_at)" (?:=|>) \?)?(?: order by "id" limit \? offset \?)?$/,
  why:
    'GET /runners/all (administrators) lists every runner, or the active, paused or online ones, walking ' +
    'the primary key; runners are machines an administrator registers, a handful per instance',
});

/**
 * Index searches that are scans in disguise: `visibility_level >= 10` matches most projects, so a range
 * over projects_visibility_id walks a share of the table that grows with it (as X-Total of
 * /projects/visible once did, counting every visible project).
 */
const DISGUISED_SCANS = [
  /^SEARCH (\S+) USING (?:COVERING )?INDEX projects_visibility_id \(visibility_level>\?\)/,
];
ACCEPTED_SCANS.push({
  table: 'p',
  statement:
    /^select count\(\*\) as "count" from "projects" as "p" where .* and \(lower\("p"\."name"\) like /,
  why: 'X-Total of a project list with a substring search (LIKE %x%) counts the matches of every visible project',
});

const CONTROL = /^(begin|commit|rollback|savepoint|release)\b/i;

describe(
  onPostgres
    ? 'query plans (skipped on PostgreSQL: EXPLAIN QUERY PLAN is checked on SQLite)'
    : 'query plans: no statement scans a growing table',
  { skip: onPostgres ? 'EXPLAIN QUERY PLAN is checked on SQLite only' : false },
  () => {
    let t: TestApp;
    const statements = new Map<string, readonly unknown[]>();

    before(async () => {
      t = await startTestApp();
      t.server.deps.db.onQuery = (sql, parameters) => {
        if (!statements.has(sql)) statements.set(sql, parameters);
      };
    });
    after(async () => {
      if (t) {
        t.server.deps.db.onQuery = undefined;
        await t.close();
      }
    });

    it('runs the workload of every area', async () => {
      const ctx: WorkloadContext = { t, users: {} };
      for (const step of workload) await step.run(ctx);
      assert.ok(statements.size > 20, `only ${statements.size} statements recorded`);
    });

    it('plans every statement without scanning a growing table', () => {
      const db = new SQLite(path.join(t.config.dataDir, 'labrador.sqlite3'), { readonly: true });
      const problems: string[] = [];
      try {
        for (const [sql, parameters] of statements) {
          if (CONTROL.test(sql.trim())) continue;
          const plan = db.prepare(`explain query plan ${sql}`).all(...(parameters as unknown[])) as Array<{
            detail: string;
          }>;
          for (const { detail } of plan) {
            // A multi-row INSERT walks its own VALUES list, not a table.
            if (/^SCAN \d+-ROW VALUES CLAUSE$/.test(detail)) continue;
            // A list parameter (db/prepared.ts inList) walks its own JSON array, not a table.
            if (/^SCAN json_each VIRTUAL TABLE\b/.test(detail)) continue;
            const table = [/^SCAN (\S+)/, ...DISGUISED_SCANS]
              .map((shape) => shape.exec(detail)?.[1])
              .find(Boolean);
            if (!table || SMALL_TABLES.has(table)) continue;
            const accepted = ACCEPTED_SCANS.some(
              (scan) =>
                scan.table === table && scan.statement.test(sql) && (scan.detail?.test(detail) ?? true),
            );
            if (accepted) continue;
            problems.push(
              `${detail}\n    in: ${sql}\n    plan: ${plan.map((row) => row.detail).join(' | ')}`,
            );
          }
        }
      } finally {
        db.close();
      }
      assert.deepEqual(problems, [], `statements scanning a growing table:\n${problems.join('\n')}`);
    });
  },
);
