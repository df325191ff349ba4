// Award emoji (GitLab 8.13's lib/api/award_emoji.rb) on issues and on their notes: list (paginated),
// one, award (Grape-declared `name`), and remove (the award's owner or an administrator, else 401).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadIssue } from '../../http/issue-loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalString, pathInteger, requestParams, type Params } from '../../http/params.ts';
import { notFound, paramsMissing, recordNotFound } from '../../errors.ts';
import { awardEmoji, removeAward, type Awardable } from '../../services/issues/award-emoji.ts';
import {
  awardListPage,
  countAwardList,
  findAwardOf,
  findNoteOfProject,
  presentAwardOne,
} from '../../views/note-views.ts';

/** The issue, or the note of the issue, that `B/award_emoji` names (read access to the issue). */
async function loadAwardable(deps: Deps, request: FastifyRequest, onNote: boolean): Promise<Awardable> {
  const { project, issue } = await loadIssue(deps, request);
  if (!onNote) return { type: 'Issue', id: issue.id, projectId: issue.project_id, authorId: issue.author_id };
  const note = await findNoteOfProject(
    deps,
    project.project.id,
    pathInteger(request.params as Params, 'note_id'),
  );
  if (!note || note.noteable_type !== 'Issue' || note.noteable_id !== issue.id) throw recordNotFound();
  return { type: 'Note', id: note.id, projectId: note.project_id, authorId: note.author_id };
}

export function register(app: FastifyInstance, deps: Deps): void {
  for (const onNote of [false, true]) {
    const base = `/projects/:id/issues/:issue_id${onNote ? '/notes/:note_id' : ''}/award_emoji`;

    app.get(base, async (request, reply) => {
      const awardable = await loadAwardable(deps, request, onNote);
      return paginate(
        request,
        reply,
        deps.config.externalUrl,
        () => countAwardList(deps, awardable.type, awardable.id),
        (page) => awardListPage(deps, awardable.type, awardable.id, page),
      );
    });

    app.get(`${base}/:award_id`, async (request) => {
      const awardable = await loadAwardable(deps, request, onNote);
      const award = await findAwardOf(
        deps,
        awardable.type,
        awardable.id,
        pathInteger(request.params as Params, 'award_id'),
      );
      if (!award) throw recordNotFound();
      return presentAwardOne(deps, award);
    });

    app.post(base, async (request, reply) => {
      const viewer = requireViewer(request);
      const name = optionalString(requestParams(request), 'name');
      if (name === undefined) throw paramsMissing('name');
      const awardable = await loadAwardable(deps, request, onNote);
      const award = await awardEmoji(deps, viewer, awardable, name);
      return reply.status(201).send(await presentAwardOne(deps, award));
    });

    app.delete(`${base}/:award_id`, async (request) => {
      const viewer = requireViewer(request);
      const awardable = await loadAwardable(deps, request, onNote);
      const award = await findAwardOf(
        deps,
        awardable.type,
        awardable.id,
        pathInteger(request.params as Params, 'award_id'),
      );
      if (!award) throw notFound('Award Emoji');
      const presented = await presentAwardOne(deps, award);
      await removeAward(deps, viewer, award);
      return presented;
    });
  }
}
