// The answer to a push that the server refuses itself, before receive-pack could say anything (its
// record could not be written: a full disk, a database gone): the report receive-pack would have sent
// with every command rejected for `reason`, and the reason once more as a `remote:` line, in side-band
// packets when the client asked for them. The client prints `! [remote rejected] <ref> (<reason>)`.
import { FLUSH, pktLine } from './pkt-lines-out.ts';

/** Data bytes per side-band packet: side-band-64k allows 65520 with header, side-band 1000. */
const BAND_DATA = { 'side-band-64k': 65515, 'side-band': 995 } as const;

export function pushRefusal(refs: string[], capabilities: string[], reason: string): Buffer {
  const oneLine = reason.replace(/[\r\n]+/g, ' ');
  const report = capabilities.some((capability) => capability.startsWith('report-status'))
    ? Buffer.concat([pktLine('unpack ok\n'), ...refs.map((ref) => pktLine(`ng ${ref} ${oneLine}\n`)), FLUSH])
    : Buffer.alloc(0);
  const band = capabilities.includes('side-band-64k')
    ? 'side-band-64k'
    : capabilities.includes('side-band')
      ? 'side-band'
      : null;
  if (band === null) return report;
  const packets = [pktLine(Buffer.from(`\x02${oneLine}\n`, 'utf8'))];
  for (let at = 0; at < report.length; at += BAND_DATA[band]) {
    packets.push(pktLine(Buffer.concat([Buffer.from([1]), report.subarray(at, at + BAND_DATA[band])])));
  }
  return Buffer.concat([...packets, FLUSH]);
}
