// v4's notes (lib/api/notes.rb) on issues and merge requests by iid: the list paginated and ordered
// (order_by created_at or updated_at, sort asc or desc; GitLab's default is the newest first), one note
// (of that noteable only), create (201; `created_at` for owners and administrators, as v3's rule; an
// emoji-only body stays a comment, as today's GitLab keeps it), edit (the author, or masters and up)
// and delete (204). The entity is v4's Note (presenters/api-v4/note.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalOneOf, pathInteger, presentString, requestParams, type Params } from '../../http/params.ts';
import { paramValueInvalid, recordNotFound } from '../../errors.ts';
import { canSetIssueTimes } from '../../policies/issues.ts';
import { createNote, destroyNote, editNote } from '../../services/issues/notes.ts';
import {
  countNoteList,
  findNoteOfProject,
  noteViews,
  orderedNotePage,
  withoutHiddenCrossReferences,
} from '../../views/note-views.ts';
import { presentNoteV4 } from '../../presenters/api-v4/note.ts';
import type { NoteRow } from '../../db/types.ts';
import { NOTE_PARENTS, type LoadedNoteParent } from './noteables.ts';
import { noContent, requireParams } from './conventions.ts';

/** The note `:note_id` of the noteable, else 404 `404 Not found`. */
export async function loadNoteOf(
  deps: Deps,
  request: FastifyRequest,
  found: LoadedNoteParent,
): Promise<NoteRow> {
  const id = pathInteger(request.params as Params, 'note_id');
  const note = await findNoteOfProject(deps, found.project.project.id, id);
  if (!note || note.noteable_type !== found.type || note.noteable_id !== found.id) throw recordNotFound();
  return note;
}

/** A note as v4 shows it, its users read. */
export async function presentNoteOneV4(deps: Deps, note: NoteRow, iid: number | null) {
  const [view] = await noteViews(deps, [note]);
  if (!view) throw recordNotFound();
  return presentNoteV4(view, iid, deps.config.externalUrl);
}

/** `created_at` as v3 takes it: only from those who may set an issue's times, and only a valid date. */
export function requestedCreatedAt(
  params: Params,
  found: Pick<LoadedNoteParent, 'project'>,
): string | undefined {
  const text = canSetIssueTimes(found.project.access) ? presentString(params, 'created_at') : undefined;
  const time = text === undefined ? NaN : Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  for (const parent of NOTE_PARENTS) {
    const base = `${parent.base}/notes`;

    app.get(base, async (request, reply) => {
      const params = requestParams(request);
      const by =
        optionalOneOf(params, 'order_by', ['created_at', 'updated_at'], () =>
          paramValueInvalid('order_by'),
        ) ?? 'created_at';
      const direction =
        optionalOneOf(params, 'sort', ['asc', 'desc'], () => paramValueInvalid('sort')) ?? 'desc';
      const found = await parent.load(deps, request);
      return paginate(
        request,
        reply,
        baseUrl,
        () => countNoteList(deps, found.type, found.id),
        async (page) =>
          (
            await withoutHiddenCrossReferences(
              deps,
              request.viewer,
              found.project,
              await orderedNotePage(deps, found.key, { by, direction }, page),
              (view) => view.note,
            )
          ).map((view) => presentNoteV4(view, found.iid, baseUrl)),
      );
    });

    app.get(`${base}/:note_id`, async (request) => {
      const found = await parent.load(deps, request);
      return presentNoteOneV4(deps, await loadNoteOf(deps, request, found), found.iid);
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
        { emojiBecomesAward: false },
      );
      if (!('note' in created)) throw recordNotFound();
      return reply.status(201).send(await presentNoteOneV4(deps, created.note, found.iid));
    });

    app.put(`${base}/:note_id`, async (request) => {
      const viewer = requireViewer(request);
      const params = requestParams(request);
      requireParams(params, 'body');
      const found = await parent.load(deps, request);
      const note = await loadNoteOf(deps, request, found);
      const edited = await editNote(deps, viewer, found.project, note, String(params.body));
      return presentNoteOneV4(deps, edited, found.iid);
    });

    app.delete(`${base}/:note_id`, async (request, reply) => {
      const viewer = requireViewer(request);
      const found = await parent.load(deps, request);
      await destroyNote(deps, viewer, found.project, await loadNoteOf(deps, request, found));
      return noContent(reply);
    });
  }
}
