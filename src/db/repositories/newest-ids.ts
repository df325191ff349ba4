// A page of ids, newest first, found on an index before any row is read (a deferred join). A list of
// several statuses walks each status's index on its own and stops after offset + limit ids, then merges:
// page 201 costs what page 1 costs whatever the project's size.
import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import type { Executor } from '../types.ts';
import type { CiStatus } from '../../domain/types.ts';

/** `walk(status, n)`: the newest n ids of one status (undefined: every status), ordered by id desc. */
export type IdWalk<T extends keyof Database> = (
  status: CiStatus | undefined,
  limit: number,
) => SelectQueryBuilder<Database, T, { id: number }>;

export function newestIdsPage<T extends keyof Database>(
  db: Executor,
  statuses: readonly CiStatus[] | undefined,
  walk: IdWalk<T>,
  limit: number,
  offset: number,
) {
  const distinct = statuses && statuses.length > 0 ? [...new Set(statuses)] : [undefined];
  if (distinct.length === 1) return walk(distinct[0], limit).offset(offset);
  const walks = distinct.map((status, index) =>
    db.selectFrom(walk(status, offset + limit).as(`s${index}`)).select('id'),
  );
  let merged = walks[0]!;
  for (const next of walks.slice(1)) merged = merged.unionAll(next);
  return merged.orderBy('id', 'desc').limit(limit).offset(offset);
}
