// The one start of git's serving commands for a client, used by smart HTTP and SSH alike: upload-pack
// (fetch and clone), upload-archive (SSH `git archive --remote`), and the ref advertisement of either
// service. The caller owns the process and its pipes; receive-pack is started by the push service,
// which writes the verdicts its hook applies first.
import type { ChildProcess } from 'node:child_process';
import { spawnGit } from '../exec.ts';

export interface UploadPackOptions {
  /** Smart HTTP: one request, one answer (`--stateless-rpc`); SSH holds a conversation. */
  stateless: boolean;
  /** GIT_PROTOCOL and the like, passed through from the client. */
  env?: Record<string, string>;
}

/** git upload-pack on `repoPath`, stdin, stdout and stderr piped. */
export function startUploadPack(repoPath: string, options: UploadPackOptions): ChildProcess {
  const args = options.stateless ? ['upload-pack', '--stateless-rpc', repoPath] : ['upload-pack', repoPath];
  return spawnGit(args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** git upload-archive on `repoPath` (SSH only, as GitLab served it), stdin, stdout and stderr piped. */
export function startUploadArchive(repoPath: string, env?: Record<string, string>): ChildProcess {
  return spawnGit(['upload-archive', repoPath], { env, stdio: ['pipe', 'pipe', 'pipe'] });
}

/**
 * The `info/refs` advertisement of a service as git answers it (without HTTP's "# service=" line):
 * `gitArgs` is how the service is started (`['upload-pack']`, or receive-pack with its `-c` options).
 * Stdout and stderr piped, no stdin.
 */
export function startRefAdvertisement(
  repoPath: string,
  gitArgs: string[],
  env?: Record<string, string>,
): ChildProcess {
  return spawnGit([...gitArgs, '--stateless-rpc', '--advertise-refs', repoPath], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
