// Labrador's runner in a process of its own (the built dist/runner.mjs), pointed at a listening Labrador:
// it only ever talks to it over HTTP. Its own data dir unless one is given (a restart reuses it).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LabradorProcess, runnerEntryPoint } from './process.ts';

export interface RunnerOptions {
  url: string;
  registrationToken: string;
  dataDir?: string;
  extraArgs?: string[];
}

export class RunnerProcess extends LabradorProcess {
  constructor(
    child: ConstructorParameters<typeof LabradorProcess>[0],
    readonly dataDir: string,
  ) {
    super(child);
  }
}

/** Quick polls and trace ticks: the tests wait on states, never on fixed sleeps. */
export function spawnRunner(options: RunnerOptions): RunnerProcess {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-runner-'));
  const args = [
    runnerEntryPoint(),
    '--url',
    options.url,
    '--registration-token',
    options.registrationToken,
    '--data-dir',
    dataDir,
    '--clone-url',
    options.url,
    '--concurrency',
    '4',
    '--trace-interval-ms',
    '200',
    '--max-poll-ms',
    '300',
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), LANG: 'C' },
    stdio: 'pipe',
  });
  return new RunnerProcess(child, dataDir);
}

/**
 * Whether a live process of the group is left. Zombies do not count: a killed runner's children are
 * reaped by whoever inherits them, which in a container may be slow or never.
 */
export function groupAlive(pgid: number): boolean {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the command name in parentheses: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}
