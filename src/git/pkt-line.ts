// The ref-update commands at the start of a receive-pack request ("<old> <new> <ref>" pkt-lines up to
// the first flush), read while the request streams through: the push is on record before git sees the
// pack, and the pack itself is never held in memory.
import { Transform, type TransformCallback } from 'node:stream';

export interface RefUpdate {
  before: string;
  after: string;
  ref: string;
}

/** Longest command section we accept (thousands of refs); anything past it is not a git client. */
const MAX_COMMANDS_BYTES = 4 * 1024 * 1024;

/**
 * Parses complete pkt-lines from the start of `buffer`. Returns the commands and the offset just past
 * the flush packet, or null while more bytes are needed.
 */
function parseCommands(buffer: Buffer): { commands: RefUpdate[]; end: number } | null {
  const commands: RefUpdate[] = [];
  let offset = 0;
  while (offset + 4 <= buffer.length) {
    const length = parseInt(buffer.toString('latin1', offset, offset + 4), 16);
    if (Number.isNaN(length)) throw new Error('malformed pkt-line');
    if (length === 0) return { commands, end: offset + 4 };
    if (length < 4) throw new Error('malformed pkt-line');
    if (offset + length > buffer.length) return null;
    let line = buffer.toString('utf8', offset + 4, offset + length);
    offset += length;
    const nul = line.indexOf('\0');
    if (nul !== -1) line = line.slice(0, nul);
    line = line.replace(/\n$/, '');
    const match = /^([0-9a-f]{40}) ([0-9a-f]{40}) (.+)$/.exec(line);
    // shallow lines and push certificates are not ref updates
    if (match) commands.push({ before: match[1], after: match[2], ref: match[3] });
  }
  return null;
}

/**
 * Passes the request through unchanged, but holds it back until the command section has been read and
 * `onCommands` has finished (the pending push is committed before receive-pack can move a ref).
 */
export class RefUpdateReader extends Transform {
  private buffered: Buffer[] = [];
  private size = 0;
  private done = false;

  constructor(private readonly onCommands: (commands: RefUpdate[]) => Promise<void>) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.done) return callback(null, chunk);
    this.buffered.push(chunk);
    this.size += chunk.length;
    let parsed: ReturnType<typeof parseCommands>;
    const all = Buffer.concat(this.buffered);
    this.buffered = [all];
    try {
      parsed = parseCommands(all);
    } catch (error) {
      return callback(error as Error);
    }
    if (!parsed) {
      if (this.size > MAX_COMMANDS_BYTES) return callback(new Error('ref-update section too large'));
      return callback();
    }
    this.release(parsed.commands, callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.done) return callback();
    // The body ended before a flush packet: nothing was committed to, let receive-pack say what is wrong.
    this.done = true;
    if (this.size > 0) this.push(Buffer.concat(this.buffered));
    callback();
  }

  private release(commands: RefUpdate[], callback: TransformCallback): void {
    this.done = true;
    this.onCommands(commands).then(
      () => {
        const all = Buffer.concat(this.buffered);
        this.buffered = [];
        callback(null, all);
      },
      (error: Error) => callback(error),
    );
  }
}
