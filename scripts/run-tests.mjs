// Runs the whole test suite on SQLite, then again on PostgreSQL when a server answers (each test app
// creates and drops its own database there). Prints node's summary per run and one total line.
// Builds dist/ first: the tests of `npm start` and `npm run admin` run what those commands run.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pgUrl = process.env.LABRADOR_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const filter = process.argv.slice(2);

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

function run(label, env) {
  return new Promise((resolve) => {
    let files = testFiles(path.join(root, 'test'));
    if (filter.length > 0) files = files.filter((file) => filter.some((part) => file.includes(part)));
    const tapFile = path.join(os.tmpdir(), `labrador-tap-${process.pid}-${label}.txt`);
    console.log(`\n=== ${label}: ${files.length} test files ===`);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        '--test-concurrency=2',
        '--test-timeout=180000',
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        '--test-reporter=tap',
        `--test-reporter-destination=${tapFile}`,
        ...files,
      ],
      { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' },
    );
    child.on('exit', (code) => {
      const tap = fs.existsSync(tapFile) ? fs.readFileSync(tapFile, 'utf8') : '';
      fs.rmSync(tapFile, { force: true });
      const count = (name) => Number(tap.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
      resolve({ code: code ?? 1, pass: count('pass'), fail: count('fail'), skipped: count('skipped') });
    });
  });
}

async function postgresAvailable() {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error.message;
  } finally {
    await client.end().catch(() => {});
  }
}

const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(1);

const results = [await run('sqlite', { LABRADOR_TEST_PG_URL: '' })];
const pgProblem = await postgresAvailable();
if (pgProblem) {
  console.log(`\nPostgreSQL run skipped: no server at ${pgUrl} (${pgProblem})`);
} else {
  results.push(await run('postgres', { LABRADOR_TEST_PG_URL: pgUrl }));
}

const total = results.reduce(
  (sum, result) => ({
    pass: sum.pass + result.pass,
    fail: sum.fail + result.fail,
    skipped: sum.skipped + result.skipped,
  }),
  { pass: 0, fail: 0, skipped: 0 },
);
const failed = results.some((result) => result.code !== 0) || total.fail > 0;
console.log(`\ntotal: ${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped`);
process.exit(failed ? 1 : 0);
