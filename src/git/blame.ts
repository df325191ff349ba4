// Who last changed each line of a file at a commit (`git blame --porcelain`), as GitLab's blame API
// groups it: runs of consecutive lines from one commit, in file order.
import { git } from './exec.ts';

export interface BlameRange {
  commitId: string;
  lines: string[];
}

/** The file's lines at `commitId` grouped by the commit that last changed them; `path` must exist there. */
export async function blameRanges(repoPath: string, commitId: string, path: string): Promise<BlameRange[]> {
  const output = await git(['blame', '--porcelain', commitId, '--', path], { cwd: repoPath });
  const ranges: BlameRange[] = [];
  let current: string | undefined;
  for (const line of output.split('\n')) {
    if (line.startsWith('\t')) {
      if (current === undefined) continue;
      const last = ranges[ranges.length - 1];
      if (last && last.commitId === current) last.lines.push(line.slice(1));
      else ranges.push({ commitId: current, lines: [line.slice(1)] });
      continue;
    }
    // A line's header: `<sha> <line in that commit> <line now> [<lines in the group>]`.
    const header = /^([0-9a-f]{40,64}) \d+ \d+/.exec(line);
    if (header) current = header[1];
  }
  return ranges;
}
