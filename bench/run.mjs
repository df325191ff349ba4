// `npm run bench [-- --quick] [-- --sqlite-only | --postgres-only] [-- --rounds N]`: Labrador as
// `npm start` runs it (dist/main.mjs) on a temporary data dir, seeded in bulk through the database layer, measured with autocannon; every API
// figure beside a raw node:http server answering the same bytes in the same run (bench/raw-server.mjs),
// every git figure (smart HTTP, and a clone and the connection cost over the built-in SSH server) beside
// git over file://. SQLite first, then PostgreSQL when a server answers at
// LABRADOR_BENCH_PG_URL (default postgres://root@127.0.0.1:5432/test; a fresh database is made and
// dropped). Writes bench/RESULTS.md (or the file after --out).
//
// Full run: lists at 10,000 projects (1,000 users, 100,000 events) and again at 100,000 projects
// (10,000 users, 1,000,000 events); 3 alternating rounds of 3 s per figure. --quick: 10,000 projects
// only, 1 round of 2 s, fewer git rounds: about a minute per engine.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import { Buffer } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../src/db/connect.ts';
import { NEW_PROJECT_SWITCHES } from '../src/db/repositories/projects.ts';
import { personalNamespaceValues } from '../src/db/repositories/users.ts';
import { benchUserValues } from './seed-rows.ts';
import { cloneBareRepository, repositoryPath } from '../src/git/repository.ts';
import { freePort, gitEnv, gitRunner, rssKiB } from './git-bench-helpers.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const sqliteOnly = args.includes('--sqlite-only');
const postgresOnly = args.includes('--postgres-only');
const roundsIndex = args.indexOf('--rounds');
const outIndex = args.indexOf('--out');
const outFile = path.resolve(outIndex >= 0 ? args[outIndex + 1] : path.join(root, 'bench/RESULTS.md'));
const pgBase = process.env.LABRADOR_BENCH_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';

// --rounds N: more alternating rounds per figure, for a comparison within one run on a busy machine.
const ROUNDS = roundsIndex >= 0 ? Number(args[roundsIndex + 1]) : quick ? 1 : 3;
const SECONDS = quick ? 2 : 3;
const CONNECTIONS = 32;
// Nine: a git figure swings by ±0.1 from round to round on a busy machine; the median of five did too.
const GIT_ROUNDS = quick ? 2 : 9;
const SIZES = quick
  ? [{ label: '10k', users: 1000, projects: 10_000, events: 100_000 }]
  : [
      { label: '10k', users: 1000, projects: 10_000, events: 100_000 },
      { label: 'full', users: 10_000, projects: 100_000, events: 1_000_000 },
    ];
/** Events of the measured project: the same at every size, enough for page 201 at per_page=20. */
const PROJECT_EVENTS = 5000;
/** Builds of the measured project (it has no repository: a build's commit is null). */
const PROJECT_BUILDS = 5000;
const ROOT_PASSWORD = 'bench-password-1234';
const VIEWER_TOKEN = 'bench-viewer-token';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const log = (line) => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------------
// The server process, as `npm start` runs it.

/** How long a bare `node -e 0` takes to start and exit now: the floor of any cold start on this machine. */
async function bareNodeMs() {
  const started = process.hrtime.bigint();
  await new Promise((resolve) =>
    spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).on('exit', resolve),
  );
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function startLabrador(engine) {
  const bareMs = await bareNodeMs();
  const port = await freePort();
  const sshPort = await freePort();
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [path.join(root, 'dist/main.mjs')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LABRADOR_DATA_DIR: engine.dataDir,
      LABRADOR_PORT: String(port),
      LABRADOR_ROOT_PASSWORD: ROOT_PASSWORD,
      LABRADOR_ROOT_TOKEN: 'bench-root-token',
      LABRADOR_LOG_LEVEL: 'warn',
      // Git is measured over HTTP and SSH; a free port, so that a server already on 2222 is no matter.
      LABRADOR_SSH_PORT: String(sshPort),
      ...(engine.databaseUrl ? { LABRADOR_DATABASE_URL: engine.databaseUrl } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`labrador exited with ${child.exitCode}`);
    try {
      const response = await globalThis.fetch(`${base}/api/v3/version`, {
        headers: { 'private-token': 'bench-root-token' },
      });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  const startMs = Number(process.hrtime.bigint() - started) / 1e6;
  return {
    child,
    base,
    port,
    sshPort,
    startMs,
    bareMs,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

// ---------------------------------------------------------------------------------------------------
// Seeding in bulk through the database layer (the server is stopped meanwhile).

async function inBatches(total, size, insert) {
  for (let done = 0; done < total; done += size) await insert(done, Math.min(size, total - done));
}

/** Grows the tables to `size`; the viewer (bench0) and its first project exist from the first call. */
async function seed(engine, size, state) {
  const db = await openDatabase({ databaseUrl: engine.databaseUrl, dataDir: engine.dataDir });
  const kysely = db.kysely;
  try {
    const at = new Date().toISOString();
    await inBatches(size.users - state.users, 500, (offset, count) =>
      kysely.transaction().execute(async (trx) => {
        const users = Array.from({ length: count }, (_, k) => {
          const n = state.users + offset + k;
          return benchUserValues(`bench${n}`, n === 0 ? VIEWER_TOKEN : `bench-token-${n}`, at);
        });
        const ids = await trx.insertInto('users').values(users).returning(['id', 'username']).execute();
        const namespaces = await trx
          .insertInto('namespaces')
          .values(ids.map((user) => personalNamespaceValues(user, at)))
          .returning(['id', 'owner_id'])
          .execute();
        for (const namespace of namespaces)
          state.owners.push({ id: namespace.owner_id, namespace: namespace.id });
      }),
    );
    state.users = size.users;

    await inBatches(size.projects - state.projects, 500, (offset, count) =>
      kysely.transaction().execute(async (trx) => {
        const rows = Array.from({ length: count }, (_, k) => {
          const n = state.projects + offset + k;
          const owner = state.owners[n % state.owners.length];
          const when = new Date(Date.UTC(2016, 0, 1) + n * 1000).toISOString();
          return {
            namespace_id: owner.namespace,
            creator_id: owner.id,
            name: `project-${n}`,
            path: `project-${n}`,
            description: `bench project ${n}`,
            default_branch: 'master',
            // The viewer's first project is private (GET /projects/:id as its owner, as the issue set).
            visibility_level: n === 0 ? 0 : [0, 10, 20][n % 3],
            ...NEW_PROJECT_SWITCHES,
            runners_token: crypto.randomBytes(15).toString('base64url'),
            star_count: 0,
            import_url: null,
            avatar: null,
            last_activity_at: when,
            created_at: when,
            updated_at: when,
          };
        });
        const ids = await trx.insertInto('projects').values(rows).returning(['id', 'creator_id']).execute();
        if (state.projectId === undefined) state.projectId = ids[0].id;
        state.projectIds.push(...ids.map((row) => row.id));
        await trx
          .insertInto('members')
          .values(
            ids.map((project) => ({
              source_type: 'Project',
              source_id: project.id,
              user_id: project.creator_id,
              access_level: 40,
              expires_at: null,
              notification_level: 3,
              created_by_id: null,
              created_at: at,
              updated_at: at,
            })),
          )
          .execute();
      }),
    );
    state.projects = size.projects;

    // Events: the measured project gets PROJECT_EVENTS once; the rest are spread over every project.
    const target = size.events - state.events;
    await inBatches(target, 1000, (offset, count) =>
      kysely.transaction().execute(async (trx) => {
        const rows = Array.from({ length: count }, (_, k) => {
          const n = state.events + offset + k;
          const projectId =
            n < PROJECT_EVENTS ? state.projectId : state.projectIds[n % state.projectIds.length];
          return {
            project_id: projectId,
            author_id: state.owners[n % state.owners.length].id,
            action: 5,
            target_id: null,
            target_type: null,
            title: null,
            data: JSON.stringify({
              object_kind: 'push',
              before: '0'.repeat(40),
              after: 'a'.repeat(40),
              ref: 'refs/heads/master',
              total_commits_count: 1,
              commits: [],
            }),
            created_at: new Date(Date.UTC(2016, 0, 1) + n * 100).toISOString(),
            updated_at: at,
          };
        });
        await trx.insertInto('events').values(rows).execute();
      }),
    );
    state.events = size.events;

    if (!state.builds) {
      // The measured project's builds: PROJECT_BUILDS in pipelines of ten (page 201 at per_page=20).
      const statuses = ['success', 'success', 'success', 'failed', 'canceled'];
      await inBatches(PROJECT_BUILDS / 10, 100, (offset, count) =>
        kysely.transaction().execute(async (trx) => {
          const pipelines = await trx
            .insertInto('ci_pipelines')
            .values(
              Array.from({ length: count }, (_, k) => ({
                project_id: state.projectId,
                ref: 'master',
                sha: crypto
                  .createHash('sha1')
                  .update(String(offset + k))
                  .digest('hex'),
                tag: 0,
                status: statuses[(offset + k) % statuses.length],
                user_id: state.owners[0].id,
                started_at: at,
                finished_at: at,
                duration: 10,
                created_at: at,
                updated_at: at,
              })),
            )
            .returning('id')
            .execute();
          await trx
            .insertInto('ci_builds')
            .values(
              pipelines.flatMap((pipeline, k) =>
                Array.from({ length: 10 }, (_, n) => ({
                  project_id: state.projectId,
                  pipeline_id: pipeline.id,
                  type: 'build',
                  name: `job${n}`,
                  stage: 'test',
                  stage_idx: 0,
                  status: statuses[(k + n) % statuses.length],
                  ref: 'master',
                  tag: 0,
                  commands: 'make',
                  tag_list: '[]',
                  allow_failure: 0,
                  when: 'on_success',
                  user_id: state.owners[(k + n) % state.owners.length].id,
                  started_at: at,
                  finished_at: at,
                  created_at: at,
                  updated_at: at,
                })),
              ),
            )
            .execute();
        }),
      );
      state.builds = PROJECT_BUILDS;
    }

    if (!state.gitProject) {
      // The git project: root's, with a generated history.
      const rootUser = await kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'root')
        .executeTakeFirstOrThrow();
      const namespace = await kysely
        .selectFrom('namespaces')
        .select(['id', 'path'])
        .where('owner_id', '=', rootUser.id)
        .where('type', 'is', null)
        .executeTakeFirstOrThrow();
      await kysely
        .insertInto('projects')
        .values({
          namespace_id: namespace.id,
          creator_id: rootUser.id,
          name: 'history',
          path: 'history',
          description: null,
          default_branch: 'master',
          visibility_level: 0,
          ...NEW_PROJECT_SWITCHES,
          runners_token: crypto.randomBytes(15).toString('base64url'),
          star_count: 0,
          import_url: null,
          avatar: null,
          last_activity_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await cloneBareRepository(engine.history, repositoryPath(engine.dataDir, namespace.path, 'history'));
      state.gitProject = `${namespace.path}/history`;
    }
    // What autovacuum does a minute after a bulk load, done now so that the measurement does not depend
    // on when it runs: statistics for the planner, and the visibility map the index-only walks of the
    // project lists rely on (without it every entry walked reads its table page too).
    if (engine.databaseUrl) await sql`vacuum analyze`.execute(kysely);
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// HTTP measurements.

async function cannon(url, request) {
  const result = await autocannon({
    url,
    connections: request.connections ?? CONNECTIONS,
    duration: SECONDS,
    method: request.method,
    headers: request.headers,
    requests: request.setupRequest ? [{ setupRequest: request.setupRequest }] : undefined,
    body: request.body,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    statuses: result.statusCodeStats,
  };
}

async function startRaw(routesFile) {
  const child = spawn(process.execPath, [path.join(root, 'bench/raw-server.mjs'), routesFile, VIEWER_TOKEN], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(Number(chunk))));
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/** Each target in alternating order with its raw twin; medians and the median per-round ratio. */
async function measure(server, targets, workdir) {
  const headers = { 'private-token': VIEWER_TOKEN };
  const routes = {};
  for (const target of targets) {
    const init = { method: target.method ?? 'GET', headers: { ...headers } };
    if (target.body) {
      init.headers['content-type'] = 'application/json';
      init.body = target.body();
    }
    const response = await globalThis.fetch(`${server.base}${target.path}`, init);
    const text = await response.text();
    if (response.status >= 300)
      throw new Error(`${target.method ?? 'GET'} ${target.path}: ${response.status} ${text}`);
    routes[`${init.method} ${target.path}`] = { status: response.status, body: JSON.parse(text) };
    target.bytes = Buffer.byteLength(text);
  }
  const routesFile = path.join(workdir, 'routes.json');
  fs.writeFileSync(routesFile, JSON.stringify(routes));
  const raw = await startRaw(routesFile);
  const rows = [];
  try {
    for (const target of targets) {
      const request = {
        method: target.method ?? 'GET',
        headers: { ...headers },
        connections: target.connections,
      };
      if (target.body) {
        request.headers['content-type'] = 'application/json';
        request.setupRequest = (req) => ({ ...req, body: target.body() });
      }
      const samples = { labrador: [], raw: [] };
      // A short warm-up of each, then alternating rounds.
      await cannonShort(`${raw.base}${target.path}`, request);
      await cannonShort(`${server.base}${target.path}`, request);
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? ['raw', 'labrador'] : ['labrador', 'raw'];
        for (const which of order) {
          const base = which === 'raw' ? raw.base : server.base;
          samples[which].push(await cannon(`${base}${target.path}`, request));
        }
      }
      const ratio = median(samples.labrador.map((sample, i) => sample.rps / samples.raw[i].rps));
      const row = {
        name: target.name,
        bytes: target.bytes,
        rps: median(samples.labrador.map((s) => s.rps)),
        p50: median(samples.labrador.map((s) => s.p50)),
        p99: median(samples.labrador.map((s) => s.p99)),
        rawRps: median(samples.raw.map((s) => s.rps)),
        rawP50: median(samples.raw.map((s) => s.p50)),
        rawP99: median(samples.raw.map((s) => s.p99)),
        ratio,
        bad: samples.labrador.reduce((sum, s) => sum + s.bad, 0),
      };
      rows.push(row);
      log(
        `  ${row.name.padEnd(44)} ${row.rps.toFixed(0).padStart(6)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms` +
          `  | raw ${row.rawRps.toFixed(0)} req/s  ratio ${row.ratio.toFixed(3)}${row.bad ? `  (${row.bad} non-2xx/errors)` : ''}`,
      );
    }
  } finally {
    raw.stop();
  }
  return rows;
}

async function cannonShort(url, request) {
  await autocannon({
    url,
    connections: request.connections ?? CONNECTIONS,
    duration: 1,
    method: request.method,
    headers: request.headers,
    requests: request.setupRequest ? [{ setupRequest: request.setupRequest }] : undefined,
  });
}

// ---------------------------------------------------------------------------------------------------
// Git: Labrador's smart HTTP against file:// in alternating rounds.

function historyRepo(git, dir, count) {
  git(['init', '-q', '--bare', dir]);
  const lines = [];
  for (let i = 1; i <= count; i++) {
    const content = `revision ${i}\n${crypto.randomBytes(300).toString('base64')}\n`;
    const message = `Commit number ${i}\n`;
    lines.push(
      'commit refs/heads/master',
      `committer Bench <bench@example.com> ${1450972274 + i * 60} +0100`,
      `data ${Buffer.byteLength(message)}`,
      message,
      `M 100644 inline src/file-${i % 200}.txt`,
      `data ${Buffer.byteLength(content)}`,
      content,
    );
  }
  git(['fast-import', '--quiet'], { cwd: dir, input: lines.filter((l) => l !== '').join('\n') + '\n' });
  git(['gc', '-q'], { cwd: dir });
}

function timeCommand(command, args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${command} ${args.join(' ')}: ${stderr}`));
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

const timeGit = (env, args) => timeCommand('git', args, env);

/** An ed25519 key for root (made once per workdir, registered unless it already is) and ssh's options. */
async function sshClient(workdir, server) {
  const keyFile = path.join(workdir, 'bench_ssh_key');
  if (!fs.existsSync(keyFile)) {
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'bench', '-f', keyFile]);
  }
  const response = await globalThis.fetch(`${server.base}/api/v3/user/keys`, {
    method: 'POST',
    headers: { 'private-token': 'bench-root-token', 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'bench', key: fs.readFileSync(`${keyFile}.pub`, 'utf8').trim() }),
  });
  // 400: a kept data dir has it already.
  if (response.status !== 201 && response.status !== 400) {
    throw new Error(`POST /user/keys: ${response.status} ${await response.text()}`);
  }
  const options = [
    '-i',
    keyFile,
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'IdentityAgent=none',
    '-o',
    'BatchMode=yes',
  ];
  options.push(
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'LogLevel=ERROR',
  );
  return { options: [...options, '-p', String(server.sshPort)] };
}

async function measureGit(engine, server, workdir, state) {
  const env = gitEnv(workdir);
  const git = gitRunner(env);
  const remote = `http://root:${ROOT_PASSWORD}@127.0.0.1:${server.port}/${state.gitProject}.git`;
  const disk = `file://${engine.history}`;
  const results = {};
  // `http` stands for Labrador's side of a pair (smart HTTP, or SSH for the rows that say so).
  const pairs = async (name, count, run) => {
    const http = [];
    const file = [];
    for (let round = 0; round < count; round++) {
      const order = round % 2 === 0 ? ['http', 'file'] : ['file', 'http'];
      for (const kind of order) (kind === 'http' ? http : file).push(await run(kind, round));
    }
    results[name] = {
      http: median(http),
      file: median(file),
      ratio: median(http.map((ms, i) => ms / file[i])),
    };
    log(
      `  ${name.padEnd(22)} Labrador ${results[name].http.toFixed(0)} ms  file:// ${results[name].file.toFixed(0)} ms  ratio ${results[name].ratio.toFixed(2)}`,
    );
  };
  const target = (kind) => path.join(workdir, `clone-${kind}`);
  await timeGit(env, ['clone', '-q', '--bare', remote, target('warm')]);
  await pairs('clone --bare', GIT_ROUNDS, (kind) => {
    fs.rmSync(target(kind), { recursive: true, force: true });
    return timeGit(env, ['clone', '-q', '--bare', kind === 'http' ? remote : disk, target(kind)]);
  });
  // The same, but with a ref added to both repositories before each round: Labrador's stored answer to
  // the previous clone no longer applies (pack cache miss), as for the first clone after a push.
  const served = repositoryPath(engine.dataDir, ...state.gitProject.split('/'));
  await pairs('clone --bare, refs changed', GIT_ROUNDS, (kind, round) => {
    if (kind === 'http' ? round % 2 === 0 : round % 2 === 1) {
      for (const repo of [served, engine.history]) {
        git(['update-ref', `refs/heads/bench-round-${round}`, 'refs/heads/master'], { cwd: repo });
      }
    }
    fs.rmSync(target(kind), { recursive: true, force: true });
    return timeGit(env, ['clone', '-q', '--bare', kind === 'http' ? remote : disk, target(kind)]);
  });
  await pairs('ls-remote', GIT_ROUNDS * 2, (kind) =>
    timeGit(env, ['ls-remote', kind === 'http' ? remote : disk]),
  );

  // The same clone over the built-in SSH server (the system's ssh client, root's ed25519 key), and what
  // one SSH connection costs: key exchange, public-key authentication, the greeting, close.
  const ssh = await sshClient(workdir, server);
  const sshEnv = { ...env, GIT_SSH_COMMAND: ['ssh', ...ssh.options].join(' ') };
  const sshRemote = `ssh://git@127.0.0.1:${server.sshPort}/${state.gitProject}.git`;
  await timeGit(sshEnv, ['ls-remote', sshRemote]);
  await pairs('clone --bare over SSH', GIT_ROUNDS, (kind) => {
    fs.rmSync(target(kind), { recursive: true, force: true });
    return kind === 'http'
      ? timeGit(sshEnv, ['clone', '-q', '--bare', sshRemote, target(kind)])
      : timeGit(env, ['clone', '-q', '--bare', disk, target(kind)]);
  });
  const handshakes = [];
  for (let round = 0; round < GIT_ROUNDS * 2; round++) {
    handshakes.push(await timeCommand('ssh', [...ssh.options, '-T', 'git@127.0.0.1'], env));
  }
  results['SSH handshake + auth + greeting'] = { http: median(handshakes) };
  log(`  SSH handshake + auth + greeting median ${median(handshakes).toFixed(0)} ms`);

  // A push of 100 new commits as a new branch (Labrador also records the push: events, hooks).
  const diskTarget = path.join(workdir, 'disk-target.git');
  fs.rmSync(diskTarget, { recursive: true, force: true });
  git(['clone', '-q', '--bare', engine.history, diskTarget]);
  const local = path.join(workdir, 'push-work');
  fs.rmSync(local, { recursive: true, force: true });
  git(['clone', '-q', engine.history, local]);
  const who = ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com'];
  const prepared = new Set();
  await pairs('push of 100 commits', GIT_ROUNDS, (kind, round) => {
    if (!prepared.has(round)) {
      prepared.add(round);
      git(['checkout', '-q', '-B', `push-${round}`, 'origin/master'], { cwd: local });
      for (let i = 0; i < 100; i++) {
        fs.writeFileSync(path.join(local, `push-${i % 10}.txt`), `${round} ${i} ${crypto.randomUUID()}\n`);
        git(['add', '-A'], { cwd: local });
        git([...who, 'commit', '-q', '-m', `push ${round} ${i}`], { cwd: local });
      }
    }
    const to = kind === 'http' ? remote : `file://${diskTarget}`;
    return timeGit(env, ['-C', local, 'push', '-q', to, `push-${round}`]);
  });
  return results;
}

// ---------------------------------------------------------------------------------------------------

function apiTargets(state, size, full) {
  const id = state.projectId;
  let created = 0;
  const single = [
    { name: 'GET /version', path: '/api/v3/version' },
    { name: 'GET /user', path: '/api/v3/user' },
    { name: 'GET /projects/:id (private, owner)', path: `/api/v3/projects/${id}` },
    { name: 'GET /projects?per_page=20', path: '/api/v3/projects?per_page=20' },
    // v4's twins in the same run (issue 33: at least as fast as v3's, as ratios to raw).
    { name: 'v4 GET /projects/:id (private, owner)', path: `/api/v4/projects/${id}` },
    // v4's GET /projects lists every visible project (v3's /projects/visible); membership=true is v3's /projects.
    { name: 'v4 GET /projects?per_page=20', path: '/api/v4/projects?per_page=20' },
    {
      name: 'v4 GET /projects?membership=true&per_page=20',
      path: '/api/v4/projects?membership=true&per_page=20',
    },
  ];
  const lists = [
    { name: `GET /projects/visible p1 (${size.label})`, path: '/api/v3/projects/visible?per_page=20' },
    {
      name: `GET /projects/visible p201 (${size.label})`,
      path: '/api/v3/projects/visible?per_page=20&page=201',
    },
    {
      name: `GET /projects/:id/events p1 (${size.label})`,
      path: `/api/v3/projects/${id}/events?per_page=20`,
    },
    {
      name: `GET /projects/:id/events p201 (${size.label})`,
      path: `/api/v3/projects/${id}/events?per_page=20&page=201`,
    },
    {
      name: `GET /projects/:id/builds p1 (${size.label})`,
      path: `/api/v3/projects/${id}/builds?per_page=20`,
    },
    {
      name: `GET /projects/:id/builds p201 (${size.label})`,
      path: `/api/v3/projects/${id}/builds?per_page=20&page=201`,
    },
  ];
  const post = {
    name: 'POST /projects',
    path: '/api/v3/projects',
    method: 'POST',
    // Creations queue behind one another (one writer, a repository each): 32 at once would outlast a round.
    connections: 4,
    body: () =>
      JSON.stringify({
        name: `created-${process.pid}-${size.label}-${++created}-${crypto.randomUUID().slice(0, 8)}`,
      }),
  };
  const all = full ? [...single, ...lists, post] : lists;
  // BENCH_ONLY=<text>[|<text>…]: only the figures whose name contains one of them (while working on those).
  const only = process.env.BENCH_ONLY?.split('|');
  return only ? all.filter((target) => only.some((text) => target.name.includes(text))) : all;
}

async function runEngine(engine) {
  log(`\n== ${engine.name}`);
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), `labrador-bench-${engine.name}-`));
  engine.dataDir = path.join(workdir, 'data');
  engine.history = path.join(workdir, 'history.git');
  const git = gitRunner(gitEnv(workdir));
  historyRepo(git, engine.history, quick ? 500 : 2000);
  const result = { engine: engine.name, api: [], git: {}, start: {}, rss: {} };
  const state = { users: 0, projects: 0, events: 0, owners: [], projectIds: [], projectId: undefined };
  try {
    // The first start migrates and creates root on an empty data dir.
    let server = await startLabrador(engine);
    result.start.first = { ms: server.startMs, bare: server.bareMs };
    await server.stop();
    for (const [index, size] of SIZES.entries()) {
      const seedStarted = Date.now();
      await seed(engine, size, state);
      log(
        `seeded ${size.users} users, ${size.projects} projects, ${size.events} events in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`,
      );
      server = await startLabrador(engine);
      result.start[size.label] = { ms: server.startMs, bare: server.bareMs };
      await sleep(2000);
      result.rss[`idle ${size.label}`] = rssKiB(server.child.pid).rss;
      const last = index === SIZES.length - 1;
      result.api.push(...(await measure(server, apiTargets(state, size, last), workdir)));
      // BENCH_ONLY names API figures: the git figures run only without it.
      if (last && !process.env.BENCH_ONLY) result.git = await measureGit(engine, server, workdir, state);
      const rss = rssKiB(server.child.pid);
      result.rss[`loaded ${size.label} (peak)`] = rss.hwm;
      await server.stop();
    }
  } finally {
    if (process.env.BENCH_KEEP) log(`kept ${workdir}`);
    else fs.rmSync(workdir, { recursive: true, force: true });
  }
  return result;
}

async function postgresEngine() {
  const admin = new pg.Client({ connectionString: pgBase });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `labrador_bench_${crypto.randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(pgBase);
  url.pathname = `/${name}`;
  return {
    name: 'postgresql',
    databaseUrl: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: pgBase });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

function markdown(results) {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).stdout.toString().trim();
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmark results (`npm run bench`)',
    '',
    `- date: ${new Date().toISOString()}`,
    `- machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}, load average at the end ${os
      .loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
    `- commit: ${commit}${quick ? ' (--quick)' : ''}`,
    `- method: autocannon, ${CONNECTIONS} connections, ${ROUNDS} alternating round(s) of ${SECONDS} s per figure; the baseline is a raw node:http server answering the same bytes (bench/raw-server.mjs). req/s, p50 and p99 are medians over the rounds; the ratio is the median of per-round ratios. The load generator shares the cores with the server: compare ratios, not absolute numbers.`,
    '',
  ];
  for (const result of results) {
    lines.push(`## ${result.engine}`, '');
    lines.push('| request | bytes | req/s | p50 ms | p99 ms | raw req/s | raw p50 ms | raw p99 ms | ratio |');
    lines.push('|---|---|---|---|---|---|---|---|---|');
    for (const row of result.api) {
      lines.push(
        `| ${row.name} | ${row.bytes} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.rawRps.toFixed(0)} | ${row.rawP50} | ${row.rawP99} | **${row.ratio.toFixed(3)}**${row.bad ? ` (${row.bad} non-2xx)` : ''} |`,
      );
    }
    lines.push(
      '',
      '| git (over HTTP unless it says SSH) | Labrador ms | file:// ms | ratio |',
      '|---|---|---|---|',
    );
    for (const [name, git] of Object.entries(result.git)) {
      lines.push(
        git.file === undefined
          ? `| ${name} (median) | ${git.http.toFixed(0)} | | |`
          : `| ${name} | ${git.http.toFixed(0)} | ${git.file.toFixed(0)} | **${git.ratio.toFixed(2)}** |`,
      );
    }
    lines.push('', '| process | value |', '|---|---|');
    for (const [name, start] of Object.entries(result.start)) {
      lines.push(
        `| cold start (${name === 'first' ? 'empty data dir: migrations, root' : `${name} data`}) | ${start.ms.toFixed(0)} ms (bare node ${start.bare.toFixed(0)} ms) |`,
      );
    }
    for (const [name, kib] of Object.entries(result.rss))
      lines.push(`| RSS ${name} | ${(kib / 1024).toFixed(1)} MiB |`);
    lines.push('');
  }
  return lines.join('\n');
}

if (!fs.existsSync(path.join(root, 'dist/main.mjs'))) {
  console.error('dist/main.mjs is missing: run npm run build first');
  process.exit(2);
}
const results = [];
if (!postgresOnly) results.push(await runEngine({ name: 'sqlite' }));
if (!sqliteOnly) {
  const engine = await postgresEngine();
  if (!engine) log(`\nPostgreSQL: nothing answers at ${pgBase}; skipped`);
  else {
    try {
      results.push(await runEngine(engine));
    } finally {
      if (process.env.BENCH_KEEP) log(`kept ${engine.databaseUrl}`);
      else await engine.drop();
    }
  }
}
fs.writeFileSync(outFile, markdown(results));
log(`\nwritten to ${path.relative(process.cwd(), outFile)}`);
