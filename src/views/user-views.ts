// Users as a caller sees them: administrators get the full form (email, identities, limits), everyone
// else the public form. A page costs the same queries whatever its size: the users, then identities and
// personal project counts for all of them at once.
import type { Deps } from '../deps.ts';
import {
  countUsers,
  findUserByUsername,
  findUsersByExactUsername,
  listUsers,
  userFullExtras,
  userFullExtrasByIds,
  type UserListFilter,
} from '../db/repositories/users.ts';
import { canSeeUserDetails } from '../policies/users.ts';
import {
  presentUser,
  presentUserBasic,
  presentUserFull,
  presentUserLogin,
} from '../presenters/api-v3/user.ts';
import type { UserRow } from '../db/types.ts';
import { notFound } from '../errors.ts';

/** The full (administrator) form of each user. */
async function presentUsersFull(deps: Deps, users: UserRow[]) {
  const extras = await userFullExtrasByIds(
    deps.db.kysely,
    users.map((user) => user.id),
  );
  return users.map((user) => presentUserFull(user, deps.config.externalUrl, extras.get(user.id)!));
}

export async function loadUserFull(deps: Deps, user: UserRow) {
  const [presented] = await presentUsersFull(deps, [user]);
  return presented!;
}

/** The caller's own user, with the private token when an administrator looks through sudo. */
export async function loadCurrentUser(deps: Deps, viewer: UserRow, withToken: boolean) {
  const extras = await userFullExtras(deps.db.kysely, viewer.id);
  return withToken
    ? presentUserLogin(viewer, deps.config.externalUrl, extras)
    : presentUserFull(viewer, deps.config.externalUrl, extras);
}

/** A list of users in the form the viewer may see. */
function presentUserList(deps: Deps, viewer: UserRow, users: UserRow[]) {
  if (canSeeUserDetails(viewer)) return presentUsersFull(deps, users);
  return users.map((user) => presentUserBasic(user, deps.config.externalUrl));
}

/** One user in the form the viewer may see (the single-user form is richer than the list's). */
export async function loadUserFor(deps: Deps, viewer: UserRow, user: UserRow) {
  if (canSeeUserDetails(viewer)) return loadUserFull(deps, user);
  return presentUser(user, deps.config.externalUrl);
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
) {
  return presentUserList(deps, viewer, await listUsers(deps.db.kysely, filter, page.offset, page.limit));
}

/** `?username=`: an exact match, not paginated. */
export async function usersWithUsername(deps: Deps, viewer: UserRow, username: string) {
  return presentUserList(deps, viewer, await findUsersByExactUsername(deps.db.kysely, username));
}
