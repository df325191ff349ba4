// Commits made through the API (GitLab 8.13's Files::CreateService, UpdateService, DeleteService and
// MultiService): the changes are checked against the branch tip with GitLab's messages, written as a
// commit on that tip without a work tree, and the branch moves as a push by the caller (push rules,
// pending push, compare-and-swap, processing). A concurrent change to the branch makes the write lose
// with "Could not update branch …" and leaves the branch as the winner left it. v4 adds what later GitLab
// had: a new branch started from `start_branch`, the `last_commit_id` check against a stale edit, the
// executable flag, and the chmod action.
import { isOverlongPath } from '../../git/name-limits.ts';
import type { Deps } from '../../deps.ts';
import { identPart, writeCommit, type Signature, type TreeEdit } from '../../git/commit-writer.ts';
import { findBranch, hasBranches } from '../../git/refs.ts';
import { lastCommitIdForPath } from '../../git/commit-log.ts';
import { isBranchName } from '../../git/ref-names.ts';
import { objectInfos, type ObjectInfo } from '../../git/revisions.ts';
import { apiError } from '../../errors.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { updateRefAsPush } from '../push/ref-updates.ts';
import { mayPushToBranch, userSignature, type Pusher } from '../push/push-setup.ts';
import { BLANK_SHA } from '../../domain/types.ts';

export interface CommitAuthor {
  authorName?: string;
  authorEmail?: string;
  /** v4: the branch a new `branchName` starts from (the commit then creates the branch). */
  startBranch?: string;
}

export interface FileChange extends CommitAuthor {
  filePath: string;
  branchName: string;
  commitMessage: string;
  /** Not for deletions. */
  content?: string;
  encoding?: string;
  /** v4: the file's last commit as the caller saw it; an update refuses when the file changed since. */
  lastCommitId?: string;
  /** v4: set or clear the executable flag. */
  executeFilemode?: boolean;
}

export type ActionName = 'create' | 'update' | 'delete' | 'move' | 'chmod';

export interface CommitAction {
  action: string | undefined;
  filePath: string | undefined;
  previousPath: string | undefined;
  content: string | undefined;
  encoding: string | undefined;
  lastCommitId?: string;
  executeFilemode?: boolean;
}

export interface ActionsCommit extends CommitAuthor {
  branchName: string;
  commitMessage: string;
  actions: CommitAction[];
  /** The actions v4 knows (chmod too); 8.13's four otherwise. */
  v4Actions?: boolean;
}

const refused = (message: string) => apiError(400, message);

const TRAVERSAL_TEXT = 'cannot include directory traversal.';
/** Past PATH_MAX, or a component past NAME_MAX: no checkout could hold it (and git's arguments could not). */
const TOO_LONG_TEXT = 'Your changes could not be committed, because the file name is too long';
const CHARACTERS_TEXT =
  "can contain only letters, digits, '_', '-', '@' and '.'. Separate directories with a '/'.";
const ALLOWED_CHARACTERS = /^[a-zA-Z0-9_\-./@]*$/;

/** A path git can store: no empty, `.`, `..` or `.git` segments (GitLab's check only covered `..`). */
function storablePath(path: string): boolean {
  if (path === '' || /[\0\n]/.test(path)) return false;
  return path
    .split('/')
    .every(
      (segment) => segment !== '' && segment !== '.' && segment !== '..' && segment.toLowerCase() !== '.git',
    );
}

function withoutLeadingSlashes(path: string): string {
  return path.replace(/^\/+/, '');
}

function decode(content: string | undefined, encoding: string | undefined): Buffer {
  return encoding === 'base64' ? Buffer.from(content ?? '', 'base64') : Buffer.from(content ?? '', 'utf8');
}

/** The files API stored text with CRLF turned into LF (the repository's autocrlf=input); binaries as is. */
function normalizeLineEndings(content: Buffer): Buffer {
  if (content.subarray(0, 8000).includes(0)) return content;
  return Buffer.from(content.toString('utf8').replace(/\r\n/g, '\n'), 'utf8');
}

/** GitLab's author: both author fields given (and usable by git), else the committer (the caller). */
function signatures(pusher: Pusher, input: CommitAuthor): { author: Signature; committer: Signature } {
  const committer = userSignature(pusher);
  const name = identPart(input.authorName ?? '');
  const email = identPart(input.authorEmail ?? '');
  return { author: name !== '' && email !== '' ? { name, email } : committer, committer };
}

/** What lives at paths of the tip tree: blob, tree or nothing. */
class TipTree {
  private constructor(
    private readonly known: Map<string, ObjectInfo | undefined>,
    readonly empty: boolean,
  ) {}

  /** Looks up every path and each of its parent directories at once. */
  static async read(repoPath: string, tip: string | null, paths: string[]): Promise<TipTree> {
    const wanted = new Set<string>();
    for (const path of paths) {
      const segments = path.split('/');
      for (let i = 1; i <= segments.length; i++) wanted.add(segments.slice(0, i).join('/'));
    }
    const list = [...wanted];
    const infos = tip
      ? await objectInfos(
          repoPath,
          list.map((path) => `${tip}:${path}`),
        )
      : [];
    return new TipTree(new Map(list.map((path, index) => [path, infos[index]])), tip === null);
  }

  isFile(path: string): boolean {
    return this.known.get(path)?.type === 'blob';
  }

  isDirectory(path: string): boolean {
    return this.known.get(path)?.type === 'tree';
  }

  /** A file where the path needs a directory (git would silently replace it). */
  fileInTheWay(path: string): string | undefined {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      if (this.isFile(prefix)) return prefix;
    }
    return undefined;
  }
}

/** Refuses a write that would turn a file into a directory or replace a directory with a file. */
function checkPlacement(tree: TipTree, path: string): void {
  const file = tree.fileInTheWay(path);
  if (file !== undefined) throw refused(`Your changes could not be committed, because \`${file}\` is a file`);
  if (tree.isDirectory(path)) throw refused('A directory with this name already exists');
}

interface BranchTip {
  repoPath: string;
  /** The new commit's parent; null in a repository without branches: the commit starts the branch. */
  tip: string | null;
  /** Where the branch is now: the tip, or null when the commit creates it (from a start branch). */
  before: string | null;
}

/**
 * Files::BaseService#validate: push rights on the branch, and (unless empty) the branch exists; with a
 * start branch other than the branch (v4), the start branch exists and the branch does not yet.
 */
async function branchTip(
  deps: Deps,
  pusher: Pusher,
  branchName: string,
  startBranch = branchName,
): Promise<BranchTip> {
  if (!(await mayPushToBranch(deps, pusher, branchName))) {
    throw refused('You are not allowed to push into this branch');
  }
  const repoPath = projectRepositoryPath(deps.config.dataDir, pusher);
  if (!(await hasBranches(repoPath))) return { repoPath, tip: null, before: null };
  const start = await findBranch(repoPath, startBranch);
  if (!start) throw refused('You can only create or edit files when you are on a branch');
  if (startBranch === branchName) return { repoPath, tip: start.commit.id, before: start.commit.id };
  if (await findBranch(repoPath, branchName)) {
    throw refused(
      `A branch called '${branchName}' already exists. Switch to that branch in order to make changes`,
    );
  }
  if (!isBranchName(branchName)) throw refused('Branch name is invalid');
  return { repoPath, tip: start.commit.id, before: null };
}

/** Whether the file's last commit at the tip is still the one the caller saw. */
async function unchangedSince(
  at: BranchTip,
  path: string,
  lastCommitId: string | undefined,
): Promise<boolean> {
  if (lastCommitId === undefined || at.tip === null) return true;
  return (await lastCommitIdForPath(at.repoPath, at.tip, path)) === lastCommitId;
}

/** The mode a write gives the file: executable or not when asked, else kept (a new file 100644). */
function fileMode(executeFilemode: boolean | undefined): string | undefined {
  return executeFilemode === undefined ? undefined : executeFilemode ? '100755' : '100644';
}

async function commitOnBranch(
  deps: Deps,
  pusher: Pusher,
  at: BranchTip,
  branchName: string,
  commit: { edits: TreeEdit[]; message: string } & CommitAuthor,
): Promise<string> {
  const id = await writeCommit(at.repoPath, {
    parent: at.tip,
    edits: commit.edits,
    message: commit.message,
    ...signatures(pusher, commit),
  });
  const change = { before: at.before ?? BLANK_SHA, after: id, ref: `refs/heads/${branchName}` };
  await updateRefAsPush(
    deps,
    pusher,
    change,
    `Could not update branch ${branchName}. Please refresh and try again.`,
  );
  return id;
}

interface OneFile {
  /** The new-file name rules of Files::CreateService. */
  newName?: boolean;
  check(tree: TipTree, path: string, at: BranchTip): void | Promise<void>;
  edit(path: string): TreeEdit;
}

/** One file's change as one commit on the branch. Returns the path as stored. */
async function commitOneFile(deps: Deps, pusher: Pusher, input: FileChange, one: OneFile): Promise<string> {
  if (isOverlongPath(input.filePath)) throw refused(TOO_LONG_TEXT);
  const at = await branchTip(deps, pusher, input.branchName, input.startBranch);
  if (one.newName && input.filePath.includes('..')) {
    throw refused(`Your changes could not be committed, because the file name ${TRAVERSAL_TEXT}`);
  }
  if (one.newName && !ALLOWED_CHARACTERS.test(input.filePath)) {
    throw refused(`Your changes could not be committed, because the file name ${CHARACTERS_TEXT}`);
  }
  const path = withoutLeadingSlashes(input.filePath);
  if (!storablePath(path)) throw refused('Invalid path');
  await one.check(await TipTree.read(at.repoPath, at.tip, [path]), path, at);
  await commitOnBranch(deps, pusher, at, input.branchName, {
    ...input,
    message: input.commitMessage,
    edits: [one.edit(path)],
  });
  return path;
}

const writtenContent = (input: FileChange) => normalizeLineEndings(decode(input.content, input.encoding));

/** POST …/repository/files. */
export function createFile(deps: Deps, pusher: Pusher, input: FileChange): Promise<string> {
  return commitOneFile(deps, pusher, input, {
    newName: true,
    check: (tree, path) => {
      if (tree.isFile(path)) {
        throw refused('Your changes could not be committed because a file with the same name already exists');
      }
      checkPlacement(tree, path);
    },
    edit: (path) => writtenFile(path, input),
  });
}

const writtenFile = (path: string, input: FileChange): TreeEdit => ({
  action: 'write',
  path,
  content: writtenContent(input),
  mode: fileMode(input.executeFilemode),
});

/** PUT …/repository/files (a file that does not exist yet is created, as GitLab 8.13 did). */
export function updateFile(deps: Deps, pusher: Pusher, input: FileChange): Promise<string> {
  return commitOneFile(deps, pusher, input, {
    check: async (tree, path, at) => {
      checkPlacement(tree, path);
      if (!(await unchangedSince(at, path, input.lastCommitId))) {
        throw refused('You are attempting to update a file that has changed since you started editing it.');
      }
    },
    edit: (path) => writtenFile(path, input),
  });
}

/** DELETE …/repository/files. */
export function deleteFile(deps: Deps, pusher: Pusher, input: FileChange): Promise<string> {
  return commitOneFile(deps, pusher, input, {
    check: (tree, path) => {
      if (!tree.isFile(path)) throw refused("A file with this name doesn't exist");
    },
    edit: (path) => ({ action: 'delete', path }),
  });
}

function checkActionPath(path: string): void {
  if (isOverlongPath(path)) throw refused(TOO_LONG_TEXT);
  if (path.includes('..')) {
    throw refused(
      `Your changes could not be committed, because the file name, \`${path}\` ${TRAVERSAL_TEXT}`,
    );
  }
  if (!ALLOWED_CHARACTERS.test(path)) {
    throw refused(
      `Your changes could not be committed, because the file name, \`${path}\` ${CHARACTERS_TEXT}`,
    );
  }
  if (!storablePath(path)) throw refused('Invalid path');
}

const ACTIONS = new Set<ActionName>(['create', 'update', 'delete', 'move']);
const V4_ACTIONS = new Set<ActionName>([...ACTIONS, 'chmod']);

/** POST …/repository/commits: several changes in one commit. Returns the commit id. */
export async function commitActions(deps: Deps, pusher: Pusher, input: ActionsCommit): Promise<string> {
  const at = await branchTip(deps, pusher, input.branchName, input.startBranch);
  const known = input.v4Actions ? V4_ACTIONS : ACTIONS;
  const actions = input.actions.map((action) => ({
    ...action,
    filePath: action.filePath === undefined ? undefined : withoutLeadingSlashes(action.filePath),
    previousPath: action.previousPath === undefined ? undefined : withoutLeadingSlashes(action.previousPath),
  }));
  const paths = actions
    .flatMap((action) => [action.filePath, action.previousPath])
    .filter((p) => p !== undefined);
  const tree = await TipTree.read(at.repoPath, at.tip, paths.filter(storablePath));
  const edits: TreeEdit[] = [];
  for (const action of actions) {
    const name = action.action ?? '';
    if (!known.has(name as ActionName)) throw refused(`Unknown action type \`${name}\`.`);
    const path = action.filePath;
    if (path === undefined || path === '') throw refused('You must specify a file_path.');
    checkActionPath(path);
    if (action.previousPath !== undefined) checkActionPath(action.previousPath);
    if (tree.empty && name !== 'create') throw refused(`No files to ${name}.`);
    if (name === 'move' && action.previousPath === undefined) {
      throw refused(`You must supply the original file path when moving file \`${path}\`.`);
    }
    const existing = name === 'move' ? action.previousPath! : path;
    if (name !== 'create' && !tree.isFile(existing)) {
      throw refused(
        `File to be ${name === 'chmod' ? 'chmoded' : `${name}d`} \`${existing}\` does not exist.`,
      );
    }
    if (name !== 'create' && !(await unchangedSince(at, existing, action.lastCommitId))) {
      throw refused(`The file has changed since you started editing it: ${existing}`);
    }
    const content = decode(action.content, action.encoding);
    if (name === 'create') {
      if (tree.isFile(path)) {
        throw refused(
          `Your changes could not be committed because a file with the name \`${path}\` already exists.`,
        );
      }
      checkPlacement(tree, path);
      edits.push({ action: 'write', path, content, mode: fileMode(action.executeFilemode) ?? '100644' });
    } else if (name === 'update') {
      edits.push({ action: 'write', path, content, mode: fileMode(action.executeFilemode) });
    } else if (name === 'chmod') {
      edits.push({ action: 'chmod', path, executable: action.executeFilemode === true });
    } else if (name === 'delete') {
      edits.push({ action: 'delete', path });
    } else {
      if (tree.isFile(path)) throw refused(`Move destination \`${path}\` already exists.`);
      checkPlacement(tree, path);
      edits.push({
        action: 'move',
        from: existing,
        path,
        content: action.content === undefined ? undefined : content,
      });
    }
  }
  return commitOnBranch(deps, pusher, at, input.branchName, {
    ...input,
    message: input.commitMessage,
    edits,
  });
}
