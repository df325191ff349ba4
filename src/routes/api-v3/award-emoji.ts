// Award emoji (GitLab 8.13's lib/api/award_emoji.rb) on issues, merge requests and their notes: list (paginated),
// one, award (Grape-declared `name`), and remove (the award's owner or an administrator, else 401).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadNoteableOf, loadProject, loadProjectSnippet } from '../../http/loaders.ts';
import { snippetAwardable } from '../../services/snippets/snippets.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalString, pathInteger, requestParams, type Params } from '../../http/params.ts';
import { notFound, paramsMissing, recordNotFound } from '../../errors.ts';
import {
  awardEmoji,
  issueAwardable,
  mergeRequestAwardable,
  removeAward,
  type Awardable,
} from '../../services/issues/award-emoji.ts';
import {
  awardListPage,
  countAwardList,
  findAwardOf,
  findNoteOfProject,
  presentAwardOne,
} from '../../views/note-views.ts';

/**
 * The issue or merge request a path names, as an awardable: missing is `404 Not found`, not readable by
 * the caller `404 Award Emoji Not Found` (8.13.12's can_read_awardable?).
 */
const AWARDABLE_PARENTS: Array<{
  base: string;
  load(deps: Deps, request: FastifyRequest): Promise<{ projectId: number; awardable: Awardable }>;
}> = (['Issue', 'MergeRequest'] as const).map((kind) => ({
  base:
    kind === 'Issue' ? '/projects/:id/issues/:issue_id' : '/projects/:id/merge_requests/:merge_request_id',
  async load(deps, request) {
    const project = await loadProject(deps, request);
    const found = await loadNoteableOf(deps, request, project, kind, 'Award Emoji');
    const awardable = found.issue ? issueAwardable(found.issue) : mergeRequestAwardable(found.mr);
    return { projectId: project.project.id, awardable };
  },
}));
AWARDABLE_PARENTS.push({
  base: '/projects/:id/snippets/:snippet_id',
  async load(deps, request) {
    const project = await loadProject(deps, request);
    const snippet = await loadProjectSnippet(deps, request, project, 'snippet_id', 'Award Emoji');
    return { projectId: project.project.id, awardable: snippetAwardable(snippet) };
  },
});

/** The issue or MR, or a note of it, that `B/award_emoji` names. */
async function loadAwardable(
  deps: Deps,
  request: FastifyRequest,
  parent: (typeof AWARDABLE_PARENTS)[number],
  onNote: boolean,
): Promise<Awardable> {
  const { projectId, awardable } = await parent.load(deps, request);
  if (!onNote) return awardable;
  const note = await findNoteOfProject(deps, projectId, pathInteger(request.params as Params, 'note_id'));
  if (!note || note.noteable_type !== awardable.type || note.noteable_id !== awardable.id) {
    throw recordNotFound();
  }
  return { type: 'Note', id: note.id, projectId: note.project_id, authorId: note.author_id };
}

export function register(app: FastifyInstance, deps: Deps): void {
  for (const parent of AWARDABLE_PARENTS)
    for (const onNote of [false, true]) {
      const base = `${parent.base}${onNote ? '/notes/:note_id' : ''}/award_emoji`;

      app.get(base, async (request, reply) => {
        const awardable = await loadAwardable(deps, request, parent, onNote);
        return paginate(
          request,
          reply,
          deps.config.externalUrl,
          () => countAwardList(deps, awardable.type, awardable.id),
          (page) => awardListPage(deps, awardable.type, awardable.id, page),
        );
      });

      app.get(`${base}/:award_id`, async (request) => {
        const awardable = await loadAwardable(deps, request, parent, onNote);
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
        const awardable = await loadAwardable(deps, request, parent, onNote);
        const award = await awardEmoji(deps, viewer, awardable, name);
        return reply.status(201).send(await presentAwardOne(deps, award));
      });

      app.delete(`${base}/:award_id`, async (request) => {
        const viewer = requireViewer(request);
        const awardable = await loadAwardable(deps, request, parent, onNote);
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
