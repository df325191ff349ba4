// The ref advertisement of `git receive-pack --stateless-rpc --advertise-refs` (gitprotocol-pack, v0:
// receive-pack has no v2), built from the ref files instead of a git process: every ref under refs/ in
// git's order, the first line carrying "\0<capabilities>", an empty repository a "capabilities^{}" line.
// The capabilities depend only on the git binary and the configuration git reads, so they are taken
// once per configuration from a real git run and kept. Repositories git would answer differently for
// (alternates advertised as ".have", shallow roots, hidden refs, odd ref files) are left to git.
import fs from 'node:fs';
import path from 'node:path';
import { BoundedMap } from '../../lib/bounded-map.ts';
import { gitConfigState } from '../config-state.ts';
import { runGit } from '../exec.ts';
import { FLUSH, pktLine } from './pkt-lines-out.ts';
import { readRefFiles } from '../ref-files.ts';
import { BLANK_SHA } from '../../domain/types.ts';

/** Distinct configurations remembered (repositories made by Labrador share one). */
const MAX_ENTRIES = 64;
const capabilitiesByConfig = new BoundedMap<string, string>(MAX_ENTRIES);

/** The capability list from the first pkt-line of git's advertisement ("<oid> <ref>\0<caps>\n"). */
function capabilitiesOf(advertisement: Buffer): string | null {
  const length = parseInt(advertisement.toString('latin1', 0, 4), 16);
  if (!(length > 4) || length > advertisement.length) return null;
  const line = advertisement.toString('latin1', 4, length);
  const nul = line.indexOf('\0');
  if (nul === -1 || !line.endsWith('\n')) return null;
  return line.slice(nul + 1, -1);
}

/**
 * The advertisement (without the HTTP "# service=" preamble), or null when this request should run
 * git as before. `gitArgs` is how receive-pack is started (its `-c` options), used when the capabilities
 * for this configuration are not known yet: that request gets git's own answer.
 */
export async function receivePackAdvertisement(repoPath: string, gitArgs: string[]): Promise<Buffer | null> {
  const config = await gitConfigState(repoPath);
  // Synchronous for the reason ref-files.ts gives.
  const alternates = fs.existsSync(path.join(repoPath, 'objects', 'info', 'alternates'));
  if (!config.plain || alternates || fs.existsSync(path.join(repoPath, 'shallow'))) return null;
  const capabilities = capabilitiesByConfig.get(config.key);
  if (capabilities === undefined) {
    const result = await runGit([...gitArgs, '--stateless-rpc', '--advertise-refs', repoPath]);
    const learned = result.code === 0 ? capabilitiesOf(result.stdout) : null;
    if (learned === null) return null;
    capabilitiesByConfig.set(config.key, learned);
    return result.stdout;
  }
  const files = readRefFiles(repoPath);
  if (!files) return null;
  const lines: Buffer[] = [];
  if (files.refs.length === 0) lines.push(pktLine(`${BLANK_SHA} capabilities^{}\0${capabilities}\n`));
  files.refs.forEach((ref, index) => {
    lines.push(pktLine(`${ref.oid} ${ref.name}${index === 0 ? `\0${capabilities}` : ''}\n`));
  });
  lines.push(FLUSH);
  return Buffer.concat(lines);
}
