// Opens SQLite (the embedded default) or PostgreSQL and hands back one Kysely instance either way.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import type { Database as Schema } from './schema.ts';
import { attachDirectReader, rowBuilder, type RowBuilder } from './prepared.ts';
import { ReadCache, readCacheKey } from './read-cache.ts';
import { listenForChanges } from './change-notifications.ts';
import { lazy } from '../lib/lazy.ts';
import { sessionLocks, type SessionLocks } from './session-locks.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Schema>;
  dialect: Dialect;
  /** Every query run, for the tests that count queries per request and check query plans. */
  onQuery: ((sql: string, parameters: readonly unknown[]) => void) | undefined;
  /**
   * Called as each request arrives (HTTP, SSH): until the next arrival or write, cached reads may share
   * one look at the database's version (see the SQLite reader).
   */
  requestArrived(): void;
  /** Locks that die with this process (see session-locks.ts). */
  locks: SessionLocks;
  close(): Promise<void>;
}

export interface DbOptions {
  databaseUrl: string | undefined;
  dataDir: string;
}

// Kysely's SQLite driver calls prepare() for every query; compiling the same SQL again costs two thirds
// of the throughput. better-sqlite3 statements are reusable, so keep them by text.
// Its rollback after a failed statement is skipped when SQLite has already rolled the transaction back
// itself (it does on SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM…): otherwise "cannot rollback - no
// transaction is active" would replace the error that says what went wrong.
function withStatementCache(database: SQLite.Database): SQLite.Database {
  const statements = new Map<string, SQLite.Statement>();
  let rollback: SQLite.Statement | undefined;
  const guardedRollback = {
    reader: false,
    run: (...parameters: unknown[]) => {
      if (!database.inTransaction) return { changes: 0, lastInsertRowid: 0 };
      rollback ??= database.prepare('rollback');
      return rollback.run(...parameters);
    },
  };
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property === 'prepare') {
        return (sql: string) => {
          // Kysely's SqliteDriver sends exactly this text (CompiledQuery.raw('rollback')).
          if (sql === 'rollback') return guardedRollback;
          let statement = statements.get(sql);
          if (!statement) {
            statement = target.prepare(sql);
            statements.set(sql, statement);
          }
          return statement;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The second SQLite connection, read-only, for prepared reads outside transactions. Kysely's driver runs
 * every query behind one mutex on one connection (a transaction holds it across awaits); this one reads
 * synchronously and, in WAL mode, sees the last committed state, never a transaction still open.
 */
function openReader(file: string): SQLite.Database {
  const reader = new SQLite(file, { readonly: true });
  reader.pragma('cache_size = -65536');
  reader.pragma('mmap_size = 268435456');
  reader.pragma('busy_timeout = 5000');
  return reader;
}

/** PostgreSQL's client, loaded only when PostgreSQL is used. */
const postgresClient = lazy<typeof pg>('pg');

export async function openDatabase(options: DbOptions): Promise<Db> {
  const db: Db = {
    kysely: undefined as unknown as Kysely<Schema>,
    dialect: options.databaseUrl ? 'postgres' : 'sqlite',
    onQuery: undefined,
    requestArrived: () => {},
    locks: sessionLocks(),
    close: async () => {},
  };
  /**
   * Kysely's log hook: feeds db.onQuery, and calls `onWrite` after every statement that may have written
   * (anything but a select), before its caller hears of it — the read cache's signal of this process's
   * own writes on either engine.
   */
  const queryLog = (onWrite: () => void) => (event: LogEvent) => {
    if (!/^\s*select\b/i.test(event.query.sql)) onWrite();
    if (event.level === 'query') db.onQuery?.(event.query.sql, event.query.parameters);
  };

  if (options.databaseUrl) {
    const pg = postgresClient();
    // PostgreSQL returns int8 (count(*), sum) as strings; every count we take fits a JS number.
    pg.types.setTypeParser(20, (value: string) => Number(value));
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // An unreachable host fails in seconds (start-up, /-/health) instead of the kernel's minutes.
      connectionTimeoutMillis: 10_000,
      application_name: 'labrador',
    });
    // A connection the server ends on its own (restart, pg_terminate_backend, a dropped database) reports
    // an 'error' event; unheard, node-postgres turns it into an uncaught exception that kills the process.
    // Queries on such a connection still fail through their own promises, and the pool opens a new one.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    // The read cache's version: moved by every statement this process sends that may write (before its
    // caller hears of it) and by every change notification, which covers other processes.
    let version = 0;
    const changed = () => {
      version += 1;
    };
    const changes = listenForChanges(pg.Client, options.databaseUrl, changed);
    db.locks = sessionLocks({ client: pg.Client, connectionString: options.databaseUrl });
    const cache = new ReadCache();
    db.kysely = new Kysely<Schema>({
      dialect: new PostgresDialect({ pool }),
      log: queryLog(changed),
    });
    // Prepared shapes outside transactions: named statements, prepared once per pooled connection.
    const builders = new Map<string, RowBuilder>();
    attachDirectReader(db.kysely, {
      all: async (name, text, values) => {
        db.onQuery?.(text, values);
        const readAt = version;
        const keep = changes.listening;
        const key = readCacheKey(name, values);
        const kept = keep ? cache.get(readAt, key) : undefined;
        if (kept) return kept as unknown[];
        const result = await pool.query({ name, text, values, rowMode: 'array' });
        let build = builders.get(name);
        if (!build) {
          build = rowBuilder(result.fields.map((field) => field.name));
          builders.set(name, build);
        }
        return cache.set(readAt, key, result.rows.map(build), keep) as unknown[];
      },
    });
    db.close = async () => {
      await changes.close();
      await db.locks.close();
      await db.kysely.destroy();
    };
    return db;
  } else {
    fs.mkdirSync(options.dataDir, { recursive: true });
    const sqlite = new SQLite(path.join(options.dataDir, 'labrador.sqlite3'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('cache_size = -65536');
    sqlite.pragma('mmap_size = 268435456');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    // One look at data_version serves the reads that follow it until a request arrives or this process
    // writes: every request being served then arrived before the look, so what it reads is the state at
    // a moment within its own lifetime; a request that arrives later looks again. (Each look takes the
    // file's locks: three per GET /projects/:id were a tenth of its time.)
    let looked: { version: unknown } | undefined;
    const forgetLook = () => {
      looked = undefined;
    };
    db.requestArrived = forgetLook;
    db.kysely = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
      log: queryLog(forgetLook),
    });
    const reader = openReader(path.join(options.dataDir, 'labrador.sqlite3'));
    const statements = new Map<string, { statement: SQLite.Statement; build: RowBuilder }>();
    // Changes whenever another connection (our writer, or another process) has committed since this
    // connection last asked: the version of the read cache.
    const dataVersion = reader.prepare('pragma data_version').pluck();
    const cache = new ReadCache();
    attachDirectReader(db.kysely, {
      all: (name, sql, parameters) => {
        db.onQuery?.(sql, parameters);
        looked ??= { version: dataVersion.get() };
        const version = looked.version;
        const key = readCacheKey(name, parameters);
        const kept = cache.get(version, key);
        if (kept) return kept as unknown[];
        let entry = statements.get(sql);
        if (!entry) {
          const statement = reader.prepare(sql).raw(true);
          entry = { statement, build: rowBuilder(statement.columns().map((column) => column.name)) };
          statements.set(sql, entry);
        }
        const rows = (entry.statement.all(parameters) as unknown[][]).map(entry.build);
        return cache.set(version, key, rows) as unknown[];
      },
    });
    // The reader closes first: SQLite checkpoints the WAL into the database file and removes it only when
    // the last connection closes, and a read-only one cannot, so a clean stop leaves one self-contained file.
    db.close = async () => {
      reader.close();
      await db.kysely.destroy();
    };
    return db;
  }
}
