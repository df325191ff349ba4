// Clone over Labrador's built-in SSH server against the same clone over smart HTTP and from disk
// (file://), alternating in one run, and the cost of an SSH connection (handshake, public-key
// authentication, one command). Usage:
//   node bench/ssh-clone.mjs [workdir] [rounds=5] [commits=5000]
// The server runs as its own process (bench/git-server.ts); the client is the system's ssh and git.
import { Buffer } from 'node:buffer';
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, gitEnv, gitRunner, startGitServer } from './git-bench-helpers.mjs';

const workdir = path.resolve(
  process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-ssh-bench-')),
);
const rounds = Number(process.argv[3] ?? 5);
const commits = Number(process.argv[4] ?? 5000);
fs.mkdirSync(workdir, { recursive: true });
const git = gitRunner(gitEnv(workdir));

/** A bare repository of `count` commits (each edits one of 200 files) built with git fast-import. */
function historyRepo(dir, count) {
  git(['init', '-q', '--bare', dir]);
  const lines = [];
  for (let i = 1; i <= count; i++) {
    const content = `revision ${i}\n${crypto.randomBytes(300).toString('base64')}\n`;
    const message = `Commit number ${i}\n`;
    lines.push(
      `commit refs/heads/master`,
      `committer Bench <bench@example.com> ${1450972274 + i * 60} +0100`,
      `data ${Buffer.byteLength(message)}`,
      message,
      `M 100644 inline src/file-${i % 200}.txt`,
      `data ${Buffer.byteLength(content)}`,
      content,
    );
  }
  git(['fast-import', '--quiet'], { cwd: dir, input: lines.filter((l) => l !== '').join('\n') + '\n' });
  git(['gc', '-q', '--aggressive'], { cwd: dir });
}

const keyFile = path.join(workdir, 'bench_key');
if (!fs.existsSync(keyFile)) {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'bench', '-f', keyFile]);
}
const history = path.join(workdir, 'history.git');
if (!fs.existsSync(history)) historyRepo(history, commits);

const sshPort = await freePort();
const { server, port } = await startGitServer(path.join(workdir, 'data'), [`history=${history}`], {
  BENCH_SSH_PORT: String(sshPort),
  BENCH_SSH_KEY: fs.readFileSync(`${keyFile}.pub`, 'utf8').trim(),
});
const sshOptions = [
  '-i',
  keyFile,
  '-o',
  'IdentitiesOnly=yes',
  '-o',
  'IdentityAgent=none',
  '-o',
  'BatchMode=yes',
  '-o',
  'StrictHostKeyChecking=no',
  '-o',
  'UserKnownHostsFile=/dev/null',
  '-o',
  'LogLevel=ERROR',
  '-p',
  String(sshPort),
];
const env = { ...gitEnv(workdir), GIT_SSH_COMMAND: ['ssh', ...sshOptions].join(' ') };
const urls = {
  ssh: `ssh://git@127.0.0.1:${sshPort}/root/history.git`,
  http: `http://root:bench-password-1234@127.0.0.1:${port}/root/history.git`,
  disk: `file://${history}`,
};

function time(command, args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${command} ${args.join(' ')}: ${stderr}`));
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const show = (values) => `${median(values).toFixed(0)} ms  [${values.map((v) => v.toFixed(0)).join(', ')}]`;

try {
  console.log(
    `workdir ${workdir}; ${git(['rev-list', '--count', 'master'], { cwd: history }).trim()} commits`,
  );
  const results = { ssh: [], http: [], disk: [] };
  const target = (kind) => path.join(workdir, `clone-${kind}`);
  for (const kind of Object.keys(urls)) {
    fs.rmSync(target(kind), { recursive: true, force: true });
    await time('git', ['clone', '-q', '--bare', urls[kind], target(kind)]); // warm-up
  }
  for (let round = 0; round < rounds; round++) {
    const order = Object.keys(urls);
    for (let i = 0; i < round % order.length; i++) order.push(order.shift());
    for (const kind of order) {
      fs.rmSync(target(kind), { recursive: true, force: true });
      results[kind].push(await time('git', ['clone', '-q', '--bare', urls[kind], target(kind)]));
    }
  }
  console.log(`\nclone --bare of ${commits} commits, ${rounds} rounds (median):`);
  for (const kind of Object.keys(urls)) console.log(`  ${kind.padEnd(5)} ${show(results[kind])}`);
  const ratio = results.ssh.map((ms, i) => ms / results.disk[i]);
  const ratioHttp = results.ssh.map((ms, i) => ms / results.http[i]);
  console.log(`  ratio ssh/file:// ${median(ratio).toFixed(2)}, ssh/http ${median(ratioHttp).toFixed(2)}`);

  // One connection: key exchange, public-key authentication, the greeting command, close.
  const handshake = [];
  const lsSsh = [];
  const lsHttp = [];
  for (let round = 0; round < rounds * 4; round++) {
    handshake.push(await time('ssh', [...sshOptions, '-T', 'git@127.0.0.1']));
    lsSsh.push(await time('git', ['ls-remote', urls.ssh]));
    lsHttp.push(await time('git', ['ls-remote', urls.http]));
  }
  console.log(`\nssh handshake + auth + greeting: ${show(handshake)}`);
  console.log(`ls-remote: ssh ${median(lsSsh).toFixed(0)} ms, http ${median(lsHttp).toFixed(0)} ms`);
} finally {
  server.kill('SIGTERM');
}
