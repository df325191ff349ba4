// Broadcast messages (GitLab's BroadcastMessage), changed by administrators: a message is required,
// starts_at and ends_at default to now and an hour from now, color and font are CSS hex colours
// (8.13's defaults #E75E40 on #FFFFFF), broadcast_type is banner or notification.
import type { Deps } from '../../deps.ts';
import {
  deleteBroadcastMessage,
  findBroadcastMessage,
  insertBroadcastMessage,
  updateBroadcastMessage,
} from '../../db/repositories/broadcast-messages.ts';
import { now } from '../../lib/clock.ts';
import { recordNotFound, validationFailed } from '../../errors.ts';
import type { BroadcastMessageRow } from '../../db/types.ts';

export interface BroadcastMessageInput {
  message?: string;
  startsAt?: string;
  endsAt?: string;
  color?: string | null;
  font?: string | null;
  targetPath?: string | null;
  broadcastType?: string;
}

const COLOR = /^#(?:[0-9a-f]{3}){1,2}$/i;

function check(values: {
  message: string;
  color: string | null;
  font: string | null;
  broadcast_type: string;
}): void {
  const errors: Record<string, string[]> = {};
  if (values.message.trim() === '') errors.message = ["can't be blank"];
  if (values.color && !COLOR.test(values.color)) errors.color = ['must be a valid color code'];
  if (values.font && !COLOR.test(values.font)) errors.font = ['must be a valid color code'];
  if (!['banner', 'notification'].includes(values.broadcast_type))
    errors.broadcast_type = ['is not included in the list'];
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

export async function createBroadcastMessage(
  deps: Deps,
  input: BroadcastMessageInput,
): Promise<BroadcastMessageRow> {
  const at = now();
  const values = {
    message: input.message ?? '',
    starts_at: input.startsAt ?? at,
    ends_at: input.endsAt ?? new Date(Date.parse(at) + 3_600_000).toISOString(),
    color: input.color === undefined ? '#E75E40' : input.color,
    font: input.font === undefined ? '#FFFFFF' : input.font,
    target_path: input.targetPath ?? null,
    broadcast_type: input.broadcastType ?? 'banner',
    created_at: at,
    updated_at: at,
  };
  check(values);
  return insertBroadcastMessage(deps.db.kysely, values);
}

export async function changeBroadcastMessage(
  deps: Deps,
  id: number,
  input: BroadcastMessageInput,
): Promise<BroadcastMessageRow> {
  const current = await findBroadcastMessage(deps.db.kysely, id);
  if (!current) throw recordNotFound();
  const values = {
    message: input.message ?? current.message,
    starts_at: input.startsAt ?? current.starts_at,
    ends_at: input.endsAt ?? current.ends_at,
    color: input.color === undefined ? current.color : input.color,
    font: input.font === undefined ? current.font : input.font,
    target_path: input.targetPath === undefined ? current.target_path : input.targetPath,
    broadcast_type: input.broadcastType ?? current.broadcast_type,
    updated_at: now(),
  };
  check(values);
  const updated = await updateBroadcastMessage(deps.db.kysely, id, values);
  if (!updated) throw recordNotFound();
  return updated;
}

export async function removeBroadcastMessage(deps: Deps, id: number): Promise<BroadcastMessageRow> {
  const current = await findBroadcastMessage(deps.db.kysely, id);
  if (!current || (await deleteBroadcastMessage(deps.db.kysely, id)) === 0) throw recordNotFound();
  return current;
}
