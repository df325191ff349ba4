// A build's trace: the bytes its steps print, capped at the trace limit (a note says where it was cut),
// and the streamer that sends it to the server in pieces as it grows. Every tick PATCHes what is new
// (an empty piece too: the answer's Build-Status is how a cancel reaches us); a 416 answer says how much
// the server has, and the next piece starts there; a server without PATCH gets the whole trace by PUT.
import type { ProtocolClient } from './client.ts';
import type { Job } from './job.ts';

const RED = '\x1b[31;1m';
const GREEN = '\x1b[32;1m';
const YELLOW = '\x1b[0;33m';
const RESET = '\x1b[0;m';

export class BuildTrace {
  private buffer = Buffer.alloc(64 * 1024);
  private used = 0;
  private cut = false;

  constructor(private readonly limit: number) {}

  get length(): number {
    return this.used;
  }

  write(data: Buffer | string): void {
    if (this.cut) return;
    let bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (this.used + bytes.length > this.limit) {
      bytes = bytes.subarray(0, Math.max(this.limit - this.used, 0));
      this.cut = true;
    }
    this.append(bytes);
    if (this.cut) {
      this.append(Buffer.from(`\n${RED}Build log exceeded limit of ${this.limit} bytes.${RESET}\n`));
    }
  }

  private append(bytes: Buffer): void {
    if (this.used + bytes.length > this.buffer.length) {
      const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.used + bytes.length));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    bytes.copy(this.buffer, this.used);
    this.used += bytes.length;
  }

  /** A line of the runner's own, in gitlab-runner's colours. */
  notice(message: string): void {
    this.write(`${GREEN}${message}${RESET}\n`);
  }

  warning(message: string): void {
    this.write(`${YELLOW}${message}${RESET}\n`);
  }

  error(message: string): void {
    this.write(`${RED}${message}${RESET}\n`);
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.used);
  }

  toString(): string {
    return this.bytes().toString('utf8');
  }
}

export class TraceStreamer {
  private sent = 0;
  private incremental = true;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly client: ProtocolClient,
    private readonly runnerToken: string,
    private readonly job: Pick<Job, 'id' | 'token'>,
    private readonly trace: BuildTrace,
    private readonly intervalMs: number,
    /** Called once when the server says the build is canceled (or gone). */
    private readonly onCanceled: () => void,
  ) {}

  start(): void {
    this.schedule(this.intervalMs);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => this.schedule(this.intervalMs));
    }, delay);
  }

  private async tick(): Promise<void> {
    try {
      if (this.incremental) await this.patch();
      else await this.put();
    } catch {
      // The server is unreachable for now: the next tick tries again, the final update sends everything.
    }
  }

  private async patch(): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const all = this.trace.bytes();
      const answer = await this.client.patchTrace(this.job, this.sent, all.subarray(this.sent));
      if (answer.kind === 'ok') {
        this.sent = all.length;
        if (answer.canceled) this.cancel();
        return;
      }
      if (answer.kind === 'range') {
        if (answer.canceled) return this.cancel();
        // The server holds a different amount: resend from where it stands, or all at once by PUT.
        if (answer.offset > all.length) {
          this.incremental = false;
          return this.put();
        }
        this.sent = answer.offset;
        continue;
      }
      if (answer.kind === 'not-found') {
        this.incremental = false;
        return this.put();
      }
      if (answer.kind === 'aborted') return this.cancel();
      return;
    }
  }

  private async put(): Promise<void> {
    const outcome = await this.client.updateBuild(
      this.runnerToken,
      this.job.id,
      'running',
      this.trace.toString(),
    );
    if (outcome === 'not-found') this.cancel();
  }

  private cancel(): void {
    if (this.stopped) return;
    this.onCanceled();
  }

  /** Stops ticking (a tick in flight finishes first). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
  }
}
