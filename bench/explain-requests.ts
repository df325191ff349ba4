// What each statement of a request costs, on a data dir and database kept by the full bench
// (`BENCH_KEEP=1 npm run bench -- --quick`): the statements one GET runs, each with EXPLAIN (ANALYZE,
// BUFFERS) on PostgreSQL (EXPLAIN QUERY PLAN on SQLite), and the median execution and planning times
// over repeated runs of the statement itself (the read cache is not in the way: the statements are sent
// directly). A poll of a background worker that runs during the request is listed too (the merge-request
// auto-merge queue).
//
//   node --import tsx bench/explain-requests.ts --data <dir> [--pg <url>] [--token T] [--runs N] [--plans]
//        <path> [<path> …]
import pino from 'pino';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback?: string): string | undefined => {
  const index = args.indexOf(`--${name}`);
  if (index < 0) return fallback;
  return args.splice(index, 2)[1];
};
const dataDir = option('data');
const databaseUrl = option('pg');
const token = option('token', 'bench-viewer-token')!;
const runs = Number(option('runs', '21'));
const showPlans = args.includes('--plans');
const paths = args.filter((arg) => !arg.startsWith('--'));
if (!dataDir || paths.length === 0) {
  console.error('usage: explain-requests.ts --data <dir> [--pg <url>] [--plans] <path>…');
  process.exit(2);
}

const server = await startServer(
  loadConfig({
    ...process.env,
    LABRADOR_DATA_DIR: dataDir,
    LABRADOR_LOG_LEVEL: 'warn',
    LABRADOR_SSH_PORT: '0',
    LABRADOR_DATABASE_URL: databaseUrl ?? '',
  }),
  pino({ level: 'warn' }),
);
const db = server.deps.db;
const postgres = db.dialect === 'postgres';

/**
 * Milliseconds of execution PostgreSQL reports for one run of the statement, and of planning (which the
 * server's named prepared statements pay only until PostgreSQL settles on a generic plan).
 */
async function runMs(text: string, parameters: readonly unknown[]): Promise<{ run: number; plan: number }> {
  const compiled = sql.raw(`explain (analyze, format json) ${text}`).compile(db.kysely);
  const rows = (await db.kysely.executeQuery({ ...compiled, parameters })).rows as Array<
    Record<string, unknown>
  >;
  const [plan] = rows[0]!['QUERY PLAN'] as Array<{ 'Execution Time': number; 'Planning Time': number }>;
  return { run: plan!['Execution Time'], plan: plan!['Planning Time'] };
}

try {
  for (const url of paths) {
    const statements: Array<[string, readonly unknown[]]> = [];
    db.onQuery = (text, parameters) => statements.push([text, parameters]);
    const response = await server.app.inject({ method: 'GET', url, headers: { 'private-token': token } });
    db.onQuery = undefined;
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    console.log(`\n${url}: ${statements.length} statements`);
    let total = 0;
    let planning = 0;
    for (const [text, parameters] of statements) {
      if (/^(begin|commit|rollback|savepoint|release)\b/i.test(text.trim())) continue;
      let median = NaN;
      let medianPlan = NaN;
      if (postgres) {
        const times: Array<{ run: number; plan: number }> = [];
        for (let i = 0; i < runs; i++) times.push(await runMs(text, parameters));
        const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
        median = middle(times.map((time) => time.run));
        medianPlan = middle(times.map((time) => time.plan));
        total += median;
        planning += medianPlan;
      }
      const cost = postgres ? `${median.toFixed(3)} ms (plan ${medianPlan.toFixed(3)})  ` : '';
      console.log(`  ${cost}${text.replace(/\s+/g, ' ').slice(0, 200)}`);
      if (!showPlans) continue;
      const explain = postgres ? 'explain (analyze, buffers)' : 'explain query plan';
      const plan = sql.raw(`${explain} ${text}`).compile(db.kysely);
      const rows = (await db.kysely.executeQuery({ ...plan, parameters })).rows as Array<
        Record<string, unknown>
      >;
      for (const row of rows) console.log(`      ${String(row.detail ?? row['QUERY PLAN'])}`);
    }
    if (postgres) {
      console.log(
        `  total ${total.toFixed(3)} ms executing, ${planning.toFixed(3)} ms planning (medians of ${runs} runs)`,
      );
    }
  }
} finally {
  await server.close();
}
