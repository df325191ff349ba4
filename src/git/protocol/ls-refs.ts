// The protocol v2 `ls-refs` command of upload-pack (gitprotocol-v2), answered from the ref files
// instead of a git process: what `git clone`, `fetch` and `ls-remote` of git 2.26+ ask first. The answer
// is git 2.39's: HEAD first (when it exists, or as "unborn HEAD" when the client asked for unborn and
// symrefs), then the refs under the requested prefixes in git's order, with " symref-target:" for
// symbolic refs when "symrefs" was asked and " peeled:" for annotated tags when "peel" was. A request
// this does not understand exactly, or a repository git would answer differently for, gets null: the
// caller then hands the request to git.
import { gitConfigState } from '../config-state.ts';
import { peeledObjects, rememberPeeled } from '../object-peel.ts';
import { FLUSH, pktLine } from './pkt-lines-out.ts';
import { readPackets } from './pkt-line.ts';
import { readRefFiles, type RefFile } from '../ref-files.ts';

export interface LsRefsRequest {
  peel: boolean;
  symrefs: boolean;
  unborn: boolean;
  /** Empty: every ref. */
  prefixes: string[];
}

/** git ignores the prefixes altogether past this many (ls-refs.c); such a request is git's to answer. */
const TOO_MANY_PREFIXES = 65536;

/** Whether the body starts with an ls-refs command (its first pkt-line), judged on its first bytes. */
export function startsWithLsRefs(start: Buffer): boolean | undefined {
  if (start.length < 4) return undefined;
  const length = parseInt(start.toString('latin1', 0, 4), 16);
  if (!(length >= 4)) return false;
  if (start.length < length) return undefined;
  return /^command=ls-refs\n?$/.test(start.toString('latin1', 4, length));
}

/** A complete ls-refs request body, or null for anything else or anything unusual. */
export function parseLsRefsRequest(body: Buffer): LsRefsRequest | null {
  const lines = readPackets(body);
  if (!lines || lines[0] !== 'command=ls-refs') return null;
  let index = 1;
  // Client capabilities that do not change the answer (a sha-1 repository is checked by the caller).
  while (
    typeof lines[index] === 'string' &&
    /^(agent=[!-~]+|session-id=[!-~]+|object-format=sha1)$/.test(lines[index] as string)
  ) {
    index++;
  }
  const request: LsRefsRequest = { peel: false, symrefs: false, unborn: false, prefixes: [] };
  if (lines[index] === 'delim') {
    for (
      index++;
      typeof lines[index] === 'string' && !['flush', 'delim', 'end'].includes(lines[index]);
      index++
    ) {
      const arg = lines[index] as string;
      if (arg === 'peel') request.peel = true;
      else if (arg === 'symrefs') request.symrefs = true;
      else if (arg === 'unborn') request.unborn = true;
      else if (arg.startsWith('ref-prefix ')) request.prefixes.push(arg.slice('ref-prefix '.length));
      else return null;
    }
  }
  // One request, ending with its flush packet and nothing after it.
  if (lines[index] !== 'flush' || index !== lines.length - 1) return null;
  if (request.prefixes.length >= TOO_MANY_PREFIXES) return null;
  return request;
}

interface Listed {
  name: string;
  oid: string | null;
  symref?: string;
  peeled?: string | null;
}

/** The pkt-line answer to `request`, or null when git should answer it. */
export async function lsRefsAnswer(repoPath: string, request: LsRefsRequest): Promise<Buffer | null> {
  // hideRefs and lsrefs.unborn settings change the answer (config-state.ts): git's to apply.
  const config = await gitConfigState(repoPath);
  const files = readRefFiles(repoPath);
  if (!config.plain || !files) return null;
  const wanted = (name: string) =>
    request.prefixes.length === 0 || request.prefixes.some((prefix) => name.startsWith(prefix));
  const listed: Listed[] = [];
  const { head } = files;
  // An unborn HEAD is listed only to a client that asked for it, with its target (git 2.39 ls-refs.c).
  if (wanted('HEAD') && (head.oid !== null || (request.unborn && request.symrefs && head.symref))) {
    listed.push({ name: 'HEAD', oid: head.oid, symref: head.symref });
  }
  listed.push(...files.refs.filter((ref: RefFile) => wanted(ref.name)));
  let peeled = new Map<string, string | null>();
  if (request.peel) {
    const unknown: string[] = [];
    for (const ref of listed) {
      if (ref.oid === null) continue;
      if (ref.peeled !== undefined) rememberPeeled(ref.oid, ref.peeled);
      else unknown.push(ref.oid);
    }
    const found = await peeledObjects(repoPath, unknown);
    if (!found) return null;
    peeled = found;
  }
  const lines = listed.map((ref) => {
    let line = ref.oid === null ? `unborn ${ref.name}` : `${ref.oid} ${ref.name}`;
    if (request.symrefs && ref.symref) line += ` symref-target:${ref.symref}`;
    if (request.peel && ref.oid !== null) {
      const target = ref.peeled !== undefined ? ref.peeled : peeled.get(ref.oid);
      if (target) line += ` peeled:${target}`;
    }
    return pktLine(`${line}\n`);
  });
  return Buffer.concat([...lines, FLUSH]);
}
