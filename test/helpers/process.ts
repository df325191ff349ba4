// Labrador as an operator runs it: the built entry point (node dist/main.mjs) in a process of its own.
// The bundle is built from the current src/ by the same script `npm ci` runs, once per run of the suite
// (scripts/run-tests.mjs) or else once per test file into a temporary folder, so these tests never use a
// stale dist/ and never write into the checkout.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { copySqliteTemplate, createPostgresDatabase } from './app.ts';

export const checkout = path.resolve(import.meta.dirname, '../..');

let built: string | undefined;

/**
 * The build's folder: the one scripts/run-tests.mjs made for the whole run (LABRADOR_TEST_DIST), else
 * made on first use (about half a second) and removed when the tests end.
 */
function buildOnce(): string {
  if (built) return built;
  const shared = process.env.LABRADOR_TEST_DIST;
  if (shared && fs.existsSync(path.join(shared, 'main.mjs'))) return (built = shared);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-build-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const result = spawnSync(process.execPath, ['scripts/build.mjs', '--outdir', path.join(dir, 'dist')], {
    cwd: checkout,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`build failed: ${result.stderr}`);
  // The bundle leaves packages external: they resolve through node_modules beside it.
  fs.symlinkSync(path.join(checkout, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  built = path.join(dir, 'dist');
  return built;
}

/** The server's entry point, as `node dist/main.mjs` runs it. */
export function entryPoint(): string {
  return path.join(buildOnce(), 'main.mjs');
}

/** The admin commands, as `npm run admin` runs them. */
export function adminEntryPoint(): string {
  return path.join(buildOnce(), 'admin.mjs');
}

/** The runner, as `npm run runner` runs it. */
export function runnerEntryPoint(): string {
  return path.join(buildOnce(), 'runner.mjs');
}

/** A data dir and database of its own (a fresh PostgreSQL database when the suite runs there). */
export interface Instance {
  dataDir: string;
  databaseUrl: string | undefined;
  rootToken: string;
  env: Record<string, string>;
  remove(): Promise<void>;
}

/**
 * A new instance's data dir and database, migrated from the template (a first start all the same: no
 * root, no stamps) unless `empty`, where nothing has run on the database yet.
 */
export async function createInstance(options: { empty?: boolean } = {}): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-proc-'));
  const pgBase = process.env.LABRADOR_TEST_PG_URL;
  const database = pgBase ? await createPostgresDatabase(pgBase, { empty: options.empty }) : undefined;
  if (!database && !options.empty) await copySqliteTemplate(dataDir);
  const rootToken = crypto.randomBytes(10).toString('hex');
  return {
    dataDir,
    databaseUrl: database?.url,
    rootToken,
    env: {
      LABRADOR_DATA_DIR: dataDir,
      LABRADOR_ROOT_TOKEN: rootToken,
      LABRADOR_ROOT_PASSWORD: 'root-password-1234',
      LABRADOR_PORT: '0',
      // Processes run side by side: none may take the fixed default SSH port (tests start SSH in-process).
      LABRADOR_SSH_PORT: '0',
      // As in test apps: a first start hashes root's password, tens of milliseconds at the default cost.
      LABRADOR_PASSWORD_HASH_COST: '4',
      ...(database ? { LABRADOR_DATABASE_URL: database.url } : {}),
    },
    remove: async () => {
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Only what a supervisor would pass: no LABRADOR_* from the test runner leaks in. */
function processEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env };
}

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function streamEnded(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
}

export class LabradorProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exited>;
  /** http://127.0.0.1:<port>, from the start-up record. */
  url = '';

  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk) => (this.stdout += chunk));
    child.stderr!.on('data', (chunk) => (this.stderr += chunk));
    // 'exit' can come before the last output is read: a test that reads stderr after it must see it all.
    // A grandchild holding the pipes open must not hold the test, hence the bound.
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        const drained = Promise.all([child.stdout!, child.stderr!].map(streamEnded));
        const bound = new Promise((done) => setTimeout(done, 2_000).unref());
        void Promise.race([drained, bound]).then(() => resolve({ code, signal }));
      }),
    );
  }

  /** Waits until stdout has a line matching `pattern`, or fails after `timeoutMs` or on exit. */
  async waitForOutput(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      const line = this.stdout.split('\n').find((candidate) => pattern.test(candidate));
      if (line) return line;
      if (exited || Date.now() > deadline) {
        throw new Error(`no output matching ${pattern}\nstdout: ${this.stdout}\nstderr: ${this.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Waits for the start-up record and learns the HTTP address from it. */
  async ready(): Promise<this> {
    // Generous: a start under a fully loaded machine (migrations on a fresh PostgreSQL database) takes seconds.
    const line = await this.waitForOutput(/"surfaces"/, 60_000);
    this.url = (JSON.parse(line) as { surfaces: Array<{ url: string }> }).surfaces[0].url;
    return this;
  }

  signal(signal: NodeJS.Signals): number {
    this.child.kill(signal);
    return Date.now();
  }

  /** Ends the process if a test left it running. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}

export function spawnLabrador(env: Record<string, string>): LabradorProcess {
  return new LabradorProcess(
    spawn(process.execPath, [entryPoint()], { cwd: os.tmpdir(), env: processEnv(env), stdio: 'pipe' }),
  );
}

/** Runs the entry point until it exits by itself (a start that fails). */
export async function runLabrador(
  env: Record<string, string>,
): Promise<Exited & { stdout: string; stderr: string }> {
  const process = spawnLabrador(env);
  const exited = await process.exited;
  return { ...exited, stdout: process.stdout, stderr: process.stderr };
}

/** Waits until nothing listens on the port any more. */
export async function refusesConnections(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    if (Date.now() > deadline) throw new Error(`port ${port} still accepts connections`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
