// Where a build's processes run: under bubblewrap (`bwrap`, Debian's `bubblewrap`) unless turned off. A
// sandboxed step sees the system read-only (/usr, /etc and the top-level links or dirs into them), a
// private /tmp, a minimal /dev, its own /proc of its own PID namespace (no other process, so no
// /proc/<server>/environ), and writable only its own work dir; nothing else of the machine exists for
// it: not the data dir (database, repositories, the runner's state and config), not the other builds'
// dirs, not Labrador's checkout, not /root or /home. The network is shared, so the job reaches the server
// and git over loopback. Capabilities are dropped (bwrap's default), so root inside cannot remount.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export type SandboxMode = 'bwrap' | 'off';

/** The runner exits with this when the sandbox cannot start (the server's builtin-runner reads it). */
export const SANDBOX_UNAVAILABLE_EXIT = 3;

export interface SandboxMounts {
  /** The step's working directory (inside the sandbox at the same path). */
  cwd: string;
  /** Directories the step may write (the build's work dir). */
  writable: string[];
  /** Files the step may read (its script). */
  readable: string[];
}

export interface Sandbox {
  readonly mode: SandboxMode;
  /** The command line that runs `command args` inside the sandbox. */
  wrap(command: string, args: string[], mounts: SandboxMounts): { command: string; args: string[] };
}

/** Debian's place for it; `--bwrap` names another. */
export const DEFAULT_BWRAP = '/usr/bin/bwrap';
/** Top-level entries of a merged-/usr system: links into /usr, or directories of their own. */
const SYSTEM_ENTRIES = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];

function systemMounts(): string[] {
  const args = ['--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc'];
  for (const name of SYSTEM_ENTRIES) {
    const entry = `/${name}`;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(entry), entry);
    else if (stat.isDirectory()) args.push('--ro-bind', entry, entry);
  }
  // Root inside keeps reading what root owns: the password hashes are not for builds.
  for (const secret of ['/etc/shadow', '/etc/gshadow']) {
    if (fs.existsSync(secret)) args.push('--ro-bind', '/dev/null', secret);
  }
  return args;
}

class BwrapSandbox implements Sandbox {
  readonly mode = 'bwrap' as const;
  constructor(private readonly bwrap: string) {}
  private readonly base = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...systemMounts(),
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--setenv',
    'HOME',
    '/tmp',
    '--setenv',
    'TMPDIR',
    '/tmp',
  ];

  wrap(command: string, args: string[], mounts: SandboxMounts) {
    const binds: string[] = [];
    for (const dir of mounts.writable) binds.push('--bind', dir, dir);
    for (const file of mounts.readable) binds.push('--ro-bind', file, file);
    return {
      command: this.bwrap,
      args: [...this.base, ...binds, '--chdir', mounts.cwd, '--', command, ...args],
    };
  }
}

class NoSandbox implements Sandbox {
  readonly mode = 'off' as const;
  wrap(command: string, args: string[]) {
    return { command, args };
  }
}

/**
 * The sandbox for `mode`, or why it cannot work here (bwrap missing, or refused to create namespaces):
 * a real step is run in it once, so a machine where it would fail is found before any build is taken.
 */
export function openSandbox(mode: SandboxMode, bwrap = DEFAULT_BWRAP): Sandbox | { problem: string } {
  if (mode === 'off') return new NoSandbox();
  if (!fs.existsSync(bwrap)) return { problem: `${bwrap} is missing (install Debian's bubblewrap)` };
  const sandbox = new BwrapSandbox(bwrap);
  const probe = sandbox.wrap('/bin/sh', ['-c', 'test -r /proc/self/stat'], {
    cwd: '/tmp',
    writable: [],
    readable: [],
  });
  const result = spawnSync(probe.command, probe.args, { encoding: 'utf8', timeout: 10_000 });
  if (result.status !== 0) {
    const detail = (result.stderr || result.error?.message || `exit ${result.status}`).trim().split('\n')[0];
    return { problem: `bubblewrap cannot create its namespaces here (${detail})` };
  }
  return sandbox;
}
