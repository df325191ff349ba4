// Project milestones (GitLab 8.13's lib/api/milestones.rb, Milestones::*Service): a title unique in the
// project, an iid per project from internal_ids, state active/closed through state_event close/activate,
// each change recorded with its event (8.13's EventCreateService did for milestones too).
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { failedWith } from '../../errors.ts';
import { nextInternalId } from '../../db/repositories/issues.ts';
import {
  deleteMilestone,
  findMilestoneByTitle,
  insertMilestone,
  updateMilestone,
} from '../../db/repositories/milestones.ts';
import { recordEvent } from '../activity/events.ts';
import { EventAction } from '../../domain/types.ts';
import type { MilestoneRow, UserRow } from '../../db/types.ts';

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
  projectId: number,
  input: MilestoneInput & { title: string },
): Promise<MilestoneRow> {
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      if (await findMilestoneByTitle(trx, projectId, input.title)) throw titleTaken('create');
      const at = now();
      const milestone = await insertMilestone(trx, {
        project_id: projectId,
        iid: await nextInternalId(trx, projectId, 'milestones'),
        title: input.title,
        description: input.description ?? null,
        due_date: input.dueDate ?? null,
        start_date: input.startDate ?? null,
        state: 'active',
        created_at: at,
        updated_at: at,
      });
      await recordEvent(trx, {
        projectId,
        authorId: viewer.id,
        action: EventAction.Created,
        targetId: milestone.id,
        targetType: 'Milestone',
        at,
      });
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
        if (await findMilestoneByTitle(trx, milestone.project_id, input.title)) throw titleTaken('update');
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
        await recordEvent(trx, {
          projectId: milestone.project_id,
          authorId: viewer.id,
          action: state === 'closed' ? EventAction.Closed : EventAction.Reopened,
          targetId: milestone.id,
          targetType: 'Milestone',
          at,
        });
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
    await recordEvent(trx, {
      projectId: milestone.project_id,
      authorId: viewer.id,
      action: EventAction.Destroyed,
      targetId: milestone.id,
      targetType: 'Milestone',
      at: now(),
    });
  });
}
