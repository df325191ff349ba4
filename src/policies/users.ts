// Who a user is allowed to be: signing in, acting for others, seeing other users' private details.
import type { UserRow } from '../db/types.ts';

/** Administrators may use every route GitLab reserved for admins (authenticated_as_admin!). */
export function isAdministrator(user: UserRow): boolean {
  return user.admin === 1;
}

/** Only active users sign in or use their token; blocked and LDAP-blocked users count as nobody. */
export function canSignIn(user: UserRow): boolean {
  return user.state === 'active';
}

/** Administrators see every user's full form (email, identities, limits); others see the public form. */
export function canSeeUserDetails(viewer: UserRow): boolean {
  return isAdministrator(viewer);
}
