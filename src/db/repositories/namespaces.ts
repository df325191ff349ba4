// Namespaces: personal ones (type null, owner_id = the user) and groups (type 'Group'). Lookups are on
// the primary key or lower(path)/lower(name) indexes; lists page over (type, id) or the members index.
import { sql, type ExpressionBuilder, type Insertable, type Updateable } from 'kysely';
import type { Database, NamespacesTable } from '../schema.ts';
import type { Executor } from '../types.ts';
import type { GroupRow, NamespaceRow } from '../types.ts';

export const GROUP_TYPE = 'Group';

function isGroup(namespace: NamespaceRow): boolean {
  return namespace.type === GROUP_TYPE;
}

export function findNamespaceById(db: Executor, id: number): Promise<NamespaceRow | undefined> {
  return db.selectFrom('namespaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findNamespaceByPath(db: Executor, path: string): Promise<NamespaceRow | undefined> {
  return db
    .selectFrom('namespaces')
    .selectAll()
    .where(sql`lower(path)`, '=', path.toLowerCase())
    .executeTakeFirst();
}

/** GitLab's Namespace.find_by_path_or_name: lower(path) or lower(name), path preferred. */
export async function findNamespaceByPathOrName(
  db: Executor,
  text: string,
): Promise<NamespaceRow | undefined> {
  const byPath = await findNamespaceByPath(db, text);
  if (byPath) return byPath;
  return db
    .selectFrom('namespaces')
    .selectAll()
    .where(sql`lower(name)`, '=', text.toLowerCase())
    .orderBy('id')
    .executeTakeFirst();
}

/** The personal namespace of a user. */
export function findUserNamespace(db: Executor, userId: number): Promise<NamespaceRow | undefined> {
  return db
    .selectFrom('namespaces')
    .selectAll()
    .where('owner_id', '=', userId)
    .where('type', 'is', null)
    .executeTakeFirst();
}

export async function findGroupById(db: Executor, id: number): Promise<GroupRow | undefined> {
  const row = await findNamespaceById(db, id);
  return row && isGroup(row) ? row : undefined;
}

export async function findGroupByPath(db: Executor, path: string): Promise<GroupRow | undefined> {
  const row = await findNamespaceByPath(db, path);
  return row && isGroup(row) ? row : undefined;
}

/** Whether another namespace already uses this name (GitLab's case-sensitive uniqueness on name). */
export async function isNamespaceNameTaken(db: Executor, name: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('namespaces')
    .select('id')
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .where('name', '=', name);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

export async function isNamespacePathTaken(db: Executor, path: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('namespaces')
    .select('id')
    .where(sql`lower(path)`, '=', path.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

export function insertNamespace(db: Executor, values: Insertable<NamespacesTable>): Promise<NamespaceRow> {
  return db.insertInto('namespaces').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateNamespace(
  db: Executor,
  id: number,
  values: Updateable<NamespacesTable>,
): Promise<NamespaceRow> {
  await db.updateTable('namespaces').set(values).where('id', '=', id).execute();
  return (await findNamespaceById(db, id))!;
}

async function deleteNamespace(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('namespaces').where('id', '=', id).execute();
}

/** A group row with its memberships (members are polymorphic: no foreign key cascades them). */
export async function deleteGroupRow(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('members').where('source_type', '=', 'Namespace').where('source_id', '=', id).execute();
  await deleteNamespace(db, id);
}

function searchPattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface GroupListFilter {
  /** Only groups this user is a member of; undefined = every group (administrators). */
  memberUserId?: number;
  /** With memberUserId: only groups where that membership is at least this level (v4's owned, min_access_level). */
  minAccessLevel?: number;
  search?: string;
  skipIds?: number[];
  /** Groups at least this visible, plus those this user (if any) is a member of (explore). */
  visibleTo?: { userId: number | null; minimumVisibility: number };
}

function groupListQuery(db: Executor, filter: GroupListFilter) {
  let query = db.selectFrom('namespaces').where('namespaces.type', '=', GROUP_TYPE);
  if (filter.memberUserId !== undefined) {
    const userId = filter.memberUserId;
    const minimum = filter.minAccessLevel ?? 0;
    query = query.where('namespaces.id', 'in', (sub) =>
      sub
        .selectFrom('members')
        .select('members.source_id')
        .where('members.user_id', '=', userId)
        .where('members.source_type', '=', 'Namespace')
        .where('members.access_level', '>=', minimum),
    );
  }
  if (filter.visibleTo !== undefined) {
    const { userId, minimumVisibility } = filter.visibleTo;
    query = query.where((eb) =>
      eb.or([
        eb('namespaces.visibility_level', '>=', minimumVisibility),
        eb(
          'namespaces.id',
          'in',
          eb
            .selectFrom('members')
            .select('members.source_id')
            .where('members.user_id', '=', userId ?? -1)
            .where('members.source_type', '=', 'Namespace'),
        ),
      ]),
    );
  }
  if (filter.search) query = query.where(nameOrPathContains(filter.search));
  if (filter.skipIds && filter.skipIds.length > 0)
    query = query.where('namespaces.id', 'not in', filter.skipIds);
  return query;
}

/** Case-insensitive substring match on a namespace's name or path (GitLab's search for both lists). */
function nameOrPathContains(search: string) {
  const pattern = searchPattern(search);
  return (eb: ExpressionBuilder<Database, 'namespaces'>) =>
    eb.or([
      eb(sql`lower(namespaces.name)`, 'like', sql`${pattern} escape '\\'`),
      eb(sql`lower(namespaces.path)`, 'like', sql`${pattern} escape '\\'`),
    ]);
}

export async function countGroups(db: Executor, filter: GroupListFilter): Promise<number> {
  const row = await groupListQuery(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A group list's order (v4's order_by and sort); ties are broken by id in the same direction. */
export interface GroupListOrder {
  column: 'id' | 'name' | 'path';
  direction: 'asc' | 'desc';
}

export async function listGroups(
  db: Executor,
  filter: GroupListFilter,
  page: { offset: number; limit: number },
  order: GroupListOrder = { column: 'id', direction: 'asc' },
): Promise<GroupRow[]> {
  // Deferred join: the offset walks ids only, then the page's rows are read.
  const ids = groupListQuery(db, filter)
    .select('namespaces.id')
    .orderBy(`namespaces.${order.column}`, order.direction)
    .orderBy('namespaces.id', order.direction)
    .limit(page.limit)
    .offset(page.offset);
  return db
    .selectFrom('namespaces')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy(order.column, order.direction)
    .orderBy('id', order.direction)
    .execute();
}

export interface NamespaceListFilter {
  /** Own namespace plus member groups of this user; undefined = every namespace (administrators). */
  userId?: number;
  search?: string;
  /** Only the namespace with this id (GET /namespaces/:id: the list's rule decides who sees it). */
  id?: number;
}

function namespaceListQuery(db: Executor, filter: NamespaceListFilter) {
  let query = db.selectFrom('namespaces');
  if (filter.userId !== undefined) {
    const userId = filter.userId;
    // Two index lookups (personal namespace by owner, group memberships by user), not an OR over the table.
    query = query.where('namespaces.id', 'in', (eb) =>
      eb
        .selectFrom('namespaces as own')
        .select('own.id')
        .where('own.owner_id', '=', userId)
        .where('own.type', 'is', null)
        .union(
          eb
            .selectFrom('members')
            .select('members.source_id as id')
            .where('members.user_id', '=', userId)
            .where('members.source_type', '=', 'Namespace'),
        ),
    );
  }
  if (filter.search) query = query.where(nameOrPathContains(filter.search));
  if (filter.id !== undefined) query = query.where('namespaces.id', '=', filter.id);
  return query;
}

export async function countNamespaces(db: Executor, filter: NamespaceListFilter): Promise<number> {
  const row = await namespaceListQuery(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listNamespaces(
  db: Executor,
  filter: NamespaceListFilter,
  page: { offset: number; limit: number },
): Promise<NamespaceRow[]> {
  const ids = namespaceListQuery(db, filter)
    .select('namespaces.id')
    .orderBy('namespaces.id')
    .limit(page.limit)
    .offset(page.offset);
  return db.selectFrom('namespaces').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

/** Groups by id, in the order of `ids` (one query; personal namespaces left out). */
export async function groupsByIds(db: Executor, ids: number[]): Promise<GroupRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('namespaces').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.filter(isGroup).map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
