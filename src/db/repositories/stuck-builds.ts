// Builds that have not moved for too long (the stuck-build sweep): pending or running builds whose
// updated_at is before a cutoff, read in pages along the (status, updated_at, id) index.
import type { Executor } from '../types.ts';

export interface StuckBuild {
  id: number;
  updated_at: string;
}

export function stuckBuilds(
  db: Executor,
  status: 'pending' | 'running',
  before: string,
  after: StuckBuild | undefined,
  limit: number,
): Promise<StuckBuild[]> {
  let query = db
    .selectFrom('ci_builds')
    .select(['id', 'updated_at'])
    .where('status', '=', status)
    .where('updated_at', '<', before)
    // Commit statuses reported by other CIs are theirs to finish.
    .where('type', '=', 'build');
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('updated_at', '>', after.updated_at),
        eb.and([eb('updated_at', '=', after.updated_at), eb('id', '>', after.id)]),
      ]),
    );
  }
  return query.orderBy('updated_at').orderBy('id').limit(limit).execute();
}

/** Running builds whose timeout has passed by `at`, soonest first (on the running builds' timeout index). */
export function overdueBuilds(db: Executor, at: string, limit: number): Promise<Array<{ id: number }>> {
  return db
    .selectFrom('ci_builds')
    .select('id')
    .where('status', '=', 'running')
    .where('timeout_at', 'is not', null)
    .where('timeout_at', '<', at)
    .orderBy('timeout_at')
    .limit(limit)
    .execute();
}
