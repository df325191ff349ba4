// Project and group memberships. Projects take levels 10–40 and answer an
// existing member unchanged; groups take 10–50, refuse duplicates with 409 and always keep an owner.
// Project joins and departures record "joined"/"left" events in the same transaction.
import type { Deps } from '../../deps.ts';
import { canRemoveMember, takesGroupOwner } from '../../policies/members.ts';
import { findUserById } from '../../db/repositories/users.ts';
import {
  countGroupOwners,
  deleteMember,
  findMember,
  insertMember,
  lockNamespace,
  updateMember,
} from '../../db/repositories/members.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { apiError, conflict, forbidden, notFound, recordNotFound } from '../../errors.ts';
import { EventAction } from '../../domain/types.ts';
import { recordEvent } from '../activity/events.ts';
import { announceMembership } from '../hooks/system-hook-announcements.ts';
import type { MemberRow, SourceType, UserRow } from '../../db/types.ts';

export interface MemberSource {
  type: SourceType;
  id: number;
  /** The personal-namespace owner of a project: never removable (GitLab's ProjectMemberPolicy). */
  ownerId: number | null;
}

const PROJECT_LEVELS = new Set([10, 20, 30, 40]);
const GROUP_LEVELS = new Set([10, 20, 30, 40, 50]);

function checkLevel(source: MemberSource, level: number): void {
  const levels = source.type === 'Project' ? PROJECT_LEVELS : GROUP_LEVELS;
  if (!levels.has(level)) throw apiError(422, 'Access level is not known');
}

export interface MemberResult {
  member: MemberRow;
  user: UserRow;
}

export async function addMember(
  deps: Deps,
  actor: UserRow,
  source: MemberSource,
  input: { userId: number; accessLevel: number; expiresAt: string | null },
  // GitLab 8.13 kept projects idempotent and made groups the 409 case (the rule for both from 9.0 on).
  conflictOnDuplicate = source.type === 'Namespace',
): Promise<MemberResult> {
  const db = deps.db.kysely;
  const existing = await findMember(db, source.type, source.id, input.userId);
  const user = await findUserById(db, input.userId);
  if (existing && user) {
    if (conflictOnDuplicate) throw conflict('Member already exists');
    return { member: existing, user };
  }
  if (!user) throw notFound('User');
  checkLevel(source, input.accessLevel);
  try {
    const member = await db.transaction().execute(async (trx) => {
      const row = await insertMember(trx, {
        sourceType: source.type,
        sourceId: source.id,
        userId: user.id,
        accessLevel: input.accessLevel,
        expiresAt: input.expiresAt,
        createdById: actor.id,
      });
      if (source.type === 'Project' && user.id !== source.ownerId) {
        await recordEvent(trx, { projectId: source.id, authorId: user.id, action: EventAction.Joined });
      }
      await announceMembership(trx, 'create', row, user);
      return row;
    });
    return { member, user };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent add of the same user won: the same answers as if it had come first.
    if (conflictOnDuplicate) throw conflict('Member already exists');
    const winner = await findMember(db, source.type, source.id, user.id);
    if (!winner) throw error;
    return { member: winner, user };
  }
}

async function loadMember(deps: Deps, source: MemberSource, userId: number): Promise<MemberResult> {
  const member = await findMember(deps.db.kysely, source.type, source.id, userId);
  const user = member ? await findUserById(deps.db.kysely, userId) : undefined;
  if (!member || !user) throw recordNotFound();
  return { member, user };
}

export function getMember(deps: Deps, source: MemberSource, userId: number): Promise<MemberResult> {
  return loadMember(deps, source, userId);
}

export async function changeMember(
  deps: Deps,
  source: MemberSource,
  userId: number,
  input: { accessLevel: number; expiresAt?: string | null },
): Promise<MemberResult> {
  const { user } = await loadMember(deps, source, userId);
  checkLevel(source, input.accessLevel);
  const member = await deps.db.kysely.transaction().execute(async (trx) => {
    if (source.type === 'Namespace') await lockNamespace(trx, deps.db.dialect, source.id);
    const current = await findMember(trx, source.type, source.id, userId);
    if (!current) throw recordNotFound();
    if (
      takesGroupOwner(source, current, input.accessLevel) &&
      (await countGroupOwners(trx, source.id)) <= 1
    ) {
      // Demoting the last owner would leave a group nobody can administer.
      throw forbidden();
    }
    const changes: { access_level: number; expires_at?: string | null; updated_at: string } = {
      access_level: input.accessLevel,
      updated_at: now(),
    };
    if (input.expiresAt !== undefined) changes.expires_at = input.expiresAt;
    return updateMember(trx, current.id, changes);
  });
  return { member, user };
}

/**
 * Removes a membership. `canManage` is the caller's admin right on the source; members may always leave,
 * except the project's namespace owner and a group's last owner.
 */
export async function removeMember(
  deps: Deps,
  actor: UserRow,
  source: MemberSource,
  userId: number,
  canManage: boolean,
): Promise<MemberResult | null> {
  const db = deps.db.kysely;
  const existing = await findMember(db, source.type, source.id, userId);
  if (!existing) {
    if (source.type === 'Namespace') throw notFound(`Member: user_id:${userId}`);
    return null;
  }
  if (!canRemoveMember(actor, source, userId, canManage)) throw forbidden();
  const user = await findUserById(db, userId);
  if (!user) throw recordNotFound();
  const removed = await db.transaction().execute(async (trx) => {
    if (source.type === 'Namespace') await lockNamespace(trx, deps.db.dialect, source.id);
    const current = await findMember(trx, source.type, source.id, userId);
    if (!current) return null;
    if (takesGroupOwner(source, current, null) && (await countGroupOwners(trx, source.id)) <= 1) {
      throw forbidden();
    }
    if ((await deleteMember(trx, current.id)) === 0) return null;
    await announceMembership(trx, 'destroy', current, user);
    if (source.type === 'Project') {
      await recordEvent(trx, { projectId: source.id, authorId: userId, action: EventAction.Left });
    }
    return current;
  });
  if (!removed) {
    if (source.type === 'Namespace') throw notFound(`Member: user_id:${userId}`);
    return null;
  }
  return { member: removed, user };
}
