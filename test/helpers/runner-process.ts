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

/** Whether any process of the group is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
