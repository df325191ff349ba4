// Starts the real application for a test: a temporary data dir, SQLite or (when the runner sets
// LABRADOR_TEST_PG_URL) a freshly created PostgreSQL database that is dropped again on close.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { InjectOptions } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { startServer, type Server } from '../../src/server.ts';

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
}

/** A new, empty PostgreSQL database on the test server; `drop` removes it again. */
export async function createPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `labrador_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
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
    // Test apps do not listen; SSH tests start the SSH server themselves on a free port.
    LABRADOR_SSH_PORT: '0',
    ...(database ? { LABRADOR_DATABASE_URL: database.url } : {}),
    ...env,
  });
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
    return { status: response.statusCode, headers: response.headers, body, text: response.body };
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
