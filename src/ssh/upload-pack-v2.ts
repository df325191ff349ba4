// git-upload-pack over SSH in protocol v2 (the client sent GIT_PROTOCOL=version=2, as git 2.26+ does),
// without a git process that lives as long as the session. A v2 request is self-contained (each
// command carries all it needs: a fetch repeats its wants and common haves every round), so after the
// capability advertisement each request is answered on its own, exactly as smart HTTP answers it:
// ls-refs from the ref files, a clone from the stored answers HTTP also uses, anything else by
// `git upload-pack --stateless-rpc`. Measured: spawning git costs the event loop 10–20 ms of fork per
// process, and a clone used to pay it for upload-pack and for pack-objects; a repeated clone now spawns
// nothing.
import type { ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import type { ServerChannel } from 'ssh2';
import { v2RequestLength } from '../git/protocol/pkt-line.ts';
import { answerUploadPackRequest, type UploadPackAnswer } from '../services/fetch/upload-pack-request.ts';
import type { SessionContext } from './git-session.ts';

/** Longest request held (a fetch's haves: 50 bytes each); a longer one ends the session. */
const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/** Whole requests as they arrive on the channel. */
class RequestReader {
  private buffered: Buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | null = null;

  constructor(input: Readable) {
    input.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.notify();
    });
    input.once('end', () => this.finish());
    input.once('close', () => this.finish());
  }

  private finish(): void {
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** The next request, or null at the end of the conversation (a flush, or the client's EOF). */
  async next(): Promise<Buffer | null> {
    for (;;) {
      const length = v2RequestLength(this.buffered);
      if (length !== null) {
        const request = this.buffered.subarray(0, length);
        this.buffered = this.buffered.subarray(length);
        return length === 4 ? null : request;
      }
      if (this.ended) {
        if (this.buffered.length > 0) throw new Error('the remote end hung up in the middle of a request');
        return null;
      }
      if (this.buffered.length > MAX_REQUEST_BYTES) throw new Error('request too long');
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/** Writes one answer to the channel; resolves with git's exit status (0 for answers without git). */
async function deliver(channel: ServerChannel, answer: UploadPackAnswer): Promise<number> {
  const { output, child } = answer;
  if (Buffer.isBuffer(output)) {
    channel.write(output);
    return 0;
  }
  const exited = child ? exitStatus(child) : Promise.resolve(0);
  child?.stderr!.pipe(channel.stderr, { end: false });
  output.pipe(channel, { end: false });
  // A closed channel takes no more data and never drains: a stored answer would stay open for good.
  const abandon = () => output.destroy();
  channel.once('close', abandon);
  const ended = await new Promise<boolean>((resolve) => {
    output.once('end', () => resolve(true));
    output.once('error', () => resolve(false));
    output.once('close', () => resolve(output.readableEnded));
  });
  channel.off('close', abandon);
  const status = await exited;
  return ended ? status : status || 128;
}

function exitStatus(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('close', (code) => resolve(code ?? 128));
    child.once('error', () => resolve(128));
  });
}

/** Serves the conversation after access was granted; resolves with the session's exit status. */
export async function serveUploadPackV2(
  context: SessionContext,
  channel: ServerChannel,
  repoPath: string,
  advertisement: Buffer,
): Promise<number> {
  const { deps, env } = context;
  const requests = new RequestReader(channel);
  let running: ChildProcess | undefined;
  // The client went away mid-answer: stop git rather than let it pack for nobody.
  channel.once('close', () => running?.exitCode === null && running.kill());
  channel.write(advertisement);
  for (;;) {
    let request: Buffer | null;
    try {
      request = await requests.next();
    } catch (error) {
      channel.stderr.write(`fatal: ${(error as Error).message}\n`);
      return 128;
    }
    if (request === null || channel.destroyed) return 0;
    const body = request;
    const answer = await answerUploadPackRequest(deps, repoPath, env, {
      start: body,
      complete: true,
      whole: () => Readable.from([body]),
    });
    running = answer.child;
    const status = await deliver(channel, answer);
    running = undefined;
    if (status !== 0) return status;
  }
}
