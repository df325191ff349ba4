// Projects with their namespace, looked up by id or by namespace/path (both on unique indexes), and the
// batched page helpers the project entity needs (owners, fork sources, fork counts, shares).
import { sql } from 'kysely';
import type { Database } from '../schema.ts';
import type { Executor } from '../types.ts';
import { inList, prepared, rowSplitter } from '../prepared.ts';
import type {
  NamespaceRow,
  NewProject,
  ProjectChanges,
  ProjectRecord,
  ProjectRow,
  SharedGroupRow,
} from '../types.ts';

const PROJECT_COLUMNS = [
  'id',
  'namespace_id',
  'creator_id',
  'name',
  'path',
  'description',
  'default_branch',
  'visibility_level',
  'archived',
  'issues_enabled',
  'merge_requests_enabled',
  'wiki_enabled',
  'builds_enabled',
  'snippets_enabled',
  'container_registry_enabled',
  'shared_runners_enabled',
  'public_builds',
  'lfs_enabled',
  'only_allow_merge_if_build_succeeds',
  'request_access_enabled',
  'runners_token',
  'star_count',
  'import_url',
  'avatar',
  'last_activity_at',
  'created_at',
  'updated_at',
  'build_timeout',
  'build_allow_git_fetch',
  'build_coverage_regex',
  'topic_list',
] as const;

const NAMESPACE_COLUMNS = [
  'id',
  'name',
  'path',
  'owner_id',
  'type',
  'description',
  'visibility_level',
  'request_access_enabled',
  'lfs_enabled',
  'share_with_group_lock',
  'avatar',
  'created_at',
  'updated_at',
] as const;

/** Project and namespace columns, prefixed p_ and n_ (toRecord splits them again). */
export function selectRecords(db: Executor) {
  return db
    .selectFrom('projects as p')
    .innerJoin('namespaces as n', 'n.id', 'p.namespace_id')
    .select(PROJECT_COLUMNS.map((c) => `p.${c} as p_${c}` as const))
    .select(NAMESPACE_COLUMNS.map((c) => `n.${c} as n_${c}` as const));
}

const splitRecord = rowSplitter({
  project: { prefix: 'p_', columns: PROJECT_COLUMNS },
  namespace: { prefix: 'n_', columns: NAMESPACE_COLUMNS },
});

export function toRecord(row: Record<string, unknown>): ProjectRecord {
  return splitRecord(row) as unknown as ProjectRecord;
}

export async function findProjectRecordById(db: Executor, id: number): Promise<ProjectRecord | undefined> {
  const row = await selectRecords(db).where('p.id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/** The project whose runners token this is (runner registration and build-token checks). */
export async function findProjectRecordByRunnersToken(
  db: Executor,
  token: string,
): Promise<ProjectRecord | undefined> {
  const row = await selectRecords(db).where('p.runners_token', '=', token).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/** `namespace/path`, case-insensitive (GitLab preferred an exact-case match; paths are unique ignoring case). */
export async function findProjectRecordByFullPath(
  db: Executor,
  namespacePath: string,
  projectPath: string,
): Promise<ProjectRecord | undefined> {
  const row = await selectRecords(db)
    .where(sql<string>`lower(n.path)`, '=', namespacePath.toLowerCase())
    .where(sql<string>`lower(p.path)`, '=', projectPath.toLowerCase())
    .executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/** Records for a page of ids, in the order of `ids` (one query). */
export async function findProjectRecordsByIds(db: Executor, ids: number[]): Promise<ProjectRecord[]> {
  if (ids.length === 0) return [];
  const rows = await selectRecords(db).where('p.id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.p_id as number, toRecord(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A new project's switches as GitLab 8.13 set them: every feature on, registry and merge gating off. */
export const NEW_PROJECT_SWITCHES = {
  archived: 0,
  issues_enabled: 1,
  merge_requests_enabled: 1,
  wiki_enabled: 1,
  builds_enabled: 1,
  snippets_enabled: 1,
  container_registry_enabled: 0,
  shared_runners_enabled: 1,
  public_builds: 1,
  lfs_enabled: 1,
  only_allow_merge_if_build_succeeds: 0,
  request_access_enabled: 0,
} as const;

export function insertProject(db: Executor, values: NewProject): Promise<ProjectRow> {
  return db.insertInto('projects').values(values).returning(PROJECT_COLUMNS).executeTakeFirstOrThrow();
}

export async function updateProject(db: Executor, id: number, changes: ProjectChanges): Promise<void> {
  await db.updateTable('projects').set(changes).where('id', '=', id).execute();
}

/**
 * Sets the default branch of a project that has none (its first push): true for the one caller that
 * sets it, however many pushes race (PostgreSQL's row lock re-checks the condition; SQLite has one writer).
 */
export async function claimDefaultBranch(db: Executor, id: number, branch: string): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({ default_branch: branch })
    .where('id', '=', id)
    .where('default_branch', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findDefaultBranch(db: Executor, id: number): Promise<string | null> {
  const row = await db
    .selectFrom('projects')
    .select('default_branch')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.default_branch ?? null;
}

export async function deleteProjectRow(db: Executor, id: number): Promise<void> {
  // Members are polymorphic (no foreign key); every other project-owned table cascades.
  await db.deleteFrom('members').where('source_type', '=', 'Project').where('source_id', '=', id).execute();
  await db.deleteFrom('projects').where('id', '=', id).execute();
}

/** A project of the namespace whose `column` is `value` (lowercase), other than `exceptId`. */
const clashOn = (column: 'name' | 'path') =>
  prepared<{ namespaceId: number; value: string; exceptId: number }>()((db, slot) =>
    db
      .selectFrom('projects')
      .select('id')
      .where('namespace_id', '=', slot('namespaceId'))
      .where(sql<string>`lower(${sql.ref(column)})`, '=', slot('value'))
      .where('id', '!=', slot('exceptId')),
  );
const clashes = { name: clashOn('name'), path: clashOn('path') };

/** Another project in the namespace already uses this name or path (case-insensitively). */
export async function findNameOrPathClash(
  db: Executor,
  namespaceId: number,
  name: string | undefined,
  path: string | undefined,
  exceptId?: number,
): Promise<{ name: boolean; path: boolean }> {
  const result = { name: false, path: false };
  const checks: Array<Promise<unknown>> = [];
  const probe = (column: 'name' | 'path', value: string) => {
    // No project has id 0: without an exception every project of the namespace counts.
    const values = { namespaceId, value: value.toLowerCase(), exceptId: exceptId ?? 0 };
    checks.push(clashes[column].first(db, values).then((row) => (result[column] = Boolean(row))));
  };
  if (name !== undefined) probe('name', name);
  if (path !== undefined) probe('path', path);
  await Promise.all(checks);
  return result;
}

/** Whether some project of the namespace is more visible than `level` (a group cannot go below it). */
export async function hasProjectAboveVisibility(
  db: Executor,
  namespaceId: number,
  level: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('namespace_id', '=', namespaceId)
    .where('visibility_level', '>', level)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

const personalProjectCount = prepared<{ userId: number }>()((db, slot) =>
  db
    .selectFrom('projects as p')
    .innerJoin('namespaces as n', 'n.id', 'p.namespace_id')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('n.owner_id', '=', slot('userId'))
    .where('n.type', 'is', null),
);

export async function countPersonalProjects(db: Executor, userId: number): Promise<number> {
  const row = await personalProjectCount.first(db, { userId });
  return Number(row!.count);
}

const personalNamespaceOf = prepared<{ userId: number }>()((db, slot) =>
  db
    .selectFrom('namespaces')
    .select(NAMESPACE_COLUMNS)
    .where('owner_id', '=', slot('userId'))
    .where('type', 'is', null),
);

export async function findPersonalNamespace(db: Executor, userId: number): Promise<NamespaceRow | undefined> {
  return personalNamespaceOf.first(db, { userId });
}

export async function findNamespaceById(db: Executor, id: number): Promise<NamespaceRow | undefined> {
  return db.selectFrom('namespaces').select(NAMESPACE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Ids and paths of the projects in a namespace (user deletion removes their repositories). */
export function projectsInNamespace(
  db: Executor,
  namespaceId: number,
): Promise<Array<{ id: number; path: string }>> {
  return db.selectFrom('projects').select(['id', 'path']).where('namespace_id', '=', namespaceId).execute();
}

/** Groups each project among `ids` is shared with, in share order. */
export async function sharedGroups(db: Executor, ids: number[]): Promise<Map<number, SharedGroupRow[]>> {
  const result = new Map<number, SharedGroupRow[]>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('project_group_links as l')
    .innerJoin('namespaces as g', 'g.id', 'l.group_id')
    .select([
      'l.project_id',
      'l.group_id',
      'g.name as group_name',
      'g.path as group_path',
      'l.group_access',
      'l.expires_at',
    ])
    .where('l.project_id', 'in', ids)
    .orderBy('l.id')
    .execute();
  for (const row of rows) {
    const list = result.get(row.project_id) ?? [];
    list.push(row);
    result.set(row.project_id, list);
  }
  return result;
}

export type { Database };

/** Which of these projects were created by an import (their "created" event reads "imported"). */
const importedOf = prepared<{ ids: number[] }>()((db, slot) =>
  db
    .selectFrom('projects')
    .select('id')
    .where(() => inList(db, 'id', slot('ids')))
    .where('import_url', 'is not', null),
);

export async function importedProjectIds(db: Executor, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await importedOf.all(db, { ids: [...new Set(ids)] });
  return new Set(rows.map((row) => row.id));
}

/** Personal project counts of many users (can_create_project on user pages): one grouped query. */
export async function personalProjectCounts(db: Executor, userIds: number[]): Promise<Map<number, number>> {
  const result = new Map<number, number>();
  if (userIds.length === 0) return result;
  const rows = await db
    .selectFrom('namespaces as n')
    .innerJoin('projects as p', 'p.namespace_id', 'n.id')
    .select(['n.owner_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('n.owner_id', 'in', userIds)
    .where('n.type', 'is', null)
    .groupBy('n.owner_id')
    .execute();
  for (const row of rows) if (row.owner_id !== null) result.set(row.owner_id, Number(row.count));
  return result;
}

/**
 * Moves a project into another namespace if it is still in `fromNamespaceId` (a concurrent transfer
 * loses instead of both moving the repository); whether it moved.
 */
export async function moveProjectToNamespace(
  db: Executor,
  id: number,
  fromNamespaceId: number,
  changes: ProjectChanges & { namespace_id: number },
): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set(changes)
    .where('id', '=', id)
    .where('namespace_id', '=', fromNamespaceId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
