// The lines of one file's patch numbered as GitLab 8.13's Gitlab::Diff::Parser numbered them, and their
// line codes (Gitlab::Diff::LineCode: `<sha1 of the path>_<old line>_<new line>`), which is how a comment
// on a commit's diff line names its line.
import { createHash } from 'node:crypto';

export interface DiffLine {
  /** `new` (added), `old` (removed), null (context), `match` (a hunk header), `nonewline`. */
  type: 'new' | 'old' | 'match' | 'nonewline' | null;
  oldPos: number;
  newPos: number;
}

/** Header lines the parser skips (it matched prefixes, so a removed `-- a…` line is skipped too). */
const FILE_NAME_PREFIXES = [
  '--- /dev/null',
  '+++ /dev/null',
  '--- a',
  '+++ b',
  '+++ a',
  '--- /tmp/diffy',
  '+++ /tmp/diffy',
];

export function lineCode(path: string, newPos: number, oldPos: number): string {
  return `${createHash('sha1').update(path).digest('hex')}_${oldPos}_${newPos}`;
}

export function parseDiffLines(patch: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldPos = 1;
  let newPos = 1;
  for (const line of patch.split(/(?<=\n)/)) {
    if (line === '' || FILE_NAME_PREFIXES.some((prefix) => line.startsWith(prefix))) continue;
    if (line.startsWith('@@ -')) {
      oldPos = Math.abs(Number(/-\d*/.exec(line)![0].slice(1) || 0));
      newPos = Math.abs(Number(/\+\d*/.exec(line)?.[0].slice(1) || 0));
      // The hunk at the top of a file has no header line of its own.
      if (oldPos > 1 || newPos > 1) lines.push({ type: 'match', oldPos, newPos });
      continue;
    }
    const first = line[0];
    const type = first === '\\' ? 'nonewline' : first === '+' ? 'new' : first === '-' ? 'old' : null;
    lines.push({ type, oldPos, newPos });
    if (first === '+') newPos++;
    else if (first === '-') oldPos++;
    else if (first !== '\\') {
      newPos++;
      oldPos++;
    }
  }
  return lines;
}
