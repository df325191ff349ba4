// Namespaces as a caller sees them: administrators every namespace, others their own and the groups they
// belong to. A page is two queries (ids, then rows).
import type { Deps } from '../deps.ts';
import { countNamespaces, findUserNamespace, listNamespaces } from '../db/repositories/namespaces.ts';
import { presentNamespace } from '../presenters/api-v3/group.ts';
import { listsEveryNamespace } from '../policies/groups.ts';
import type { UserRow } from '../db/types.ts';

const filterFor = (viewer: UserRow, search: string | undefined) => ({
  userId: listsEveryNamespace(viewer) ? undefined : viewer.id,
  search: search || undefined,
});

export function countNamespaceList(deps: Deps, viewer: UserRow, search?: string): Promise<number> {
  return countNamespaces(deps.db.kysely, filterFor(viewer, search));
}

export async function listNamespacesPage(
  deps: Deps,
  viewer: UserRow,
  search: string | undefined,
  page: { offset: number; limit: number },
) {
  return (await listNamespaces(deps.db.kysely, filterFor(viewer, search), page)).map(presentNamespace);
}

/** A user's personal namespace (whose id lists the projects on the user's page). */
export function findUserNamespaceOf(deps: Deps, userId: number) {
  return findUserNamespace(deps.db.kysely, userId);
}
