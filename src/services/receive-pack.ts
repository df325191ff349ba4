// git receive-pack for every transport: the caller's push rules handed to the pre-receive hook (the same
// refusals and "remote:" texts over HTTP and SSH), the pushed commands recorded as a pending push before
// any ref can move, and the push settled (which refs moved; a first push's default branch and its
// protection) once receive-pack has ended, before the caller's output ends, so the next push finds
// them. Its events, hook deliveries and pipelines are recorded right after, while the client goes on
// (deps.pushQueue, in push order per project).
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
import type { GitAuthorization } from './git-access.ts';

interface PushSetup {
  env: Record<string, string>;
  /** Whether any ref update could be refused (else the pre-receive hook, a process per push, is skipped). */
  needsHook: boolean;
}

/** Environment of receive-pack: GitLab's GL_ID and GL_PROTOCOL, and the pusher's rules for the hook. */
async function pushSetup(deps: Deps, auth: GitAuthorization, protocol: 'http' | 'ssh'): Promise<PushSetup> {
  const rules = await pushRulesFor(deps, auth.record, auth.access);
  return {
    needsHook: pushNeedsHook(rules),
    env: {
      GL_ID: `user-${auth.user!.id}`,
      GL_PROTOCOL: protocol,
      LABRADOR_PUSH_RULES: JSON.stringify(rules),
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
    if (commands.length > 0) {
      pushId = await recordPendingPush(deps, auth.record.project.id, auth.user!.id, commands);
    }
  });
  const stateless = options.stateless ? ['--stateless-rpc'] : [];
  const child = spawnGit([...receivePackArgs(deps, setup.needsHook), ...stateless, auth.repoPath], {
    env: setup.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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
