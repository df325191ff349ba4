// What a caller sees without being a member (GitLab's VisibilityLevel rules): public projects and groups
// for everyone, internal ones for signed-in users who are not external, everything for administrators.
import { Visibility } from '../domain/types.ts';
import type { UserRow } from '../db/types.ts';

/** The lowest visibility a caller sees without membership: internal, or public for external and anonymous callers. */
export function minimumVisibilityWithoutMembership(viewer: UserRow | null): number {
  return viewer !== null && viewer.external !== 1 ? Visibility.Internal : Visibility.Public;
}

/** Administrators see every project, group and namespace in lists, whatever their memberships. */
export const canSeeEverything = (viewer: UserRow): boolean => viewer.admin === 1;
