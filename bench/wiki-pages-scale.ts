// Do a wiki's pages cost the same with 100,000 pages as with 100? The page list (/wikis/pages, its first
// and its last page), one page, its history, and v4's /projects/:id/wikis (first and last page).
// Usage: node --import tsx bench/wiki-pages-scale.ts [pages=100000] [requests=100]
// Each wiki is written straight into its bare repository with one `git fast-import` (all pages in one
// commit, then 30 edits of the home page), then each URL is timed in-process (Fastify inject: no socket)
// as a visitor of the public project (pages) or the administrator (API).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { insertProject, NEW_PROJECT_SWITCHES } from '../src/db/repositories/projects.ts';
import { findUserNamespace } from '../src/db/repositories/namespaces.ts';
import { findUserByUsername } from '../src/db/repositories/users.ts';
import { initBareRepository, repositoryPath } from '../src/git/repository.ts';

const bigSize = Number(process.argv[2] ?? 100_000);
const requests = Number(process.argv[3] ?? 100);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-bench-'));
const config = loadConfig({
  ...process.env,
  LABRADOR_DATA_DIR: dataDir,
  LABRADOR_ROOT_TOKEN: 'bench-root-token',
  LABRADOR_ROOT_PASSWORD: 'bench-password-1234',
  LABRADOR_LOG_LEVEL: 'warn',
});
const server = await startServer(config, pino({ level: 'warn' }));
const db = server.deps.db.kysely;
const root = (await findUserByUsername(db, 'root'))!;
const namespace = (await findUserNamespace(db, root.id))!;
const EDITS = 30;

async function makeWiki(name: string, pages: number): Promise<number> {
  const at = new Date().toISOString();
  const project = await insertProject(db, {
    namespace_id: namespace.id,
    creator_id: root.id,
    name,
    path: name,
    description: '',
    default_branch: 'master',
    visibility_level: 20,
    ...NEW_PROJECT_SWITCHES,
    archived: 0,
    star_count: 0,
    import_url: null,
    avatar: null,
    runners_token: `runners-${name}`,
    last_activity_at: at,
    created_at: at,
    updated_at: at,
  });
  const repo = repositoryPath(dataDir, namespace.path, name, 'wiki');
  await initBareRepository(dataDir, repo);
  const parts: string[] = [];
  const when = Math.floor(Date.now() / 1000);
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  parts.push(
    'commit refs/heads/master\n',
    `committer Root <root@example.com> ${when} +0000\n`,
    data('Pages'),
  );
  for (let i = 0; i < pages; i++) {
    parts.push(
      `M 100644 inline Page-${String(i).padStart(6, '0')}.md\n`,
      data(`# Page ${i}\n\nSee [[home]].\n`),
    );
  }
  parts.push('M 100644 inline home.md\n', data('Home\n'));
  for (let i = 0; i < EDITS; i++) {
    parts.push('commit refs/heads/master\n', `committer Root <root@example.com> ${when + i + 1} +0000\n`);
    parts.push(data(`Edit ${i}`), 'M 100644 inline home.md\n', data(`Home, edit ${i}\n`));
  }
  const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo, input: parts.join('') });
  if (imported.status !== 0) throw new Error(`fast-import: ${imported.stderr}`);
  return project.id;
}

interface Timing {
  p50: number;
  mean: number;
}

async function time(urls: string[], headers: Record<string, string>): Promise<Timing[]> {
  for (const url of urls) {
    for (let i = 0; i < 10; i++) {
      const r = await server.app.inject({ method: 'GET', url, headers });
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
    }
  }
  const samples: number[][] = urls.map(() => []);
  for (let i = 0; i < requests; i++) {
    for (const [index, url] of urls.entries()) {
      const t0 = process.hrtime.bigint();
      await server.app.inject({ method: 'GET', url, headers });
      samples[index]!.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return samples.map((list) => {
    list.sort((x, y) => x - y);
    return { p50: list[Math.floor(list.length / 2)]!, mean: list.reduce((x, y) => x + y, 0) / list.length };
  });
}

const smallId = await makeWiki('small', 100);
const t0 = Date.now();
const bigId = await makeWiki('big', bigSize);
console.log(`wrote a wiki of ${bigSize} pages in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

// The first read of each tip lists its tree once (kept per commit); what follows is the steady state.
for (const [label, id] of [
  ['small', smallId],
  ['big', bigId],
] as const) {
  const t1 = process.hrtime.bigint();
  const r = await server.app.inject({ method: 'GET', url: `/${namespace.path}/${label}/wikis/pages` });
  if (r.statusCode !== 200) throw new Error(`first read ${label} (${id}): ${r.statusCode}`);
  console.log(
    `first read of /wikis/pages, ${label}: ${(Number(process.hrtime.bigint() - t1) / 1e6).toFixed(1)} ms`,
  );
}

const show = (timing: Timing) => `${timing.p50.toFixed(2)} / ${timing.mean.toFixed(2)}`;
console.log(
  `\n${server.deps.db.dialect}, ${requests} rounds of sequential in-process requests (p50 / mean ms)`,
);
console.log('url'.padEnd(36), '100'.padStart(14), `${bigSize}`.padStart(14), 'big ÷ small'.padStart(12));
const lastWebPage = Math.ceil((bigSize + 1) / 20);
const lastApiPage = Math.ceil((bigSize + 1) / 20);
const rows: Array<[string, string, string, Record<string, string>]> = [
  ['wikis/pages', `/${namespace.path}/small/wikis/pages`, `/${namespace.path}/big/wikis/pages`, {}],
  [
    'wikis/pages (last page)',
    `/${namespace.path}/small/wikis/pages?page=${Math.ceil(101 / 20)}`,
    `/${namespace.path}/big/wikis/pages?page=${lastWebPage}`,
    {},
  ],
  ['wikis/home', `/${namespace.path}/small/wikis/home`, `/${namespace.path}/big/wikis/home`, {}],
  [
    'wikis/Page-000050',
    `/${namespace.path}/small/wikis/Page-000050`,
    `/${namespace.path}/big/wikis/Page-000050`,
    {},
  ],
  [
    'v4 /wikis',
    `/api/v4/projects/${smallId}/wikis`,
    `/api/v4/projects/${bigId}/wikis`,
    { 'private-token': 'bench-root-token' },
  ],
  [
    'v4 /wikis (last page)',
    `/api/v4/projects/${smallId}/wikis?page=${Math.ceil(101 / 20)}`,
    `/api/v4/projects/${bigId}/wikis?page=${lastApiPage}`,
    { 'private-token': 'bench-root-token' },
  ],
];
for (const [label, small, big, headers] of rows) {
  const [a, b] = await time([small, big], headers);
  console.log(
    label.padEnd(36),
    show(a!).padStart(14),
    show(b!).padStart(14),
    (b!.p50 / a!.p50).toFixed(2).padStart(12),
  );
}
await server.close();
if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}`);
else fs.rmSync(dataDir, { recursive: true, force: true });
