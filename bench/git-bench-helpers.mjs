// What the git benches share: git with a private HOME, a large repository of incompressible files, a
// free port, a server's RSS, and a Labrador server in its own process (bench/git-server.ts) serving
// bare repositories as root's projects.
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export function gitEnv(workdir) {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: workdir };
}

/** `git(args, options)` with that environment; throws with git's stderr unless it exits 0. */
export function gitRunner(env) {
  return (args, options = {}) => {
    const result = spawnSync('git', args, { env, maxBuffer: 1 << 30, ...options });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
    return result.stdout?.toString() ?? '';
  };
}

/** A bare repository whose pack is about `mib` MiB of incompressible blobs, in 8 MiB files. */
export function largeRepo(git, dir, mib) {
  git(['init', '-q', '--bare', dir]);
  const message = 'large blobs\n';
  const parts = [
    Buffer.from(`commit refs/heads/master\ncommitter Bench <bench@example.com> 1450972274 +0100\n`),
    Buffer.from(`data ${message.length}\n${message}`),
  ];
  for (let i = 0; i < Math.max(1, Math.round(mib / 8)); i++) {
    const blob = crypto.randomBytes(8 * 1024 * 1024);
    parts.push(Buffer.from(`M 100644 inline blob-${i}.bin\ndata ${blob.length}\n`), blob, Buffer.from('\n'));
  }
  git(['fast-import', '--quiet'], { cwd: dir, input: Buffer.concat(parts) });
  git(['repack', '-adq'], { cwd: dir });
}

export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The process's resident memory now and at its peak, in KiB. */
export function rssKiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const value = (key) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
  return { rss: value('VmRSS'), hwm: value('VmHWM') };
}

/** Starts bench/git-server.ts on a free port with `name=bare-repo` projects; resolves once it listens. */
export async function startGitServer(dataDir, repos, env = {}) {
  const port = await freePort();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const server = spawn(
    process.execPath,
    [
      // BENCH_SERVER_PROF=<dir>: a CPU profile of the server (NODE_OPTIONS may not carry --cpu-prof).
      ...(process.env.BENCH_SERVER_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`]
        : []),
      '--import',
      'tsx',
      path.join(root, 'bench/git-server.ts'),
      dataDir,
      String(port),
      ...repos,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  await new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk) => chunk.toString().includes('READY') && resolve());
    server.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  return { server, port };
}
