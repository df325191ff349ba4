// Backup benchmark. Usage: node --import tsx bench/backup.ts [projects=1000] [megabytes=1024]
// (LABRADOR_DATABASE_URL=postgres://… runs it on PostgreSQL; it then uses that database as is.)
// Seeds `projects` projects through the API, each repository with one commit of incompressible data
// (megabytes / projects each), then, in one run:
// 1. `npm run admin -- backup` (dist/admin.mjs) against `tar -cf` of the same data dir, back to back,
//    BENCH_ROUNDS times (3): seconds and the ratio of their throughputs (tar's seconds / backup's), for
//    each round and for the best of each;
// 2. p99 of GET /api/v4/projects/:id under 32 connections (autocannon) with no backup, and during one.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { git } from '../src/git/exec.ts';

const projects = Number(process.argv[2] ?? 1000);
const megabytes = Number(process.argv[3] ?? 1024);
const token = 'bench-backup-token';
const root = path.resolve(import.meta.dirname, '..');

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, ...env },
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve((performance.now() - started) / 1000)
        : reject(new Error(`${command} exited ${code}`)),
    );
  });
}

// autocannon ships no types; the two fields read here are all this needs.
type Autocannon = (options: object) => Promise<{ latency: { p99: number } }>;
const autocannon = ((await import('autocannon' as string)) as { default: Autocannon }).default;

async function p99(url: string, seconds: number): Promise<number> {
  const result = await autocannon({
    url,
    connections: 32,
    duration: seconds,
    headers: { 'private-token': token },
  });
  return result.latency.p99;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-bench-backup-'));
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-bench-backup-out-'));
const config = loadConfig({
  ...process.env,
  LABRADOR_DATA_DIR: dataDir,
  LABRADOR_ROOT_TOKEN: token,
  LABRADOR_ROOT_PASSWORD: 'bench-password-1234',
  LABRADOR_LOG_LEVEL: 'silent',
  LABRADOR_SSH_PORT: '0',
  LABRADOR_PORT: '0',
});
const server = await startServer(config, pino({ level: 'silent' }));
try {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const base = `http://127.0.0.1:${address.port}`;
  const bytesEach = Math.floor((megabytes * 1024 * 1024) / projects);
  const seeded = performance.now();
  let firstId = 0;
  const me = JSON.parse(
    (await server.app.inject({ url: '/api/v4/user', headers: { 'private-token': token } })).body,
  );
  await server.app.inject({
    method: 'PUT',
    url: `/api/v3/users/${me.id}`,
    headers: { 'private-token': token },
    payload: { projects_limit: projects + 10 },
  });
  for (let index = 0; index < projects; index++) {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v4/projects',
      headers: { 'private-token': token },
      payload: { name: `p${index}` },
    });
    if (response.statusCode !== 201) throw new Error(response.body);
    firstId ||= JSON.parse(response.body).id;
    const repo = path.join(dataDir, 'repositories', 'root', `p${index}.git`);
    const blobFile = path.join(out, 'blob');
    fs.writeFileSync(blobFile, crypto.randomBytes(bytesEach));
    const blob = (await git(['hash-object', '-w', blobFile], { cwd: repo })).trim();
    const tree = (await git(['mktree'], { cwd: repo, input: `100644 blob ${blob}\tdata.bin\n` })).trim();
    const commit = (
      await git(['commit-tree', tree, '-m', 'data'], {
        cwd: repo,
        env: {
          GIT_AUTHOR_NAME: 'b',
          GIT_AUTHOR_EMAIL: 'b@x',
          GIT_COMMITTER_NAME: 'b',
          GIT_COMMITTER_EMAIL: 'b@x',
        },
      })
    ).trim();
    await git(['update-ref', 'refs/heads/master', commit], { cwd: repo });
  }
  fs.rmSync(path.join(out, 'blob'));
  console.log(
    `seeded ${projects} projects, ${megabytes} MB in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );
  const adminEnv = { LABRADOR_DATA_DIR: dataDir, LABRADOR_DATABASE_URL: config.databaseUrl ?? '' };
  // Warm the page cache for both alike, then alternate. Before each timed run the earlier outputs go
  // and the disk is synced, so neither pays for the other's writeback (that swung rounds by 2x).
  await run('tar', ['-cf', path.join(out, 'warm.tar'), '-C', dataDir, '.']);
  const settle = async () => {
    for (const name of ['warm.tar', 'plain.tar', 'backup.tar'])
      fs.rmSync(path.join(out, name), { force: true });
    await run('sync', []);
  };
  const tarSeconds: number[] = [];
  const backupSeconds: number[] = [];
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  for (let round = 0; round < rounds; round++) {
    await settle();
    tarSeconds.push(await run('tar', ['-cf', path.join(out, 'plain.tar'), '-C', dataDir, '.']));
    await settle();
    backupSeconds.push(
      await run(
        process.execPath,
        [path.join(root, 'dist/admin.mjs'), 'backup', path.join(out, 'backup.tar')],
        adminEnv,
      ),
    );
    // Each round's own ratio: on a shared machine the load moves between rounds.
    console.log(
      `round ${round + 1}: tar ${tarSeconds[round].toFixed(2)} s, backup ${backupSeconds[round].toFixed(2)} s, ratio ${(tarSeconds[round] / backupSeconds[round]).toFixed(2)}`,
    );
  }
  const best = (values: number[]) => Math.min(...values);
  const size = fs.statSync(path.join(out, 'backup.tar')).size / 1024 / 1024;
  await settle();
  console.log(
    `tar: ${best(tarSeconds).toFixed(2)} s, backup: ${best(backupSeconds).toFixed(2)} s (${size.toFixed(0)} MB), ratio ${(best(tarSeconds) / best(backupSeconds)).toFixed(2)}`,
  );

  const url = `${base}/api/v4/projects/${firstId}`;
  const quiet = await p99(url, 5);
  const during = run(
    process.execPath,
    [path.join(root, 'dist/admin.mjs'), 'backup', path.join(out, 'during.tar')],
    adminEnv,
  );
  const busy = await p99(url, 5);
  await during;
  console.log(
    `p99 GET /api/v4/projects/:id, 32 connections: ${quiet} ms without a backup, ${busy} ms during one`,
  );
} finally {
  await server.close();
  if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
}
