// Every step of a build (git, the script, after_script) runs in a process group of its own, so a cancel,
// a timeout or the runner stopping can end it with everything it started, and so a terminal's Ctrl-C
// reaches the runner, not the builds. The group is recorded (by the caller) before anything else happens,
// so a runner killed mid-build can end it after a restart.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

export interface StepResult {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Step {
  pgid: number;
  done: Promise<StepResult>;
}

export interface StepOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  output: (chunk: Buffer) => void;
}

/** Starts `command` as the leader of a new process group (and session); its output goes to `output`. */
export function startStep(command: string, args: string[], options: StepOptions): Step {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', options.output);
  child.stderr.on('data', options.output);
  const done = new Promise<StepResult>((resolve) => {
    child.once('error', (error) => {
      options.output(Buffer.from(`${error.message}\n`));
      resolve({ code: 127, signal: null });
    });
    child.once('exit', (code, signal) => {
      // What the step left behind in the background would hold the build (and its output pipes) open.
      killGroup(child.pid!, 'SIGKILL');
      child.once('close', () => resolve({ code, signal }));
    });
  });
  return { pgid: child.pid ?? -1, done };
}

/** Signals every process of the group; false when none is left. */
export function killGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  if (pgid <= 0) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the group, then SIGKILL to whatever is left after `graceMs`. */
export async function endGroup(pgid: number, graceMs = 1000): Promise<void> {
  if (!killGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (!killGroup(pgid, 0)) return;
  }
  killGroup(pgid, 'SIGKILL');
}

/**
 * When a process started (from /proc, in clock ticks since boot): with the pid, it tells a recorded
 * process from a later one that got the same pid. Undefined where there is no /proc or no such process.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (in parentheses) may hold spaces: fields are counted after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
