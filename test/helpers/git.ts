// For tests that drive the real `git` client against a listening Labrador: a git client with a throwaway
// HOME (no credential helpers, no prompts), clone URLs with credentials, and a listening port.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestApp } from './app.ts';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real git client with its own HOME and config, never prompting. */
export class GitClient {
  readonly home: string;
  constructor() {
    this.home = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-git-client-'));
    fs.writeFileSync(
      path.join(this.home, '.gitconfig'),
      '[user]\n\tname = Test Author\n\temail = author@example.com\n[init]\n\tdefaultBranch = master\n' +
        '[advice]\n\tdetachedHead = false\n[protocol]\n\tversion = 2\n',
    );
  }

  run(args: string[], cwd = this.home, env: Record<string, string> = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const child = spawn('git', args, {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: this.home,
          GIT_TERMINAL_PROMPT: '0',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_ASKPASS: '',
          SSH_ASKPASS: '',
          LANG: 'C',
          ...env,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  /** Runs git and fails the test with git's output unless it exits 0. */
  async ok(args: string[], cwd = this.home, env: Record<string, string> = {}): Promise<string> {
    const result = await this.run(args, cwd, env);
    if (result.code !== 0) {
      throw new Error(`git ${args.join(' ')} exited ${result.code}:\n${result.stderr}${result.stdout}`);
    }
    return result.stdout;
  }

  /** A fresh working directory with one commit per message (files named after the message). */
  async workTree(name: string, messages: string[] = []): Promise<string> {
    const dir = path.join(this.home, name);
    await this.ok(['init', '-q', dir]);
    for (const message of messages) await this.commit(dir, message);
    return dir;
  }

  async commit(dir: string, message: string): Promise<string> {
    const file = message.replace(/[^A-Za-z0-9]+/g, '-') || 'file';
    fs.writeFileSync(path.join(dir, `${file}.txt`), `${message}\n${crypto.randomUUID()}\n`);
    await this.ok(['add', '-A'], dir);
    await this.ok(['commit', '-q', '-m', message], dir);
    return (await this.ok(['rev-parse', 'HEAD'], dir)).trim();
  }

  close(): void {
    fs.rmSync(this.home, { recursive: true, force: true });
  }
}

/** `http://user:secret@127.0.0.1:port/<fullPath>.git` (credentials URL-encoded). */
export function repoUrl(
  base: string,
  fullPath: string,
  login?: string,
  secret?: string,
  suffix = '.git',
): string {
  const url = new URL(`${base}/${fullPath}${suffix}`);
  if (login !== undefined) {
    url.username = encodeURIComponent(login);
    url.password = encodeURIComponent(secret ?? '');
  }
  return url.toString();
}

export async function listen(t: TestApp): Promise<string> {
  await t.server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/** One pkt-line of git's wire protocol: four hex digits of length (themselves included), then the text. */
export function pkt(text: string): string {
  return (Buffer.byteLength(text) + 4).toString(16).padStart(4, '0') + text;
}
