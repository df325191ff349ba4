// What git reads as configuration when it serves a repository: the repository's `config` and the user's
// global ones (system config is off: GIT_CONFIG_NOSYSTEM). Answers git would give that depend only on
// the git binary and this configuration (capability advertisements) are kept under `key`; `plain` says
// whether the configuration changes which refs git lists or how, so refs read from the files directly
// would differ from git's listing.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BoundedMap } from '../lib/bounded-map.ts';

export interface ConfigState {
  /** Equal for two repositories exactly when git reads the same configuration for both. */
  key: string;
  /** Nothing in it hides, renames or re-encodes refs, or pulls in other files we would not see. */
  plain: boolean;
}

/**
 * Settings that change a ref listing (hideRefs, namespaces via extensions, sha256 object names, the
 * `unborn` policy of ls-refs, push-cert nonces that differ on every run) or hide configuration from us
 * (include/includeIf). Matched loosely on the text: a mention anywhere means "let git answer".
 */
const NOT_PLAIN = /hiderefs|include|objectformat|extensions|certnonce|lsrefs/i;

async function readOrEmpty(file: string): Promise<string> {
  try {
    return await fsp.readFile(file, 'utf8');
  } catch {
    return '';
  }
}

function globalConfigFiles(): string[] {
  const home = process.env.HOME ?? os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  return [path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config')];
}

/** The global files' identity (inode, size, mtime): read again only when it changes. */
async function globalConfigStamp(): Promise<string> {
  const stamps = await Promise.all(
    globalConfigFiles().map((file) =>
      fsp.stat(file).then(
        (stat) => `${stat.ino}:${stat.size}:${stat.mtimeMs}`,
        () => '-',
      ),
    ),
  );
  return stamps.join('/');
}

let globalPlain: { stamp: string; plain: Promise<boolean> } | null = null;

function globalConfigPlain(stamp: string): Promise<boolean> {
  if (globalPlain?.stamp !== stamp) {
    const plain = Promise.all(globalConfigFiles().map(readOrEmpty)).then(
      (texts) => !texts.some((text) => NOT_PLAIN.test(text)),
    );
    globalPlain = { stamp, plain };
  }
  return globalPlain.plain;
}

/**
 * The global files' stamp, looked at no more than once per GLOBAL_RECHECK_MS: every git request of a
 * clone or push asks, and the user's global configuration is edited by hand, rarely.
 */
const GLOBAL_RECHECK_MS = 1000;
let globalStamp: { at: number; stamp: Promise<string> } | null = null;

function recentGlobalConfigStamp(): Promise<string> {
  const now = Date.now();
  if (!globalStamp || now - globalStamp.at >= GLOBAL_RECHECK_MS) {
    globalStamp = { at: now, stamp: globalConfigStamp() };
  }
  return globalStamp.stamp;
}

/**
 * A repository's config is read again only when its file changes (inode, size, modification time). A
 * file modified in the last RACY_MS is read every time: a second change within the clock's resolution
 * could leave size and time as they were.
 */
const RACY_MS = 2000;
const KNOWN_MAX = 1000;
const known = new BoundedMap<string, { signature: string; state: Promise<ConfigState> }>(KNOWN_MAX);

export async function gitConfigState(repoPath: string): Promise<ConfigState> {
  const file = path.join(repoPath, 'config');
  // A stat of a cached inode takes microseconds; asynchronously it is a thread-pool round trip.
  const stat = fs.statSync(file, { throwIfNoEntry: false }) ?? null;
  const stamp = await recentGlobalConfigStamp();
  const signature = `${stamp}\0${stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : '-'}`;
  const entry = known.get(repoPath);
  if (entry?.signature === signature) return entry.state;
  const state = (async () => {
    const config = await readOrEmpty(file);
    const plain = !NOT_PLAIN.test(config) && (await globalConfigPlain(stamp));
    return { key: `${stamp}\0${config}`, plain };
  })();
  known.delete(repoPath);
  if (stat && Date.now() - stat.mtimeMs > RACY_MS) {
    known.set(repoPath, { signature, state });
    state.catch(() => known.get(repoPath)?.state === state && known.delete(repoPath));
  }
  return state;
}
