// What an object peels to: for an annotated tag, the first object down its chain that is not a tag; for
// anything else, nothing. An object's type never changes and its name is a hash of its content, so the
// answer is the same in every repository that has the object and is kept for all of them. Objects not
// seen before are asked of git with ONE `cat-file --batch-check` for all of them.
import { BoundedMap } from '../lib/bounded-map.ts';
import { runGit } from './exec.ts';

/** Objects remembered (~150 bytes each). */
const MAX_ENTRIES = 100_000;
/** oid → the object it peels to, or null for an object that is not a tag. */
const peeledByOid = new BoundedMap<string, string | null>(MAX_ENTRIES);

/** Tell the cache what is already known from elsewhere (packed-refs' "^" lines). */
export function rememberPeeled(oid: string, peeled: string | null): void {
  if (!peeledByOid.has(oid)) peeledByOid.set(oid, peeled);
}

/**
 * What each of `oids` peels to (null: not a tag), or null when git could not say for all of them (a
 * missing object: the caller lets git answer the whole request).
 */
export async function peeledObjects(
  repoPath: string,
  oids: Iterable<string>,
): Promise<Map<string, string | null> | null> {
  const result = new Map<string, string | null>();
  const missing: string[] = [];
  for (const oid of oids) {
    const known = peeledByOid.get(oid);
    if (known !== undefined) result.set(oid, known);
    else if (!result.has(oid)) missing.push(oid);
  }
  if (missing.length === 0) return result;
  const unique = [...new Set(missing)];
  // Each object and its fully peeled self ("X^{}" is X for anything but a tag).
  const input = unique.map((oid) => `${oid}\n${oid}^{}\n`).join('');
  const out = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    cwd: repoPath,
    input,
  });
  if (out.code !== 0) return null;
  const lines = out.stdout.toString('latin1').split('\n');
  for (let i = 0; i < unique.length; i++) {
    const [oid, type] = (lines[2 * i] ?? '').split(' ');
    const [peeled] = (lines[2 * i + 1] ?? '').split(' ');
    if (oid !== unique[i] || type === 'missing' || !/^[0-9a-f]{40}$/.test(peeled)) return null;
    const value = type === 'tag' ? peeled : null;
    peeledByOid.set(oid, value);
    result.set(oid, value);
  }
  return result;
}
