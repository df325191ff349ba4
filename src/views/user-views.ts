// Users as a caller sees them: administrators get the full form (email, identities, limits), everyone
// else the public form. A page costs the same queries whatever its size: the users, then identities and
// personal project counts for all of them at once. Views return the rows and those extras; each API
// version's presenters shape them.
import type { Deps } from '../deps.ts';
import {
  countUsers,
  findUserByUsername,
  findUsersByExactUsername,
  listUsers,
  userFullExtras,
  userFullExtrasByIds,
  type UserListFilter,
  type UserListOrder,
} from '../db/repositories/users.ts';
import { canSeeUserDetails } from '../policies/users.ts';
import type { UserFullExtras, UserRow } from '../db/types.ts';
import { notFound } from '../errors.ts';

export type { UserListFilter, UserListOrder };

/** A user with what its full (administrator) form shows beyond the row. */
export interface FullUserModel {
  user: UserRow;
  extras: UserFullExtras;
}

/** A user as the viewer may see it: extras only when the viewer sees details (administrators). */
export interface UserModel {
  user: UserRow;
  extras: UserFullExtras | null;
}

/** A list of users; `extras` (by user id) only when the viewer sees details. */
export interface UserListModel {
  users: UserRow[];
  extras: Map<number, UserFullExtras> | null;
}

export async function loadUserFull(deps: Deps, user: UserRow): Promise<FullUserModel> {
  const extras = await userFullExtrasByIds(deps.db.kysely, [user.id]);
  return { user, extras: extras.get(user.id)! };
}

/** The caller's own user in the full form. */
export async function loadCurrentUser(deps: Deps, viewer: UserRow): Promise<FullUserModel> {
  return { user: viewer, extras: await userFullExtras(deps.db.kysely, viewer.id) };
}

/** A list of users with the extras the viewer may see. */
async function userList(deps: Deps, viewer: UserRow, users: UserRow[]): Promise<UserListModel> {
  if (!canSeeUserDetails(viewer)) return { users, extras: null };
  const extras = await userFullExtrasByIds(
    deps.db.kysely,
    users.map((user) => user.id),
  );
  return { users, extras };
}

/** One user in the form the viewer may see (the single-user form is richer than the list's). */
export async function loadUserFor(deps: Deps, viewer: UserRow, user: UserRow): Promise<UserModel> {
  if (canSeeUserDetails(viewer)) return loadUserFull(deps, user);
  return { user, extras: null };
}

/** Any user by username, blocked ones too (administrators' pages); 404 `User Not Found` otherwise. */
export async function loadAnyUserByUsernameOr404(deps: Deps, username: string): Promise<UserRow> {
  const user = await findUserByUsername(deps.db.kysely, username);
  if (!user) throw notFound('User');
  return user;
}

export function countUserList(deps: Deps, filter: UserListFilter): Promise<number> {
  return countUsers(deps.db.kysely, filter);
}

export async function listUsersPage(
  deps: Deps,
  viewer: UserRow,
  filter: UserListFilter,
  page: { offset: number; limit: number },
  order?: UserListOrder,
): Promise<UserListModel> {
  return userList(deps, viewer, await listUsers(deps.db.kysely, filter, page.offset, page.limit, order));
}

/** `?username=`: an exact match, not paginated. */
export async function usersWithUsername(
  deps: Deps,
  viewer: UserRow,
  username: string,
): Promise<UserListModel> {
  return userList(deps, viewer, await findUsersByExactUsername(deps.db.kysely, username));
}
