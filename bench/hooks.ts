// Hook delivery benchmark. Usage: node --import tsx bench/hooks.ts [deliveries=3000]
// (LABRADOR_DATABASE_URL=postgres://… runs it on PostgreSQL; it then uses that database as is.)
// 1. Throughput: deliveries per second from the outbox to a fast receiver (another process, answers 200
//    at once), with 1 hook and with 8 hooks, default worker settings.
// 2. Isolation: latency of POST /api/v3/projects over real HTTP while 100 deliveries are pending to a
//    receiver that accepts connections and never answers, against the same with no pending work.
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { request } from 'undici';
import { loadConfig } from '../src/config.ts';
import { startServer, type Server } from '../src/server.ts';
import { enqueueSystemHooks } from '../src/services/hooks/hook-outbox.ts';
import { countPendingDeliveries } from '../src/db/repositories/hook-deliveries.ts';

const total = Number(process.argv[2] ?? 3000);
const token = 'bench-hooks-token';

/** A receiver in its own process: `fast` answers 200 at once, `dead` never answers. */
function receiver(mode: 'fast' | 'dead'): Promise<{ url: string; stop: () => void }> {
  const source = `
    const http = require('node:http');
    const server = http.createServer((req, res) => {
      req.resume();
      if (${JSON.stringify(mode)} === 'fast') req.on('end', () => res.end('ok'));
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  `;
  const child = fork('-e', [source], {
    execArgv: ['-e', source],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve) =>
    child.once('message', (port) =>
      resolve({ url: `http://127.0.0.1:${port}/hook`, stop: () => child.kill() }),
    ),
  );
}

async function start(dataDir: string): Promise<{ server: Server; base: string }> {
  const config = loadConfig({
    ...process.env,
    LABRADOR_DATA_DIR: dataDir,
    LABRADOR_ROOT_TOKEN: token,
    LABRADOR_ROOT_PASSWORD: 'bench-password-1234',
    LABRADOR_LOG_LEVEL: 'error',
    LABRADOR_PORT: '0',
  });
  const server = await startServer(config, pino({ level: 'error' }));
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address() as { port: number };
  return { server, base: `http://127.0.0.1:${address.port}/api/v3` };
}

async function api(base: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  const response = await request(`${base}${url}`, {
    method,
    headers: { 'private-token': token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : null };
}

const samplePayload = {
  event_name: 'user_create',
  created_at: '2016-10-22T10:00:00Z',
  updated_at: '2016-10-22T10:00:00Z',
  name: 'Bench User',
  email: 'bench@example.com',
  user_id: 42,
  username: 'bench',
};

async function throughput(server: Server, base: string, hooks: number): Promise<number> {
  const fast = await receiver('fast');
  const ids: number[] = [];
  for (let i = 0; i < hooks; i++) ids.push((await api(base, 'POST', '/hooks', { url: fast.url })).body.id);
  const db = server.deps.db.kysely;
  // The outbox filled in transactions of 100 events, as a burst of actions would.
  const events = Math.ceil(total / hooks);
  const started = performance.now();
  for (let done = 0; done < events; done += 100) {
    await db.transaction().execute(async (trx) => {
      for (let i = done; i < Math.min(events, done + 100); i++)
        await enqueueSystemHooks(trx, 'user_create', samplePayload);
    });
  }
  const enqueued = performance.now();
  await server.hookWorker.drain();
  const elapsed = (performance.now() - enqueued) / 1000;
  const sent = events * hooks;
  const pending = await countPendingDeliveries(db);
  console.log(
    `throughput, ${hooks} hook(s): ${sent} deliveries in ${elapsed.toFixed(2)} s = ${Math.round(sent / elapsed)}/s ` +
      `(enqueue ${Math.round(enqueued - started)} ms, pending after: ${pending})`,
  );
  for (const id of ids) await api(base, 'DELETE', `/hooks/${id}`);
  fast.stop();
  return sent / elapsed;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function createProjects(base: string, label: string, count: number): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await api(base, 'POST', '/projects', {
      name: `${label}-${i}-${crypto.randomBytes(3).toString('hex')}`,
    });
    times.push(performance.now() - started);
    if (response.status !== 201) throw new Error(`POST /projects answered ${response.status}`);
    await api(base, 'DELETE', `/projects/${response.body.id}`);
  }
  console.log(
    `POST /projects ${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, ` +
      `max ${Math.max(...times).toFixed(1)} ms (${count} requests)`,
  );
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-bench-hooks-'));
const { server, base } = await start(dataDir);
try {
  console.log(`engine: ${server.deps.db.dialect}; worker: ${JSON.stringify(server.deps.config.hooks)}`);
  await throughput(server, base, 1);
  await throughput(server, base, 8);

  // Users get a raised limit so the loop can create projects (deleted again right away anyway).
  await createProjects(base, 'baseline', 50);
  const dead = await receiver('dead');
  const hook = (await api(base, 'POST', '/hooks', { url: dead.url })).body.id;
  await server.deps.db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < 100; i++) await enqueueSystemHooks(trx, 'user_create', samplePayload);
  });
  console.log(
    `pending to a receiver that never answers: ${await countPendingDeliveries(server.deps.db.kysely)}`,
  );
  await createProjects(base, 'with-100-pending-to-a-dead-receiver', 50);
  console.log(`still pending: ${await countPendingDeliveries(server.deps.db.kysely)}`);
  await api(base, 'DELETE', `/hooks/${hook}`);
  dead.stop();
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
