// One SSH command: the greeting for a shell, a refusal in gitlab-shell's words ("GitLab: …" on stderr,
// exit status 1), or a git service wired to the channel. Access is decided by the same rules as smart
// HTTP; pushes go through the same receive-pack (pre-receive rules, pending push, processing). When the
// channel closes before git is done, git is stopped.
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerChannel } from 'ssh2';
import type { Deps } from '../deps.ts';
import { uploadPackV2Advertisement } from '../git/protocol/capabilities.ts';
import { startUploadArchive, startUploadPack } from '../git/protocol/upload-pack.ts';
import { wantsProtocolV2 } from '../services/fetch/upload-pack-request.ts';
import { authorizeGit, GitAccessRefused, PROJECT_NOT_FOUND } from '../services/push/git-access.ts';
import { startReceivePack } from '../services/push/receive-pack.ts';
import type { SshKeyOwner } from '../services/users/ssh-keys.ts';
import { parseCommand } from './commands.ts';
import { serveUploadPackV2 } from './upload-pack-v2.ts';

function finish(channel: ServerChannel, status: number): void {
  if (channel.destroyed) return;
  channel.exit(status);
  channel.end();
}

function refuse(channel: ServerChannel, text: string): void {
  channel.stderr.write(`GitLab: ${text}\n`);
  finish(channel, 1);
}

/** `ssh git@host` without a command: GitLab's greeting, which is how users check their key works. */
export function greet(channel: ServerChannel, owner: SshKeyOwner): void {
  channel.write(`Welcome to GitLab, ${owner.displayName}!\n`);
  finish(channel, 0);
}

/** Stops git when the client goes away first (SIGTERM, then SIGKILL if it lingers). */
function stopWithChannel(channel: ServerChannel, child: ChildProcess): void {
  channel.on('close', () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    timer.unref();
    child.once('close', () => clearTimeout(timer));
  });
}

export interface SessionContext {
  deps: Deps;
  owner: SshKeyOwner;
  env: Record<string, string>;
  log: FastifyBaseLogger;
}

/** Runs one exec request to its end; resolves when the channel has its exit status. */
export async function runCommand(
  context: SessionContext,
  channel: ServerChannel,
  line: string,
): Promise<void> {
  const { deps, owner, log } = context;
  deps.db.requestArrived();
  const parsed = parseCommand(line);
  if (parsed.kind === 'disallowed') {
    log.info({ command: line.slice(0, 200), key: owner.key.id }, 'ssh: disallowed command');
    return refuse(channel, 'Disallowed command');
  }
  if (parsed.kind === 'invalid_path') return refuse(channel, PROJECT_NOT_FOUND);
  const { service, namespace, project } = parsed.command;
  let auth;
  try {
    auth = await authorizeGit(deps, owner.actor, namespace, project, service);
  } catch (error) {
    if (error instanceof GitAccessRefused) return refuse(channel, error.text);
    throw error;
  }
  if (channel.destroyed) return;
  if (service === 'git-upload-pack' && wantsProtocolV2(context.env)) {
    const advertisement = await uploadPackV2Advertisement(auth.repoPath, context.env.GIT_PROTOCOL!);
    // Without a v2 advertisement from git (an older git), git holds the conversation as below.
    if (advertisement)
      return finish(channel, await serveUploadPackV2(context, channel, auth.repoPath, advertisement));
  }

  let child: ChildProcess;
  let output: Readable;
  if (service === 'git-receive-pack') {
    const run = await startReceivePack(deps, auth, channel, { protocol: 'ssh', stateless: false, log });
    child = run.child;
    output = run.output;
  } else {
    child =
      service === 'git-upload-pack'
        ? startUploadPack(auth.repoPath, { stateless: false, env: context.env })
        : startUploadArchive(auth.repoPath, context.env);
    child.stdin!.on('error', () => {});
    channel.pipe(child.stdin!);
    output = child.stdout!;
  }
  stopWithChannel(channel, child);
  child.stderr!.pipe(channel.stderr, { end: false });
  output.pipe(channel, { end: false });

  let status = 1;
  const exited = new Promise<void>((resolve) => {
    child.on('close', (code) => {
      status = code ?? 1;
      resolve();
    });
    child.on('error', (error) => {
      log.error({ err: error }, 'ssh: git could not start');
      resolve();
    });
  });
  // receive-pack's output ends only after the push is settled; the exit status follows it.
  await Promise.all([exited, new Promise((resolve) => output.once('end', resolve).once('close', resolve))]);
  finish(channel, status);
}
