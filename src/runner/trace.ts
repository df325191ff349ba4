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
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly client: ProtocolClient,
    private readonly job: Pick<Job, 'id' | 'token'>,
    private readonly trace: BuildTrace,
    private readonly intervalMs: number,
    /** Called once when the server says the job no longer runs (cancelled, or gone). */
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
      await this.patch();
    } catch {
      // The server is unreachable for now: the next tick (or the final flush) sends the rest.
    }
  }

  /** Sends what the server does not hold yet; a 416 says where it stands, and we resend from there. */
  private async patch(): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const all = this.trace.bytes();
      if (this.sent >= all.length) return this.keepAlive();
      const answer = await this.client.patchTrace(this.job, this.sent, all.subarray(this.sent));
      if (answer.kind === 'ok') {
        this.sent = all.length;
        return;
      }
      if (answer.kind === 'range') {
        // More than we wrote cannot be resent: nothing to add then.
        if (answer.offset > all.length) return;
        this.sent = answer.offset;
        continue;
      }
      if (answer.kind === 'stop') return this.cancel();
      return;
    }
  }

  /**
   * Nothing new to send: a `running` update instead, whose answer (403 once cancelled) stops a quiet
   * build too, as runner 17's keep-alive updates do. Not after stop(): the final state follows then.
   */
  private async keepAlive(): Promise<void> {
    if (this.stopped) return;
    if ((await this.client.updateJob(this.job, 'running')) === 'stop') this.cancel();
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

  /** After stop(): the rest of the trace, retried a few times while the server cannot be reached. */
  async flush(): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        await this.patch();
        if (this.sent >= this.trace.bytes().length) return;
      } catch {
        // unreachable for now
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(200 * 2 ** attempt, 3000)));
    }
  }
}
