// git receive-pack for every transport: the caller's push rules applied to the pushed commands and
// handed to the pre-receive hook as verdicts (the same refusals and "remote:" texts over HTTP and SSH),
// the pushed commands recorded as a pending push before any ref can move, and the push settled (which
// refs moved, from receive-pack's own report; a first push's default branch and its protection) before
// the caller's output ends, so the next push finds them. Its events, hook deliveries and pipelines are
// recorded right after, while the client goes on (deps.pushQueue, in push order per project), and then
// git's housekeeping (gc --auto), which receive-pack would otherwise run while the client waits.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, pipeline, Writable, type Readable } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.ts';
import { spawnGit } from '../../git/exec.ts';
import { hooksPath } from '../../git/protocol/server-hooks.ts';
import { collectGarbageIfNeeded, repositoryExists } from '../../git/repository.ts';
import { RefUpdateReader, type RefUpdate } from '../../git/protocol/pkt-line.ts';
import { PushReportParser, reportedApplied, type PushReport } from '../../git/protocol/push-report.ts';
import { pushRefusal } from '../../git/protocol/push-refusal.ts';
import { storageFullCause } from '../../lib/storage-full.ts';
import { processPush, recordPendingPush, settlePush } from './push.ts';
import { pushNeedsHook } from '../../policies/git-access.ts';
import { pushRulesFor } from './push-setup.ts';
import { pushVerdicts } from './push-verdicts.ts';
import type { PushRules } from '../../policies/push-rules.ts';
import type { GitAuthorization } from './git-access.ts';

/** What a client is told when its push cannot be put on record (`! [remote rejected] … (<this>)`). */
const PUSH_STORAGE_FULL = 'Insufficient Storage: the server has no space left on device; try again later';
const PUSH_NOT_RECORDED = 'The push could not be recorded; try again.';

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

/**
 * `git … receive-pack`; repositories' own hooks directories hold only git's inactive samples. Its
 * `gc --auto` (run before its last flush, so the client waited for it) is left to housekeep().
 */
export function receivePackArgs(deps: Deps, withHook = true): string[] {
  const hooks = withHook ? ['-c', `core.hooksPath=${hooksPath(deps.config.dataDir)}`] : [];
  return [...hooks, '-c', 'receive.autogc=false', 'receive-pack'];
}

/**
 * The `gc --auto` receive-pack would have run, after the push's processing (deps.pushQueue). A project
 * deleted or moved meanwhile is no failure.
 */
async function housekeep(repoPath: string, log: FastifyBaseLogger): Promise<void> {
  try {
    if (!(await collectGarbageIfNeeded(repoPath))) log.debug({ repoPath }, 'gc skipped: repository gone');
  } catch (error) {
    if (await repositoryExists(repoPath)) log.warn({ err: error, repoPath }, 'git gc --auto failed');
    else log.debug({ err: error, repoPath }, 'gc stopped: repository gone');
  }
}

export interface ReceivePackOptions {
  protocol: 'http' | 'ssh';
  /** HTTP runs one request/response round (`--stateless-rpc`); SSH keeps one conversation. */
  stateless: boolean;
  /** A receive-pack already started for this push (HTTP), used when it still fits. */
  prestarted?: PrestartedReceivePack;
  log: FastifyBaseLogger;
}

/**
 * A receive-pack started before its request (git-http/receive-pack-prestart.ts), waiting for its input,
 * with the setup it was started with.
 */
export interface PrestartedReceivePack {
  child: ChildProcess;
  setup: PushSetup;
}

function spawnReceivePack(deps: Deps, auth: GitAuthorization, setup: PushSetup, stateless: boolean) {
  return spawnGit(
    [
      ...receivePackArgs(deps, setup.verdictsFile !== null),
      ...(stateless ? ['--stateless-rpc'] : []),
      auth.repoPath,
    ],
    { env: setup.env, stdio: ['pipe', 'pipe', 'pipe'] },
  );
}

/** Starts a stateless (HTTP) receive-pack for `auth` that waits for its input. */
export async function prestartReceivePack(
  deps: Deps,
  auth: GitAuthorization,
): Promise<PrestartedReceivePack> {
  const setup = await pushSetup(deps, auth, 'http');
  return { setup, child: spawnReceivePack(deps, auth, setup, true) };
}

/**
 * The pre-started process when it was started for what this push needs now (the same pusher, and a
 * hook exactly when the push rules ask for one), else null after ending it.
 */
function usablePrestart(
  prestarted: PrestartedReceivePack | undefined,
  setup: PushSetup,
): PrestartedReceivePack | null {
  if (!prestarted) return null;
  const { child } = prestarted;
  const same =
    prestarted.setup.env.GL_ID === setup.env.GL_ID &&
    (prestarted.setup.verdictsFile === null) === (setup.verdictsFile === null);
  if (same && child.exitCode === null && child.signalCode === null && child.stdin?.writable)
    return prestarted;
  child.stdin?.end();
  return null;
}

export interface ReceivePackRun {
  child: ChildProcess;
  /** receive-pack's stdout, ended only after the push has been settled. */
  output: Readable;
  /** Whether the push was refused before receive-pack could finish (already logged, client told). */
  refused(): boolean;
}

/**
 * A push to a wiki: git's own receive-pack, without branch rules, recording or processing (8.13 ran no
 * push processing for wikis either; its wiki pages are read from the repository as they are).
 */
function startWikiReceivePack(
  deps: Deps,
  auth: GitAuthorization,
  input: Readable,
  options: ReceivePackOptions,
): ReceivePackRun {
  options.prestarted?.child.stdin?.end();
  const child = spawnGit(
    [...receivePackArgs(deps, false), ...(options.stateless ? ['--stateless-rpc'] : []), auth.repoPath],
    {
      env: { GL_ID: `user-${auth.user!.id}`, GL_PROTOCOL: options.protocol },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  child.stdin!.on('error', () => {});
  pipeline(input, child.stdin!, (error) => {
    if (error && child.exitCode === null) child.kill();
  });
  child.on('close', () => {
    deps.pushQueue.enqueueHousekeeping(auth.record.project.id, () => housekeep(auth.repoPath, options.log));
  });
  return { child, output: child.stdout!, refused: () => false };
}

/** Starts receive-pack for an authorized pusher (auth.user set), reading the client's stream `input`. */
export async function startReceivePack(
  deps: Deps,
  auth: GitAuthorization,
  input: Readable,
  options: ReceivePackOptions,
): Promise<ReceivePackRun> {
  if (auth.wiki) return startWikiReceivePack(deps, auth, input, options);
  let fresh: PushSetup;
  try {
    fresh = await pushSetup(deps, auth, options.protocol);
  } catch (error) {
    options.prestarted?.child.stdin?.end();
    throw error;
  }
  const prestarted = options.stateless ? usablePrestart(options.prestarted, fresh) : null;
  // The rules are today's; the verdicts go where the running process's hook will look.
  const setup = prestarted ? { ...fresh, verdictsFile: prestarted.setup.verdictsFile } : fresh;
  let pushId: number | undefined;
  let pushed: RefUpdate[] = [];
  let capabilities: string[] | null = null;
  // Settling waits for the recording: git holds off applying the push until it is done (RefUpdateReader),
  // but a client that sends bytes after its pack could get git's report first.
  let recording: Promise<unknown> = Promise.resolve();
  /** Set when the push could not be put on record: receive-pack is stopped and the client told why. */
  let refusal: Buffer | null = null;
  const reader = new RefUpdateReader((commands, asked) => {
    const step = (async () => {
      capabilities = asked;
      if (commands.length === 0) return;
      pushed = commands;
      try {
        pushId = await recordPendingPush(deps, auth.record.project.id, auth.user!.id, commands);
        // Before receive-pack gets the end of the request, so before its hook can look.
        if (setup.verdictsFile) {
          const verdicts = await pushVerdicts(auth.repoPath, setup.rules, commands);
          await fs.writeFile(setup.verdictsFile, verdicts, { mode: 0o600 });
        }
      } catch (error) {
        // Nothing may move without its record. The rest of the request is read and dropped, so the
        // client (still sending its pack) gets the reason instead of a cut connection.
        const full = storageFullCause(error);
        if (full) options.log.error(`storage full: ${full} (push refused)`);
        else options.log.error({ err: error }, 'recording a push failed');
        refusal = pushRefusal(
          commands.map((command) => command.ref),
          asked,
          full ? PUSH_STORAGE_FULL : PUSH_NOT_RECORDED,
        );
        pushId = undefined;
        child.kill();
      }
    })();
    recording = step.catch(() => {});
    return step;
  });
  const child = prestarted?.child ?? spawnReceivePack(deps, auth, setup, options.stateless);
  child.stdin!.on('error', () => {});
  // receive-pack's input, dropped once the push is refused (the process is gone by then).
  const toGit = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const stdin = child.stdin!;
      if (refusal || stdin.destroyed || !stdin.writable) return callback();
      if (stdin.write(chunk)) return callback();
      const go = () => {
        stdin.off('drain', go);
        stdin.off('close', go);
        callback();
      };
      stdin.on('drain', go);
      stdin.on('close', go);
    },
    final(callback) {
      child.stdin!.end();
      callback();
    },
  });
  pipeline(input, reader, toGit, (error) => {
    if (error && child.exitCode === null) {
      options.log.warn({ err: error }, 'git-receive-pack input stream failed');
      child.kill();
    }
  });
  const output = new PassThrough();
  // The push is settled from receive-pack's report as soon as it has passed (the refs have moved by
  // then), else once receive-pack has ended, from the refs; the output ends after that either way.
  let settling: Promise<void> | undefined;
  const settleOnce = (applied: RefUpdate[] | null): Promise<void> => {
    settling ??= recording.then(async () => {
      if (pushId === undefined) return;
      const id = pushId;
      await settlePush(deps, { id, changes: pushed }, auth.record, applied).catch((error) =>
        options.log.error({ err: error, pushId: id }, 'settling a push failed'),
      );
    });
    return settling;
  };
  // Queued once the answer is out (or abandoned): the processing starts git processes, and each start
  // holds this process for milliseconds that the client would otherwise wait for its last bytes. The
  // push stays pending until then, so a crash in between leaves it to recovery.
  const enqueueProcessing = () => {
    if (pushId === undefined) return;
    const id = pushId;
    const projectId = auth.record.project.id;
    deps.pushQueue.enqueue(projectId, () => processPush(deps, id), { pushId: id });
    deps.pushQueue.enqueueHousekeeping(projectId, () => housekeep(auth.repoPath, options.log));
  };
  const report = new PushReportParser({
    advertisementFirst: !options.stateless,
    capabilities: () => capabilities,
    onReport: (answer: PushReport) => {
      const applied = reportedApplied(pushed, answer);
      if (applied) void settleOnce(applied);
    },
  });
  // A listener beside the pipe sees every chunk before receive-pack's 'close', whatever the client's pace.
  child.stdout!.on('data', (chunk: Buffer) => report.write(chunk));
  child.stdout!.pipe(output, { end: false });
  child.on('error', (error) => output.destroy(error));
  child.on('close', () => {
    if (setup.verdictsFile) void fs.rm(setup.verdictsFile, { force: true }).catch(() => {});
    void settleOnce(null).finally(() => {
      if (refusal && !output.destroyed) output.write(refusal);
      // A client gone early has had the output destroyed (closed) already.
      if (output.closed) setImmediate(enqueueProcessing);
      else output.once('close', () => setImmediate(enqueueProcessing));
      output.end();
    });
  });
  return { child, output, refused: () => refusal !== null };
}
