// Does a project's snippet list cost the same with 100,000 snippets as with 100? Two public projects of
// root's, one with 100 snippets, one with 100,000 (a third each private, internal, public; the newest public);
// times the snippets page signed out (public ones only: the newest 20 on the (project_id, id) index with
// the visibility checked on the way), a deep page of it, the v4 API list as root (every snippet), and one
// snippet's page, in-process (Fastify inject: no socket).
// Usage: node --import tsx bench/snippets-scale.ts [snippets=100000] [requests=100]
// (LABRADOR_DATABASE_URL=postgres://… to run on PostgreSQL, on an empty database.)
import fs from 'node:fs';
import { sql } from 'kysely';
import {
  startBenchServer,
  insertBenchProject,
  timeInTurns,
  showTiming,
  ROOT_TOKEN,
  type Timing,
} from './in-process.ts';

const bigSize = Number(process.argv[2] ?? 100_000);
const requests = Number(process.argv[3] ?? 100);
const ROOT = { 'private-token': ROOT_TOKEN };
const bench = await startBenchServer();
const { dataDir, server, db, root } = bench;

async function makeProject(name: string): Promise<number> {
  const project = await insertBenchProject(bench, name, 20);
  return project.id;
}

/** `count` snippets in multi-row statements of 1,000, 20 statements per transaction. */
async function seed(projectId: number, count: number): Promise<number> {
  const start = Date.parse('2016-01-01T00:00:00Z');
  let last = 0;
  for (let done = 0; done < count;) {
    await db.transaction().execute(async (trx) => {
      for (let round = 0; round < 20 && done < count; round += 1) {
        const rows = Array.from({ length: Math.min(1000, count - done) }, (_, k) => {
          const n = done + k;
          const at = new Date(start + n * 1000).toISOString();
          return {
            title: `Snippet ${n + 1}`,
            content: `def snippet_${n}\n  puts ${n}\nend\n`,
            description: null,
            author_id: root.id,
            project_id: projectId,
            file_name: 'snippet.rb',
            type: 'ProjectSnippet' as const,
            // The newest is public, the one before internal, the one before that private, and so on.
            visibility_level: 20 - ((count - 1 - n) % 3) * 10,
            created_at: at,
            updated_at: at,
          };
        });
        const inserted = await trx.insertInto('snippets').values(rows).returning('id').execute();
        last = inserted[inserted.length - 1]!.id;
        done += rows.length;
      }
    });
  }
  return last;
}

const small = await makeProject('small');
const big = await makeProject('big');
const smallLast = await seed(small, 100);
const t0 = Date.now();
const bigLast = await seed(big, bigSize);
console.log(`seeded ${bigSize} snippets in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
if (server.deps.db.dialect === 'postgres') await sql`vacuum analyze`.execute(db);

console.log(
  `\n${server.deps.db.dialect}, ${requests} rounds of sequential in-process requests (p50 / mean ms)`,
);
console.log(
  'list'.padEnd(34),
  '100 snippets'.padStart(16),
  `${bigSize} snippets`.padStart(18),
  'big ÷ small'.padStart(12),
);
const cases: Array<[string, (p: 'small' | 'big') => string, Record<string, string>]> = [
  ['snippets page (signed out)', (p) => `/root/${p}/snippets`, {}],
  ['snippets page 2 (signed out)', (p) => `/root/${p}/snippets?page=2`, {}],
  [
    'v4 project snippets (root)',
    (p) => `/api/v4/projects/${p === 'small' ? small : big}/snippets?per_page=20`,
    ROOT,
  ],
  [
    'v4 project snippets, page 5 (root)',
    (p) => `/api/v4/projects/${p === 'small' ? small : big}/snippets?per_page=20&page=5`,
    ROOT,
  ],
  [
    'one snippet page (newest, public)',
    (p) => `/root/${p}/snippets/${p === 'small' ? smallLast : bigLast}`,
    {},
  ],
];
for (const [name, url, headers] of cases) {
  const [one, two] = (await timeInTurns(bench, [url('small'), url('big')], requests, headers)) as [
    Timing,
    Timing,
  ];
  console.log(
    name.padEnd(34),
    showTiming(one).padStart(16),
    showTiming(two).padStart(18),
    (two.p50 / one.p50).toFixed(2).padStart(12),
  );
}
await server.close();
if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}`);
else fs.rmSync(dataDir, { recursive: true, force: true });
