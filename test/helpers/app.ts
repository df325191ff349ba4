// Starts the real application for a test: a temporary data dir, SQLite or (when the runner sets
// LABRADOR_TEST_PG_URL) a freshly created PostgreSQL database that is dropped again on close. Both start
// as a copy of a database the current migrations made once (a template per engine, named by a hash of
// the migrations' source), so each app skips running every migration again; the app's own start still
// runs the migrator, which finds nothing to do. PostgreSQL databases are named after the run that owns them
// (scripts/test-databases.mjs), so a run's leftovers are dropped at its end or by the next run.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { InjectOptions } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase } from '../../src/db/connect.ts';
import { migrate } from '../../src/db/migrations/index.ts';
import { startServer, type Server } from '../../src/server.ts';
import { finishedDatabaseName, runDatabasePrefix } from '../../scripts/test-databases.mjs';

export interface TestApp {
  server: Server;
  config: Config;
  rootToken: string;
  rootPassword: string;
  /** Injects a request; `token` sends PRIVATE-TOKEN, `body` is sent as JSON unless `form` is set. */
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
  /** Closes the server, keeping its data dir and database, and starts a new one on them. */
  restart(): Promise<void>;
  /** Another server on the same data dir and database (two processes' worth), closed by the caller. */
  sibling(): Promise<Server>;
}

export interface RequestOptions {
  token?: string;
  body?: Record<string, unknown>;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
  text: string;
  /** The body's bytes as sent (text is decoded as UTF-8). */
  raw: Buffer;
}

let fingerprint: string | undefined;

/** A hash of everything that decides the migrated schema: a template is never older than the code. */
function schemaFingerprint(): string {
  if (fingerprint) return fingerprint;
  const dbDir = path.resolve(import.meta.dirname, '../../src/db');
  const files = fs
    .readdirSync(path.join(dbDir, 'migrations'))
    .sort()
    .map((name) => path.join(dbDir, 'migrations', name));
  const hash = crypto.createHash('sha256');
  for (const file of [...files, path.join(dbDir, 'change-notifications.ts')]) {
    hash.update(file.slice(dbDir.length)).update(fs.readFileSync(file));
  }
  return (fingerprint = hash.digest('hex').slice(0, 16));
}

function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The start of the name of every PostgreSQL database this process makes. */
const databasePrefix = runDatabasePrefix(process.env.LABRADOR_TEST_RUN_PID || process.pid);

let postgresTemplateName: Promise<string> | undefined;

/**
 * The migrated template database of this run on the test server, made by the first test process that needs
 * it; the others wait on an advisory lock, then find it (the name is only ever given to a finished template).
 */
function postgresTemplate(baseUrl: string): Promise<string> {
  postgresTemplateName ??= (async () => {
    const name = `${databasePrefix}template_${schemaFingerprint()}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      const lock = BigInt(`0x${schemaFingerprint().slice(0, 15)}`).toString();
      await admin.query('select pg_advisory_lock($1::bigint)', [lock]);
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${databasePrefix}building_${schemaFingerprint()}`;
        await admin.query(`drop database if exists ${building} with (force)`);
        await admin.query(`create database ${building}`);
        const db = await openDatabase({ databaseUrl: databaseUrl(baseUrl, building), dataDir: os.tmpdir() });
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
        await admin.query(`alter database ${building} rename to ${name}`);
      }
      await admin.query('select pg_advisory_unlock($1::bigint)', [lock]);
    } finally {
      await admin.end();
    }
    return name;
  })();
  return postgresTemplateName;
}

/** The migrated SQLite template file, made once per schema (written aside, then renamed into place). */
async function sqliteTemplate(): Promise<string> {
  const file = path.join(os.tmpdir(), `labrador-template-${schemaFingerprint()}.sqlite3`);
  if (fs.existsSync(file)) return file;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-template-'));
  try {
    const db = await openDatabase({ databaseUrl: undefined, dataDir: dir });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    fs.renameSync(path.join(dir, 'labrador.sqlite3'), file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return file;
}

/** Puts a copy of the migrated SQLite template where a new instance on `dataDir` opens its database. */
export async function copySqliteTemplate(dataDir: string): Promise<void> {
  fs.copyFileSync(await sqliteTemplate(), path.join(dataDir, 'labrador.sqlite3'));
}

/**
 * A new PostgreSQL database on the test server, a copy of the migrated template unless `empty` (a database
 * as an operator creates it, for tests of a first start); `drop` removes it again: at once when this file
 * runs alone, else by the run, which drops the databases its tests renamed as finished (a rename does not
 * wait for the server's checkpoint, scripts/test-databases.mjs). A database still in use is dropped at once.
 */
export async function createPostgresDatabase(
  baseUrl: string,
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${databasePrefix}${crypto.randomBytes(6).toString('hex')}`;
  const template = options.empty ? undefined : await postgresTemplate(baseUrl);
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  return {
    url: databaseUrl(baseUrl, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        if (process.env.LABRADOR_TEST_RUN_PID) {
          const renamed = await client
            .query(`alter database ${name} rename to ${finishedDatabaseName(name)}`)
            .then(() => true)
            .catch(() => false);
          if (renamed) return;
        }
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Stops the sweeps a server runs on its own clock (CI timers every 10 s, schedules, stuck builds, expired
 * artifacts), for tests that count a request's statements: a sweep landing inside the counted request
 * would add its own. Their drain() still works for a test that wants one.
 */
export async function stopClockWorkers(t: TestApp): Promise<void> {
  const { ciTimersWorker, pipelineScheduleWorker, stuckBuildsWorker, artifactsWorker } = t.server;
  await Promise.all(
    [ciTimersWorker, pipelineScheduleWorker, stuckBuildsWorker, artifactsWorker].map((w) => w.stop()),
  );
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-test-'));
  const rootToken = crypto.randomBytes(10).toString('hex');
  const rootPassword = 'root-password-1234';
  const pgBase = process.env.LABRADOR_TEST_PG_URL;
  const database = pgBase ? await createPostgresDatabase(pgBase) : undefined;
  const config = loadConfig({
    LABRADOR_DATA_DIR: dataDir,
    LABRADOR_ROOT_TOKEN: rootToken,
    LABRADOR_ROOT_PASSWORD: rootPassword,
    LABRADOR_EXTERNAL_URL: 'http://labrador.test',
    LABRADOR_LOG_LEVEL: process.env.LABRADOR_TEST_LOG ?? 'silent',
    // The hook worker is woken by each enqueue and tests call drain(); a background poll would only add
    // stray queries to the tests that count them.
    LABRADOR_HOOK_POLL_MS: '60000',
    // Production hashes cost tens of milliseconds each; tests sign in hundreds of users.
    LABRADOR_PASSWORD_HASH_COST: '4',
    // Hook tests deliver to receivers on 127.0.0.1 (test/helpers/receiver.ts); the guard refuses that
    // unless allowed.
    LABRADOR_OUTBOUND_ALLOWLIST: '127.0.0.1',
    // Test apps do not listen; SSH tests start the SSH server themselves on a free port.
    LABRADOR_SSH_PORT: '0',
    ...(database ? { LABRADOR_DATABASE_URL: database.url } : {}),
    ...env,
  });
  if (!config.databaseUrl && config.dataDir === dataDir) await copySqliteTemplate(dataDir);
  let server = await startServer(config, pino({ level: config.logLevel }));

  const request = async (
    method: string,
    url: string,
    options: RequestOptions = {},
  ): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['private-token'] = options.token;
    const inject: InjectOptions = { method: method as InjectOptions['method'], url, headers };
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      inject.payload = new URLSearchParams(options.form).toString();
    } else if (options.body) {
      inject.payload = options.body;
    }
    const response = await server.app.inject(inject);
    let body: unknown = null;
    if (response.body !== '') {
      try {
        body = JSON.parse(response.body);
      } catch {
        body = response.body;
      }
    }
    return {
      status: response.statusCode,
      headers: response.headers,
      body,
      text: response.body,
      raw: response.rawPayload,
    };
  };

  return {
    get server() {
      return server;
    },
    config,
    rootToken,
    rootPassword,
    request,
    restart: async () => {
      await server.close();
      server = await startServer(config, pino({ level: config.logLevel }));
    },
    sibling: () => startServer(config, pino({ level: config.logLevel })),
    close: async () => {
      await server.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
