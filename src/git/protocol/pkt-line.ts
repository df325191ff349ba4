// Reading pkt-lines: whole small request bodies (ls-refs, a clone's wants), and the ref-update commands
// at the start of a receive-pack request ("<old> <new> <ref>" pkt-lines up to the first flush), read
// while the request streams through: the push is on record before git can apply it, and the pack itself
// is never held in memory.
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
function parseCommands(
  buffer: Buffer,
): { commands: RefUpdate[]; capabilities: string[]; end: number } | null {
  const commands: RefUpdate[] = [];
  let capabilities: string[] | null = null;
  let offset = 0;
  while (offset + 4 <= buffer.length) {
    const length = parseInt(buffer.toString('latin1', offset, offset + 4), 16);
    if (Number.isNaN(length)) throw new Error('malformed pkt-line');
    if (length === 0) return { commands, capabilities: capabilities ?? [], end: offset + 4 };
    if (length < 4) throw new Error('malformed pkt-line');
    if (offset + length > buffer.length) return null;
    let line = buffer.toString('utf8', offset + 4, offset + length);
    offset += length;
    const nul = line.indexOf('\0');
    if (nul !== -1) {
      // The client's capabilities follow the first command, after a NUL.
      capabilities ??= line
        .slice(nul + 1)
        .replace(/\n$/, '')
        .split(' ')
        .filter(Boolean);
      line = line.slice(0, nul);
    }
    line = line.replace(/\n$/, '');
    const match = /^([0-9a-f]{40}) ([0-9a-f]{40}) (.+)$/.exec(line);
    // shallow lines and push certificates are not ref updates
    if (match) commands.push({ before: match[1], after: match[2], ref: match[3] });
  }
  return null;
}

/**
 * Bytes kept from receive-pack until `onCommands` has finished. Without the last bytes of the request git
 * cannot move a ref: a pack is checked against its trailing checksum (20 bytes; 32 with SHA-256) before
 * anything is applied, and a request without a pack (deletions) ends with the flush packet that
 * closes its command list.
 */
const HELD_BYTES = 32;

/**
 * Passes the request through unchanged while it reads the command section; `onCommands` then runs (the
 * pending push is committed) while git already receives the pack, all but its last HELD_BYTES, which
 * follow once `onCommands` has finished. So no ref can move before the push is on record, and recording
 * it costs the client nothing: git is unpacking meanwhile.
 */
export class RefUpdateReader extends Transform {
  private buffered: Buffer[] = [];
  private size = 0;
  private done = false;
  /** While `onCommands` runs: the bytes not yet passed on, at most HELD_BYTES. */
  private held: Buffer | null = null;
  /** The end of the request, when it came while `onCommands` was still running. */
  private flushed: TransformCallback | null = null;

  constructor(private readonly onCommands: (commands: RefUpdate[], capabilities: string[]) => Promise<void>) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.held) return this.holdBack(chunk, callback);
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
    this.release(parsed.commands, parsed.capabilities, all, callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.held) {
      this.flushed = callback;
      return;
    }
    if (this.done) return callback();
    // The body ended before a flush packet: nothing was committed to, let receive-pack say what is wrong.
    this.done = true;
    if (this.size > 0) this.push(Buffer.concat(this.buffered));
    callback();
  }

  private holdBack(chunk: Buffer, callback: TransformCallback): void {
    const joined = Buffer.concat([this.held!, chunk]);
    const passed = Math.max(0, joined.length - HELD_BYTES);
    this.held = joined.subarray(passed);
    callback(null, passed > 0 ? joined.subarray(0, passed) : undefined);
  }

  private release(
    commands: RefUpdate[],
    capabilities: string[],
    all: Buffer,
    callback: TransformCallback,
  ): void {
    this.done = true;
    this.buffered = [];
    this.held = Buffer.alloc(0);
    this.onCommands(commands, capabilities).then(
      () => {
        const rest = this.held!;
        this.held = null;
        if (rest.length > 0) this.push(rest);
        this.flushed?.();
      },
      (error: Error) => {
        this.held = null;
        if (this.flushed) this.flushed(error);
        else this.destroy(error);
      },
    );
    this.holdBack(all, callback);
  }
}

export type Packet = string | 'flush' | 'delim';

/** The pkt-lines of a whole body (one trailing newline of each dropped, as git's reader does), or null. */
export function readPackets(body: Buffer): Packet[] | null {
  const out: Packet[] = [];
  let offset = 0;
  while (offset < body.length) {
    if (offset + 4 > body.length) return null;
    const hex = body.toString('latin1', offset, offset + 4);
    if (!/^[0-9a-f]{4}$/.test(hex)) return null;
    const length = parseInt(hex, 16);
    if (length === 0) out.push('flush');
    else if (length === 1) out.push('delim');
    else if (length < 5 || offset + length > body.length) return null;
    else {
      const line = body.toString('latin1', offset + 4, offset + length);
      out.push(line.endsWith('\n') ? line.slice(0, -1) : line);
    }
    offset += length < 4 ? 4 : length;
  }
  return out;
}

/**
 * True for a whole fetch request that sends wants and "done" but no "have" (a clone: protocol v2
 * `command=fetch`, or v0).
 */
export function isFullFetchRequest(body: Buffer): boolean {
  const lines = readPackets(body);
  if (!lines) return false;
  let wants = 0;
  let done = false;
  for (const line of lines) {
    if (line.startsWith('command=') && line !== 'command=fetch') return false;
    if (line.startsWith('have ')) return false;
    if (line.startsWith('want ')) wants++;
    if (line === 'done') done = true;
  }
  return wants > 0 && done;
}

/**
 * The length of the protocol v2 request at the start of `buffer`: its pkt-lines up to and including
 * the flush packet that ends it (a lone flush, 4 bytes, is how a client ends the conversation). Null
 * while more bytes are needed; throws on bytes that are not pkt-lines.
 */
export function v2RequestLength(buffer: Buffer): number | null {
  let offset = 0;
  while (offset + 4 <= buffer.length) {
    const hex = buffer.toString('latin1', offset, offset + 4);
    if (!/^[0-9a-f]{4}$/.test(hex)) throw new Error('malformed pkt-line');
    const length = parseInt(hex, 16);
    if (length === 0) return offset + 4;
    // 0001 (delimiter) and 0002 (response end) are bare 4-byte packets; 0003 is never valid.
    if (length === 3) throw new Error('malformed pkt-line');
    offset += length < 4 ? 4 : length;
  }
  return null;
}
