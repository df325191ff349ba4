// Project and group labels (GitLab 8.13.4's lib/api/labels.rb and Label model, today's GroupLabel): a
// title without commas, unique in its project or group; a colour `#RGB` or `#RRGGBB`; deleting one
// takes its links and subscriptions with it.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  ValidationErrors,
  apiError,
  conflict,
  notFound,
  notModified,
  validationFailed,
} from '../../errors.ts';
import {
  deleteLabel,
  findGroupLabelByTitle,
  findLabelByTitle,
  insertLabel,
  updateLabel,
} from '../../db/repositories/labels.ts';
import { findSubscription, setSubscription } from '../../db/repositories/subscriptions.ts';
import type { Executor, LabelRow, UserRow } from '../../db/types.ts';

const COLOR = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;

/** Whose label: a project's (a number, as before) or a group's. */
export type LabelOwner = number | { groupId: number };

function findOwnLabel(trx: Executor, owner: LabelOwner, title: string): Promise<LabelRow | undefined> {
  return typeof owner === 'number'
    ? findLabelByTitle(trx, owner, title)
    : findGroupLabelByTitle(trx, owner.groupId, title);
}

function validate(errors: ValidationErrors, title: string | undefined, color: string | undefined): void {
  if (color !== undefined && !COLOR.test(color)) errors.add('color', 'must be a valid color code');
  if (title !== undefined && (title.trim() === '' || title.includes(','))) errors.add('title', 'is invalid');
}

export async function createLabel(
  deps: Deps,
  owner: LabelOwner,
  input: { name: string; color: string; description?: string; priority?: number | null },
): Promise<LabelRow> {
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      if (await findOwnLabel(trx, owner, input.name)) throw conflict('Label already exists');
      const errors = new ValidationErrors();
      validate(errors, input.name, input.color);
      errors.throwIfAny();
      const at = now();
      return insertLabel(trx, {
        project_id: typeof owner === 'number' ? owner : null,
        group_id: typeof owner === 'number' ? null : owner.groupId,
        title: input.name,
        color: input.color,
        description: input.description ?? null,
        priority: input.priority ?? null,
        created_at: at,
        updated_at: at,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('Label already exists');
    throw error;
  }
}

export async function editLabel(
  deps: Deps,
  owner: LabelOwner,
  name: string,
  input: { newName?: string; color?: string; description?: string; priority?: number | null },
): Promise<LabelRow> {
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      const label = await findOwnLabel(trx, owner, name);
      if (!label) throw notFound('Label not found');
      if (
        input.newName === undefined &&
        input.color === undefined &&
        input.description === undefined &&
        input.priority === undefined
      )
        throw apiError(400, 'Required parameters "new_name" or "color" missing');
      const errors = new ValidationErrors();
      validate(errors, input.newName, input.color);
      if (
        input.newName !== undefined &&
        input.newName !== label.title &&
        (await findOwnLabel(trx, owner, input.newName))
      )
        errors.add('title', 'has already been taken');
      errors.throwIfAny();
      return (await updateLabel(trx, label.id, {
        ...(input.newName !== undefined ? { title: input.newName } : {}),
        ...(input.color !== undefined ? { color: input.color } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.priority !== undefined ? { priority: input.priority } : {}),
        updated_at: now(),
      }))!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw validationFailed({ title: ['has already been taken'] });
    throw error;
  }
}

export async function destroyLabel(deps: Deps, owner: LabelOwner, name: string): Promise<LabelRow> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const label = await findOwnLabel(trx, owner, name);
    if (!label) throw notFound('Label');
    await deleteLabel(trx, label.id);
    return label;
  });
}

/**
 * Labels count as subscribed only with a row (no participants). 304 when nothing would change. A group
 * label subscribed through one of its projects records that project; through its group, none.
 */
export async function changeLabelSubscription(
  deps: Deps,
  viewer: UserRow,
  label: LabelRow,
  subscribe: boolean,
  throughProjectId: number | null = label.project_id,
): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx: Executor) => {
    const subscribable = { type: 'Label', id: label.id, projectId: throughProjectId };
    const current = (await findSubscription(trx, subscribable, viewer.id)) ?? false;
    if (current === subscribe) throw notModified();
    await setSubscription(trx, subscribable, viewer.id, subscribe, now());
  });
}
