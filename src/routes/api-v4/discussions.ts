// v4's discussions (lib/api/discussions.rb) on issues and merge requests by iid and on commits
// (`repository/commits/:sha/discussions`, the project's comments on it): the threads paginated
// (the oldest-started first, each with its notes), one thread, a new thread (201 Discussion), a reply
// (201 Note; replying to an individual note makes it a thread), one note of a thread, edit and delete
// of a thread's note, and on merge requests resolving: `PUT …/discussions/:id` with `resolved` for the
// whole thread, or `resolved` on a note's PUT (which resolves the note's whole thread here: Labrador
// keeps resolution per thread, GitLab per note). Threads are notes sharing a discussion_id, so they are
// what the notes API and the pages show, and survive as notes do.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalBoolean, requestParams, type Params } from '../../http/params.ts';
import { notFound, paramsMissing, recordNotFound } from '../../errors.ts';
import { createNote, destroyNote, editNote, resolveDiscussion } from '../../services/issues/notes.ts';
import {
  countDiscussionList,
  discussionListPage,
  findDiscussion,
  type DiscussionView,
} from '../../views/note-views.ts';
import { presentDiscussion } from '../../presenters/api-v4/note.ts';
import { loadProjectRepository, type LoadedProject } from '../../http/loaders.ts';
import { requireCommitId } from '../../views/repository-access.ts';
import { commitNoteable, readCommentedCommit } from '../../services/repository/commit-notes.ts';
import type { Noteable } from '../../services/issues/notes.ts';
import type { NoteableKey } from '../../db/repositories/notes.ts';
import { NOTEABLE_PARENTS } from './noteables.ts';
import { presentNoteOneV4, requestedCreatedAt } from './notes.ts';

/** What threads hang on: an issue or merge request by iid, or a commit of the project (no iid). */
interface LoadedThreadParent {
  project: LoadedProject;
  key: NoteableKey;
  iid: number | null;
  noteable(): Promise<Noteable>;
}

const THREAD_PARENTS: Array<{
  base: string;
  resolvable: boolean;
  load(deps: Deps, request: FastifyRequest): Promise<LoadedThreadParent>;
}> = [
  ...NOTEABLE_PARENTS.map((parent) => ({ ...parent, resolvable: parent.base.includes('merge_requests') })),
  {
    base: '/projects/:id/repository/commits/:sha',
    resolvable: false,
    async load(deps, request) {
      const project = await loadProjectRepository(deps, request);
      const sha = String((request.params as Params).sha);
      const { repoPath, commitId } = await requireCommitId(deps, project, sha);
      const commented = await readCommentedCommit(repoPath, commitId);
      const noteable = commitNoteable(deps, project, commented);
      return {
        project,
        key: { type: 'Commit', projectId: project.project.id, commitId },
        iid: null,
        noteable: async () => noteable,
      };
    },
  },
];
import { noContent, requireParams } from './conventions.ts';

async function loadDiscussion(
  deps: Deps,
  request: FastifyRequest,
  found: LoadedThreadParent,
): Promise<DiscussionView> {
  const id = String((request.params as Params).discussion_id);
  const discussion = await findDiscussion(deps, found.key, id);
  if (!discussion) throw notFound('Discussion');
  return discussion;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  for (const parent of THREAD_PARENTS) {
    const base = `${parent.base}/discussions`;
    const present = async (request: FastifyRequest, found: LoadedThreadParent) =>
      presentDiscussion(await loadDiscussion(deps, request, found), found.iid, baseUrl);

    app.get(base, async (request, reply) => {
      const found = await parent.load(deps, request);
      return paginate(
        request,
        reply,
        baseUrl,
        () => countDiscussionList(deps, found.key),
        async (page) =>
          (await discussionListPage(deps, found.key, page, request.viewer, found.project)).map((view) =>
            presentDiscussion(view, found.iid, baseUrl),
          ),
      );
    });

    app.get(`${base}/:discussion_id`, async (request) => {
      const found = await parent.load(deps, request);
      return present(request, found);
    });

    app.post(base, async (request, reply) => {
      const viewer = requireViewer(request);
      const params = requestParams(request);
      requireParams(params, 'body');
      const found = await parent.load(deps, request);
      const created = await createNote(
        deps,
        viewer,
        found.project,
        await found.noteable(),
        String(params.body),
        requestedCreatedAt(params, found),
        undefined,
        { startsThread: true, emojiBecomesAward: false },
      );
      if (!('note' in created)) throw recordNotFound();
      const view = await findDiscussion(deps, found.key, created.note.discussion_id);
      if (!view) throw notFound('Discussion');
      return reply.status(201).send(presentDiscussion(view, found.iid, baseUrl));
    });

    app.post(`${base}/:discussion_id/notes`, async (request, reply) => {
      const viewer = requireViewer(request);
      const params = requestParams(request);
      requireParams(params, 'body');
      const found = await parent.load(deps, request);
      const discussion = await loadDiscussion(deps, request, found);
      if (discussion.notes[0]!.note.system === 1) throw notFound('Discussion');
      const created = await createNote(
        deps,
        viewer,
        found.project,
        await found.noteable(),
        String(params.body),
        requestedCreatedAt(params, found),
        undefined,
        { discussionId: discussion.id, emojiBecomesAward: false },
      );
      if (!('note' in created)) throw recordNotFound();
      return reply.status(201).send(await presentNoteOneV4(deps, created.note, found.iid));
    });

    app.get(`${base}/:discussion_id/notes/:note_id`, async (request) => {
      const found = await parent.load(deps, request);
      const discussion = await loadDiscussion(deps, request, found);
      return presentNoteOneV4(deps, noteOfDiscussion(request, discussion), found.iid);
    });

    app.put(`${base}/:discussion_id/notes/:note_id`, async (request) => {
      const viewer = requireViewer(request);
      const params = requestParams(request);
      const resolved = optionalBoolean(params, 'resolved');
      if (params.body === undefined && resolved === undefined) throw paramsMissing('body', 'resolved');
      const found = await parent.load(deps, request);
      const discussion = await loadDiscussion(deps, request, found);
      const note = noteOfDiscussion(request, discussion);
      if (resolved !== undefined) {
        await resolveDiscussion(deps, viewer, found.project, await found.noteable(), [note], resolved);
        const [reread] = (await loadDiscussion(deps, request, found)).notes.filter(
          (view) => view.note.id === note.id,
        );
        return presentNoteOneV4(deps, reread?.note ?? note, found.iid);
      }
      requireParams(params, 'body');
      const edited = await editNote(deps, viewer, found.project, note, String(params.body));
      return presentNoteOneV4(deps, edited, found.iid);
    });

    app.delete(`${base}/:discussion_id/notes/:note_id`, async (request, reply) => {
      const viewer = requireViewer(request);
      const found = await parent.load(deps, request);
      const discussion = await loadDiscussion(deps, request, found);
      await destroyNote(deps, viewer, found.project, noteOfDiscussion(request, discussion));
      return noContent(reply);
    });

    if (parent.resolvable) {
      app.put(`${base}/:discussion_id`, async (request) => {
        const viewer = requireViewer(request);
        const params = requestParams(request);
        requireParams(params, 'resolved');
        const resolved = optionalBoolean(params, 'resolved');
        const found = await parent.load(deps, request);
        const discussion = await loadDiscussion(deps, request, found);
        const notes = discussion.notes.map((view) => view.note);
        await resolveDiscussion(
          deps,
          viewer,
          found.project,
          await found.noteable(),
          notes,
          resolved === true,
        );
        return present(request, found);
      });
    }
  }
}

/** The note `:note_id` of the thread, else 404 `404 Not found`. */
function noteOfDiscussion(request: FastifyRequest, discussion: DiscussionView) {
  const id = Number((request.params as Params).note_id);
  const found = discussion.notes.find((view) => view.note.id === id);
  if (!found) throw recordNotFound();
  return found.note;
}
