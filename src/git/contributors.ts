// Who wrote a branch's history, as GitLab 8.13 counted it: the newest 2,000 commits that are not merges,
// grouped by author email (in order of each email's newest commit), named by that newest commit.
import { gitRecords } from './streams.ts';

export interface Contributor {
  name: string;
  email: string;
  commits: number;
}

const LIMIT = 2000;

export async function contributors(repoPath: string, commit: string): Promise<Contributor[]> {
  const byEmail = new Map<string, Contributor>();
  const args = [
    'log',
    '--no-merges',
    `--max-count=${LIMIT}`,
    '--no-mailmap',
    '--format=%an%x00%ae',
    commit,
    '--',
  ];
  for await (const record of gitRecords(args, { cwd: repoPath })) {
    const [name, email] = record.toString('utf8').split('\0');
    if (email === undefined) continue;
    const known = byEmail.get(email);
    if (known) {
      known.commits++;
      if (known.name.trim() === '') known.name = name;
    } else byEmail.set(email, { name, email, commits: 1 });
  }
  return [...byEmail.values()];
}
