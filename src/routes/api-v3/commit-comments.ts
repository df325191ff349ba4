// Comments on a commit (GitLab 8.13's lib/api/commits.rb), as go-gitlab and python-gitlab call them: the
// commit's comments oldest first, paginated, in the CommitNote shape (`:sha` may be a branch or tag), and
// a new comment, on a line of the commit's diff when `path`, `line` and `line_type` name one. The
// project must be readable (else 404) with its code downloadable (else 403), checked before parameters
// as 8.13's `before` block did. Comments are those made in this project: 8.13 listed every project's
// comments on the sha, which let a private fork's comments show in its public upstream.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProjectRepository } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalString, requestParams, type Params } from '../../http/params.ts';
import { grapeError } from '../../errors.ts';
import {
  createCommitNote,
  readCommentedCommit,
  type DiffPosition,
} from '../../services/repository/commit-notes.ts';
import { presentCommitNote } from '../../presenters/api-v3/issue.ts';
import { commitNotePage, countCommitNoteList } from '../../views/note-views.ts';
import { requireCommitId } from '../../views/repository-access.ts';

type ShaRequest = FastifyRequest<{ Params: { id: string; sha: string } }>;

/**
 * 8.13's declared parameters, every problem in one `error`: `sha` a 6–40 digit hex id, `note` required,
 * and with a `path` an integer `line` and a `line_type` of `new` (the default) or `old`.
 */
function commentParams(
  sha: string,
  params: Params,
  anyRef: boolean,
): { note: string; position?: DiffPosition } {
  const problems: string[] = [];
  if (!anyRef && !/^[0-9a-fA-F]{6,40}$/.test(sha)) problems.push('sha is invalid');
  const text = (name: string) => {
    try {
      return optionalString(params, name);
    } catch {
      problems.push(`${name} is invalid`);
      return undefined;
    }
  };
  const note = text('note');
  if (note === undefined && !problems.includes('note is invalid')) problems.push('note is missing');
  const path = text('path');
  let position: DiffPosition | undefined;
  if (path !== undefined && path !== '') {
    const lineText = text('line');
    const lineType = text('line_type') ?? 'new';
    const line = lineText !== undefined && /^\s*-?\d{1,10}\s*$/.test(lineText) ? Number(lineText) : undefined;
    if (lineText === undefined) {
      if (!problems.includes('line is invalid')) problems.push('line is missing');
    } else if (line === undefined) problems.push('line is invalid');
    if (lineType !== 'new' && lineType !== 'old') problems.push('line_type does not have a valid value');
    else if (line !== undefined) position = { path, line, lineType };
  }
  if (problems.length > 0) throw grapeError(400, problems.join(', '));
  return { note: note!, position };
}

/**
 * The two handlers, which v4 registers too (its CommitNote has v3's fields): the page of comments, and a
 * new comment. `anyRef` (v4): a comment's `:sha` may be a branch or tag name too, as it may in a list.
 */
export function commitCommentHandlers(deps: Deps, anyRef = false) {
  const baseUrl = deps.config.externalUrl;
  return {
    list: async (request: ShaRequest, reply: FastifyReply) => {
      const project = await loadProjectRepository(deps, request);
      const { repoPath, commitId } = await requireCommitId(deps, project, request.params.sha);
      const commented = await readCommentedCommit(repoPath, commitId);
      return paginate(
        request,
        reply,
        baseUrl,
        () => countCommitNoteList(deps, project, commitId),
        (page) => commitNotePage(deps, project, commented, page),
      );
    },
    create: async (request: ShaRequest, reply: FastifyReply) => {
      const viewer = requireViewer(request);
      const project = await loadProjectRepository(deps, request);
      const { note, position } = commentParams(request.params.sha, requestParams(request), anyRef);
      const { repoPath, commitId } = await requireCommitId(deps, project, request.params.sha);
      const commented = await readCommentedCommit(repoPath, commitId);
      const created = await createCommitNote(deps, viewer, project, commented, note, position);
      const onLine = created.line_code === null ? undefined : position;
      return reply.status(201).send(presentCommitNote(created, viewer, baseUrl, onLine));
    },
  };
}

export const COMMIT_COMMENTS_PATH = '/projects/:id/repository/commits/:sha/comments';

export function register(app: FastifyInstance, deps: Deps): void {
  const handlers = commitCommentHandlers(deps);
  app.get(COMMIT_COMMENTS_PATH, handlers.list);
  app.post(COMMIT_COMMENTS_PATH, handlers.create);
}
