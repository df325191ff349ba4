// Users of a page (owners, event authors) in one query.
import type { Executor, UserRow } from './users.ts';

export async function usersByIds(db: Executor, ids: number[]): Promise<Map<number, UserRow>> {
  const unique = [...new Set(ids)];
  const result = new Map<number, UserRow>();
  if (unique.length === 0) return result;
  const rows = await db.selectFrom('users').selectAll().where('id', 'in', unique).execute();
  for (const row of rows) result.set(row.id, row);
  return result;
}
