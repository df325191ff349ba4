// 8.13's BroadcastMessage entity (id, message, starts_at, ends_at, color, font, active).
import type { BroadcastMessageRow } from '../../db/types.ts';

function isBroadcastActive(row: BroadcastMessageRow, at = new Date().toISOString()): boolean {
  return row.starts_at <= at && row.ends_at >= at;
}

export function presentBroadcastMessage(row: BroadcastMessageRow) {
  return {
    id: row.id,
    message: row.message,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    color: row.color,
    font: row.font,
    active: isBroadcastActive(row),
  };
}
