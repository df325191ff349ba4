// The deprecated comments of a merge request (GitLab 8.13's lib/api/merge_requests.rb, "removed in 9.0"),
// still what go-gitlab and node-gitlab call, at both the `merge_request/` and `merge_requests/` paths:
// a page of its notes oldest first (system notes included, as `merge_request.notes.fresh` was) in the
// MRNote shape, and a new comment through the same note creation as POST …/notes, so its event and note
// hook come with it. Access is 8.13.12's `find_merge_request_with_access`: hidden project 404, merge
// requests unreadable there 403, an id of another project 404.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadMergeRequestOf } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { requestParams, requiredString } from '../../http/params.ts';
import { createNote } from '../../services/issues/notes.ts';
import { apiError } from '../../errors.ts';
import { mergeRequestNoteable } from '../../services/merge-requests/collaboration.ts';
import { presentMergeRequestComment } from '../../presenters/api-v3/issue.ts';
import { countNoteList, noteListPage } from '../../views/note-views.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  for (const base of ['merge_requests', 'merge_request']) {
    const path = `/projects/:id/${base}/:merge_request_id/comments`;

    app.get(path, async (request, reply) => {
      const { viewer, project, mr } = await loadMergeRequestOf(deps, request);
      return paginate(
        request,
        reply,
        baseUrl,
        () => countNoteList(deps, 'MergeRequest', mr.id),
        (page) =>
          noteListPage(deps, 'MergeRequest', mr.id, page, { viewer, project }, presentMergeRequestComment),
      );
    });

    app.post(path, async (request, reply) => {
      const note = requiredString(requestParams(request), 'note');
      const { viewer, project, mr } = await loadMergeRequestOf(deps, request);
      // Grape's `note.save` failed on a duplicate award with 8.13's 400 words.
      await createNote(
        deps,
        viewer,
        project,
        await mergeRequestNoteable(deps, project, mr),
        note,
        undefined,
        () => apiError(400, 'Failed to save note {:name=>["has already been taken"]}'),
      );
      // An emoji-only comment becomes an award, as 8.13's note creation made it (8.13 then failed to show
      // the award as an MRNote); the client is answered with the comment it sent either way.
      return reply.status(201).send(presentMergeRequestComment({ note }, viewer, baseUrl));
    });
  }
}
