// Small pieces every migration needs to write one schema for both engines (conventions in ../schema.ts).
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../connect.ts';

export type MigrationDb = Kysely<any>;
export type MigrationFn = (db: MigrationDb, dialect: Dialect) => Promise<void>;

/** An integer primary key that the database assigns. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (column) => column.primaryKey())
    : table.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
}

/** `create [unique] index` on arbitrary expressions (lower(column) for case-insensitive uniqueness). */
export async function createIndex(
  db: MigrationDb,
  name: string,
  table: string,
  expressions: string,
  options: { unique?: boolean; where?: string } = {},
): Promise<void> {
  const unique = options.unique ? 'unique ' : '';
  const where = options.where ? ` where ${options.where}` : '';
  await sql.raw(`create ${unique}index ${name} on ${table} (${expressions})${where}`).execute(db);
}
