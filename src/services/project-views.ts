// Presents project records with everything the Project entity embeds (owner, fork source, fork count,
// shares, the caller's access), batched: a fixed number of queries per page, never one per project.
import type { Deps } from '../deps.ts';
import type { UserRow } from '../db/repositories/users.ts';
import {
  findProjectRecordsByIds,
  forkCounts,
  forkSources,
  sharedGroups,
  type ProjectRecord,
} from '../db/repositories/projects.ts';
import { projectAccessMany } from '../policies/access.ts';
import { presentProject, type ProjectPresentOptions } from '../presenters/project.ts';

async function usersByIds(deps: Deps, ids: number[]): Promise<Map<number, UserRow>> {
  const unique = [...new Set(ids)];
  const result = new Map<number, UserRow>();
  if (unique.length === 0) return result;
  const rows = await deps.db.kysely.selectFrom('users').selectAll().where('id', 'in', unique).execute();
  for (const row of rows) result.set(row.id, row);
  return result;
}

export async function presentProjectRecords(
  deps: Deps,
  viewer: UserRow | null,
  records: ProjectRecord[],
  options: ProjectPresentOptions = {},
) {
  const db = deps.db.kysely;
  const ids = records.map((record) => record.project.id);
  const [access, sources, counts, shares] = await Promise.all([
    projectAccessMany(db, viewer, records),
    forkSources(db, ids),
    forkCounts(db, ids),
    sharedGroups(db, ids),
  ]);
  const sourceRecords = new Map(
    (await findProjectRecordsByIds(db, [...new Set(sources.values())])).map((r) => [r.project.id, r]),
  );
  const ownerIds = records
    .filter((r) => r.namespace.type !== 'Group' && r.namespace.owner_id !== null)
    .map((r) => r.namespace.owner_id!);
  const owners = await usersByIds(deps, ownerIds);
  return records.map((record) => {
    const sourceId = sources.get(record.project.id);
    return presentProject(
      record,
      {
        owner: record.namespace.owner_id !== null ? (owners.get(record.namespace.owner_id) ?? null) : null,
        forkedFrom: sourceId !== undefined ? (sourceRecords.get(sourceId) ?? null) : null,
        forksCount: counts.get(record.project.id) ?? 0,
        sharedWithGroups: shares.get(record.project.id) ?? [],
        access: access.get(record.project.id)!,
      },
      deps.config.externalUrl,
      options,
    );
  });
}

/** One project, reloaded (after a write) and presented for this caller. */
export async function presentProjectById(
  deps: Deps,
  viewer: UserRow | null,
  projectId: number,
  options: ProjectPresentOptions = {},
) {
  const records = await findProjectRecordsByIds(deps.db.kysely, [projectId]);
  const [presented] = await presentProjectRecords(deps, viewer, records, options);
  return presented;
}
