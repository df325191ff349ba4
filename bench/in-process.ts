// What the in-process benches share: a server on a fresh data dir (root with a known token and password),
// projects inserted straight into the database (no git, no hooks: set-up must not dominate), and timing a
// set of URLs in turns through Fastify's inject (no socket).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Transaction } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { insertProject, NEW_PROJECT_SWITCHES } from '../src/db/repositories/projects.ts';
import { findUserNamespace } from '../src/db/repositories/namespaces.ts';
import { findUserByUsername } from '../src/db/repositories/users.ts';

export const ROOT_TOKEN = 'bench-root-token';

/** A server on an empty data dir (LABRADOR_DATABASE_URL from the environment picks PostgreSQL). */
export async function startBenchServer(env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-bench-'));
  const config = loadConfig({
    ...process.env,
    LABRADOR_DATA_DIR: dataDir,
    LABRADOR_ROOT_TOKEN: ROOT_TOKEN,
    LABRADOR_ROOT_PASSWORD: 'bench-password-1234',
    LABRADOR_LOG_LEVEL: 'warn',
    ...env,
  });
  const server = await startServer(config, pino({ level: 'warn' }));
  const db = server.deps.db.kysely;
  const root = (await findUserByUsername(db, 'root'))!;
  const namespace = (await findUserNamespace(db, root.id))!;
  return { dataDir, server, db, root, namespace };
}

export type BenchServer = Awaited<ReturnType<typeof startBenchServer>>;

/** A project of root's, as a creation would store it; 0 private, 20 public. */
export function insertBenchProject(bench: BenchServer, name: string, visibilityLevel: 0 | 20) {
  const at = new Date().toISOString();
  return insertProject(bench.db, {
    namespace_id: bench.namespace.id,
    creator_id: bench.root.id,
    name,
    path: name,
    description: '',
    default_branch: 'master',
    visibility_level: visibilityLevel,
    ...NEW_PROJECT_SWITCHES,
    archived: 0,
    star_count: 0,
    import_url: null,
    avatar: null,
    runners_token: `runners-${name}`,
    last_activity_at: at,
    created_at: at,
    updated_at: at,
  });
}

export interface Timing {
  p50: number;
  mean: number;
}

export const showTiming = (timing: Timing) => `${timing.p50.toFixed(2)} / ${timing.mean.toFixed(2)}`;

/**
 * Times GETs of the URLs in turns (one request of each per round, after 20 to warm each), so the
 * machine's noise falls on all alike; milliseconds. A warm-up answer other than 200 stops the bench.
 */
export async function timeInTurns(
  bench: BenchServer,
  urls: string[],
  rounds: number,
  headers: Record<string, string> = { 'private-token': ROOT_TOKEN },
): Promise<Timing[]> {
  for (const url of urls) {
    for (let i = 0; i < 20; i++) {
      const r = await bench.server.app.inject({ method: 'GET', url, headers });
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
    }
  }
  const samples: number[][] = urls.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (const [index, url] of urls.entries()) {
      const t0 = process.hrtime.bigint();
      await bench.server.app.inject({ method: 'GET', url, headers });
      samples[index]!.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return samples.map((list) => {
    list.sort((x, y) => x - y);
    return { p50: list[Math.floor(list.length / 2)]!, mean: list.reduce((x, y) => x + y, 0) / list.length };
  });
}

/**
 * `count` rows in multi-row statements of 1,000, 20 statements per transaction: `insert` writes the rows
 * numbered first … first + size - 1.
 */
export async function inBatches(
  bench: BenchServer,
  count: number,
  insert: (trx: Transaction<Database>, first: number, size: number) => Promise<void>,
): Promise<void> {
  for (let done = 0; done < count;) {
    await bench.db.transaction().execute(async (trx) => {
      for (let round = 0; round < 20 && done < count; round += 1) {
        const size = Math.min(1000, count - done);
        await insert(trx, done, size);
        done += size;
      }
    });
  }
}

/** The n-th seeded issue of a project (0-based): one a second from 2016 on, every fourth closed. */
export function seededIssue(bench: BenchServer, projectId: number, n: number) {
  const at = new Date(Date.parse('2016-01-01T00:00:00Z') + n * 1000).toISOString();
  const closed = n % 4 === 3 ? 1 : 0;
  return {
    project_id: projectId,
    iid: n + 1,
    title: `Issue ${n + 1}`,
    description: 'Seeded',
    author_id: bench.root.id,
    assignee_id: null,
    updated_by_id: null,
    milestone_id: null,
    state: closed ? 'closed' : 'opened',
    closed: closed as 0 | 1,
    confidential: 0 as const,
    due_date: null,
    moved_to_id: null,
    created_at: at,
    updated_at: at,
  };
}
