// What an SSH client may ask to run (gitlab-shell's rules): exactly one of the git services with exactly
// one repository argument, `ns/project.git`, `/ns/project.git` or `ns/project`, quoted or not as git
// sends it (`git-upload-pack 'ns/project.git'`). Everything else is refused.
import type { GitService } from '../services/push/git-access.ts';

const GIT_SERVICES: readonly GitService[] = ['git-upload-pack', 'git-receive-pack', 'git-upload-archive'];

export interface GitCommand {
  service: GitService;
  namespace: string;
  project: string;
}

/** Splits a command line as a POSIX shell would for plain words and '…' / "…" quoting; null if unbalanced. */
function shellWords(line: string): string[] | null {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const char = line[i]!;
    if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return null;
      current += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (char === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') {
        if (line[j] === '\\' && j + 1 < line.length) j++;
        current += line[j];
        j++;
      }
      if (j >= line.length) return null;
      inWord = true;
      i = j + 1;
    } else if (char === '\\' && i + 1 < line.length) {
      current += line[i + 1];
      inWord = true;
      i += 2;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
      i++;
    } else {
      current += char;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/** The repository a path names: `<namespace>/<project>`, without `.git` and a leading slash. */
function repositoryOf(argument: string): { namespace: string; project: string } | null {
  const trimmed = argument.replace(/^\//, '').replace(/\.git$/, '');
  const match = /^([A-Za-z0-9_.][A-Za-z0-9_.-]*)\/([A-Za-z0-9_.][A-Za-z0-9_.-]*)$/.exec(trimmed);
  return match ? { namespace: match[1]!, project: match[2]! } : null;
}

export type ParsedCommand =
  { kind: 'git'; command: GitCommand } | { kind: 'disallowed' } | { kind: 'invalid_path' };

export function parseCommand(line: string): ParsedCommand {
  const words = shellWords(line);
  if (!words || words.length !== 2 || !(GIT_SERVICES as readonly string[]).includes(words[0]!)) {
    return { kind: 'disallowed' };
  }
  const repository = repositoryOf(words[1]!);
  if (!repository) return { kind: 'invalid_path' };
  return { kind: 'git', command: { service: words[0] as GitService, ...repository } };
}
