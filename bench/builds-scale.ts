// Do GET /projects/:id/builds (the default page of 20, and per_page=100) and GET /projects/:id/pipelines
// cost the same on a project with 1,000,000 builds as on one with 100, on page 1 and on page 201?
// Usage: node --import tsx bench/builds-scale.ts [builds=1000000] [requests=200] [api=v3|v4]
// (v4 times /jobs, /jobs?per_page=100 and /pipelines, the same lists in v4's entities)
// (LABRADOR_DATABASE_URL=postgres://… to run on PostgreSQL, on an empty database.) Seeds both projects in
// bulk through the database layer (five builds per pipeline, all on the repository's one commit), then
// times each list in-process (Fastify inject: no socket) as an administrator.
import fs from 'node:fs';
import { sql } from 'kysely';
import { initBareRepository, repositoryPath } from '../src/git/repository.ts';
import { git } from '../src/git/exec.ts';
import type { CiStatus } from '../src/domain/types.ts';
import { startBenchServer, insertBenchProject, timeInTurns, showTiming, type Timing } from './in-process.ts';

const bigSize = Number(process.argv[2] ?? 1_000_000);
const requests = Number(process.argv[3] ?? 200);
const api = process.argv[4] === 'v4' ? 'v4' : 'v3';
// Five builds per pipeline: the small project then has 20 pipelines, a full first page of pipelines.
const BUILDS_PER_PIPELINE = 5;
const bench = await startBenchServer();
const { dataDir, server, db, root, namespace } = bench;

async function makeProject(name: string): Promise<{ id: number; sha: string }> {
  const project = await insertBenchProject(bench, name, 0);
  const repo = repositoryPath(dataDir, namespace.path, name);
  await initBareRepository(dataDir, repo);
  const blob = (await git(['hash-object', '-w', '--stdin'], { cwd: repo, input: 'bench\n' })).trim();
  const tree = (await git(['mktree'], { cwd: repo, input: `100644 blob ${blob}\tREADME\n` })).trim();
  const env = {
    GIT_AUTHOR_NAME: 'B',
    GIT_AUTHOR_EMAIL: 'b@example.com',
    GIT_COMMITTER_NAME: 'B',
    GIT_COMMITTER_EMAIL: 'b@example.com',
  };
  const sha = (await git(['commit-tree', tree, '-m', 'bench'], { cwd: repo, env })).trim();
  await git(['update-ref', 'refs/heads/master', sha], { cwd: repo });
  return { id: project.id, sha };
}

const STATUSES: CiStatus[] = ['success', 'success', 'success', 'failed', 'canceled'];

/** `count` builds in pipelines of ten, inserted in large multi-row statements inside few transactions. */
async function seed(project: { id: number; sha: string }, count: number): Promise<void> {
  const pipelinesPerBatch = 100;
  const at = new Date().toISOString();
  for (let done = 0; done < count;) {
    await db.transaction().execute(async (trx) => {
      for (let round = 0; round < 20 && done < count; round += 1) {
        const pipelineCount = Math.min(pipelinesPerBatch, Math.ceil((count - done) / BUILDS_PER_PIPELINE));
        const pipelines = await trx
          .insertInto('ci_pipelines')
          .values(
            Array.from({ length: pipelineCount }, (_, k) => ({
              project_id: project.id,
              ref: 'master',
              sha: project.sha,
              tag: 0 as const,
              status: STATUSES[(done / BUILDS_PER_PIPELINE + k) % STATUSES.length]!,
              user_id: root.id,
              started_at: at,
              finished_at: at,
              duration: 10,
              created_at: at,
              updated_at: at,
            })),
          )
          .returning('id')
          .execute();
        const builds = pipelines
          .flatMap((pipeline, k) =>
            Array.from(
              { length: Math.min(BUILDS_PER_PIPELINE, count - done - k * BUILDS_PER_PIPELINE) },
              (_, n) => ({
                project_id: project.id,
                pipeline_id: pipeline.id,
                type: 'build' as const,
                name: `job${n}`,
                stage: 'test',
                stage_idx: 0,
                status: STATUSES[(k + n) % STATUSES.length]!,
                ref: 'master',
                tag: 0 as const,
                commands: 'make',
                tag_list: '[]',
                allow_failure: 0 as const,
                when: 'on_success' as const,
                user_id: root.id,
                started_at: at,
                finished_at: at,
                created_at: at,
                updated_at: at,
              }),
            ),
          )
          .filter((_, index) => index < count - done);
        await trx.insertInto('ci_builds').values(builds).execute();
        done += builds.length;
      }
    });
  }
}

const time = (urls: string[]) => timeInTurns(bench, urls, requests);

const small = await makeProject('small');
const big = await makeProject('big');
await seed(small, 100);
const t0 = Date.now();
await seed(big, bigSize);
console.log(`seeded ${bigSize} builds in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
if (server.deps.db.dialect === 'postgres') await sql`vacuum analyze`.execute(db);

console.log(
  `\n${server.deps.db.dialect}, ${requests} rounds of sequential in-process requests (p50 / mean ms)`,
);
console.log(
  'list'.padEnd(30),
  '100 builds'.padStart(16),
  `${bigSize} builds`.padStart(18),
  'big ÷ small'.padStart(12),
  'big ÷ small page 1'.padStart(19),
);
const show = showTiming;
const builds = api === 'v4' ? 'jobs' : 'builds';
for (const kind of [builds, `${builds}?per_page=100`, 'pipelines']) {
  const deep = `${kind}${kind.includes('?') ? '&' : '?'}page=201`;
  const urls = [kind, kind, deep, deep].map(
    (list, index) => `/api/${api}/projects/${index % 2 ? big.id : small.id}/${list}`,
  );
  const [small1, big1, small201, big201] = (await time(urls)) as [Timing, Timing, Timing, Timing];
  console.log(
    kind.padEnd(30),
    show(small1).padStart(16),
    show(big1).padStart(18),
    (big1.p50 / small1.p50).toFixed(2).padStart(12),
  );
  console.log(
    deep.padEnd(30),
    show(small201).padStart(16),
    show(big201).padStart(18),
    (big201.p50 / small201.p50).toFixed(2).padStart(12),
    (big201.p50 / small1.p50).toFixed(2).padStart(19),
  );
}
await server.close();
if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}`);
else fs.rmSync(dataDir, { recursive: true, force: true });
