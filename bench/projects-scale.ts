// Does GET /projects and GET /projects/:id/events cost the same at 100,000 projects as at 100?
// Usage: node --import tsx bench/projects-scale.ts [total=100000] [requests=1000] [--plans] [--analyze]
// (LABRADOR_DATABASE_URL=postgres://… to run on PostgreSQL.) Fills the database directly with SQL —
// projects spread over 1,000 users' namespaces, each with its creator as master and a "created" event —
// while one viewer is a member of the same 20 projects throughout; then times both endpoints in-process
// (Fastify inject: no socket) first at 100 projects, then again after growing the tables to `total`.
// --plans: afterwards, the plan of every statement each endpoint runs, at `total` projects; --analyze: with
// what each step cost (EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL; SQLite has no such form).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { NEW_PROJECT_SWITCHES } from '../src/db/repositories/projects.ts';
import { personalNamespaceValues } from '../src/db/repositories/users.ts';
import { benchUserValues } from './seed-rows.ts';

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const total = Number(positional[0] ?? 100_000);
const requests = Number(positional[1] ?? 1000);
const analyze = process.argv.includes('--analyze');
const showPlans = analyze || process.argv.includes('--plans');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-bench-'));
const config = loadConfig({
  ...process.env,
  LABRADOR_DATA_DIR: dataDir,
  LABRADOR_ROOT_TOKEN: 'bench-root-token',
  LABRADOR_ROOT_PASSWORD: 'bench-password-1234',
  LABRADOR_LOG_LEVEL: 'warn',
});
const server = await startServer(config, pino({ level: 'warn' }));
const db = server.deps.db.kysely;

// Users and namespaces straight into the tables (password hashing would dominate the set-up).
async function insertUser(username: string, token: string): Promise<{ id: number; namespace: number }> {
  const at = new Date().toISOString();
  const user = await db
    .insertInto('users')
    .values(benchUserValues(username, token, at, 100000))
    .returning('id')
    .executeTakeFirstOrThrow();
  const namespace = await db
    .insertInto('namespaces')
    .values(personalNamespaceValues({ id: user.id, username }, at))
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: user.id, namespace: namespace.id };
}

const owners: Array<{ id: number; namespace: number }> = [];
for (let i = 0; i < 1000; i++) owners.push(await insertUser(`owner${i}`, `owner-token-${i}`));
const viewer = await insertUser('viewer', 'viewer-token');

let inserted = 0;
async function grow(to: number): Promise<void> {
  const batch = 500;
  while (inserted < to) {
    const count = Math.min(batch, to - inserted);
    await db.transaction().execute(async (trx) => {
      const at = new Date(Date.UTC(2016, 0, 1) + inserted * 1000).toISOString();
      const rows = Array.from({ length: count }, (_, k) => {
        const n = inserted + k;
        const owner = owners[n % owners.length];
        return {
          namespace_id: owner.namespace,
          creator_id: owner.id,
          name: `project-${n}`,
          path: `project-${n}`,
          description: `bench project ${n}`,
          default_branch: null,
          visibility_level: [0, 10, 20][n % 3],
          ...NEW_PROJECT_SWITCHES,
          runners_token: crypto.randomBytes(15).toString('base64url'),
          star_count: 0,
          import_url: null,
          avatar: null,
          last_activity_at: at,
          created_at: at,
          updated_at: at,
        };
      });
      const ids = await trx.insertInto('projects').values(rows).returning(['id', 'creator_id']).execute();
      await trx
        .insertInto('members')
        .values(
          ids.map((p) => ({
            source_type: 'Project' as const,
            source_id: p.id,
            user_id: p.creator_id!,
            access_level: 40,
            expires_at: null,
            notification_level: 3,
            created_by_id: null,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
      await trx
        .insertInto('events')
        .values(
          ids.map((p) => ({
            project_id: p.id,
            author_id: p.creator_id!,
            action: 1,
            target_id: null,
            target_type: null,
            title: null,
            data: null,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    });
    inserted += count;
  }
}

await grow(100);
// The viewer's 20 projects and 60 events on the first one stay the same at every size.
const viewerProjects = await db.selectFrom('projects').select('id').orderBy('id').limit(20).execute();
for (const p of viewerProjects) {
  const at = new Date().toISOString();
  await db
    .insertInto('members')
    .values({
      source_type: 'Project',
      source_id: p.id,
      user_id: viewer.id,
      access_level: 30,
      expires_at: null,
      notification_level: 3,
      created_by_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
const eventsProject = viewerProjects[0].id;
// Enough events for page 201 at per_page=20 (4,020), the same at every size.
for (let i = 0; i < 5000; i += 500) {
  const at = new Date().toISOString();
  await db
    .insertInto('events')
    .values(
      Array.from({ length: 500 }, () => ({
        project_id: eventsProject,
        author_id: viewer.id,
        action: 5,
        target_id: null,
        target_type: null,
        title: null,
        data: JSON.stringify({ before: 'a'.repeat(40), after: 'b'.repeat(40), ref: 'refs/heads/master' }),
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
}

async function time(url: string): Promise<{ p50: number; p99: number; mean: number; rps: number }> {
  const headers = { 'private-token': 'viewer-token' };
  for (let i = 0; i < 100; i++) {
    const r = await server.app.inject({ method: 'GET', url, headers });
    if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
  }
  const samples: number[] = [];
  const start = process.hrtime.bigint();
  for (let i = 0; i < requests; i++) {
    const t0 = process.hrtime.bigint();
    await server.app.inject({ method: 'GET', url, headers });
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  samples.sort((a, b) => a - b);
  return {
    p50: samples[Math.floor(samples.length * 0.5)],
    p99: samples[Math.floor(samples.length * 0.99)],
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
    rps: requests / elapsed,
  };
}

const endpoints = [
  '/api/v3/projects/visible?per_page=20',
  '/api/v3/projects/visible?page=201&per_page=20',
  '/api/v3/projects/visible?per_page=20&order_by=last_activity_at&sort=asc',
  '/api/v3/projects?per_page=20',
  '/api/v3/projects?page=1&per_page=100&order_by=last_activity_at',
  `/api/v3/projects/${eventsProject}/events?per_page=20`,
  `/api/v3/projects/${eventsProject}/events?page=201&per_page=20`,
];

/** Every statement one request runs, with its plan (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL). */
async function printPlans(url: string): Promise<void> {
  const statements: Array<[string, readonly unknown[]]> = [];
  server.deps.db.onQuery = (text, parameters) => statements.push([text, parameters]);
  await server.app.inject({ method: 'GET', url, headers: { 'private-token': 'viewer-token' } });
  server.deps.db.onQuery = undefined;
  console.log(`\n${url}`);
  for (const [text, parameters] of statements) {
    if (/^(begin|commit|rollback|savepoint|release)\b/i.test(text.trim())) continue;
    const postgres = server.deps.db.dialect === 'postgres';
    const explain = postgres ? (analyze ? 'explain (analyze, buffers)' : 'explain') : 'explain query plan';
    const plan = await sql.raw(`${explain} ${text}`).compile(db);
    const rows = (await db.executeQuery({ ...plan, parameters })).rows as Array<Record<string, unknown>>;
    console.log(`  ${text.slice(0, 300)}`);
    for (const row of rows) console.log(`    ${String(row.detail ?? row['QUERY PLAN'])}`);
  }
}

const results: Record<string, Record<number, Awaited<ReturnType<typeof time>>>> = {};
for (const size of [100, total]) {
  const t0 = Date.now();
  await grow(size);
  // What autovacuum does after such growth, done now: statistics for the planner, and the visibility map
  // that lets the project lists' index-only walks skip the table.
  if (server.deps.db.dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  if (size !== 100) console.log(`grew to ${size} projects in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const url of endpoints) {
    (results[url] ??= {})[size] = await time(url);
  }
}
if (showPlans) for (const url of endpoints) await printPlans(url);

console.log(
  `\n${server.deps.db.dialect}, ${requests} sequential in-process requests each, viewer is member of 20 projects`,
);
console.log('endpoint'.padEnd(68), 'projects', '  p50 ms', '  p99 ms', '   req/s');
for (const url of endpoints) {
  for (const size of [100, total]) {
    const r = results[url][size];
    console.log(
      url.replace(/^\/api\/v3/, '').padEnd(68),
      String(size).padStart(8),
      r.p50.toFixed(2).padStart(8),
      r.p99.toFixed(2).padStart(8),
      r.rps.toFixed(0).padStart(8),
    );
  }
}
await server.close();
fs.rmSync(dataDir, { recursive: true, force: true });
