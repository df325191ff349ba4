// v4's award emoji (lib/api/award_emoji.rb) on issues and merge requests by iid and on their notes: the
// list paginated, one award, a new one (201; `name` required), and removal by its owner or an
// administrator (204). The entity is v3's (AwardEmoji kept its fields) and the services are v3's.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { pathInteger, requestParams, type Params } from '../../http/params.ts';
import { notFound } from '../../errors.ts';
import { awardEmoji, removeAward, type Awardable } from '../../services/issues/award-emoji.ts';
import { awardListPage, countAwardList, findAwardOf, presentAwardOne } from '../../views/note-views.ts';
import { NOTE_PARENTS } from './noteables.ts';
import { loadNoteOf } from './notes.ts';
import { noContent, requireParams } from './conventions.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  for (const parent of NOTE_PARENTS)
    for (const onNote of [false, true]) {
      const base = `${parent.base}${onNote ? '/notes/:note_id' : ''}/award_emoji`;
      const loadAwardable = async (request: FastifyRequest): Promise<Awardable> => {
        const found = await parent.load(deps, request);
        if (!onNote) return found.awardable;
        const note = await loadNoteOf(deps, request, found);
        return { type: 'Note', id: note.id, projectId: note.project_id, authorId: note.author_id };
      };
      const loadAward = async (request: FastifyRequest) => {
        const awardable = await loadAwardable(request);
        const id = pathInteger(request.params as Params, 'award_id');
        const award = await findAwardOf(deps, awardable.type, awardable.id, id);
        if (!award) throw notFound('Award Emoji');
        return award;
      };

      app.get(base, async (request, reply) => {
        const awardable = await loadAwardable(request);
        return paginate(
          request,
          reply,
          deps.config.externalUrl,
          () => countAwardList(deps, awardable.type, awardable.id),
          (page) => awardListPage(deps, awardable.type, awardable.id, page),
        );
      });

      app.get(`${base}/:award_id`, async (request) => presentAwardOne(deps, await loadAward(request)));

      app.post(base, async (request, reply) => {
        const viewer = requireViewer(request);
        const params = requestParams(request);
        requireParams(params, 'name');
        const awardable = await loadAwardable(request);
        // Today's GitLab lets authors vote on their own issues and merge requests (8.13 did not).
        const award = await awardEmoji(deps, viewer, awardable, String(params.name), true);
        return reply.status(201).send(await presentAwardOne(deps, award));
      });

      app.delete(`${base}/:award_id`, async (request, reply) => {
        const viewer = requireViewer(request);
        await removeAward(deps, viewer, await loadAward(request));
        return noContent(reply);
      });
    }
}
