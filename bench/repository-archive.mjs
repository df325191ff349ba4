// The server's memory while it streams a large repository through the repository API: the archive in
// every format, the raw file and the files API (base64) of its biggest file, and a `git clone` of it.
// The server runs as its own process (bench/git-server.ts) so its RSS is its own. Usage:
//   node bench/repository-archive.mjs [workdir] [MiB=200]
// Prints, per request: bytes received, seconds, and the server's RSS before and its peak during.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { fetch } from 'undici';
import { gitEnv, gitRunner, largeRepo, rssKiB, startGitServer } from './git-bench-helpers.mjs';

const workdir = path.resolve(
  process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-archive-bench-')),
);
const mib = Number(process.argv[3] ?? 200);
fs.mkdirSync(workdir, { recursive: true });
const env = gitEnv(workdir);
const git = gitRunner(env);

const rssMiB = (pid) => rssKiB(pid).rss / 1024;

/** Runs `work` while sampling the server's RSS every 20 ms; the peak and the result. */
async function withPeak(pid, work) {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
  try {
    const result = await work();
    return { ...result, peak: Math.max(peak, rssMiB(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/** Reads a response to the end, counting bytes (never keeping them). */
async function download(url) {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers: { 'private-token': 'bench-token' } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  return { bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const large = path.join(workdir, 'large.git');
if (!fs.existsSync(large)) largeRepo(git, large, mib);
console.log(`large.git: ${spawnSync('du', ['-sh', large]).stdout.toString().trim()}`);

const { server, port } = await startGitServer(path.join(workdir, 'data'), [`large=${large}`]);
const api = `http://127.0.0.1:${port}/api/v3/projects/root%2Flarge/repository`;
const requests = [
  ['archive (tar.gz)', `${api}/archive`],
  ['archive.zip', `${api}/archive.zip`],
  ['archive.tar', `${api}/archive.tar`],
  ['archive.tar.bz2', `${api}/archive.tar.bz2`],
  ['raw file (8 MiB)', `${api}/blobs/master?filepath=blob-0.bin`],
  ['files API (8 MiB, base64)', `${api}/files?file_path=blob-0.bin&ref=master`],
  ['tree', `${api}/tree`],
];
try {
  await download(`${api}/tree`);
  console.log(`\n| request | MiB received | seconds | server RSS before (MiB) | peak during (MiB) |`);
  console.log('|---|---|---|---|---|');
  for (const [name, url] of requests) {
    const before = rssMiB(server.pid);
    const { bytes, seconds, peak } = await withPeak(server.pid, () => download(url));
    console.log(
      `| ${name} | ${(bytes / 1048576).toFixed(1)} | ${seconds.toFixed(2)} | ${before.toFixed(0)} | ${peak.toFixed(0)} |`,
    );
  }
  const before = rssMiB(server.pid);
  const clone = path.join(workdir, 'clone');
  fs.rmSync(clone, { recursive: true, force: true });
  const { peak } = await withPeak(server.pid, async () => {
    const started = process.hrtime.bigint();
    await new Promise((resolve, reject) => {
      const child = spawn(
        'git',
        ['clone', '-q', '--bare', `http://root:bench-password-1234@127.0.0.1:${port}/root/large.git`, clone],
        { env, stdio: 'ignore' },
      );
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`clone exited ${code}`))));
    });
    return { seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  });
  console.log(`| git clone over HTTP | – | – | ${before.toFixed(0)} | ${peak.toFixed(0)} |`);
} finally {
  server.kill('SIGTERM');
}
