// What the runner keeps on this machine, under its state dir (`<data dir>/runner` unless told otherwise):
// config.json (the server's URL and this runner's token, from registering once), runner.pid (one runner
// per state dir), running/<build id>.json (the process group of each build's current step, so a restart
// ends what a killed runner left running), cache/ and builds/.
import fs from 'node:fs';
import path from 'node:path';
import { endGroup, killGroup, processStartTime } from './process-group.ts';

export interface RunnerConfigFile {
  url: string;
  id: number;
  token: string;
}

/** A build being worked: its token (to report it failed after a restart) and its current step's group. */
export interface RunningRecord {
  buildId: number;
  token: string;
  pgid?: number;
  startTime?: string;
}

function writeAtomically(file: string, content: string, mode = 0o600): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content, { mode });
  fs.renameSync(temporary, file);
}

export function readConfigFile(file: string): RunnerConfigFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<RunnerConfigFile>;
  if (typeof parsed.url !== 'string' || typeof parsed.token !== 'string') {
    throw new Error(`${file} is not a runner config (it needs "url" and "token")`);
  }
  return { url: parsed.url, id: Number(parsed.id ?? 0), token: parsed.token };
}

/** The token is a credential: the file is readable by its owner only. */
export function writeConfigFile(file: string, config: RunnerConfigFile): void {
  writeAtomically(file, `${JSON.stringify(config, null, 2)}\n`);
}

export class StateDir {
  readonly running: string;
  readonly cache: string;

  constructor(readonly dir: string) {
    this.running = path.join(dir, 'running');
    this.cache = path.join(dir, 'cache');
  }

  /** runner.pid: refuses when another live runner holds this state dir. */
  lock(): void {
    fs.mkdirSync(this.dir, { recursive: true });
    const file = path.join(this.dir, 'runner.pid');
    const holder = Number.parseInt(readOptional(file) ?? '', 10);
    if (Number.isSafeInteger(holder) && holder !== process.pid && isRunnerProcess(holder)) {
      throw new Error(`another runner (pid ${holder}) uses ${this.dir}; give this one its own --data-dir`);
    }
    writeAtomically(file, `${process.pid}\n`, 0o644);
  }

  unlock(): void {
    const file = path.join(this.dir, 'runner.pid');
    if (readOptional(file)?.trim() === String(process.pid)) fs.rmSync(file, { force: true });
  }

  record(record: RunningRecord): void {
    writeAtomically(path.join(this.running, `${record.buildId}.json`), JSON.stringify(record));
  }

  forget(buildId: number): void {
    fs.rmSync(path.join(this.running, `${buildId}.json`), { force: true });
  }

  /** Builds a previous runner left behind; their process groups are ended before this returns. */
  async endLeftovers(): Promise<RunningRecord[]> {
    let names: string[];
    try {
      names = fs.readdirSync(this.running).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
    const leftovers: RunningRecord[] = [];
    for (const name of names) {
      const file = path.join(this.running, name);
      let record: RunningRecord;
      try {
        record = JSON.parse(fs.readFileSync(file, 'utf8')) as RunningRecord;
      } catch {
        fs.rmSync(file, { force: true });
        continue;
      }
      if (record.pgid !== undefined) {
        const startTime = processStartTime(record.pgid);
        // A leader with another start time is a newer process that got the pid: not ours to end. A gone
        // leader may still have left members in its group.
        if (startTime === undefined || record.startTime === undefined || startTime === record.startTime) {
          await endGroup(record.pgid, 200);
          killGroup(record.pgid, 'SIGKILL');
        }
      }
      leftovers.push(record);
    }
    return leftovers;
  }
}

function readOptional(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A live process that looks like a runner (where /proc can tell; elsewhere any live process). */
function isRunnerProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const commandLine = readOptional(`/proc/${pid}/cmdline`);
  return commandLine === undefined || /runner/.test(commandLine);
}
