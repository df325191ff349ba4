// LABRADOR_RUNNER=builtin: `npm start` also runs one of Labrador's runners (dist/runner.mjs, beside the
// server's bundle) as a child process, so a fresh install has working CI. It is an ordinary runner: it
// registers over HTTP with the shared registration token and speaks only the runner protocol, to this
// server's own address. It stays in the server's process group (a terminal's Ctrl-C reaches both), keeps
// its state in <data dir>/runner, is stopped before the server on SIGTERM/SIGINT, and stops by itself
// when the server goes away (its IPC channel closes).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { SANDBOX_UNAVAILABLE_EXIT } from '../runner/sandbox.ts';

export interface BuiltinRunner {
  /** SIGTERM, then SIGKILL after `timeoutMs`; resolves once the runner has exited. */
  stop(timeoutMs: number): Promise<void>;
}

/** The address the runner reaches this server at: the listening one, with a wildcard host made local. */
function localUrl(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.toString().replace(/\/+$/, '');
}

export function startBuiltinRunner(
  options: { url: string; registrationToken: string; dataDir: string; sandbox: 'bwrap' | 'off' },
  log: FastifyBaseLogger,
): BuiltinRunner {
  const entry = fileURLToPath(new URL('./runner.mjs', import.meta.url));
  if (!fs.existsSync(entry)) {
    log.error(`LABRADOR_RUNNER=builtin: ${entry} is missing (npm run build makes it); no runner started`);
    return { stop: async () => {} };
  }
  const url = localUrl(options.url);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      entry,
      '--url',
      url,
      '--clone-url',
      url,
      '--data-dir',
      options.dataDir,
      '--description',
      'builtin runner',
      // Asking its own server every second at most when idle costs nothing and keeps a push's wait short.
      '--max-poll-ms',
      '1000',
      '--sandbox',
      options.sandbox,
    ],
    {
      // The token travels in the environment, not on the command line other users can read.
      env: { ...process.env, REGISTRATION_TOKEN: options.registrationToken },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    // A missing sandbox was said in the runner's own line; the server goes on without it.
    if (!stopping && code !== SANDBOX_UNAVAILABLE_EXIT)
      log.error(`the builtin runner exited (${signal ?? `code ${code}`}); CI builds wait for a runner`);
  });
  log.info(`builtin runner started (pid ${child.pid}), taking builds from ${url}`);
  return {
    async stop(timeoutMs) {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
