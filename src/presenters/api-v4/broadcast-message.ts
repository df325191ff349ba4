// v4's BroadcastMessage: v3's fields, then target_access_levels (Labrador keeps none: []), target_path,
// broadcast_type and dismissable (never).
import { presentBroadcastMessage as presentBroadcastMessageV3 } from '../api-v3/broadcast-message.ts';
import type { BroadcastMessageRow } from '../../db/types.ts';

export function presentBroadcastMessage(row: BroadcastMessageRow) {
  return {
    ...presentBroadcastMessageV3(row),
    target_access_levels: [],
    target_path: row.target_path ?? '',
    broadcast_type: row.broadcast_type,
    dismissable: false,
  };
}
