// Broadcast messages for the API and the admin page (a page and its count), and the ones every page
// shows now: one cached read (see the repository), narrowed to those started, not ended and, when they
// name a target_path, matching the page's path.
import type { Deps } from '../deps.ts';
import {
  countBroadcastMessages,
  findBroadcastMessage,
  findBroadcastMessagesEndingAfter,
  listBroadcastMessages,
} from '../db/repositories/broadcast-messages.ts';
import { recordNotFound } from '../errors.ts';
import type { BroadcastMessageRow } from '../db/types.ts';

export function countBroadcastMessageList(deps: Deps): Promise<number> {
  return countBroadcastMessages(deps.db.kysely);
}

export function listBroadcastMessagesPage(deps: Deps, page: { offset: number; limit: number }) {
  return listBroadcastMessages(deps.db.kysely, page);
}

export async function loadBroadcastMessageOr404(deps: Deps, id: number): Promise<BroadcastMessageRow> {
  const row = await findBroadcastMessage(deps.db.kysely, id);
  if (!row) throw recordNotFound();
  return row;
}

/** A target_path glob (`*` any run of characters) against a page's path. */
function targets(glob: string, path: string): boolean {
  const pattern = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`).test(path);
}

export async function listCurrentBroadcastMessages(deps: Deps, path: string): Promise<BroadcastMessageRow[]> {
  const at = new Date();
  const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString();
  const rows = await findBroadcastMessagesEndingAfter(deps.db.kysely, minute);
  const iso = at.toISOString();
  const pagePath = path.split('?')[0]!;
  return rows
    .filter((row) => row.starts_at <= iso && row.ends_at > iso)
    .filter((row) => !row.target_path || targets(row.target_path, pagePath))
    .sort((a, b) => a.id - b.id);
}
