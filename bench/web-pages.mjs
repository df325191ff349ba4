// The four pages issue 24 names, beside the API answers that read the same things: the project page, a
// tree of 1,000 entries, a 2,000-line blob and a commit with 100 changed files, each as a signed-in
// browser asks for it (session cookie), on a server started as `npm start` runs it. Per figure: req/s and
// p50 (autocannon, alternating rounds), and the server's CPU per request, git processes included (they
// are its children), which the machine's load distorts far less than req/s.
//
//   npm run build && node bench/web-pages.mjs [--pg <empty database url>] [--root <checkout>]
//        [--rounds R] [--seconds S] [--connections C]
//
// `--root` measures another checkout's build (an A/B against an older commit) on the same content.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, gitEnv, gitRunner } from './git-bench-helpers.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index < 0 ? fallback : args[index + 1];
};
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const root = path.resolve(option('root', here));
const databaseUrl = option('pg');
const ROUNDS = Number(option('rounds', '3'));
const SECONDS = Number(option('seconds', '3'));
const CONNECTIONS = Number(option('connections', '8'));
const PASSWORD = 'bench-password-1234';
const TOKEN = 'bench-root-token';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** CPU ms of a process and of its children that have exited (git), from /proc (USER_HZ = 100). */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
}

const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-web-bench-'));
const git = gitRunner(gitEnv(workdir));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, [path.join(root, 'dist/main.mjs')], {
  cwd: root,
  env: {
    PATH: process.env.PATH,
    HOME: workdir,
    LABRADOR_DATA_DIR: path.join(workdir, 'data'),
    LABRADOR_PORT: String(port),
    LABRADOR_LOG_LEVEL: 'warn',
    LABRADOR_SSH_PORT: '0',
    LABRADOR_ROOT_PASSWORD: PASSWORD,
    LABRADOR_ROOT_TOKEN: TOKEN,
    ...(databaseUrl ? { LABRADOR_DATABASE_URL: databaseUrl } : {}),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function api(method, url, body) {
  const response = await globalThis.fetch(`${base}/api/v3${url}`, {
    method,
    headers: { 'private-token': TOKEN, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status}`);
  return response.json();
}

/** The content: README, 1,000 files in many/, a 2,000-line file, then a commit of 100 files. */
function pushContent(project) {
  const dir = path.join(workdir, 'work');
  git(['init', '-q', '-b', 'master', dir]);
  const write = (name, text) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  };
  const readme = ['# Pages', '', 'A project with [code](src/long.js) and *many* files.', ''];
  for (let i = 0; i < 50; i++) readme.push(`- item ${i}: \`code ${i}\` and a [link](many/file-${i}.txt)`);
  write('README.md', `${readme.join('\n')}\n`);
  const lines = Array.from(
    { length: 2000 },
    (_, i) => `export const value${i} = compute(${i}, "text"); // ${i}`,
  );
  write('src/long.js', `${lines.join('\n')}\n`);
  for (let i = 0; i < 1000; i++) write(`many/file-${String(i).padStart(4, '0')}.txt`, `${i}\n`);
  const commit = (message) => {
    git(['add', '-A'], { cwd: dir });
    git(['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', message], {
      cwd: dir,
    });
  };
  commit('Many files');
  for (let i = 0; i < 100; i++)
    write(`changed/file-${i}.txt`, Array.from({ length: 10 }, (_, j) => `${i}.${j}`).join('\n'));
  commit('A hundred files');
  const url = new URL(`${base}/${project.path_with_namespace}.git`);
  url.username = 'root';
  url.password = PASSWORD;
  git(['push', '-q', url.toString(), 'master'], { cwd: dir });
  return git(['rev-parse', 'HEAD'], { cwd: dir }).trim();
}

/** Signs in through the form, as a browser does; the session cookie. */
async function signIn() {
  const form = await globalThis.fetch(`${base}/users/sign_in`);
  const csrfCookie = form.headers.getSetCookie().map((line) => line.split(';')[0]);
  const token = /<meta name="csrf-token" content="([^"]*)"/.exec(await form.text())[1];
  const response = await globalThis.fetch(`${base}/users/sign_in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie.join('; ') },
    body: new globalThis.URLSearchParams({
      authenticity_token: token,
      'user[login]': 'root',
      'user[password]': PASSWORD,
    }),
  });
  if (response.status !== 302) throw new Error(`sign in: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .filter((pair) => pair.startsWith('_labrador_session='))
    .join('; ');
}

async function cannon(url, headers, amount) {
  const result = await autocannon({
    url,
    headers,
    connections: CONNECTIONS,
    // A loaded machine answers slowly: a late answer is a figure, not an error.
    timeout: 60,
    ...(amount ? { amount } : { duration: SECONDS }),
  });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  return result;
}

try {
  for (let ready = false; !ready;) {
    if (child.exitCode !== null) throw new Error(`labrador exited with ${child.exitCode}`);
    ready = await globalThis
      .fetch(`${base}/api/v3/version`, { headers: { 'private-token': TOKEN } })
      .then((response) => response.status === 200)
      .catch(() => false);
    if (!ready) await sleep(50);
  }
  const project = await api('POST', '/projects', { name: 'pages' });
  const sha = pushContent(project);
  const cookie = await signIn();
  const p = `/${project.path_with_namespace}`;
  const id = project.id;
  const figures = [
    ['project page', p, `/api/v3/projects/${id}`],
    ['tree of 1,000 entries', `${p}/tree/master/many`, `/api/v3/projects/${id}/repository/tree?path=many`],
    [
      '2,000-line blob',
      `${p}/blob/master/src/long.js`,
      `/api/v3/projects/${id}/repository/blobs/master?filepath=src/long.js`,
    ],
    ['commit of 100 files', `${p}/commit/${sha}`, `/api/v3/projects/${id}/repository/commits/${sha}/diff`],
  ];
  const rows = [];
  for (const [name, page, apiPath] of figures) {
    const row = { name };
    for (const [kind, url, headers] of [
      ['page', page, { cookie }],
      ['api', apiPath, { 'private-token': TOKEN }],
    ]) {
      await cannon(`${base}${url}`, headers, 100); // warm: caches of what never changes
      const samples = [];
      for (let round = 0; round < ROUNDS; round++) {
        const before = cpuMs(child.pid);
        const result = await cannon(`${base}${url}`, headers);
        samples.push({
          rps: result.requests.average,
          p50: result.latency.p50,
          cpuUs: ((cpuMs(child.pid) - before) * 1000) / result.requests.total,
        });
      }
      row[kind] = {
        rps: median(samples.map((s) => s.rps)),
        p50: median(samples.map((s) => s.p50)),
        cpuUs: median(samples.map((s) => s.cpuUs)),
      };
    }
    rows.push(row);
    console.error(`${name}: page ${JSON.stringify(row.page)} api ${JSON.stringify(row.api)}`);
  }
  const load = os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' ');
  console.log(
    `engine ${databaseUrl ? 'postgresql' : 'sqlite'}, build of ${root}, load average at the end ${load}`,
  );
  console.log(
    `${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s, medians; CPU includes git processes`,
  );
  console.log('');
  console.log(
    '| page | req/s | p50 ms | CPU µs/req | API beside it | API req/s | API p50 ms | API CPU µs/req |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [i, row] of rows.entries()) {
    const apiPath = figures[i][2].replace(/\/projects\/\d+/, '/projects/:id').replace(/[0-9a-f]{40}/, ':sha');
    console.log(
      `| ${row.name} | ${row.page.rps.toFixed(0)} | ${row.page.p50} | ${row.page.cpuUs.toFixed(0)} | \`GET ${apiPath}\` | ${row.api.rps.toFixed(0)} | ${row.api.p50} | ${row.api.cpuUs.toFixed(0)} |`,
    );
  }
} finally {
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  fs.rmSync(workdir, { recursive: true, force: true });
}
