// git receive-pack for every transport: the caller's push rules applied to the pushed commands and
// handed to the pre-receive hook as verdicts (the same refusals and "remote:" texts over HTTP and SSH), the pushed commands recorded as a pending push before
// any ref can move, and the push settled (which refs moved; a first push's default branch and its
// protection) once receive-pack has ended, before the caller's output ends, so the next push finds
// them. Its events, hook deliveries and pipelines are recorded right after, while the client goes on
// (deps.pushQueue, in push order per project).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { spawnGit } from '../git/exec.ts';
import { hooksPath } from '../git/server-hooks.ts';
import { RefUpdateReader } from '../git/pkt-line.ts';
import { processPush, recordPendingPush, settlePush } from './push.ts';
import { pushNeedsHook } from '../policies/git-access.ts';
import { pushRulesFor } from './push-rules.ts';
import { pushVerdicts } from './push-verdicts.ts';
import type { PushRules } from '../policies/push-rules.mjs';
import type { GitAuthorization } from './git-access.ts';

interface PushSetup {
  env: Record<string, string>;
  rules: PushRules;
  /**
   * Where the verdicts for the pre-receive hook go, or null when no ref update could be refused (then
   * the hook is skipped).
   */
  verdictsFile: string | null;
}

/** Environment of receive-pack: GitLab's GL_ID and GL_PROTOCOL, and where the hook finds its verdicts. */
async function pushSetup(deps: Deps, auth: GitAuthorization, protocol: 'http' | 'ssh'): Promise<PushSetup> {
  const rules = await pushRulesFor(deps, auth.record, auth.access);
  const verdictsFile = pushNeedsHook(rules)
    ? path.join(os.tmpdir(), `labrador-push-${process.pid}-${crypto.randomBytes(8).toString('hex')}`)
    : null;
  return {
    rules,
    verdictsFile,
    env: {
      GL_ID: `user-${auth.user!.id}`,
      GL_PROTOCOL: protocol,
      ...(verdictsFile ? { LABRADOR_PUSH_VERDICTS: verdictsFile } : {}),
    },
  };
}

/** `git … receive-pack`; repositories' own hooks directories hold only git's inactive samples. */
export function receivePackArgs(deps: Deps, withHook = true): string[] {
  return withHook
    ? ['-c', `core.hooksPath=${hooksPath(deps.config.dataDir)}`, 'receive-pack']
    : ['receive-pack'];
}

export interface ReceivePackOptions {
  protocol: 'http' | 'ssh';
  /** HTTP runs one request/response round (`--stateless-rpc`); SSH keeps one conversation. */
  stateless: boolean;
  log: FastifyBaseLogger;
}

export interface ReceivePackRun {
  child: ChildProcess;
  /** receive-pack's stdout, ended only after the push has been settled. */
  output: Readable;
}

/** Starts receive-pack for an authorized pusher (auth.user set), reading the client's stream `input`. */
export async function startReceivePack(
  deps: Deps,
  auth: GitAuthorization,
  input: Readable,
  options: ReceivePackOptions,
): Promise<ReceivePackRun> {
  const setup = await pushSetup(deps, auth, options.protocol);
  let pushId: number | undefined;
  const reader = new RefUpdateReader(async (commands) => {
    if (commands.length === 0) return;
    pushId = await recordPendingPush(deps, auth.record.project.id, auth.user!.id, commands);
    // Before receive-pack gets the pack, so before its hook can look.
    if (setup.verdictsFile) {
      const verdicts = await pushVerdicts(auth.repoPath, setup.rules, commands);
      await fs.writeFile(setup.verdictsFile, verdicts, { mode: 0o600 });
    }
  });
  const stateless = options.stateless ? ['--stateless-rpc'] : [];
  const child = spawnGit(
    [...receivePackArgs(deps, setup.verdictsFile !== null), ...stateless, auth.repoPath],
    {
      env: setup.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  child.stdin!.on('error', () => {});
  pipeline(input, reader, child.stdin!, (error) => {
    if (error && child.exitCode === null) {
      options.log.warn({ err: error }, 'git-receive-pack input stream failed');
      child.kill();
    }
  });
  const output = new PassThrough();
  child.stdout!.pipe(output, { end: false });
  child.on('error', (error) => output.destroy(error));
  child.on('close', () => {
    if (setup.verdictsFile) void fs.rm(setup.verdictsFile, { force: true }).catch(() => {});
    if (pushId === undefined) return output.end();
    const id = pushId;
    settlePush(deps, id)
      .catch((error) => options.log.error({ err: error, pushId: id }, 'settling a push failed'))
      .finally(() => {
        deps.pushQueue.enqueue(auth.record.project.id, () => processPush(deps, id), { pushId: id });
        output.end();
      });
  });
  return { child, output };
}
