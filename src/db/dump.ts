// The database as rows, for backups (services/instance/backup.ts): one JSON-lines file per table, read
// from one consistent snapshot, and loaded back into an empty database of either engine. Rows rather
// than an engine's own dump (a SQLite file, pg_dump's format) because both engines share one schema of
// integers, doubles and text (db/schema.ts): the same archive restores onto SQLite or PostgreSQL, and it
// needs neither pg_dump nor a pg_restore of the server's version on the machine.
//
// The snapshot: SQLite through its online backup API (a page-consistent copy of the file while writers
// go on), read afterwards; PostgreSQL in one REPEATABLE READ READ ONLY transaction, whose every read sees
// the same committed state.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import SQLite from 'better-sqlite3';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Db } from './connect.ts';

export type Row = Record<string, unknown>;

/** Tables that are the migrator's own bookkeeping or SQLite's, not data. */
const SKIPPED = new Set(['kysely_migration', 'kysely_migration_lock', 'sqlite_sequence']);
const FETCH = 2000;

export interface DumpResult {
  /** Names of the migrations the snapshot had run, in the order they ran. */
  migrations: string[];
  /** Rows per table. */
  tables: Record<string, number>;
}

/** Writes `rows` as JSON lines into `file`, answering their count; `seen` looks at each row. */
async function writeRows(file: string, rows: AsyncIterable<Row> | Iterable<Row>, seen?: (row: Row) => void) {
  const out = fs.createWriteStream(file);
  let count = 0;
  let chunk = '';
  for await (const row of rows) {
    seen?.(row);
    count++;
    chunk += `${JSON.stringify(row)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject));
  return count;
}

/**
 * Dumps every table of one snapshot into `dir` (`<table>.jsonl`); `seen(table, row)` looks at each row
 * on the way (the backup keeps projects and namespaces to find their files). `scratch` holds SQLite's
 * snapshot file while it is read.
 */
export async function dumpDatabase(
  db: Db,
  dataDir: string,
  dir: string,
  scratch: string,
  seen: (table: string, row: Row) => void,
): Promise<DumpResult> {
  const tables: Record<string, number> = {};
  if (db.dialect === 'sqlite') {
    const snapshotDir = path.join(scratch, 'sqlite-snapshot');
    fs.mkdirSync(snapshotDir, { recursive: true });
    const snapshotFile = path.join(snapshotDir, 'snapshot.sqlite3');
    const live = new SQLite(path.join(dataDir, 'labrador.sqlite3'), { readonly: true });
    try {
      // One step for all pages: a write by another connection between steps would restart the copy.
      await live.backup(snapshotFile, { progress: () => 1 << 30 });
    } finally {
      live.close();
    }
    const snapshot = new SQLite(snapshotFile, { readonly: true });
    try {
      const migrations = snapshot
        .prepare('select name from kysely_migration order by timestamp, name')
        .pluck()
        .all() as string[];
      const names = snapshot
        .prepare("select name from sqlite_master where type = 'table' order by name")
        .pluck()
        .all() as string[];
      for (const table of names.filter((name) => !SKIPPED.has(name))) {
        const rows = snapshot.prepare(`select * from "${table}"`).iterate() as Iterable<Row>;
        tables[table] = await writeRows(path.join(dir, `${table}.jsonl`), rows, (row) => seen(table, row));
      }
      return { migrations, tables };
    } finally {
      snapshot.close();
      fs.rmSync(snapshotDir, { recursive: true, force: true });
    }
  }
  return db.kysely
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      await sql`set transaction read only`.execute(trx);
      const migrations = (
        await sql<{ name: string }>`select name from kysely_migration order by timestamp, name`.execute(trx)
      ).rows.map((row) => row.name);
      for (const table of await postgresTables(trx)) {
        if (SKIPPED.has(table)) continue;
        tables[table] = await writeRows(path.join(dir, `${table}.jsonl`), cursorRows(trx, table), (row) =>
          seen(table, row),
        );
      }
      return { migrations, tables };
    });
}

async function postgresTables(db: Kysely<any>): Promise<string[]> {
  const result = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  return result.rows.map((row) => row.table_name);
}

/** Every row of `table` through a server-side cursor, FETCH rows at a time. */
async function* cursorRows(trx: Transaction<any>, table: string): AsyncGenerator<Row> {
  await sql.raw(`declare dump_cursor no scroll cursor for select * from "${table}"`).execute(trx);
  try {
    for (;;) {
      const { rows } = await sql.raw<Row>(`fetch ${FETCH} from dump_cursor`).execute(trx);
      yield* rows;
      if (rows.length < FETCH) return;
    }
  } finally {
    await sql.raw('close dump_cursor').execute(trx);
  }
}

/** Whether the database holds no table at all (a restore target). */
export async function databaseIsEmpty(db: Db): Promise<boolean> {
  if (db.dialect === 'postgres') return (await postgresTables(db.kysely)).length === 0;
  const result = await sql<{
    n: number;
  }>`select count(*) as n from sqlite_master where type = 'table'`.execute(db.kysely);
  return Number(result.rows[0].n) === 0;
}

interface ForeignKey {
  table: string;
  column: string;
  references: string;
}

async function foreignKeys(db: Db): Promise<ForeignKey[]> {
  if (db.dialect === 'postgres') {
    const result = await sql<ForeignKey>`
      select tc.table_name as "table", kcu.column_name as "column", ccu.table_name as "references"
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu
        on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
      join information_schema.constraint_column_usage ccu
        on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(db.kysely);
    return result.rows;
  }
  const result = await sql<ForeignKey>`
    select m.name as "table", f."from" as "column", f."table" as "references"
    from sqlite_master m join pragma_foreign_key_list(m.name) f where m.type = 'table'`.execute(db.kysely);
  return result.rows;
}

/** Tables in an order where each comes after those it refers to (self-references aside). */
function loadOrder(tables: string[], keys: ForeignKey[]): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: string) => {
    if (state.get(table)) return;
    state.set(table, 'visiting');
    for (const key of keys) if (key.table === table && key.references !== table) visit(key.references);
    state.set(table, 'done');
    if (tables.includes(table)) order.push(table);
  };
  for (const table of [...tables].sort()) visit(table);
  return order;
}

async function* readRows(file: string): AsyncGenerator<Row> {
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) if (line !== '') yield JSON.parse(line) as Row;
}

/**
 * Loads the dumped tables from `dir` into `db`, whose schema the same migrations made. Tables go in
 * foreign-key order; a column referring to its own table (issues.moved_to_id) is set in a second pass,
 * once every row it may point at is there. PostgreSQL's id sequences then continue after the largest id.
 */
export async function loadDatabase(
  db: Db,
  dir: string,
  tables: string[],
  progress: (table: string, rows: number) => void,
): Promise<void> {
  const keys = await foreignKeys(db);
  const batch = db.dialect === 'postgres' ? 500 : 200;
  await db.kysely.transaction().execute(async (trx) => {
    // Counter tables kept by triggers (project_counts, ci_list_counts …) are loaded as they were: the
    // triggers stay off while rows go in, and come back before the transaction commits.
    const triggers =
      db.dialect === 'sqlite'
        ? (
            await sql<{ name: string; sql: string }>`
              select name, sql from sqlite_master where type = 'trigger'`.execute(trx)
          ).rows
        : [];
    for (const trigger of triggers) await sql.raw(`drop trigger "${trigger.name}"`).execute(trx);
    if (db.dialect === 'postgres') {
      for (const table of tables) await sql.raw(`alter table "${table}" disable trigger user`).execute(trx);
    }
    // Rows the migrations seeded (counter shards) give way to the dumped ones: children first.
    for (const table of loadOrder(tables, keys).reverse())
      await sql.raw(`delete from "${table}"`).execute(trx);
    for (const table of loadOrder(tables, keys)) {
      const selfColumns = keys
        .filter((key) => key.table === table && key.references === table)
        .map((k) => k.column);
      const later: Row[] = [];
      let rows: Row[] = [];
      let count = 0;
      const flush = async () => {
        if (rows.length > 0)
          await trx
            .insertInto(table as never)
            .values(rows as never)
            .execute();
        count += rows.length;
        progress(table, count);
        rows = [];
      };
      for await (const row of readRows(path.join(dir, `${table}.jsonl`))) {
        if (selfColumns.some((column) => row[column] !== null && row[column] !== undefined)) {
          later.push(row);
          const copy = { ...row };
          for (const column of selfColumns) copy[column] = null;
          rows.push(copy);
        } else rows.push(row);
        if (rows.length >= batch) await flush();
      }
      await flush();
      for (const row of later) {
        const values: Row = {};
        for (const column of selfColumns) values[column] = row[column];
        await trx
          .updateTable(table as never)
          .set(values as never)
          .where('id' as never, '=', row.id as never)
          .execute();
      }
      if (db.dialect === 'postgres') {
        const hasId = await sql<{ n: number }>`
          select count(*) as n from information_schema.columns
          where table_schema = current_schema() and table_name = ${table} and column_name = 'id'
            and column_default like 'nextval%'`.execute(trx);
        if (Number(hasId.rows[0].n) > 0) {
          await sql
            .raw(
              `select setval(pg_get_serial_sequence('"${table}"', 'id'), coalesce(max(id), 1), max(id) is not null) from "${table}"`,
            )
            .execute(trx);
        }
      }
    }
    for (const trigger of triggers) await sql.raw(trigger.sql).execute(trx);
    if (db.dialect === 'postgres') {
      for (const table of tables) await sql.raw(`alter table "${table}" enable trigger user`).execute(trx);
    }
  });
}
