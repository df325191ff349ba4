// For tests that drive the real `ssh` and `git` clients against Labrador's SSH server: throwaway keys
// from ssh-keygen, and the GIT_SSH_COMMAND that uses one of them without touching known_hosts.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import sshpk from 'sshpk';
import type { TestApp } from './app.ts';
import { startSshServer, type SshServerOptions, type StartedSsh } from '../../src/ssh/server.ts';

export interface TestKey {
  /** The private key file. */
  file: string;
  /** The public key line, as POST /user/keys takes it. */
  publicKey: string;
}

/** A fresh ed25519 key pair in `dir`. */
export function makeKey(dir: string, name: string): TestKey {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file], { stdio: 'ignore' });
  return { file, publicKey: fs.readFileSync(`${file}.pub`, 'utf8').trim() };
}

/**
 * A fresh ed25519 public key line (`ssh-ed25519 AAAA… comment`) made in-process, for tests that need many
 * distinct valid keys quickly and never sign in with them (ssh-keygen is a process per key).
 */
export function freshPublicKey(comment: string): string {
  const { publicKey } = crypto.generateKeyPairSync('ed25519');
  const key = sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
  return `${key.toString('ssh')} ${comment}`;
}

/** ssh options for a test: this key only, no prompts, no host key bookkeeping. */
export function sshArgs(key: TestKey, port: number): string[] {
  return [
    '-i',
    key.file,
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
    String(port),
  ];
}

export function gitSshCommand(key: TestKey, port: number): string {
  return ['ssh', ...sshArgs(key, port)].join(' ');
}

/** The SSH server of a test app on a free port of 127.0.0.1. */
export function startTestSsh(t: TestApp, options: Partial<SshServerOptions> = {}): Promise<StartedSsh> {
  return startSshServer(t.server.deps, pino({ level: 'silent' }), { host: '127.0.0.1', port: 0, ...options });
}

/** Polls `check` until it holds; fails after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
