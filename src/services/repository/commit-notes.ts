// Comments on a commit (GitLab 8.13's commit notes, written by POST …/repository/commits/:sha/comments and
// the commit page's form): a comment that names a path, line and line type matching a line of the
// commit's diff is a line comment (8.13's LegacyDiffNote) carrying that line's code; otherwise a plain
// comment on the commit. Either is a note through createNote, so its `commented on` event and its note
// hook (the commit under `commit`) come in its transaction. Which line a stored code names is read back
// from the diff, as 8.13 read it, so nothing of the diff is stored twice.
import type { Deps } from '../../deps.ts';
import { failedWith } from '../../errors.ts';
import { readCommits, type Commit } from '../../git/commits.ts';
import { diffTrees, EMPTY_TREE } from '../../git/diffs.ts';
import { lineCode, parseDiffLines } from '../../git/diff-lines.ts';
import { commitBaseHookAttrs } from '../../presenters/hooks/hook-attrs.ts';
import { createNote, type Noteable } from '../issues/notes.ts';
import type { LoadedProject } from '../../http/loaders.ts';
import type { NoteRow, ProjectRecord, UserRow } from '../../db/types.ts';

/** Where on a commit's diff a line comment is: the file's new path, its new-side line, and its side. */
export interface DiffPosition {
  path: string;
  line: number;
  lineType: 'new' | 'old';
}

/** The commit a comment is on: its repository and the commit as git has it. */
export interface CommentedCommit {
  repoPath: string;
  commit: Commit;
}

/** 8.13's hard diff limits (Commit.max_diff_options): the part of a large commit lines are found in. */
const COMMENTABLE_DIFF = { maxFiles: 1000, maxLines: 50_000, maxFileBytes: 5 * 1024 * 1024 };

export async function readCommentedCommit(repoPath: string, commitId: string): Promise<CommentedCommit> {
  const commit = (await readCommits(repoPath, [commitId])).get(commitId);
  if (!commit) throw new Error(`commit ${commitId} resolved but could not be read`);
  return { repoPath, commit };
}

/** Every added or removed line of the commit's diff, with its position and line code. */
async function commentableLines({ repoPath, commit }: CommentedCommit) {
  const { diffs } = await diffTrees(repoPath, commit.parentIds[0] ?? EMPTY_TREE, commit.id, COMMENTABLE_DIFF);
  return diffs.flatMap((diff) =>
    parseDiffLines(diff.diff).flatMap((line) =>
      line.type === 'new' || line.type === 'old'
        ? [
            {
              path: diff.newPath,
              line: line.newPos,
              lineType: line.type,
              code: lineCode(diff.newPath, line.newPos, line.oldPos),
            },
          ]
        : [],
    ),
  );
}

/**
 * The positions the line codes of `notes` name in the commit's diff (a code no longer found, say beyond
 * the limits, has none: the comment then shows as a plain one). Reads git only when a note has a code.
 */
export async function commitNotePositions(
  commented: CommentedCommit,
  notes: NoteRow[],
): Promise<Map<string, DiffPosition>> {
  const codes = new Set(notes.flatMap((note) => (note.line_code === null ? [] : [note.line_code])));
  const positions = new Map<string, DiffPosition>();
  if (codes.size === 0) return positions;
  for (const { code, ...position } of await commentableLines(commented)) {
    if (codes.has(code) && !positions.has(code)) positions.set(code, position);
  }
  return positions;
}

/** The commit as a note's noteable: a plain comment unless `lineCodeOfNote` names a diff line. */
export function commitNoteable(
  deps: Deps,
  record: ProjectRecord,
  { commit }: CommentedCommit,
  lineCodeOfNote: string | null = null,
): Noteable {
  const attributes = commitBaseHookAttrs(deps.config.externalUrl, record, commit);
  return {
    type: 'Commit',
    id: null,
    commitId: commit.id,
    lineCode: lineCodeOfNote,
    projectId: record.project.id,
    authorId: null,
    mentioner: { kind: 'commit', sha: commit.id },
    touch: async () => ({ key: 'commit', attributes, url: attributes.url }),
  };
}

/** A comment on the commit, on the diff line `position` names when there is such a line. */
export async function createCommitNote(
  deps: Deps,
  viewer: UserRow,
  loaded: LoadedProject,
  commented: CommentedCommit,
  body: string,
  position?: DiffPosition,
): Promise<NoteRow> {
  if (body.trim() === '') throw failedWith('Failed to save note', { note: ["can't be blank"] });
  const line = position
    ? (await commentableLines(commented)).find(
        (candidate) =>
          candidate.path === position.path &&
          candidate.line === position.line &&
          candidate.lineType === position.lineType,
      )
    : undefined;
  const noteable = commitNoteable(deps, loaded, commented, line?.code ?? null);
  const created = await createNote(deps, viewer, loaded, noteable, body);
  if (!('note' in created)) throw new Error('a comment on a commit never becomes an award');
  return created.note;
}
