// Notes on issues and merge requests (GitLab 8.13's lib/api/notes.rb with 8.13.12's checks): list (oldest
// first, paginated), one, create (an emoji-only body answers the award it became), edit and delete (the
// note's author, or masters and up). Edits and deletes find the note in the project, as 8.13 did.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { pathInteger, presentString, requestParams, requiredString, type Params } from '../../http/params.ts';
import { ApiError, notFound, recordNotFound } from '../../errors.ts';
import {
  type LoadedProject,
  loadIssue,
  loadMergeRequestOf,
  loadNoteableOf,
  loadProject,
  loadProjectSnippet,
} from '../../http/loaders.ts';
import { snippetNoteable } from '../../services/snippets/snippets.ts';
import { canSetIssueTimes } from '../../policies/issues.ts';
import {
  createNote,
  destroyNote,
  editNote,
  issueNoteable,
  type Noteable,
} from '../../services/issues/notes.ts';
import { mergeRequestNoteable } from '../../services/merge-requests/collaboration.ts';
import {
  countNoteList,
  findNoteOfProject,
  noteListPage,
  presentAwardOne,
  presentNoteOne,
} from '../../views/note-views.ts';

/** The noteable a path names, read-checked: its id, and what a new note on it needs (read on demand). */
interface LoadedNoteable {
  project: LoadedProject;
  type: Noteable['type'];
  id: number;
  noteable(): Promise<Noteable>;
}

/** Each kind of noteable: the path of its notes and its loader. */
const NOTEABLES: Array<{
  base: string;
  type: 'Issue' | 'MergeRequest' | 'Snippet';
  load(deps: Deps, request: FastifyRequest, loaded?: LoadedProject): Promise<LoadedNoteable>;
}> = [
  {
    base: '/projects/:id/issues/:issue_id/notes',
    type: 'Issue',
    async load(deps, request, loaded) {
      const { project, issue } = await loadIssue(deps, request, loaded);
      return {
        project,
        type: 'Issue',
        id: issue.id,
        noteable: async () => issueNoteable(deps, project, issue),
      };
    },
  },
  {
    base: '/projects/:id/merge_requests/:merge_request_id/notes',
    type: 'MergeRequest',
    async load(deps, request, loaded) {
      const { project, mr } = await loadMergeRequestOf(deps, request, loaded);
      return {
        project,
        type: 'MergeRequest',
        id: mr.id,
        noteable: () => mergeRequestNoteable(deps, project, mr),
      };
    },
  },
  {
    base: '/projects/:id/snippets/:snippet_id/notes',
    type: 'Snippet',
    async load(deps, request, loaded) {
      const project = loaded ?? (await loadProject(deps, request));
      const snippet = await loadProjectSnippet(deps, request, project);
      return {
        project,
        type: 'Snippet',
        id: snippet.id,
        noteable: async () => snippetNoteable(deps, project, snippet),
      };
    },
  },
];

export function register(app: FastifyInstance, deps: Deps): void {
  for (const { base, type, load } of NOTEABLES) {
    const loadNote = async (request: FastifyRequest) => {
      const found = await load(deps, request);
      const id = pathInteger(request.params as Params, 'note_id');
      return { ...found, note: await findNoteOfProject(deps, found.project.project.id, id) };
    };

    // 8.13.12 finds the noteable (`404 Not found`), then answers `404 Notes Not Found` when it is not
    // readable (a guest and a private project's merge requests, a confidential issue), `Note` for one.
    const loadReadable = async (request: FastifyRequest, unreadable: string) => {
      const project = await loadProject(deps, request);
      if (type === 'Snippet') {
        const snippet = await loadProjectSnippet(deps, request, project, 'snippet_id', unreadable);
        return { project, type, id: snippet.id };
      }
      const found = await loadNoteableOf(deps, request, project, type, unreadable);
      return { project, type, id: found.issue ? found.issue.id : found.mr.id };
    };

    app.get(base, async (request, reply) => {
      const { project, id } = await loadReadable(request, 'Notes');
      return paginate(
        request,
        reply,
        deps.config.externalUrl,
        () => countNoteList(deps, type, id),
        (page) => noteListPage(deps, type, id, page, { viewer: request.viewer, project }),
      );
    });

    app.get(`${base}/:note_id`, async (request) => {
      const { project, id } = await loadReadable(request, 'Note');
      const note = await findNoteOfProject(
        deps,
        project.project.id,
        pathInteger(request.params as Params, 'note_id'),
      );
      if (!note || note.noteable_type !== type || note.noteable_id !== id) throw recordNotFound();
      return presentNoteOne(deps, note);
    });

    app.post(base, async (request, reply) => {
      const viewer = requireViewer(request);
      const params = requestParams(request);
      const body = requiredString(params, 'body');
      const loaded = await loadProject(deps, request);
      // 8.13.12: a noteable that is not in this project, or not readable, is `404 Note Not Found`.
      const found = await load(deps, request, loaded).catch((error: unknown) => {
        throw error instanceof ApiError && (error.status === 404 || error.status === 403)
          ? notFound('Note')
          : error;
      });
      const createdText = canSetIssueTimes(found.project.access)
        ? presentString(params, 'created_at')
        : undefined;
      const createdTime = createdText === undefined ? NaN : Date.parse(createdText);
      const created = await createNote(
        deps,
        viewer,
        found.project,
        await found.noteable(),
        body,
        Number.isNaN(createdTime) ? undefined : new Date(createdTime).toISOString(),
      );
      if ('award' in created) return reply.status(201).send(await presentAwardOne(deps, created.award));
      return reply.status(201).send(await presentNoteOne(deps, created.note));
    });

    app.put(`${base}/:note_id`, async (request) => {
      const viewer = requireViewer(request);
      const body = requiredString(requestParams(request), 'body');
      const { project, note } = await loadNote(request);
      if (!note) throw recordNotFound();
      return presentNoteOne(deps, await editNote(deps, viewer, project, note, body));
    });

    app.delete(`${base}/:note_id`, async (request) => {
      const viewer = requireViewer(request);
      const { project, note } = await loadNote(request);
      if (!note) throw recordNotFound();
      const presented = await presentNoteOne(deps, note);
      await destroyNote(deps, viewer, project, note);
      return presented;
    });
  }
}
