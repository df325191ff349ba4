// receive-pack's own answer to a push (report-status: "unpack ok", then "ok <ref>" or "ng <ref> <why>"
// per command, then a flush), read from its output while that output goes to the client unchanged. It
// says which commands were applied without looking at the refs afterwards. Only the report is kept: the
// ref advertisement before it (SSH) and side-band progress are skipped a pkt-line at a time (at most
// 65520 bytes each), so a large output is never held.

export interface ReportedCommand {
  ref: string;
  ok: boolean;
}

export interface PushReport {
  unpackOk: boolean;
  commands: ReportedCommand[];
}

export interface PushReportOptions {
  /** Not stateless (SSH): the output starts with the ref advertisement, up to its flush. */
  advertisementFirst: boolean;
  /** The capabilities the client asked for, known once its commands have been read. */
  capabilities: () => readonly string[] | null;
  /** Called once, as soon as a complete report has passed. */
  onReport: (report: PushReport) => void;
}

const MAX_PKT_LENGTH = 65520;
/** A report of more than this (hundreds of thousands of refs) is left to the fallback. */
const MAX_REPORT_BYTES = 16 * 1024 * 1024;

type Packet = Buffer | null; // null: a flush packet

/** Splits bytes into pkt-lines, keeping only the incomplete last one between writes. */
class PktLineSplitter {
  private pending: Buffer = Buffer.alloc(0);

  /** The complete packets in `chunk` (and what was pending), or null when the bytes are not pkt-lines. */
  split(chunk: Buffer): Packet[] | null {
    const data = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const packets: Packet[] = [];
    let offset = 0;
    while (offset + 4 <= data.length) {
      const header = data.toString('latin1', offset, offset + 4);
      if (!/^[0-9a-f]{4}$/i.test(header)) return null;
      const length = parseInt(header, 16);
      if (length === 0) {
        packets.push(null);
        offset += 4;
        continue;
      }
      if (length < 4 || length > MAX_PKT_LENGTH) return null;
      if (offset + length > data.length) break;
      packets.push(data.subarray(offset + 4, offset + length));
      offset += length;
    }
    // A copy, so a large chunk is not kept alive for its last few bytes.
    this.pending = Buffer.from(data.subarray(offset));
    return packets;
  }
}

export class PushReportParser {
  private phase: 'advertisement' | 'report' | 'done' | 'failed';
  private readonly outer = new PktLineSplitter();
  private readonly inner = new PktLineSplitter();
  /** null until the first report packet decides it from the client's capabilities. */
  private sideband: boolean | null = null;
  private unpackOk: boolean | null = null;
  private readonly commands: ReportedCommand[] = [];
  private reportBytes = 0;

  constructor(private readonly options: PushReportOptions) {
    this.phase = options.advertisementFirst ? 'advertisement' : 'report';
  }

  /** Feeds the next bytes of receive-pack's output. */
  write(chunk: Buffer): void {
    if (this.phase === 'done' || this.phase === 'failed') return;
    const packets = this.outer.split(chunk);
    if (!packets) return this.fail();
    for (const packet of packets) {
      if (this.phase === 'advertisement') {
        if (packet === null) this.phase = 'report';
      } else if (this.phase === 'report') {
        this.reportPacket(packet);
      } else {
        return;
      }
    }
  }

  private fail(): void {
    this.phase = 'failed';
  }

  private reportPacket(packet: Packet): void {
    if (this.sideband === null) {
      const capabilities = this.options.capabilities();
      if (!capabilities) return this.fail();
      if (!capabilities.includes('report-status') && !capabilities.includes('report-status-v2')) {
        return this.fail();
      }
      this.sideband = capabilities.includes('side-band-64k') || capabilities.includes('side-band');
    }
    if (!this.sideband) return this.reportLine(packet);
    // The final flush of the side-band stream comes after the report: reaching it first means no report.
    if (packet === null || packet.length === 0) return this.fail();
    const band = packet[0];
    if (band === 2) return; // progress
    if (band !== 1) return this.fail(); // 3: a fatal error
    const lines = this.inner.split(packet.subarray(1));
    if (!lines) return this.fail();
    for (const line of lines) {
      if (this.phase !== 'report') return;
      this.reportLine(line);
    }
  }

  private reportLine(packet: Packet): void {
    if (packet === null) {
      if (this.unpackOk === null) return this.fail();
      this.phase = 'done';
      return this.options.onReport({ unpackOk: this.unpackOk, commands: this.commands });
    }
    this.reportBytes += packet.length;
    if (this.reportBytes > MAX_REPORT_BYTES) return this.fail();
    const line = packet.toString('utf8').replace(/\n$/, '');
    if (this.unpackOk === null) {
      if (!line.startsWith('unpack ')) return this.fail();
      this.unpackOk = line === 'unpack ok';
      return;
    }
    if (line.startsWith('ok ')) {
      this.commands.push({ ref: line.slice(3), ok: true });
    } else if (line.startsWith('ng ')) {
      const rest = line.slice(3);
      const space = rest.indexOf(' ');
      this.commands.push({ ref: space === -1 ? rest : rest.slice(0, space), ok: false });
    } else {
      // "option …" lines (report-status-v2) come only from a proc-receive hook rewriting a ref, which
      // this server does not configure: the report does not say plainly what moved.
      return this.fail();
    }
  }
}

/**
 * The commands the report says were applied, or null when the report does not answer the commands one
 * for one (then the refs themselves must say).
 */
export function reportedApplied<T extends { ref: string }>(commands: T[], report: PushReport): T[] | null {
  if (report.commands.length !== commands.length) return null;
  if (report.commands.some((reported, i) => reported.ref !== commands[i]!.ref)) return null;
  return commands.filter((_, i) => report.commands[i]!.ok);
}
