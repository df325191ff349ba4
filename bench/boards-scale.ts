// Does a project's board page cost the same with 100,000 issues as with 100? Each project (public, so the
// page is read signed out) has a board with a Backlog, a `Doing` list and Done; a third of its issues carry
// the label, a quarter are closed. Times the board page (every list's first 20 cards and capped counts)
// and a deep page of the Doing list, in-process (Fastify inject: no socket).
// Usage: node --import tsx bench/boards-scale.ts [issues=100000] [requests=100]
// (LABRADOR_DATABASE_URL=postgres://… to run on PostgreSQL, on an empty database.)
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

const bigSize = Number(process.argv[2] ?? 100_000);
const requests = Number(process.argv[3] ?? 100);
const bench = await startBenchServer();
const { dataDir, server, db } = bench;

async function makeProject(name: string): Promise<number> {
  const project = await insertBenchProject(bench, name, 20);
  return project.id;
}

/** `count` issues in statements of 1,000, every third with the label. */
async function seed(projectId: number, labelId: number, count: number): Promise<void> {
  const at = new Date().toISOString();
  await inBatches(bench, count, async (trx, first, size) => {
    const rows = Array.from({ length: size }, (_, k) => seededIssue(bench, projectId, first + k));
    const inserted = await trx.insertInto('issues').values(rows).returning('id').execute();
    const links = inserted
      .filter((_, k) => (first + k) % 3 === 0)
      .map((row) => ({ label_id: labelId, target_type: 'Issue', target_id: row.id, created_at: at }));
    if (links.length > 0) await trx.insertInto('label_links').values(links).execute();
  });
  await raiseInternalId(db, projectId, 'issues', count);
}

const time = (urls: string[]) => timeInTurns(bench, urls, requests, {});

/** The project's label and board with its Backlog, Doing and Done lists, as the API makes them. */
async function makeBoard(projectId: number): Promise<{ labelId: number; boardId: number; doingId: number }> {
  const headers = { 'private-token': 'bench-root-token' };
  const call = async (url: string, payload: Record<string, unknown>) => {
    const r = await server.app.inject({
      method: 'POST',
      url: `/api/v4/projects/${projectId}/${url}`,
      headers,
      payload,
    });
    if (r.statusCode !== 201) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
    return r.json() as { id: number };
  };
  const label = await call('labels', { name: 'Doing', color: '#5CB85C' });
  const board = await call('boards', { name: 'Development' });
  const list = await call(`boards/${board.id}/lists`, { label_id: label.id });
  return { labelId: label.id, boardId: board.id, doingId: list.id };
}

const small = await makeProject('small');
const big = await makeProject('big');
const smallBoard = await makeBoard(small);
const bigBoard = await makeBoard(big);
await seed(small, smallBoard.labelId, 100);
const t0 = Date.now();
await seed(big, bigBoard.labelId, bigSize);
console.log(`seeded ${bigSize} issues in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
if (server.deps.db.dialect === 'postgres') await sql`vacuum analyze`.execute(db);

console.log(
  `\n${server.deps.db.dialect}, ${requests} rounds of sequential in-process requests (p50 / mean ms)`,
);
console.log(
  'page'.padEnd(34),
  '100 issues'.padStart(16),
  `${bigSize} issues`.padStart(18),
  'big ÷ small'.padStart(12),
);
const show = showTiming;
for (const [name, query] of [
  ['board page', (b: typeof smallBoard) => `/root/${b === smallBoard ? 'small' : 'big'}/boards/${b.boardId}`],
  [
    'Doing list, page 2',
    (b: typeof smallBoard) =>
      `/root/${b === smallBoard ? 'small' : 'big'}/boards/${b.boardId}?list_id=${b.doingId}&page=2`,
  ],
] as const) {
  const [one, two] = (await time([query(smallBoard), query(bigBoard)])) as [Timing, Timing];
  console.log(
    name.padEnd(34),
    show(one).padStart(16),
    show(two).padStart(18),
    (two.p50 / one.p50).toFixed(2).padStart(12),
  );
}
await server.close();
if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}`);
else fs.rmSync(dataDir, { recursive: true, force: true });
