// Does GET /projects/:id/issues cost the same on a project with 1,000,000 issues as on one with 100, on
// page 1 and on page 201, whole and filtered to open issues? And v4's lists of issues and merge requests
// (as many MRs as issues, seeded alike), and one of each by iid (on the (project_id, iid) index)?
// Usage: node --import tsx bench/issues-scale.ts [issues=1000000] [requests=200]
// (LABRADOR_DATABASE_URL=postgres://… to run on PostgreSQL, on an empty database.) Seeds both projects in
// bulk through the database layer (a quarter of the issues closed, iids in order, the project's iid
// counter raised to match), then times each list in-process (Fastify inject: no socket) as an
// administrator, so every confidential issue is visible and X-Total comes from the kept counts.
import fs from 'node:fs';
import { sql } from 'kysely';
import { raiseInternalId } from '../src/db/repositories/issues.ts';
import {
  startBenchServer,
  insertBenchProject,
  timeInTurns,
  showTiming,
  type Timing,
  inBatches,
  seededIssue,
} from './in-process.ts';

const bigSize = Number(process.argv[2] ?? 1_000_000);
const requests = Number(process.argv[3] ?? 200);
const bench = await startBenchServer();
const { dataDir, server, db, root } = bench;

async function makeProject(name: string): Promise<number> {
  const project = await insertBenchProject(bench, name, 0);
  return project.id;
}

/** `count` issues, in statements of 1,000. */
async function seed(projectId: number, count: number): Promise<void> {
  await inBatches(bench, count, async (trx, first, size) => {
    const rows = Array.from({ length: size }, (_, k) => seededIssue(bench, projectId, first + k));
    await trx.insertInto('issues').values(rows).execute();
  });
  await raiseInternalId(db, projectId, 'issues', count);
}

/** `count` merge requests (master ← topic-n), in statements of 1,000 as the issues. */
async function seedMergeRequests(projectId: number, count: number): Promise<void> {
  const start = Date.parse('2016-01-01T00:00:00Z');
  for (let done = 0; done < count;) {
    await db.transaction().execute(async (trx) => {
      for (let round = 0; round < 20 && done < count; round += 1) {
        const rows = Array.from({ length: Math.min(1000, count - done) }, (_, k) => {
          const n = done + k;
          const at = new Date(start + n * 1000).toISOString();
          return {
            iid: n + 1,
            target_project_id: projectId,
            target_branch: 'master',
            source_project_id: projectId,
            source_branch: `topic-${n + 1}`,
            author_id: root.id,
            assignee_id: null,
            updated_by_id: null,
            merge_user_id: null,
            milestone_id: null,
            title: `MR ${n + 1}`,
            description: 'Seeded',
            state: n % 4 === 3 ? ('merged' as const) : ('opened' as const),
            merge_status: 'unchecked' as const,
            merge_params: null,
            head_sha: null,
            merge_commit_sha: null,
            in_progress_merge_commit_sha: null,
            merge_error: null,
            locked_at: null,
            deleted_at: null,
            created_at: at,
            updated_at: at,
          };
        });
        await trx.insertInto('merge_requests').values(rows).execute();
        done += rows.length;
      }
    });
  }
  await raiseInternalId(db, projectId, 'merge_requests', count);
}

const time = (urls: string[]) => timeInTurns(bench, urls, requests);

const small = await makeProject('small');
const big = await makeProject('big');
await seed(small, 100);
await seedMergeRequests(small, 100);
const t0 = Date.now();
await seed(big, bigSize);
await seedMergeRequests(big, bigSize);
console.log(`seeded ${bigSize} issues and MRs in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
if (server.deps.db.dialect === 'postgres') await sql`vacuum analyze`.execute(db);

console.log(
  `\n${server.deps.db.dialect}, ${requests} rounds of sequential in-process requests (p50 / mean ms)`,
);
console.log(
  'list'.padEnd(34),
  '100 issues'.padStart(16),
  `${bigSize} issues`.padStart(18),
  'big ÷ small'.padStart(12),
  'big ÷ small page 1'.padStart(19),
);
const show = showTiming;
const lists = [
  ['v3', 'issues'],
  ['v3', 'issues?state=opened'],
  ['v3', 'issues?order_by=updated_at&sort=asc'],
  ['v4', 'issues'],
  ['v4', 'issues?state=opened&order_by=updated_at'],
  ['v4', 'merge_requests'],
  ['v4', 'merge_requests?state=opened'],
  ['v4', 'merge_requests?source_branch=topic-50'],
];
for (const [version, kind] of lists as [string, string][]) {
  const deep = `${kind}${kind.includes('?') ? '&' : '?'}page=201`;
  const urls = [kind, kind, deep, deep].map(
    (list, index) => `/api/${version}/projects/${index % 2 ? big : small}/${list}`,
  );
  const [small1, big1, small201, big201] = (await time(urls)) as [Timing, Timing, Timing, Timing];
  console.log(
    `${version} ${kind}`.padEnd(34),
    show(small1).padStart(16),
    show(big1).padStart(18),
    (big1.p50 / small1.p50).toFixed(2).padStart(12),
  );
  console.log(
    `${version} ${deep}`.padEnd(34),
    show(small201).padStart(16),
    show(big201).padStart(18),
    (big201.p50 / small201.p50).toFixed(2).padStart(12),
    (big201.p50 / small1.p50).toFixed(2).padStart(19),
  );
}
// One by iid: the 50th of the small project, the middle one of the big.
for (const kind of ['issues', 'merge_requests']) {
  const [one, middle] = await time([
    `/api/v4/projects/${small}/${kind}/50`,
    `/api/v4/projects/${big}/${kind}/${Math.ceil(bigSize / 2)}`,
  ]);
  console.log(
    `v4 ${kind}/:iid`.padEnd(34),
    show(one!).padStart(16),
    show(middle!).padStart(18),
    (middle!.p50 / one!.p50).toFixed(2).padStart(12),
  );
}
await server.close();
if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}`);
else fs.rmSync(dataDir, { recursive: true, force: true });
