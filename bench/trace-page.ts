// What a build page costs with a 10 MB trace, and what its live updates cost: the page (it shows the
// last 256 KB), a poll with nothing new, a poll after a line was appended, a reader catching up from the
// start in 256 KB pieces, the raw trace, and for comparison rendering the whole trace at once (what a page
// showing all of it would do on every load). Bytes are the response bodies; times are the server's, per
// request, in-process (Fastify inject: no socket), median and mean of the rounds.
// Usage: node --import tsx bench/trace-page.ts [traceMB=10] [rounds=40]
// (LABRADOR_DATABASE_URL=postgres://… to run on PostgreSQL, on an empty database.)
import fs from 'node:fs';
import { insertPipeline } from '../src/db/repositories/pipelines.ts';
import { insertBuilds } from '../src/db/repositories/builds.ts';
import { initBareRepository, repositoryPath } from '../src/git/repository.ts';
import { tracePath, writeTrace } from '../src/storage/traces.ts';
import { renderTrace } from '../src/presenters/html/ansi.ts';
import type { NewCiBuild } from '../src/db/types.ts';
import { startBenchServer, insertBenchProject } from './in-process.ts';

const traceMB = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 40);
const bench = await startBenchServer();
const { dataDir, server, db, root, namespace } = bench;
const at = new Date().toISOString();

// A public project with public builds: the pages answer a visitor without a session.
const project = await insertBenchProject(bench, 'traces', 20);
await initBareRepository(dataDir, repositoryPath(dataDir, namespace.path, 'traces'));
const pipeline = await insertPipeline(db, {
  project_id: project.id,
  ref: 'master',
  sha: '0'.repeat(40),
  before_sha: null,
  tag: 0,
  status: 'running',
  yaml_errors: null,
  user_id: root.id,
  commit_message: 'bench',
  commit_author_name: null,
  commit_author_email: null,
  commit_committed_date: null,
  committed_at: null,
  started_at: at,
  finished_at: null,
  duration: null,
  created_at: at,
  updated_at: at,
});
const buildRow = (name: string): NewCiBuild => ({
  project_id: project.id,
  pipeline_id: pipeline.id,
  type: 'build',
  name,
  stage: 'test',
  stage_idx: 0,
  status: 'running',
  ref: 'master',
  tag: 0,
  commands: 'true',
  options: '{}',
  yaml_variables: '[]',
  tag_list: '[]',
  allow_failure: 0,
  when: 'on_success',
  environment: null,
  token: `bench-build-token-${name}`,
  user_id: root.id,
  trigger_request_id: null,
  started_at: at,
  finished_at: null,
  created_at: at,
  updated_at: at,
});
const [build, small] = await insertBuilds(db, [buildRow('long'), buildRow('short')]);

// Lines as a test run prints them: a coloured command line now and then, numbered output otherwise.
const lines: string[] = [];
let size = 0;
for (let i = 0; size < traceMB * 1024 * 1024; i++) {
  const line =
    i % 20 === 0
      ? `\x1b[32;1m$ ./run-step --index ${i} --verbose\x1b[0;m`
      : `step ${i}: \x1b[36mchecking\x1b[0m module-${i % 97} <ok> & all ${'.'.repeat(40)} done`;
  lines.push(line);
  size += Buffer.byteLength(line) + 1;
}
const trace = `${lines.join('\n')}\n`;
const file = tracePath(dataDir, build!);
await writeTrace(file, Buffer.from(trace));
const base = `/${namespace.path}/traces/builds/${build!.id}`;
await writeTrace(tracePath(dataDir, small!), Buffer.from(lines.slice(0, 12).join('\n') + '\n'));

interface Sample {
  ms: number;
  bytes: number;
}
const summary = (samples: Sample[]) => {
  const times = samples.map((s) => s.ms).sort((a, b) => a - b);
  const bytes = samples.map((s) => s.bytes).sort((a, b) => a - b);
  return {
    p50: times[Math.floor(times.length / 2)]!,
    mean: times.reduce((x, y) => x + y, 0) / times.length,
    bytes: bytes[Math.floor(bytes.length / 2)]!,
  };
};
async function get(url: string): Promise<Sample & { body: string }> {
  const t0 = process.hrtime.bigint();
  const response = await server.app.inject({ method: 'GET', url });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
  return { ms, bytes: response.rawPayload.length, body: response.body };
}

const results: Array<[string, ReturnType<typeof summary>]> = [];
const measure = async (label: string, url: () => string | Promise<string>) => {
  for (let i = 0; i < 5; i++) await get(await url());
  const samples: Sample[] = [];
  for (let i = 0; i < rounds; i++) samples.push(await get(await url()));
  results.push([label, summary(samples)]);
};

const length = Buffer.byteLength(trace);
await measure(
  'build page, 1 KB trace (the fixed part)',
  () => `/${namespace.path}/traces/builds/${small!.id}`,
);
await measure('build page (running, last 256 KB shown)', () => base);
await measure('poll, nothing new', () => `${base}/trace.json?offset=${fs.statSync(file).size}`);
// Each round appends one line (as the runner's PATCH does) and polls from where the page was.
await measure('poll after one new line', async () => {
  const offset = fs.statSync(file).size;
  fs.appendFileSync(file, `step more: \x1b[36mchecking\x1b[0m another line ${'.'.repeat(40)} done\n`);
  return `${base}/trace.json?offset=${offset}&state=`;
});
await measure('poll catching up, one 256 KB piece', () => `${base}/trace.json?offset=0`);
await measure(`raw trace (${(length / 1048576).toFixed(0)} MB)`, () => `${base}/raw`);
const renderSamples: Sample[] = [];
for (let i = 0; i < Math.min(rounds, 5); i++) {
  const t0 = process.hrtime.bigint();
  const html = renderTrace(trace).html.value;
  renderSamples.push({ ms: Number(process.hrtime.bigint() - t0) / 1e6, bytes: Buffer.byteLength(html) });
}
results.push(['(whole trace rendered at once, no HTTP)', summary(renderSamples)]);

console.log(
  `\n${server.deps.db.dialect}, ${(length / 1048576).toFixed(1)} MB trace, ${rounds} rounds (in-process, ms)`,
);
console.log('request'.padEnd(44), 'p50 ms'.padStart(9), 'mean ms'.padStart(9), 'body bytes'.padStart(12));
for (const [label, s] of results) {
  console.log(
    label.padEnd(44),
    s.p50.toFixed(2).padStart(9),
    s.mean.toFixed(2).padStart(9),
    s.bytes.toLocaleString('en').padStart(12),
  );
}
await server.close();
fs.rmSync(dataDir, { recursive: true, force: true });
