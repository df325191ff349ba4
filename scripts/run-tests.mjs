// Runs the whole test suite on SQLite, then again on PostgreSQL (each test app creates and drops its own
// database there, copied from a migrated template). Prints node's summary per run and one total line.
// Builds dist/ once first: the tests of `npm start`, `npm run admin` and the runner run that build
// (LABRADOR_TEST_DIST), so what they run is what those commands run, from the current src/. Then compiles
// the test files once (scripts/build-tests.mjs) and runs the compiled ones with plain node: a test process
// then loads in under 1 s of CPU instead of ~3 s through the tsx loader. Source maps name the .ts files in
// failures and stack lines; a compile error fails the run before any test starts.
//
// A missing PostgreSQL (no answer within the wait, LABRADOR_TEST_PG_WAIT_MS: 120 s under CI, 10 s
// locally) skips its run with one line locally; under CI (CI=true, as CI runs .ci/run) it fails the run
// with one line before anything else runs. Tests that need Chromium follow the same rule
// (test/helpers/requirements.ts).
//
// The PostgreSQL databases of a run (scripts/test-databases.mjs) are dropped when it ends, also when it is
// interrupted (SIGINT, SIGTERM), and a run killed outright has its databases dropped by the next run's start.
//
// Test files run LABRADOR_TEST_CONCURRENCY at a time, by default two per core: a file waits on git, Chromium,
// PostgreSQL and child processes for about half its time, so on two cores four at once kept the CPU busy and
// took the whole run from 429 + 526 s to 140 + 214 s (SQLite + PostgreSQL, a quiet machine).
// Files start slowest first, so the workers do not end with one long file running alone: by the
// seconds each file took in this checkout's last run (node_modules/.cache), else by test/timings.json (a
// fresh clone, CI); files in neither (new ones) go first of all. `npm run test:timings`
// (LABRADOR_TEST_WRITE_TIMINGS=1) runs the suite and writes its times into test/timings.json.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { buildTests, removeStaleTestBuilds, removeTestBuild, sourceOfBuilt } from './build-tests.mjs';
import { dropFinishedDatabases, dropRunDatabases } from './test-databases.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pgUrl = process.env.LABRADOR_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const filter = process.argv.slice(2);
const ciValue = (process.env.CI ?? '').trim().toLowerCase();
const underCi = ciValue !== '' && ciValue !== '0' && ciValue !== 'false';
const pgWaitMs = Number(process.env.LABRADOR_TEST_PG_WAIT_MS ?? (underCi ? 120_000 : 10_000));
const cachedTimingsFile = path.join(root, 'node_modules', '.cache', 'labrador', 'test-seconds.json');
const committedTimingsFile = path.join(root, 'test', 'timings.json');
const concurrency =
  Number(process.env.LABRADOR_TEST_CONCURRENCY) || Math.max(2, os.availableParallelism() * 2);
const writeCommittedTimings = ['1', 'true'].includes(process.env.LABRADOR_TEST_WRITE_TIMINGS ?? '');

function testFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return testFiles(full);
      return entry.name.endsWith('.test.ts') ? [full] : [];
    })
    .sort();
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

/** Seconds per engine and file: this checkout's last times over the committed ones. */
function readTimings() {
  const committed = readJson(committedTimingsFile);
  const cached = readJson(cachedTimingsFile);
  return Object.fromEntries(
    [...new Set([...Object.keys(committed), ...Object.keys(cached)])].map((label) => [
      label,
      { ...committed[label], ...cached[label] },
    ]),
  );
}

/** `timings` as JSON with each engine's files sorted (a stable diff), leaving out files that are gone. */
function timingsJson(timings) {
  const kept = (times) =>
    Object.fromEntries(
      Object.entries(times)
        .filter(([file]) => fs.existsSync(path.join(root, file)))
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  const labels = Object.keys(timings).sort();
  return `${JSON.stringify(Object.fromEntries(labels.map((label) => [label, kept(timings[label])])), null, 2)}\n`;
}

/** Slowest first by their times on this engine; files never timed (new ones) go first of all. */
function slowestFirst(files, timings) {
  const time = (file) => timings[path.relative(root, file)] ?? Infinity;
  return [...files].sort((a, b) => time(b) - time(a) || a.localeCompare(b));
}

/** The node --test process running now, and the signal that interrupted the run (if one did). */
let running;
let interrupted;

/** Runs the test `files` (their compiled paths by source path) on one engine. */
function run(label, env, timings, compiled) {
  return new Promise((resolve) => {
    const files = slowestFirst([...compiled.keys()], timings[label] ?? {});
    const timingFile = path.join(os.tmpdir(), `labrador-timings-${process.pid}-${label}.json`);
    console.log(`\n=== ${label}: ${files.length} test files ===`);
    // node --test given no files would look for tests by its own patterns instead.
    if (files.length === 0) return resolve({ label, seconds: 0, code: 0, pass: 0, fail: 0, skipped: 0 });
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [
        '--enable-source-maps',
        '--test',
        `--test-concurrency=${concurrency}`,
        // Only a bound on a hang: a test file of the runner or the process tests needed over 180 s on a
        // two-core machine running several suites at once, and a test may not fail for being slow.
        '--test-timeout=900000',
        `--test-reporter=${path.join(root, 'scripts/test-spec-reporter.mjs')}`,
        '--test-reporter-destination=stdout',
        `--test-reporter=${path.join(root, 'scripts/test-timings-reporter.mjs')}`,
        `--test-reporter-destination=${timingFile}`,
        ...files.map((file) => compiled.get(file)),
      ],
      { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' },
    );
    running = child;
    child.on('exit', (code) => {
      running = undefined;
      const seconds = Math.round((Date.now() - started) / 1000);
      let report = { summary: {}, files: {} };
      try {
        report = JSON.parse(fs.readFileSync(timingFile, 'utf8'));
      } catch {
        // the run ended before its reporter wrote (counted as a failure through the exit code)
      }
      fs.rmSync(timingFile, { force: true });
      const mine = (timings[label] ??= {});
      for (const [file, ms] of Object.entries(report.files)) {
        mine[path.relative(root, sourceOfBuilt(file))] = Math.round(ms / 100) / 10;
      }
      const count = (name) => report.summary[name] ?? 0;
      const result = { label, seconds, code: code ?? 1, pass: count('pass'), fail: count('fail') };
      resolve({ ...result, skipped: count('skipped') });
    });
  });
}

/** Why no PostgreSQL answers at pgUrl after trying for pgWaitMs (a slow start is not a missing server). */
async function postgresProblem() {
  const deadline = Date.now() + pgWaitMs;
  for (;;) {
    const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
    let problem;
    try {
      await client.connect();
      await client.query('select 1');
      return null;
    } catch (error) {
      problem = error.message;
    } finally {
      await client.end().catch(() => {});
    }
    if (Date.now() >= deadline) return problem;
    await sleep(500);
  }
}

const pgProblem = await postgresProblem();
const missingPg =
  pgProblem && `no PostgreSQL server answered at ${pgUrl} within ${pgWaitMs / 1000} s (${pgProblem})`;
if (missingPg && underCi) {
  console.error(`PostgreSQL is required under CI=true: ${missingPg}`);
  process.exit(1);
}

const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
const shared = { LABRADOR_TEST_DIST: path.join(root, 'dist'), LABRADOR_TEST_RUN_PID: String(process.pid) };

/** Drops this run's databases, or with `stale` those of runs that are gone (a failure is only reported). */
async function dropDatabases(options) {
  const client = new pg.Client({ connectionString: pgUrl });
  try {
    await client.connect();
    const dropped = await dropRunDatabases(client, options);
    if (options.stale && dropped.length > 0) {
      console.log(
        `Dropped ${dropped.length} databases left by runs that did not end cleanly: ${dropped.join(', ')}`,
      );
    }
  } catch (error) {
    console.error(`Could not drop the test databases: ${error.message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Drops the databases the run's tests are done with while the tests go on (scripts/test-databases.mjs);
 * stop() waits for the drop under way. A failure is reported once and leaves the rest to the run's end.
 */
function dropFinishedWhileRunning() {
  let stopped = false;
  const done = (async () => {
    const client = new pg.Client({ connectionString: pgUrl });
    try {
      await client.connect();
      while (!stopped) {
        await dropFinishedDatabases(client, process.pid);
        await sleep(500);
      }
    } catch (error) {
      console.error(`Could not drop finished test databases during the run: ${error.message}`);
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return async () => {
    stopped = true;
    await done;
  };
}

if (!missingPg) await dropDatabases({ stale: true });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted ??= signal;
    // Ctrl-C reaches the whole process group; a signal sent to this process alone is passed on.
    running?.kill(signal);
  });
}

let files = testFiles(path.join(root, 'test'));
if (filter.length > 0) files = files.filter((file) => filter.some((part) => file.includes(part)));
removeStaleTestBuilds(root);
const compiled = files.length > 0 ? await buildTests(root, process.pid, files) : new Map();
if (!compiled) {
  console.error('Compiling the tests failed (errors above); no test ran.');
  process.exit(1);
}

const timings = readTimings();
const results = [await run('sqlite', { ...shared, LABRADOR_TEST_PG_URL: '' }, timings, compiled)];
if (missingPg) {
  console.log(`\nPostgreSQL run skipped: ${missingPg}`);
} else {
  if (!interrupted) {
    const stopDropping = dropFinishedWhileRunning();
    results.push(await run('postgres', { ...shared, LABRADOR_TEST_PG_URL: pgUrl }, timings, compiled));
    await stopDropping();
  }
  await dropDatabases({ pid: process.pid });
}
removeTestBuild(root, process.pid);
if (interrupted) {
  console.log(`\nInterrupted (${interrupted}); the run's test databases are dropped.`);
  process.exit(interrupted === 'SIGINT' ? 130 : 143);
}
// A filtered run updates the times of the files it ran and keeps the others'.
fs.mkdirSync(path.dirname(cachedTimingsFile), { recursive: true });
fs.writeFileSync(cachedTimingsFile, timingsJson(timings));
if (writeCommittedTimings) fs.writeFileSync(committedTimingsFile, timingsJson(timings));

const total = results.reduce(
  (sum, result) => ({
    pass: sum.pass + result.pass,
    fail: sum.fail + result.fail,
    skipped: sum.skipped + result.skipped,
  }),
  { pass: 0, fail: 0, skipped: 0 },
);
const failed = results.some((result) => result.code !== 0) || total.fail > 0;
for (const result of results) {
  const exit =
    result.code === 0 || result.fail > 0
      ? ''
      : ` (exit code ${result.code}: a file failed outside its tests)`;
  console.log(
    `${result.label}: ${result.pass} passed, ${result.fail} failed, ${result.skipped} skipped in ${result.seconds} s${exit}`,
  );
}
console.log(`\ntotal: ${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped`);
process.exit(failed ? 1 : 0);
