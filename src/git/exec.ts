// Runs the system git with an argument array (never a shell), a timeout, and no inherited config that
// could prompt or page.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitOptions {
  cwd?: string;
  /** Bytes written to stdin, then stdin is closed. */
  input?: string | Buffer;
  timeoutMs?: number;
  env?: Record<string, string>;
}

/** Environment for every git we spawn: no prompts, no user or system config leaking in. */
function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    LANG: 'C',
    ...extra,
  };
}

/**
 * Told of every git process this server starts (its arguments and directory), for tests that pin how
 * many git calls a page costs; unset otherwise.
 */
export const gitSpawns: { observe?: (args: readonly string[], cwd: string | undefined) => void } = {};

/** Starts git for streaming use (smart HTTP); the caller owns the process. */
export function spawnGit(
  args: string[],
  options: SpawnOptions & { env?: Record<string, string> } = {},
): ChildProcess {
  gitSpawns.observe?.(args, options.cwd?.toString());
  return spawn('git', args, { ...options, env: gitEnv(options.env) });
}

/** Runs git to completion and collects its output. */
export function runGit(args: string[], options: GitOptions = {}): Promise<GitResult> {
  gitSpawns.observe?.(args, options.cwd);
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: options.cwd, env: gitEnv(options.env) });
    const stdout: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout: Buffer.concat(stdout), stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** Runs git and fails with its stderr unless it exits 0. */
export async function git(args: string[], options: GitOptions = {}): Promise<string> {
  const result = await runGit(args, options);
  if (result.code !== 0) throw new Error(`git ${args[0]} failed (${result.code}): ${result.stderr.trim()}`);
  return result.stdout.toString();
}
