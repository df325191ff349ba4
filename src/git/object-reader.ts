// One `git cat-file --batch-command` for all the objects a page reads (its commit, a directory, a file,
// a README): each `info` or `contents` question is written to the same process and its answer read back
// in order, so a page costs one git process however many objects it looks at. The owner closes it
// (withObjectReader does), which ends git.
import type { ChildProcess } from 'node:child_process';
import { spawnGit } from './exec.ts';
import { isOverlongName } from './name-limits.ts';
import type { ObjectInfo, ObjectType } from './revisions.ts';

export interface ObjectContents extends ObjectInfo {
  body: Buffer;
}

interface Question {
  kind: 'info' | 'contents';
  resolve(answer: ObjectContents | ObjectInfo | undefined): void;
  reject(error: Error): void;
}

export class ObjectReader {
  private child: ChildProcess | undefined;
  private readonly waiting: Question[] = [];
  private pending: Buffer = Buffer.alloc(0);
  private failure: Error | undefined;

  constructor(private readonly repoPath: string) {}

  /** What `spec` (an id, `<commit>:<path>`, `<rev>^{tree}`) names: id, type and size; undefined if nothing. */
  info(spec: string): Promise<ObjectInfo | undefined> {
    return this.ask('info', spec) as Promise<ObjectInfo | undefined>;
  }

  /** The object `spec` names with its bytes; undefined if nothing. */
  contents(spec: string): Promise<ObjectContents | undefined> {
    return this.ask('contents', spec) as Promise<ObjectContents | undefined>;
  }

  close(): void {
    this.child?.stdin?.end();
    this.child = undefined;
  }

  private ask(kind: Question['kind'], spec: string): Promise<ObjectContents | ObjectInfo | undefined> {
    // A name git could not hold, or one that would end the command line early, names nothing.
    if (spec === '' || /[\0\n]/.test(spec) || isOverlongName(spec)) return Promise.resolve(undefined);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ kind, resolve, reject });
      this.process().stdin!.write(`${kind} ${spec}\n`);
    });
  }

  private process(): ChildProcess {
    if (this.child) return this.child;
    const child = spawnGit(['cat-file', '--batch-command'], {
      cwd: this.repoPath,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
      this.answer();
    });
    child.stdin!.on('error', () => {});
    const fail = (error: Error) => {
      this.failure = error;
      for (const question of this.waiting.splice(0)) question.reject(error);
    };
    child.on('error', fail);
    child.on('close', (code) => {
      if (this.waiting.length > 0) fail(new Error(`git cat-file failed (${code}): ${stderr.trim()}`));
    });
    this.child = child;
    return child;
  }

  /** Answers the questions whose whole answer has arrived, oldest first. */
  private answer(): void {
    while (this.waiting.length > 0) {
      const newline = this.pending.indexOf(10);
      if (newline === -1) return;
      const [id, type, size] = this.pending.subarray(0, newline).toString().split(' ');
      const question = this.waiting[0];
      if (size === undefined) {
        // "<spec> missing" or "<spec> ambiguous": nothing follows.
        this.pending = this.pending.subarray(newline + 1);
        this.waiting.shift();
        question.resolve(undefined);
        continue;
      }
      const info: ObjectInfo = { id, type: type as ObjectType, size: Number(size) };
      if (question.kind === 'info') {
        this.pending = this.pending.subarray(newline + 1);
        this.waiting.shift();
        question.resolve(info);
        continue;
      }
      const end = newline + 1 + info.size;
      if (this.pending.length < end + 1) return;
      const body = Buffer.from(this.pending.subarray(newline + 1, end));
      this.pending = this.pending.subarray(end + 1);
      this.waiting.shift();
      question.resolve({ ...info, body });
    }
  }
}

/** Runs `use` with a reader of the repository, closing it afterwards whatever happens. */
export async function withObjectReader<T>(
  repoPath: string,
  use: (reader: ObjectReader) => Promise<T>,
): Promise<T> {
  const reader = new ObjectReader(repoPath);
  try {
    return await use(reader);
  } finally {
    reader.close();
  }
}
