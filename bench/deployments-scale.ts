// Do a project's deployment and environment lists cost the same with 100,000 deployments as with 100, on
// page 1 and page 201, in each order v4 takes, filtered by status and by environment? And one environment
// with its last deployment?
// Usage: node --import tsx bench/deployments-scale.ts [deployments=100000] [requests=200]
// (LABRADOR_DATABASE_URL=postgres://… to run on PostgreSQL, on an empty database.) Seeds both projects in
// bulk through the database layer (two environments each, every deployment by one job of one pipeline, a
// tenth of them failed), then times each list in-process (Fastify inject: no socket) as an administrator.
import fs from 'node:fs';
import { sql } from 'kysely';
import { raiseInternalId } from '../src/db/repositories/issues.ts';
import { insertPipeline } from '../src/db/repositories/pipelines.ts';
import { insertBuilds } from '../src/db/repositories/builds.ts';
import { startBenchServer, insertBenchProject, timeInTurns, showTiming, type Timing } from './in-process.ts';

const bigSize = Number(process.argv[2] ?? 100_000);
const requests = Number(process.argv[3] ?? 200);
const bench = await startBenchServer();
const { dataDir, server, db, root } = bench;
const SHA = '0123456789abcdef0123456789abcdef01234567';

/** A project, its pipeline and deploying job, and two environments; answers their ids. */
async function makeProject(name: string) {
  const at = new Date().toISOString();
  const project = await insertBenchProject(bench, name, 0);
  const pipeline = await insertPipeline(db, {
    project_id: project.id,
    ref: 'master',
    sha: SHA,
    before_sha: null,
    tag: 0,
    status: 'success',
    yaml_errors: null,
    user_id: root.id,
    commit_message: 'Deploy',
    commit_author_name: null,
    commit_author_email: null,
    commit_committed_date: null,
    committed_at: null,
    started_at: at,
    finished_at: at,
    duration: 1,
    created_at: at,
    updated_at: at,
  });
  const [build] = await insertBuilds(db, [
    {
      project_id: project.id,
      pipeline_id: pipeline.id,
      type: 'build',
      name: 'deploy',
      stage: 'deploy',
      stage_idx: 0,
      status: 'success',
      ref: 'master',
      tag: 0,
      commands: 'true',
      options: '{"environment":{"name":"production","action":"start"}}',
      yaml_variables: '[]',
      tag_list: '[]',
      allow_failure: 0,
      when: 'on_success',
      environment: 'production',
      token: `token-${name}`,
      user_id: root.id,
      trigger_request_id: null,
      started_at: at,
      finished_at: at,
      created_at: at,
      updated_at: at,
    },
  ]);
  const environments = [];
  for (const env of ['production', 'staging']) {
    const row = await db
      .insertInto('environments')
      .values({
        project_id: project.id,
        name: env,
        slug: env,
        external_url: null,
        environment_type: null,
        tier: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    environments.push(row.id);
  }
  return { projectId: project.id, buildId: build!.id, environments };
}

/** `count` deployments in multi-row statements of 1,000, alternating environments, iids in order. */
async function seed(target: Awaited<ReturnType<typeof makeProject>>, count: number): Promise<void> {
  const start = Date.parse('2016-01-01T00:00:00Z');
  for (let done = 0; done < count;) {
    await db.transaction().execute(async (trx) => {
      for (let round = 0; round < 20 && done < count; round += 1) {
        const rows = Array.from({ length: Math.min(1000, count - done) }, (_, k) => {
          const n = done + k;
          const at = new Date(start + n * 1000).toISOString();
          return {
            project_id: target.projectId,
            environment_id: target.environments[n % 2]!,
            iid: n + 1,
            ref: n % 3 === 0 ? 'master' : `topic-${n % 50}`,
            tag: 0 as const,
            sha: SHA,
            user_id: root.id,
            deployable_id: target.buildId,
            on_stop: null,
            status: n % 10 === 9 ? 'failed' : 'success',
            created_at: at,
            updated_at: at,
          };
        });
        await trx.insertInto('deployments').values(rows).execute();
        done += rows.length;
      }
    });
  }
  await raiseInternalId(db, target.projectId, 'deployments', count);
}

const time = (urls: string[]) => timeInTurns(bench, urls, requests);

const small = await makeProject('small');
const big = await makeProject('big');
await seed(small, 100);
const t0 = Date.now();
await seed(big, bigSize);
console.log(`seeded ${bigSize} deployments in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
if (server.deps.db.dialect === 'postgres') await sql`vacuum analyze`.execute(db);

console.log(
  `\n${server.deps.db.dialect}, ${requests} rounds of sequential in-process requests (p50 / mean ms)`,
);
console.log('list'.padEnd(44), '100'.padStart(14), `${bigSize}`.padStart(14), 'big ÷ small'.padStart(12));
const show = showTiming;
const lists = [
  ['v3', 'deployments'],
  ['v4', 'deployments'],
  ['v4', 'deployments?order_by=iid&sort=desc'],
  ['v4', 'deployments?order_by=created_at&sort=desc'],
  ['v4', 'deployments?order_by=updated_at'],
  ['v4', 'deployments?order_by=ref'],
  ['v4', 'deployments?status=failed'],
  ['v4', 'deployments?environment=staging'],
];
for (const [version, kind] of lists as [string, string][]) {
  // Page 201 of the small project does not exist: both sides of the deep row are the big project's page 1
  // against its page 201 (20 per page), so the ratio is depth's cost.
  const deep = `${kind}${kind.includes('?') ? '&' : '?'}page=201`;
  const [small1, big1, big201] = (await time([
    `/api/${version}/projects/${small.projectId}/${kind}`,
    `/api/${version}/projects/${big.projectId}/${kind}`,
    `/api/${version}/projects/${big.projectId}/${deep}`,
  ])) as [Timing, Timing, Timing];
  console.log(
    `${version} ${kind}`.padEnd(44),
    show(small1).padStart(14),
    show(big1).padStart(14),
    (big1.p50 / small1.p50).toFixed(2).padStart(12),
  );
  console.log(
    `${version} ${deep} (big: page 201 ÷ page 1)`.padEnd(44),
    ''.padStart(14),
    show(big201).padStart(14),
    (big201.p50 / big1.p50).toFixed(2).padStart(12),
  );
}
for (const [label, suffix] of [
  ['v4 environments', 'environments'],
  ['v4 environments/:id', `environments/`],
]) {
  const [a, b] = await time([
    `/api/v4/projects/${small.projectId}/${suffix}${suffix.endsWith('/') ? small.environments[0] : ''}`,
    `/api/v4/projects/${big.projectId}/${suffix}${suffix.endsWith('/') ? big.environments[0] : ''}`,
  ]);
  console.log(
    label.padEnd(44),
    show(a!).padStart(14),
    show(b!).padStart(14),
    (b!.p50 / a!.p50).toFixed(2).padStart(12),
  );
}
await server.close();
if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}`);
else fs.rmSync(dataDir, { recursive: true, force: true });
