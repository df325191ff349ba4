// What do notification mails cost the request that causes them? POST /projects/:id/issues on a project
// with 50 watchers (members with level `watch`) against one with none, mail on (the rows go into the
// outbox in the request's transaction; the SMTP URL points at a closed port and retries are an hour away,
// so no sending competes; the worker is stopped). Alternating requests, medians in ms.
// Usage: node --import tsx bench/mail-watchers.ts [requests=300] (LABRADOR_DATABASE_URL for PostgreSQL)
import fs from 'node:fs';
import { insertUser } from '../src/db/repositories/users.ts';
import { insertMember } from '../src/db/repositories/members.ts';
import { setNotificationLevel } from '../src/db/repositories/notification-settings.ts';
import { benchUserValues } from './seed-rows.ts';
import { startBenchServer, insertBenchProject } from './in-process.ts';

const requests = Number(process.argv[2] && /^\d+$/.test(process.argv[2]) ? process.argv[2] : 300);
const bench = await startBenchServer({
  // `--mail-off`: the same run without LABRADOR_SMTP_URL, for the baseline.
  LABRADOR_SMTP_URL: process.argv.includes('--mail-off') ? '' : 'smtp://127.0.0.1:9',
  LABRADOR_MAIL_RETRY_BASE_MS: '3600000',
  LABRADOR_MAIL_POLL_MS: '3600000',
});
const { dataDir, server, db } = bench;
// Only the request's cost is measured: the worker (which would try the closed port) is stopped.
await server.mailWorker.stop();

async function makeProject(name: string, watchers: number): Promise<number> {
  const at = new Date().toISOString();
  const project = await insertBenchProject(bench, name, 0);
  for (let i = 0; i < watchers; i++) {
    const user = await insertUser(db, benchUserValues(`${name}-w${i}`, `${name}-token-${i}`, at));
    await insertMember(db, { sourceType: 'Project', sourceId: project.id, userId: user.id, accessLevel: 30 });
    await setNotificationLevel(db, user.id, { type: 'Project', id: project.id }, 'watch', null, at);
  }
  return project.id;
}

const quiet = await makeProject('quiet', 0);
// `--watchers N`: another count than 50 (0 shows the noise floor of the comparison).
const watcherArg = process.argv.indexOf('--watchers');
const watcherCount = watcherArg >= 0 ? Number(process.argv[watcherArg + 1]) : 50;
const watched = await makeProject('watched', watcherCount);

async function create(projectId: number, i: number): Promise<number> {
  const started = performance.now();
  const response = await server.app.inject({
    method: 'POST',
    url: `/api/v3/projects/${projectId}/issues`,
    headers: { 'private-token': 'bench-root-token', 'content-type': 'application/json' },
    payload: JSON.stringify({ title: `Issue ${i}`, description: 'Something is broken' }),
  });
  const ms = performance.now() - started;
  if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
  return ms;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
// Warm-up, then alternate so both see the same machine.
for (let i = 0; i < 30; i++) await create(i % 2 ? quiet : watched, i);
const times = { quiet: [] as number[], watched: [] as number[] };
for (let i = 0; i < requests; i++) {
  // Which goes first alternates too (the second of a pair often runs on a warmer cache).
  if (i % 2) {
    times.quiet.push(await create(quiet, i));
    times.watched.push(await create(watched, i));
  } else {
    times.watched.push(await create(watched, i));
    times.quiet.push(await create(quiet, i));
  }
}
const queued = await db
  .selectFrom('mail_events')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
const q = median(times.quiet);
const w = median(times.watched);
console.log(
  `${server.deps.db.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}: create issue, median of ${requests}: no watchers ${q.toFixed(2)} ms, ${watcherCount} watchers ${w.toFixed(2)} ms, difference ${(w - q).toFixed(2)} ms (${queued.n} mail events recorded)`,
);

await server.close();
fs.rmSync(dataDir, { recursive: true, force: true });
