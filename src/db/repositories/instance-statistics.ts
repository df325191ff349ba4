// The instance's row counts for GET /application/statistics. As GitLab's approximate counts: on
// PostgreSQL a table the planner already knows to be large is counted from its statistics (pg_class's
// reltuples, kept by autovacuum), so the answer costs the same at a million rows as at ten; smaller
// tables, and SQLite's, are counted exactly.
import { sql } from 'kysely';
import type { Dialect } from '../connect.ts';
import type { Executor } from '../types.ts';

const EXACT_BELOW = 100_000;

type Counted =
  'users' | 'projects' | 'issues' | 'merge_requests' | 'notes' | 'snippets' | 'keys' | 'milestones';

async function estimatedRows(db: Executor, table: string): Promise<number | undefined> {
  const { rows } = await sql<{ estimate: number | string | null }>`
    select reltuples as estimate from pg_class where relname = ${table} and relkind = 'r'`.execute(db);
  const estimate = Number(rows[0]?.estimate ?? -1);
  return estimate >= EXACT_BELOW ? Math.round(estimate) : undefined;
}

async function tableRows(
  db: Executor,
  dialect: Dialect,
  table: Counted | 'forked_project_links',
): Promise<number> {
  if (dialect === 'postgres') {
    const estimate = await estimatedRows(db, table);
    if (estimate !== undefined) return estimate;
  }
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface InstanceCounts {
  users: number;
  activeUsers: number;
  groups: number;
  projects: number;
  forks: number;
  issues: number;
  mergeRequests: number;
  notes: number;
  snippets: number;
  sshKeys: number;
  milestones: number;
}

export async function instanceCounts(db: Executor, dialect: Dialect): Promise<InstanceCounts> {
  const groups = await db
    .selectFrom('namespaces')
    .where('type', '=', 'Group')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  const active = await db
    .selectFrom('users')
    .where('state', '=', 'active')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return {
    users: await tableRows(db, dialect, 'users'),
    activeUsers: Number(active.count),
    groups: Number(groups.count),
    projects: await tableRows(db, dialect, 'projects'),
    forks: await tableRows(db, dialect, 'forked_project_links'),
    issues: await tableRows(db, dialect, 'issues'),
    mergeRequests: await tableRows(db, dialect, 'merge_requests'),
    notes: await tableRows(db, dialect, 'notes'),
    snippets: await tableRows(db, dialect, 'snippets'),
    sshKeys: await tableRows(db, dialect, 'keys'),
    milestones: await tableRows(db, dialect, 'milestones'),
  };
}
