// Notes on issues (GitLab 8.13's lib/api/notes.rb with 8.13.12's checks): list (oldest first,
// paginated), one, create (an emoji-only body answers the award it became), edit and delete (the note's
// author, or masters and up). Edits and deletes find the note in the project, as 8.13 did.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadIssue } from '../../http/issue-loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { pathInteger, presentString, requestParams, requiredString, type Params } from '../../http/params.ts';
import { ApiError, notFound, recordNotFound } from '../../errors.ts';
import { loadProject } from '../../http/loaders.ts';
import { canSetIssueTimes } from '../../policies/issues.ts';
import { createIssueNote, destroyNote, editNote } from '../../services/issues/notes.ts';
import {
  countNoteList,
  findNoteOfProject,
  noteListPage,
  presentAwardOne,
  presentNoteOne,
} from '../../views/note-views.ts';

const ISSUE = 'Issue';

async function loadNote(deps: Deps, request: FastifyRequest) {
  const found = await loadIssue(deps, request);
  const note = await findNoteOfProject(
    deps,
    found.project.project.id,
    pathInteger(request.params as Params, 'note_id'),
  );
  return { ...found, note };
}

export function register(app: FastifyInstance, deps: Deps): void {
  const base = '/projects/:id/issues/:issue_id/notes';

  app.get(base, async (request, reply) => {
    const { issue } = await loadIssue(deps, request);
    return paginate(
      request,
      reply,
      deps.config.externalUrl,
      () => countNoteList(deps, ISSUE, issue.id),
      (page) => noteListPage(deps, ISSUE, issue.id, page),
    );
  });

  app.get(`${base}/:note_id`, async (request) => {
    const { issue, note } = await loadNote(deps, request);
    if (!note || note.noteable_type !== ISSUE || note.noteable_id !== issue.id) throw notFound('Note');
    return presentNoteOne(deps, note);
  });

  app.post(base, async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const body = requiredString(params, 'body');
    const loaded = await loadProject(deps, request);
    // 8.13.12: a noteable that is not in this project, or not readable, is `404 Note Not Found`.
    const found = await loadIssue(deps, request, loaded).catch((error: unknown) => {
      throw error instanceof ApiError && error.status === 404 ? notFound('Note') : error;
    });
    const createdText = canSetIssueTimes(found.project.access)
      ? presentString(params, 'created_at')
      : undefined;
    const createdTime = createdText === undefined ? NaN : Date.parse(createdText);
    const created = await createIssueNote(
      deps,
      viewer,
      found.project,
      found.issue,
      body,
      Number.isNaN(createdTime) ? undefined : new Date(createdTime).toISOString(),
    );
    if ('award' in created) return reply.status(201).send(await presentAwardOne(deps, created.award));
    return reply.status(201).send(await presentNoteOne(deps, created.note));
  });

  app.put(`${base}/:note_id`, async (request) => {
    const viewer = requireViewer(request);
    const body = requiredString(requestParams(request), 'body');
    const { project, note } = await loadNote(deps, request);
    if (!note) throw recordNotFound();
    return presentNoteOne(deps, await editNote(deps, viewer, project, note, body));
  });

  app.delete(`${base}/:note_id`, async (request) => {
    const viewer = requireViewer(request);
    const { project, note } = await loadNote(deps, request);
    if (!note) throw recordNotFound();
    const presented = await presentNoteOne(deps, note);
    await destroyNote(deps, viewer, project, note);
    return presented;
  });
}
