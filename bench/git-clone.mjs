// Clone over Labrador's smart HTTP against `git clone` of the same repository from disk (file://, the
// same pack protocol without HTTP), alternating in one run; then the server's memory while a large pack
// is cloned. Usage:
//   node bench/git-clone.mjs [workdir] [rounds=5] [commits=5000] [large-MiB=256]
// Prints a summary table; the server runs as its own process (bench/git-server.ts) so its RSS is its own.
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { gitEnv, gitRunner, largeRepo, rssKiB, startGitServer } from './git-bench-helpers.mjs';

const workdir = path.resolve(
  process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-git-bench-')),
);
const rounds = Number(process.argv[3] ?? 5);
const commits = Number(process.argv[4] ?? 5000);
const largeMiB = Number(process.argv[5] ?? 256);
fs.mkdirSync(workdir, { recursive: true });
const env = gitEnv(workdir);
const git = gitRunner(env);

/** A bare repository of `count` commits (each edits a few files) built with git fast-import. */
function historyRepo(dir, count) {
  git(['init', '-q', '--bare', dir]);
  const lines = [];
  for (let i = 1; i <= count; i++) {
    const file = `src/file-${i % 200}.txt`;
    const content = `revision ${i}\n${crypto.randomBytes(300).toString('base64')}\n`;
    const message = `Commit number ${i}\n`;
    const when = 1450972274 + i * 60;
    lines.push(
      `commit refs/heads/master`,
      `committer Bench <bench@example.com> ${when} +0100`,
      `data ${Buffer.byteLength(message)}`,
      message,
      `M 100644 inline ${file}`,
      `data ${Buffer.byteLength(content)}`,
      content,
    );
  }
  git(['fast-import', '--quiet'], { cwd: dir, input: lines.filter((l) => l !== '').join('\n') + '\n' });
}

function timeGit(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('git', args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git ${args.join(' ')}: ${stderr}`));
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const du = (dir) => Number(spawnSync('du', ['-sk', dir]).stdout.toString().split('\t')[0]);

console.log(`workdir ${workdir}`);
const history = path.join(workdir, 'history.git');
const large = path.join(workdir, 'large.git');
if (!fs.existsSync(history)) historyRepo(history, commits);
if (!fs.existsSync(large)) largeRepo(git, large, largeMiB);
git(['gc', '-q', '--aggressive'], { cwd: history });
console.log(
  `history.git: ${git(['rev-list', '--count', 'master'], { cwd: history }).trim()} commits, ${du(history)} KiB`,
);
console.log(`large.git: ${du(large)} KiB`);

// `protected` is history again, with master protected: its pushes run the pre-receive hook.
const { server, port } = await startGitServer(
  path.join(workdir, 'data'),
  [`history=${history}`, `large=${large}`, `protected=${history}`],
  { BENCH_PROTECT: 'protected' },
);
const base = `http://root:bench-password-1234@127.0.0.1:${port}/root`;

try {
  const http = [];
  const disk = [];
  const target = (name) => path.join(workdir, `clone-${name}`);
  // Warm-up (page cache, password cache) before the measured rounds.
  await timeGit(['clone', '-q', '--bare', `${base}/history.git`, target('warm')]);
  fs.rmSync(target('warm'), { recursive: true, force: true });
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['http', 'disk'] : ['disk', 'http'];
    for (const kind of order) {
      const dir = target(kind);
      fs.rmSync(dir, { recursive: true, force: true });
      if (kind === 'http') http.push(await timeGit(['clone', '-q', '--bare', `${base}/history.git`, dir]));
      else disk.push(await timeGit(['clone', '-q', '--bare', `file://${history}`, dir]));
    }
  }
  const ratios = http.map((ms, i) => ms / disk[i]);
  console.log(`\nclone of ${commits} commits, ${rounds} rounds (median ms):`);
  console.log(`  Labrador HTTP  ${median(http).toFixed(0)}   [${http.map((v) => v.toFixed(0)).join(', ')}]`);
  console.log(`  file:// (disk) ${median(disk).toFixed(0)}   [${disk.map((v) => v.toFixed(0)).join(', ')}]`);
  console.log(`  ratio HTTP/disk (median of per-round ratios) ${median(ratios).toFixed(2)}`);

  // Per-request overhead: ls-remote.
  const lsHttp = [];
  const lsDisk = [];
  for (let round = 0; round < rounds * 2; round++) {
    const order = round % 2 === 0 ? ['http', 'disk'] : ['disk', 'http'];
    for (const kind of order) {
      if (kind === 'http') lsHttp.push(await timeGit(['ls-remote', `${base}/history.git`]));
      else lsDisk.push(await timeGit(['ls-remote', `file://${history}`]));
    }
  }
  const lsRatios = lsHttp.map((ms, i) => ms / lsDisk[i]);
  console.log(
    `\nls-remote (median ms): HTTP ${median(lsHttp).toFixed(1)}, file:// ${median(lsDisk).toFixed(1)}, ratio ${median(lsRatios).toFixed(2)}`,
  );

  // Push of 100 new commits as a new branch (HTTP includes Labrador's push processing: events, payloads).
  const diskTarget = path.join(workdir, 'disk-target.git');
  fs.rmSync(diskTarget, { recursive: true, force: true });
  git(['clone', '-q', '--bare', history, diskTarget]);
  const local = path.join(workdir, 'push-work');
  fs.rmSync(local, { recursive: true, force: true });
  git(['clone', '-q', history, local]);
  const pushHttp = [];
  const pushDisk = [];
  const pushHooked = [];
  for (let round = 0; round < rounds; round++) {
    git(['checkout', '-q', '-B', `push-${round}`, 'origin/master'], { cwd: local });
    const who = ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com'];
    for (let i = 0; i < 100; i++) {
      fs.writeFileSync(path.join(local, `push-${i % 10}.txt`), `${round} ${i} ${crypto.randomUUID()}\n`);
      git(['add', '-A'], { cwd: local });
      git([...who, 'commit', '-q', '-m', `push ${round} ${i}`], { cwd: local });
    }
    const order = round % 2 === 0 ? ['http', 'hooked', 'disk'] : ['disk', 'hooked', 'http'];
    const remotes = {
      http: [`${base}/history.git`, pushHttp],
      hooked: [`${base}/protected.git`, pushHooked],
      disk: [`file://${diskTarget}`, pushDisk],
    };
    for (const kind of order) {
      const [remote, times] = remotes[kind];
      times.push(await timeGit(['-C', local, 'push', '-q', remote, `push-${round}`]));
    }
  }
  const pushRatios = pushHttp.map((ms, i) => ms / pushDisk[i]);
  const hookedRatios = pushHooked.map((ms, i) => ms / pushDisk[i]);
  console.log(
    `push of 100 commits (median ms): HTTP ${median(pushHttp).toFixed(0)}, file:// ${median(pushDisk).toFixed(0)}, ratio ${median(pushRatios).toFixed(2)}`,
  );
  console.log(
    `  the same into a project with a protected master (pre-receive hook runs): HTTP ${median(pushHooked).toFixed(0)} ms, ratio ${median(hookedRatios).toFixed(2)}`,
  );

  const before = rssKiB(server.pid);
  let peak = before.rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssKiB(server.pid).rss);
  }, 20);
  const dir = target('large');
  fs.rmSync(dir, { recursive: true, force: true });
  const largeMs = await timeGit(['clone', '-q', '--bare', `${base}/large.git`, dir]);
  clearInterval(timer);
  const afterClone = rssKiB(server.pid);
  console.log(`\nclone of large.git (${du(large)} KiB pack) over HTTP: ${largeMs.toFixed(0)} ms`);
  console.log(
    `  server RSS: before ${(before.rss / 1024).toFixed(1)} MiB, peak during clone ${(peak / 1024).toFixed(1)} MiB ` +
      `(sampled every 20 ms), VmHWM ${(afterClone.hwm / 1024).toFixed(1)} MiB`,
  );
} finally {
  server.kill('SIGTERM');
}
