// The first bytes of a request body read ahead, to decide whether git is needed at all, without losing
// them: when it is, git gets those bytes followed by the rest of the body, exactly as sent.
import { PassThrough, pipeline, type Readable } from 'node:stream';

export interface RequestStart {
  bytes: Buffer;
  /** The whole body is in `bytes`. */
  complete: boolean;
}

/**
 * Reads until `enough(bytes)` is true, `max` bytes are held, or the body ends. The stream is left
 * paused for `rest`.
 */
export function readRequestStart(
  body: Readable,
  enough: (bytes: Buffer) => boolean,
  max: number,
): Promise<RequestStart> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const finish = (complete: boolean) => {
      body.pause();
      cleanup();
      resolve({ bytes: Buffer.concat(chunks), complete });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= max || enough(chunks.length === 1 ? chunk : Buffer.concat(chunks))) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    if (body.readableEnded) return resolve({ bytes: Buffer.alloc(0), complete: true });
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
  });
}

/** The whole body again: the bytes read ahead, then whatever is still to come. */
export function wholeBody(body: Readable, start: RequestStart): Readable {
  const out = new PassThrough();
  out.write(start.bytes);
  // The end may have come (and been emitted) just after the read-ahead stopped.
  if (start.complete || body.readableEnded) out.end();
  else pipeline(body, out, () => {});
  return out;
}
