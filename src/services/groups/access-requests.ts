// Requests to join a project or a group (GitLab 8.13's Members::RequestAccessService,
// ApproveAccessRequestService and DestroyService on requesters). A request mails the holder's masters and
// owners (a project without any falls back to its group's); approval makes a member (the same "joined"
// event and system hook as an added member) and mails the requester, as does a denial by someone else.
// Every mail is queued in the transaction of the change.
import type { Deps } from '../../deps.ts';
import {
  deleteAccessRequest,
  findAccessRequest,
  insertAccessRequest,
  mastersOf,
  type AccessRequestHolder,
} from '../../db/repositories/access-requests.ts';
import { findMember, insertMember } from '../../db/repositories/members.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { apiError, forbidden, recordNotFound, validationFailed } from '../../errors.ts';
import { AccessLevel, EventAction } from '../../domain/types.ts';
import { recordEvent } from '../activity/events.ts';
import { announceMembership } from '../hooks/system-hook-announcements.ts';
import { queueMails } from '../mail/mail-outbox.ts';
import { groupWebUrl, projectFullPath } from '../../domain/paths.ts';
import type {
  AccessRequestRow,
  Executor,
  MemberRow,
  NamespaceRow,
  ProjectRecord,
  UserRow,
} from '../../db/types.ts';

export interface AccessRequestTarget extends AccessRequestHolder {
  /** "Group / Project" or the group's name, as mails name it. */
  humanName: string;
  /** The page of the project or group (absolute). */
  url: string;
  /** The project's group, whose masters hear of a request when the project has none. */
  groupId: number | null;
  /** The personal-namespace owner of a project (no "joined" event for them, as for added members). */
  ownerId: number | null;
  /** The caller's right to manage members of the target (master of a project, owner of a group). */
  canManage: boolean;
}

const kindOf = (target: AccessRequestTarget) => (target.type === 'Project' ? 'project' : 'group');
const alreadyRequested = () => validationFailed({ user_id: ['already exists in source'] });

export async function requestAccess(
  deps: Deps,
  viewer: UserRow,
  target: AccessRequestTarget,
  allowed: boolean,
): Promise<AccessRequestRow> {
  if (!allowed) throw forbidden();
  const db = deps.db.kysely;
  if (await findAccessRequest(db, target, viewer.id)) throw alreadyRequested();
  try {
    return await db.transaction().execute(async (trx) => {
      const request = await insertAccessRequest(trx, target, viewer.id, now());
      let managers = await mastersOf(trx, target.type, target.id);
      if (managers.length === 0 && target.groupId !== null) {
        managers = await mastersOf(trx, 'Namespace', target.groupId);
      }
      await queueMails(trx, deps, `access-request-${request.id}`, managers, () => ({
        subject: `Request to join the ${target.humanName} ${kindOf(target)}`,
        paragraphs: [
          `${viewer.name} (@${viewer.username}) requested ${kindOf(target)} access to ${target.humanName}.`,
          `Approve or deny the request on the members page: ${target.url}/${
            target.type === 'Project' ? 'project_members' : 'group_members'
          }`,
        ],
        url: target.url,
      }));
      return request;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyRequested();
    throw error;
  }
}

const PROJECT_LEVELS = new Set([10, 20, 30, 40]);
const GROUP_LEVELS = new Set([10, 20, 30, 40, 50]);

async function loadRequest(
  db: Executor,
  target: AccessRequestTarget,
  userId: number,
): Promise<{ request: AccessRequestRow; user: UserRow }> {
  const request = await findAccessRequest(db, target, userId);
  const user = request ? await findUserById(db, userId) : undefined;
  if (!request || !user) throw recordNotFound();
  return { request, user };
}

export async function approveAccessRequest(
  deps: Deps,
  actor: UserRow,
  target: AccessRequestTarget,
  userId: number,
  accessLevel: number = AccessLevel.Developer,
): Promise<{ member: MemberRow; user: UserRow }> {
  const db = deps.db.kysely;
  const { user } = await loadRequest(db, target, userId);
  if (!target.canManage) throw forbidden();
  const levels = target.type === 'Project' ? PROJECT_LEVELS : GROUP_LEVELS;
  if (!levels.has(accessLevel)) throw validationFailed({ access_level: ['is not included in the list'] });
  try {
    const member = await db.transaction().execute(async (trx) => {
      const current = await findAccessRequest(trx, target, userId);
      if (!current || (await deleteAccessRequest(trx, current.id)) === 0) throw recordNotFound();
      const row = await insertMember(trx, {
        sourceType: target.type,
        sourceId: target.id,
        userId,
        accessLevel,
        createdById: actor.id,
      });
      if (target.type === 'Project' && userId !== target.ownerId) {
        await recordEvent(trx, { projectId: target.id, authorId: userId, action: EventAction.Joined });
      }
      await announceMembership(trx, 'create', row, user);
      await queueMails(trx, deps, `access-granted-${row.id}`, [user], () => ({
        subject: `Access to the ${target.humanName} ${kindOf(target)} was granted`,
        paragraphs: [
          `Hi ${user.name}!`,
          `You have been granted access to the ${target.humanName} ${kindOf(target)}.`,
        ],
        url: target.url,
      }));
      return row;
    });
    return { member, user };
  } catch (error) {
    // Already a member (added while the request waited): the request stays answered by that membership.
    if (isUniqueViolation(error) && (await findMember(db, target.type, target.id, userId))) {
      throw apiError(409, 'Member already exists');
    }
    throw error;
  }
}

/** Denies (a manager) or withdraws (the requester) a request; answers the removed request and its user. */
export async function removeAccessRequest(
  deps: Deps,
  actor: UserRow,
  target: AccessRequestTarget,
  userId: number,
): Promise<{ request: AccessRequestRow; user: UserRow }> {
  const db = deps.db.kysely;
  const { request, user } = await loadRequest(db, target, userId);
  if (!target.canManage && actor.id !== userId) throw forbidden();
  await db.transaction().execute(async (trx) => {
    if ((await deleteAccessRequest(trx, request.id)) === 0) throw recordNotFound();
    if (actor.id !== userId && user.state === 'active') {
      await queueMails(trx, deps, `access-denied-${request.id}`, [user], () => ({
        subject: `Access to the ${target.humanName} ${kindOf(target)} was denied`,
        paragraphs: [
          `Hi ${user.name}!`,
          `Your request to join the ${target.humanName} ${kindOf(target)} was denied.`,
        ],
        url: target.url,
      }));
    }
  });
  return { request, user };
}

/** The target of a project's requests, from the loaded project and the caller's access. */
export function projectRequestTarget(
  baseUrl: string,
  record: ProjectRecord,
  canManage: boolean,
): AccessRequestTarget {
  const group = record.namespace.type === 'Group';
  return {
    type: 'Project',
    id: record.project.id,
    humanName: `${record.namespace.name} / ${record.project.name}`,
    url: `${baseUrl}/${projectFullPath(record)}`,
    groupId: group ? record.namespace.id : null,
    ownerId: group ? null : record.namespace.owner_id,
    canManage,
  };
}

export function groupRequestTarget(
  baseUrl: string,
  group: NamespaceRow,
  canManage: boolean,
): AccessRequestTarget {
  return {
    type: 'Namespace',
    id: group.id,
    humanName: group.name,
    url: groupWebUrl(baseUrl, group.path),
    groupId: null,
    ownerId: null,
    canManage,
  };
}
