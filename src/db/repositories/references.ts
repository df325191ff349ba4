// What Markdown references name, read in batches (one statement per kind however many references a page
// makes): projects by path, issues and merge requests by (project, iid), labels and milestones by id,
// iid or title, namespaces by path with their owners' names, the members an `@all` or `@group` mention
// reaches, and whether a cross-reference note exists already.
import { sql } from 'kysely';
import { selectRecords, toRecord } from './projects.ts';
import type {
  Executor,
  IssueRow,
  LabelRow,
  MergeRequestRow,
  MilestoneRow,
  NamespaceRow,
  ProjectRecord,
} from '../types.ts';

/** Projects by `namespace/path`, lower-cased (paths are unique ignoring case). */
export async function findProjectRecordsByPaths(db: Executor, paths: string[]): Promise<ProjectRecord[]> {
  const pairs = paths.flatMap((path) => {
    const [namespace, project] = path.split('/');
    return namespace && project ? [{ namespace, project }] : [];
  });
  if (pairs.length === 0) return [];
  const rows = await selectRecords(db)
    .where(sql<string>`lower(n.path)`, 'in', [...new Set(pairs.map((pair) => pair.namespace))])
    .where(sql<string>`lower(p.path)`, 'in', [...new Set(pairs.map((pair) => pair.project))])
    .execute();
  const wanted = new Set(paths);
  return rows
    .map(toRecord)
    .filter((record) => wanted.has(`${record.namespace.path}/${record.project.path}`.toLowerCase()));
}

/** Issues of several projects by iid: rows of other (project, iid) pairs are dropped after the read. */
export async function findIssuesByProjectIids(
  db: Executor,
  pairs: Array<{ projectId: number; iid: number }>,
): Promise<IssueRow[]> {
  if (pairs.length === 0) return [];
  const rows = await db
    .selectFrom('issues')
    .selectAll()
    .where('project_id', 'in', [...new Set(pairs.map((pair) => pair.projectId))])
    .where('iid', 'in', [...new Set(pairs.map((pair) => pair.iid))])
    .execute();
  const wanted = new Set(pairs.map((pair) => `${pair.projectId}:${pair.iid}`));
  return rows.filter((row) => wanted.has(`${row.project_id}:${row.iid}`));
}

/** Merge requests of several target projects by iid. */
export async function findMergeRequestsByProjectIids(
  db: Executor,
  pairs: Array<{ projectId: number; iid: number }>,
): Promise<MergeRequestRow[]> {
  if (pairs.length === 0) return [];
  const rows = await db
    .selectFrom('merge_requests')
    .selectAll()
    .where('target_project_id', 'in', [...new Set(pairs.map((pair) => pair.projectId))])
    .where('iid', 'in', [...new Set(pairs.map((pair) => pair.iid))])
    .execute();
  const wanted = new Set(pairs.map((pair) => `${pair.projectId}:${pair.iid}`));
  return rows.filter((row) => wanted.has(`${row.target_project_id}:${row.iid}`));
}

/** A project's labels named by id or by title. */
export function findLabelsByIdsOrTitles(
  db: Executor,
  projectId: number,
  ids: number[],
  titles: string[],
): Promise<LabelRow[]> {
  if (ids.length === 0 && titles.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('labels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where((eb) =>
      eb.or([
        ...(ids.length > 0 ? [eb('id', 'in', ids)] : []),
        ...(titles.length > 0 ? [eb('title', 'in', titles)] : []),
      ]),
    )
    .execute();
}

/** A project's milestones named by iid or by title. */
export function findMilestonesByIidsOrTitles(
  db: Executor,
  projectId: number,
  iids: number[],
  titles: string[],
): Promise<MilestoneRow[]> {
  if (iids.length === 0 && titles.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('milestones')
    .selectAll()
    .where('project_id', '=', projectId)
    .where((eb) =>
      eb.or([
        ...(iids.length > 0 ? [eb('iid', 'in', iids)] : []),
        ...(titles.length > 0 ? [eb('title', 'in', titles)] : []),
      ]),
    )
    .execute();
}

export interface NamespaceWithOwner {
  namespace: NamespaceRow;
  /** The user a personal namespace belongs to (active users only), null for a group. */
  owner: { id: number; name: string; username: string } | null;
}

/** Namespaces by lower-cased path: users' (with the user) and groups. Blocked users' names stay text. */
export async function findNamespacesByPaths(db: Executor, paths: string[]): Promise<NamespaceWithOwner[]> {
  if (paths.length === 0) return [];
  const rows = await db
    .selectFrom('namespaces as n')
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'n.owner_id').on('n.type', 'is', null))
    .selectAll('n')
    .select([
      'u.id as user_id',
      'u.name as user_name',
      'u.username as user_username',
      'u.state as user_state',
    ])
    .where(sql<string>`lower(n.path)`, 'in', paths)
    .execute();
  return rows.flatMap((row): NamespaceWithOwner[] => {
    const { user_id, user_name, user_username, user_state, ...namespace } = row;
    if (namespace.type === 'Group') return [{ namespace: namespace as NamespaceRow, owner: null }];
    if (user_id === null || user_state !== 'active') return [];
    return [
      {
        namespace: namespace as NamespaceRow,
        owner: { id: user_id, name: user_name ?? '', username: user_username ?? '' },
      },
    ];
  });
}

/** Active users who are members of these projects or groups (an `@all` or `@group` mention). */
export async function memberUserIds(
  db: Executor,
  sources: { projectIds: number[]; groupIds: number[] },
  limit: number,
  today: string,
): Promise<number[]> {
  const { projectIds, groupIds } = sources;
  if (projectIds.length === 0 && groupIds.length === 0) return [];
  const rows = await db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.user_id')
    .distinct()
    .where('u.state', '=', 'active')
    .where((eb) => eb.or([eb('m.expires_at', 'is', null), eb('m.expires_at', '>', today)]))
    .where((eb) =>
      eb.or([
        ...(projectIds.length > 0
          ? [eb.and([eb('m.source_type', '=', 'Project'), eb('m.source_id', 'in', projectIds)])]
          : []),
        ...(groupIds.length > 0
          ? [eb.and([eb('m.source_type', '=', 'Namespace'), eb('m.source_id', 'in', groupIds)])]
          : []),
      ]),
    )
    .limit(limit)
    .execute();
  return rows.map((row) => row.user_id);
}

/** Cross-reference notes already on these targets, by exact body (SystemNoteService.cross_reference_exists?). */
export async function existingCrossReferences(
  db: Executor,
  targets: Array<{ type: string; id: number }>,
  bodies: string[],
): Promise<Array<{ noteable_type: string; noteable_id: number; note: string }>> {
  if (targets.length === 0 || bodies.length === 0) return [];
  const rows = await db
    .selectFrom('notes')
    .select(['noteable_type', 'noteable_id', 'note'])
    .where('system', '=', 1)
    .where('noteable_id', 'in', [...new Set(targets.map((target) => target.id))])
    .where('noteable_type', 'in', [...new Set(targets.map((target) => target.type))])
    .where('note', 'in', [...new Set(bodies)])
    .execute();
  return rows.map((row) => ({
    noteable_type: row.noteable_type ?? '',
    noteable_id: row.noteable_id ?? 0,
    note: row.note,
  }));
}

/** Which of these groups the user is an unexpired member of (a private group mentioned on a page). */
export async function groupIdsWithMember(
  db: Executor,
  userId: number,
  groupIds: number[],
  today: string,
): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('members as m')
    .select('m.source_id')
    .where('m.user_id', '=', userId)
    .where('m.source_type', '=', 'Namespace')
    .where('m.source_id', 'in', groupIds)
    .where((eb) => eb.or([eb('m.expires_at', 'is', null), eb('m.expires_at', '>', today)]))
    .execute();
  return new Set(rows.map((row) => row.source_id));
}

/** Users with a pending `mentioned` todo for this target, author and note already (TodoService#create_todos). */
export async function usersWithPendingMention(
  db: Executor,
  target: { type: string; id: number },
  authorId: number,
  noteId: number | null,
  userIds: number[],
): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  let query = db
    .selectFrom('todos')
    .select('user_id')
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .where('user_id', 'in', userIds)
    .where('state', '=', 'pending')
    .where('action', '=', 2)
    .where('author_id', '=', authorId);
  query = noteId === null ? query.where('note_id', 'is', null) : query.where('note_id', '=', noteId);
  return new Set((await query.execute()).map((row) => row.user_id));
}
