// Server CPU time per request: what a request costs the server (and, on PostgreSQL, its backends),
// read from /proc before and after a fixed number of requests. On a machine shared with other work,
// req/s swings with the load; CPU time per request moves far less, so A/B comparisons of a change use
// this figure (and `--cpu-prof` for where the time goes).
//
//   node bench/cpu-per-request.mjs --data <data dir> [--pg <database url>] [--token T] [--requests N]
//        [--connections C] [--rounds R] [--prof <dir>] [--root <checkout>] [--raw <routes.json>]
//        <path> [<path> …]
//
// A data dir and database kept by `BENCH_KEEP=1 npm run bench -- --quick` serve well (the token is then
// the bench viewer's). `POST:<path>` posts `{"name": <unique>}` to the path. Prints, per path, the median
// over the rounds of server CPU µs per request (and the PostgreSQL backends' beside it), and req/s.
// `--raw <routes.json>` measures bench/raw-server.mjs answering the bytes a kept run recorded instead:
// raw µs / Labrador µs is the bench's ratio to raw, without the swings of a shared machine.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './git-bench-helpers.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const [value] = args.splice(index, 2).slice(1);
  return value;
};
const dataDir = option('data');
const databaseUrl = option('pg');
const token = option('token', 'bench-viewer-token');
const requests = Number(option('requests', '2000'));
const connections = Number(option('connections', '8'));
const rounds = Number(option('rounds', '3'));
const profDir = option('prof');
// Another checkout's build (an A/B against an older commit, built there with `npm run build`).
const root = path.resolve(option('root', path.join(path.dirname(new URL(import.meta.url).pathname), '..')));
const rawRoutes = option('raw');
const paths = args;
if ((!dataDir && !rawRoutes) || paths.length === 0) {
  console.error('usage: cpu-per-request.mjs --data <dir> [--pg <url>] <path>…');
  process.exit(2);
}

const ticks = 100; // USER_HZ
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
  } catch {
    return 0;
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const port = await freePort();
const child = rawRoutes
  ? spawn(process.execPath, [path.join(root, 'bench/raw-server.mjs'), rawRoutes, token], {
      env: { PATH: process.env.PATH, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
  : spawn(
      process.execPath,
      [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), path.join(root, 'dist/main.mjs')],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          LABRADOR_DATA_DIR: dataDir,
          LABRADOR_PORT: String(port),
          LABRADOR_LOG_LEVEL: 'warn',
          LABRADOR_SSH_PORT: '0',
          ...(databaseUrl ? { LABRADOR_DATABASE_URL: databaseUrl } : {}),
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
const base = `http://127.0.0.1:${port}`;
for (;;) {
  if (child.exitCode !== null) throw new Error(`labrador exited with ${child.exitCode}`);
  try {
    const response = await globalThis.fetch(`${base}/api/v3/version`, {
      headers: { 'private-token': token },
    });
    // The raw server knows only the recorded routes: any answer means it listens.
    if (response.status === 200 || rawRoutes) break;
  } catch {
    // not listening yet
  }
  await sleep(20);
}

let admin;
async function backendPids() {
  if (!databaseUrl) return [];
  if (!admin) {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  }
  const name = new URL(databaseUrl).pathname.slice(1);
  const result = await admin.query(
    `select pid from pg_stat_activity where datname = $1 and application_name = 'labrador'`,
    [name],
  );
  return result.rows.map((row) => row.pid);
}

async function run(target, amount) {
  const post = target.startsWith('POST:');
  const url = `${base}${post ? target.slice(5) : target}`;
  const result = await autocannon({
    url,
    connections,
    amount,
    method: post ? 'POST' : 'GET',
    headers: { 'private-token': token, ...(post ? { 'content-type': 'application/json' } : {}) },
    requests: post
      ? [
          {
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ name: `cpu-${crypto.randomUUID().slice(0, 12)}` }),
            }),
          },
        ]
      : undefined,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad) console.error(`  ${target}: ${bad} non-2xx/errors`);
  return result;
}

try {
  for (const target of paths) {
    await run(target, Math.min(200, requests));
    const server = [];
    const backend = [];
    const rps = [];
    for (let round = 0; round < rounds; round++) {
      const pids = await backendPids();
      const before = cpuMs(child.pid);
      const backendBefore = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
      const result = await run(target, requests);
      server.push(((cpuMs(child.pid) - before) * 1000) / requests);
      backend.push(((pids.reduce((sum, pid) => sum + cpuMs(pid), 0) - backendBefore) * 1000) / requests);
      rps.push(result.requests.average);
    }
    console.log(
      `${target.padEnd(60)} server ${median(server).toFixed(0).padStart(5)} µs/req` +
        (databaseUrl ? `  postgres ${median(backend).toFixed(0).padStart(5)} µs/req` : '') +
        `  (${median(rps).toFixed(0)} req/s; rounds ${server.map((v) => v.toFixed(0)).join(' ')})`,
    );
  }
} finally {
  await admin?.end();
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}
