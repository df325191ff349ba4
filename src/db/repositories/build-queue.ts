// The pending builds a runner may be given, in GitLab 8.13's order. A shared runner serves every project
// with shared runners and builds on, projects with the fewest builds already running on shared runners
// first, then the oldest build; a specific runner serves its projects, oldest first.
//
// On PostgreSQL the candidates are locked with FOR UPDATE SKIP LOCKED inside the claiming transaction, so
// runners asking different processes at the same instant are handed different builds; SQLite has one
// writer (and one Labrador process per file), which serializes claims by itself.
import { sql } from 'kysely';
import type { Dialect } from '../connect.ts';
import type { CiRunnerRow, Executor } from '../types.ts';

export interface QueueCandidate {
  id: number;
  project_id: number;
  /** JSON array of the tags the build needs. */
  tag_list: string;
}

export interface CandidatePage {
  limit: number;
  offset: number;
}

export async function pendingCandidates(
  db: Executor,
  dialect: Dialect,
  runner: CiRunnerRow,
  page: CandidatePage,
): Promise<QueueCandidate[]> {
  const runnerTags = JSON.parse(runner.tag_list) as string[];
  let query = db
    .selectFrom('ci_builds as b')
    .innerJoin('projects as p', 'p.id', 'b.project_id')
    .select(['b.id', 'b.project_id', 'b.tag_list'])
    .where('b.status', '=', 'pending')
    .where('b.type', '=', 'build')
    .where('b.runner_id', 'is', null)
    .where('p.builds_enabled', '=', 1);
  // What the tags decide without looking inside them: a runner without tags takes only untagged builds,
  // one that may not run untagged builds only tagged ones. The subset rule is the caller's.
  if (runnerTags.length === 0) query = query.where('b.tag_list', '=', '[]');
  if (runner.run_untagged !== 1) query = query.where('b.tag_list', '<>', '[]');
  if (runner.is_shared === 1) {
    const runningOnShared = db
      .selectFrom('ci_builds as r')
      .select(['r.project_id', (eb) => eb.fn.countAll<number>().as('running')])
      .where('r.status', '=', 'running')
      .where('r.runner_id', 'in', db.selectFrom('ci_runners').select('id').where('is_shared', '=', 1))
      .groupBy('r.project_id')
      .as('rc');
    query = query
      .leftJoin(runningOnShared, 'rc.project_id', 'b.project_id')
      .where('p.shared_runners_enabled', '=', 1)
      .orderBy(sql`coalesce(rc.running, 0)`)
      .orderBy('b.id');
  } else {
    query = query
      .where(
        'b.project_id',
        'in',
        db.selectFrom('ci_runner_projects').select('project_id').where('runner_id', '=', runner.id),
      )
      .orderBy('b.created_at')
      .orderBy('b.id');
  }
  query = query.limit(page.limit).offset(page.offset);
  if (dialect === 'postgres') query = query.forUpdate('b').skipLocked();
  return query.execute();
}
