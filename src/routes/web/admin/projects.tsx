// /admin/projects: the administrators' project list (the API's GET /projects/all) as a page.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { boundedSearch, optionalString, requestParams } from '../../../http/params.ts';
import { listProjectCards } from '../../../views/project-list-pages.ts';
import { visibilityLevel, visibilityName } from '../../../domain/types.ts';
import { AdminProjectsPage } from '../../../presenters/html/admin/projects.tsx';
import { pageContext } from '../web-session.ts';
import { sendPage } from '../render.ts';
import { pageNumber } from '../paging.ts';

export function registerAdminProjects(admin: FastifyInstance, deps: Deps): void {
  admin.get('/admin/projects', async (request, reply) => {
    const params = requestParams(request);
    const search = boundedSearch((optionalString(params, 'search') ?? '').trim());
    // An unknown word filters nothing, as the select's "Any".
    const visibility = visibilityLevel(optionalString(params, 'visibility') ?? '');
    const page = pageNumber(request);
    const { projects, hasNext } = await listProjectCards(deps, request.viewer, {
      scope: 'all',
      search: search === '' ? undefined : search,
      visibility,
      orderBy: 'last_activity_at',
      page,
    });
    return sendPage(
      reply,
      <AdminProjectsPage
        ctx={pageContext(deps, request, reply)}
        search={search}
        visibility={visibility === undefined ? undefined : visibilityName(visibility)}
        projects={projects}
        page={page}
        hasNext={hasNext}
      />,
    );
  });
}
