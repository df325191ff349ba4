// A JSON array written element by element as its source yields them: the reply streams with backpressure
// and never holds the whole list (trees and compares of any size); and bytes base64-encoded as they
// stream, for JSON bodies that carry a file's content.
import type { Readable } from 'node:stream';

export async function* jsonArrayChunks(items: AsyncIterable<unknown>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const item of items) {
    yield first ? JSON.stringify(item) : `,${JSON.stringify(item)}`;
    first = false;
  }
  yield ']';
}

/** The content as base64 text, in whole 3-byte groups so the pieces join into one valid base64 text. */
export async function* base64Chunks(content: Readable): AsyncGenerator<string> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of content as AsyncIterable<Buffer>) {
    const bytes = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    const whole = bytes.length - (bytes.length % 3);
    if (whole > 0) yield bytes.subarray(0, whole).toString('base64');
    carry = bytes.subarray(whole);
  }
  if (carry.length > 0) yield carry.toString('base64');
}
