// Project milestones (GitLab 8.13's lib/api/milestones.rb, Milestones::*Service): a title unique in the
// project, an iid per project from internal_ids, state active/closed through state_event close/activate,
// each change recorded with its event (8.13's EventCreateService did for milestones too). A group's
// milestones (today's GitLab) count their iid within the group and record no project event.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { failedWith } from '../../errors.ts';
import { nextInternalId } from '../../db/repositories/issues.ts';
import {
  deleteMilestone,
  findGroupMilestoneByTitle,
  findMilestoneByTitle,
  insertMilestone,
  nextGroupMilestoneIid,
  updateMilestone,
} from '../../db/repositories/milestones.ts';
import { recordEvent } from '../activity/events.ts';
import { EventAction } from '../../domain/types.ts';
import type { Executor, MilestoneRow, UserRow } from '../../db/types.ts';

/** Whose milestone: a project's (its id) or a group's. */
export type MilestoneOwner = number | { groupId: number };

function findOwnMilestone(trx: Executor, owner: MilestoneOwner, title: string) {
  return typeof owner === 'number'
    ? findMilestoneByTitle(trx, owner, title)
    : findGroupMilestoneByTitle(trx, owner.groupId, title);
}

function ownerOf(milestone: MilestoneRow): MilestoneOwner {
  return milestone.project_id !== null ? milestone.project_id : { groupId: milestone.group_id! };
}

async function recordMilestoneEvent(
  trx: Executor,
  milestone: MilestoneRow,
  viewer: UserRow,
  action: EventAction,
  at: string,
): Promise<void> {
  if (milestone.project_id === null) return;
  await recordEvent(trx, {
    projectId: milestone.project_id,
    authorId: viewer.id,
    action,
    targetId: milestone.id,
    targetType: 'Milestone',
    at,
  });
}

export interface MilestoneInput {
  title?: string;
  description?: string;
  dueDate?: string | null;
  startDate?: string | null;
  stateEvent?: 'close' | 'activate';
}

const titleTaken = (verb: 'create' | 'update') =>
  failedWith(`Failed to ${verb} milestone`, { title: ['has already been taken'] });

export async function createMilestone(
  deps: Deps,
  viewer: UserRow,
  owner: MilestoneOwner,
  input: MilestoneInput & { title: string },
): Promise<MilestoneRow> {
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      if (await findOwnMilestone(trx, owner, input.title)) throw titleTaken('create');
      const at = now();
      const milestone = await insertMilestone(trx, {
        project_id: typeof owner === 'number' ? owner : null,
        group_id: typeof owner === 'number' ? null : owner.groupId,
        iid:
          typeof owner === 'number'
            ? await nextInternalId(trx, owner, 'milestones')
            : await nextGroupMilestoneIid(trx, owner.groupId),
        title: input.title,
        description: input.description ?? null,
        due_date: input.dueDate ?? null,
        start_date: input.startDate ?? null,
        state: 'active',
        created_at: at,
        updated_at: at,
      });
      await recordMilestoneEvent(trx, milestone, viewer, EventAction.Created, at);
      return milestone;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw titleTaken('create');
    throw error;
  }
}

export async function editMilestone(
  deps: Deps,
  viewer: UserRow,
  milestone: MilestoneRow,
  input: MilestoneInput,
): Promise<MilestoneRow> {
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      if (input.title !== undefined && input.title !== milestone.title) {
        if (await findOwnMilestone(trx, ownerOf(milestone), input.title)) throw titleTaken('update');
      }
      const at = now();
      const state =
        input.stateEvent === 'close'
          ? 'closed'
          : input.stateEvent === 'activate'
            ? 'active'
            : milestone.state;
      const updated = await updateMilestone(trx, milestone.id, {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.dueDate !== undefined ? { due_date: input.dueDate } : {}),
        ...(input.startDate !== undefined ? { start_date: input.startDate } : {}),
        state,
        updated_at: at,
      });
      if (state !== milestone.state) {
        const action = state === 'closed' ? EventAction.Closed : EventAction.Reopened;
        await recordMilestoneEvent(trx, milestone, viewer, action, at);
      }
      return updated ?? milestone;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw titleTaken('update');
    throw error;
  }
}

/** Deletes a milestone (v4): its issues and merge requests lose it; the event says it was destroyed. */
export async function destroyMilestone(deps: Deps, viewer: UserRow, milestone: MilestoneRow): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await deleteMilestone(trx, milestone.id);
    await recordMilestoneEvent(trx, milestone, viewer, EventAction.Destroyed, now());
  });
}
