// GitLab 8.13's one notes endpoint for pages, POST /<namespace>/<project>/notes: the comment form of an
// issue, a merge request or a project snippet names its noteable (`note[noteable_type]`, `note[noteable_id]`), a commit's
// names the commit (`note[noteable_type]=Commit`, `note[commit_id]`), and the page module of that kind
// finds it with the API's read rules and says where to go back. The note is the API's createNote, so
// its event and note hook come with it, as they do for POST …/notes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { LoadedProject } from '../../http/loaders.ts';
import { optionalString, requestParams, type Params } from '../../http/params.ts';
import { ApiError, notFound } from '../../errors.ts';
import { createNote, type Noteable } from '../../services/issues/notes.ts';
import type { Flash } from '../../presenters/html/layout.tsx';
import type { UserRow } from '../../db/types.ts';
import { positiveInteger, signedIn } from './page-params.ts';

/** A noteable found for the comment form: its page, and how to show that page again with a refusal. */
export interface CommentTarget {
  url: string;
  noteable(): Promise<Noteable>;
  showAgain(flash: Flash, status: number, comment: string): Promise<FastifyReply>;
}

/**
 * How the notes route reaches one kind of noteable through its page module: issues and merge requests
 * by global id, commits by sha.
 */
export interface CommentTargets<Id = number> {
  /** The route's project when the viewer may read this kind there (else 404, or sign in first). */
  project(request: FastifyRequest): Promise<LoadedProject>;
  /** The noteable `id` of that project, readable by the viewer, or a 404. */
  find(
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    viewer: UserRow,
    id: Id,
  ): Promise<CommentTarget>;
}

export function registerNotePages(
  web: FastifyInstance,
  deps: Deps,
  targets: {
    Issue: CommentTargets;
    MergeRequest: CommentTargets;
    Snippet: CommentTargets;
    Commit: CommentTargets<string>;
  },
): void {
  /** The noteable the form names: `note[noteable_id]`, or `note[commit_id]` for a commit. */
  const findTarget = async (request: FastifyRequest, reply: FastifyReply, params: Params) => {
    const type = optionalString(params, 'note[noteable_type]');
    if (type === 'Commit') {
      const loaded = await targets.Commit.project(request);
      const viewer = signedIn(request);
      const sha = optionalString(params, 'note[commit_id]');
      if (sha === undefined) throw notFound();
      return { loaded, viewer, target: await targets.Commit.find(request, reply, loaded, viewer, sha) };
    }
    const kind =
      type === 'Issue' || type === 'MergeRequest' || type === 'Snippet' ? targets[type] : undefined;
    if (!kind) throw notFound();
    const loaded = await kind.project(request);
    const viewer = signedIn(request);
    const id = positiveInteger(optionalString(params, 'note[noteable_id]'));
    if (id === undefined) throw notFound();
    return { loaded, viewer, target: await kind.find(request, reply, loaded, viewer, id) };
  };

  web.post('/:namespace/:project/notes', async (request, reply) => {
    const params = requestParams(request);
    const { loaded, viewer, target } = await findTarget(request, reply, params);
    const body = optionalString(params, 'note[note]') ?? '';
    if (body.trim() === '') {
      return target.showAgain({ kind: 'alert', text: "Comment can't be blank." }, 422, body);
    }
    const noteable = await target.noteable();
    let created;
    try {
      created = await createNote(deps, viewer, loaded, noteable, body);
    } catch (error) {
      // An emoji-only comment repeating the viewer's award: said on the page, the comment kept.
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      return target.showAgain({ kind: 'alert', text: 'You have already awarded this emoji.' }, 422, body);
    }
    // An emoji-only body became an award (as 8.13's form did): back to the page without an anchor.
    const anchor = 'note' in created ? `#note_${created.note.id}` : '';
    return reply.redirect(`${target.url}${anchor}`, 302);
  });
}
