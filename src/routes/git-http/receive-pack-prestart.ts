// A `git push` over HTTP asks for the ref advertisement, then builds its pack (tens of milliseconds)
// and posts it on the same connection. Labrador starts the receive-pack for that POST while the client
// is still packing, so the POST finds git already running instead of paying for its start (a fork of
// this process and git's own start-up: a few milliseconds per push).
//
// The waiting process belongs to the connection that asked: only the next receive-pack POST on that
// connection, by the same user, into the same repository directory (not one deleted and made again
// under the same path: its identity is checked) takes it; otherwise, and when the connection closes or
// nobody comes within PRESTART_TTL_MS, its input is closed and it exits without having done anything.
import fs from 'node:fs';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { GitAuthorization } from '../../services/push/git-access.ts';
import { prestartReceivePack, type PrestartedReceivePack } from '../../services/push/receive-pack.ts';

const PRESTART_TTL_MS = 30_000;

interface Waiting {
  /** Who it was started for: user, repository path and the directory's identity. */
  key: string;
  started: Promise<PrestartedReceivePack | null>;
  timer?: NodeJS.Timeout;
}

const waiting = new WeakMap<Socket, Waiting>();
/** Connections already watched for their end (one listener each, however many pushes they carry). */
const watched = new WeakSet<Socket>();

/**
 * The identity of the repository directory now, or null when it is gone. A synchronous stat: the POST
 * waits for it, and asynchronously it is a thread-pool round trip (git/ref-files.ts).
 */
function repositoryIdentity(auth: GitAuthorization): string | null {
  const stat = fs.statSync(auth.repoPath, { bigint: true, throwIfNoEntry: false });
  return stat ? `${auth.user?.id}\0${auth.repoPath}\0${stat.dev}:${stat.ino}:${stat.birthtimeNs}` : null;
}

function end(started: Promise<PrestartedReceivePack | null>): void {
  void started.then((prestarted) => prestarted?.child.stdin?.end());
}

/** Starts a receive-pack for the POST that should follow on `socket` (after the current answer). */
export function prestartForConnection(
  deps: Deps,
  socket: Socket,
  auth: GitAuthorization,
  log: FastifyBaseLogger,
): void {
  if (!auth.user || auth.wiki || waiting.has(socket) || socket.destroyed) return;
  const entry: Waiting = { key: '', started: Promise.resolve(null) };
  entry.started = (async () => {
    const key = repositoryIdentity(auth);
    if (key === null) return null;
    entry.key = key;
    const prestarted = await prestartReceivePack(deps, auth);
    prestarted.child.on('error', (error) => log.debug({ err: error }, 'pre-started receive-pack failed'));
    prestarted.child.stderr!.resume();
    prestarted.child.stdin!.on('error', () => {});
    return prestarted;
  })();
  entry.started.catch((error) => log.warn({ err: error }, 'starting receive-pack ahead failed'));
  waiting.set(socket, entry);
  entry.timer = setTimeout(() => release(socket), PRESTART_TTL_MS);
  entry.timer.unref();
  if (!watched.has(socket)) {
    watched.add(socket);
    socket.once('close', () => release(socket));
  }
}

/** Ends the process waiting on `socket`, if any. */
function release(socket: Socket): void {
  const entry = waiting.get(socket);
  if (!entry) return;
  waiting.delete(socket);
  clearTimeout(entry.timer);
  end(entry.started);
}

/** The receive-pack started ahead for this POST on `socket`, when it was started for the same push. */
export async function takePrestarted(
  socket: Socket,
  auth: GitAuthorization,
): Promise<PrestartedReceivePack | undefined> {
  const entry = waiting.get(socket);
  if (!entry) return undefined;
  waiting.delete(socket);
  clearTimeout(entry.timer);
  const prestarted = await entry.started.catch(() => null);
  if (!prestarted) return undefined;
  if (entry.key === repositoryIdentity(auth)) return prestarted;
  prestarted.child.stdin?.end();
  return undefined;
}
