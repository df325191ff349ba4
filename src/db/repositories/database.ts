// The database as a whole: is it answering (start-up, /-/health)?
import { sql } from 'kysely';
import type { Executor } from '../types.ts';

export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
