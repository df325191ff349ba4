// Who may change whom in a project's or group's member list (GitLab's ProjectMemberPolicy and
// GroupMemberPolicy): managers remove anyone and members may leave, but a personal project's owner is never
// removed, and a group always keeps an owner.
import { AccessLevel } from '../domain/types.ts';
import type { MemberRow, SourceType, UserRow } from '../db/types.ts';

export interface MemberSourceFacts {
  type: SourceType;
  /** The personal-namespace owner of a project, or null. */
  ownerId: number | null;
}

/** destroy_member: `canManage` (admin rights on the source) removes anyone, a member removes itself. */
export function canRemoveMember(
  actor: UserRow,
  source: MemberSourceFacts,
  userId: number,
  canManage: boolean,
): boolean {
  if (source.type === 'Project' && userId === source.ownerId) return false;
  return canManage || actor.id === userId;
}

/**
 * Whether the change takes an owner away from a group (a demotion, or a removal when `newLevel` is null):
 * allowed only while another owner remains.
 */
export function takesGroupOwner(
  source: MemberSourceFacts,
  current: MemberRow,
  newLevel: number | null,
): boolean {
  return (
    source.type === 'Namespace' &&
    current.access_level === AccessLevel.Owner &&
    newLevel !== AccessLevel.Owner
  );
}
