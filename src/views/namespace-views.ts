// Namespaces as a caller sees them: administrators every namespace, others their own and the groups they
// belong to. A page is two queries (ids, then rows); the rows go to each version's presenter.
import type { Deps } from '../deps.ts';
import {
  countNamespaces,
  findNamespaceByPath,
  findUserNamespace,
  listNamespaces,
} from '../db/repositories/namespaces.ts';
import { listsEveryNamespace } from '../policies/groups.ts';
import type { NamespaceRow, UserRow } from '../db/types.ts';

const filterFor = (viewer: UserRow, search: string | undefined) => ({
  userId: listsEveryNamespace(viewer) ? undefined : viewer.id,
  search: search || undefined,
});

export function countNamespaceList(deps: Deps, viewer: UserRow, search?: string): Promise<number> {
  return countNamespaces(deps.db.kysely, filterFor(viewer, search));
}

export function listNamespacesPage(
  deps: Deps,
  viewer: UserRow,
  search: string | undefined,
  page: { offset: number; limit: number },
): Promise<NamespaceRow[]> {
  return listNamespaces(deps.db.kysely, filterFor(viewer, search), page);
}

/**
 * One namespace by id (digits) or path, when the list would show it to the viewer; undefined otherwise
 * (the caller answers 404, hiding whether it exists).
 */
export async function findListedNamespace(
  deps: Deps,
  viewer: UserRow,
  idOrPath: string,
): Promise<NamespaceRow | undefined> {
  const db = deps.db.kysely;
  let id: number | undefined;
  if (/^\d{1,9}$/.test(idOrPath)) id = Number(idOrPath);
  else id = (await findNamespaceByPath(db, idOrPath))?.id;
  if (id === undefined) return undefined;
  const [row] = await listNamespaces(db, { ...filterFor(viewer, undefined), id }, { offset: 0, limit: 1 });
  return row;
}

/** A user's personal namespace (whose id lists the projects on the user's page). */
export function findUserNamespaceOf(deps: Deps, userId: number) {
  return findUserNamespace(deps.db.kysely, userId);
}

/**
 * GET /namespaces/:id/exists: whether a top-level namespace (a user's or a group's) has this path,
 * without regard to case, and then the first free `<path>1`, `<path>2`… as GitLab's Uniquify suggests.
 * Labrador has no subgroups: under any parent nothing exists.
 */
export async function namespacePathTaken(
  deps: Deps,
  path: string,
  parentId: number | undefined,
): Promise<{ exists: boolean; suggests: string[] }> {
  const taken = async (candidate: string) =>
    parentId === undefined && (await findNamespaceByPath(deps.db.kysely, candidate)) !== undefined;
  if (!(await taken(path))) return { exists: false, suggests: [] };
  for (let n = 1; ; n++) {
    if (!(await taken(`${path}${n}`))) return { exists: true, suggests: [`${path}${n}`] };
  }
}
