// Commits made without a work tree: the parent's tree is read into a temporary index (GIT_INDEX_FILE),
// new contents are written as blobs, the index is edited, and `write-tree` + `commit-tree` make the
// commit. Nothing here moves a ref; the caller does that with compare-and-swap, so until then the new
// objects are unreferenced and a failed write leaves nothing anyone can see.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { git } from './exec.ts';
import { BLANK_SHA } from '../domain/types.ts';

export interface Signature {
  name: string;
  email: string;
}

export type TreeEdit =
  | { action: 'write'; path: string; content: Buffer; /** kept from the index when absent */ mode?: string }
  | { action: 'delete'; path: string }
  /** Keeps the mode, and the content unless new content is given. */
  | { action: 'move'; from: string; path: string; content?: Buffer }
  /** Keeps the content; the mode becomes 100755 or 100644. */
  | { action: 'chmod'; path: string; executable: boolean };

export interface NewCommit {
  parent: string | null;
  edits: TreeEdit[];
  message: string;
  author: Signature;
  committer: Signature;
  /** Seconds since the epoch; now by default. */
  time?: number;
}

const DEFAULT_MODE = '100644';

/** Characters git trims from the ends of an ident part; a name of nothing else is refused. */
const IDENT_CRUD = /^[\s.,:;<>"\\']+|[\s.,:;<>"\\']+$/g;

/**
 * What git keeps of a name or email in a commit or tag (never `<`, `>` or a line break), or '' when
 * nothing usable remains (git would refuse it).
 */
export function identPart(text: string): string {
  const kept = text.replace(/[<>\n\r\0]/g, '');
  return kept.replace(IDENT_CRUD, '') === '' ? '' : kept.trim();
}

/** Mode and blob id of those paths that exist in the index (ls-files, paths taken literally). */
async function indexEntries(repoPath: string, env: Record<string, string>, paths: string[]) {
  const entries = new Map<string, { mode: string; id: string }>();
  if (paths.length === 0) return entries;
  const out = await git(['--literal-pathspecs', 'ls-files', '-s', '-z', '--', ...paths], {
    cwd: repoPath,
    env,
  });
  for (const record of out.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab === -1) continue;
    const [mode, id] = record.slice(0, tab).split(' ');
    entries.set(record.slice(tab + 1), { mode, id });
  }
  return entries;
}

/** Writes the commit's objects and returns its id. */
export async function writeCommit(repoPath: string, commit: NewCommit): Promise<string> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'labrador-commit-'));
  try {
    const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
    await git(commit.parent ? ['read-tree', commit.parent] : ['read-tree', '--empty'], {
      cwd: repoPath,
      env,
    });
    const contents = commit.edits.flatMap((edit) =>
      'content' in edit && edit.content ? [edit.content] : [],
    );
    const files: string[] = [];
    for (const [index, content] of contents.entries()) {
      const file = path.join(scratch, `blob-${index}`);
      await fs.writeFile(file, content);
      files.push(file);
    }
    const blobIds =
      files.length === 0
        ? []
        : (
            await git(['hash-object', '-w', '--no-filters', '--stdin-paths'], {
              cwd: repoPath,
              input: files.map((file) => `${file}\n`).join(''),
            })
          )
            .trim()
            .split('\n');
    const existing = await indexEntries(
      repoPath,
      env,
      commit.edits.flatMap((edit) =>
        edit.action === 'move'
          ? [edit.from]
          : (edit.action === 'write' && !edit.mode) || edit.action === 'chmod'
            ? [edit.path]
            : [],
      ),
    );
    let written = 0;
    const info = commit.edits.map((edit) => {
      if (edit.action === 'delete') return `0 ${BLANK_SHA}\t${edit.path}\0`;
      if (edit.action === 'write') {
        const mode = edit.mode ?? existing.get(edit.path)?.mode ?? DEFAULT_MODE;
        return `${mode} ${blobIds[written++]}\t${edit.path}\0`;
      }
      if (edit.action === 'chmod') {
        const entry = existing.get(edit.path);
        if (!entry) throw new Error(`nothing to chmod at ${edit.path}`);
        return `${edit.executable ? '100755' : '100644'} ${entry.id}\t${edit.path}\0`;
      }
      const from = existing.get(edit.from);
      if (!from) throw new Error(`nothing to move at ${edit.from}`);
      const id = edit.content ? blobIds[written++] : from.id;
      return `0 ${BLANK_SHA}\t${edit.from}\0${from.mode} ${id}\t${edit.path}\0`;
    });
    await git(['update-index', '-z', '--index-info'], { cwd: repoPath, env, input: info.join('') });
    const tree = (await git(['write-tree'], { cwd: repoPath, env })).trim();
    const time = `${commit.time ?? Math.floor(Date.now() / 1000)} +0000`;
    const id = await git(['commit-tree', tree, ...(commit.parent ? ['-p', commit.parent] : []), '-F', '-'], {
      cwd: repoPath,
      input: commit.message,
      env: {
        GIT_AUTHOR_NAME: commit.author.name,
        GIT_AUTHOR_EMAIL: commit.author.email,
        GIT_AUTHOR_DATE: time,
        GIT_COMMITTER_NAME: commit.committer.name,
        GIT_COMMITTER_EMAIL: commit.committer.email,
        GIT_COMMITTER_DATE: time,
      },
    });
    return id.trim();
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
