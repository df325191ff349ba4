// v4's BroadcastMessage: v3's fields, then target_access_levels (Labrador keeps none: []), target_path,
// broadcast_type and dismissable (never).
import { isBroadcastActive } from '../api-v3/broadcast-message.ts';
import type { BroadcastMessageRow } from '../../db/types.ts';

export function presentBroadcastMessage(row: BroadcastMessageRow) {
  return {
    id: row.id,
    message: row.message,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    color: row.color,
    font: row.font,
    active: isBroadcastActive(row),
    target_access_levels: [],
    target_path: row.target_path ?? '',
    broadcast_type: row.broadcast_type,
    dismissable: false,
  };
}
