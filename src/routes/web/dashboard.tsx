// The start page, explore, a user's page and a group's page: project lists through the same list
// queries, presenters and group policy as the API.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { hiddenAsks, loadGroup } from '../../http/loaders.ts';
import { findUserNamespaceOf } from '../../views/namespace-views.ts';
import {
  listProjectCards,
  loadUserByUsernameOr404,
  type ProjectListPageQuery,
} from '../../views/project-list-pages.ts';
import { notFound } from '../../errors.ts';
import {
  DashboardPage,
  EXPLORE_SORTS,
  ExplorePage,
  NamespacePage,
  type DashboardTab,
  type ExploreSort,
} from '../../presenters/html/projects.tsx';
import { pageContext } from './web-session.ts';
import { redirectToSignIn, sendPage } from './render.ts';
import { pageNumber } from './paging.ts';
import { doneNotice } from './form-errors.ts';
import { canRequestGroupAccess } from '../../policies/access-requests.ts';
import { hasAccessRequest } from '../../views/access-request-views.ts';

export function registerDashboard(web: FastifyInstance, deps: Deps): void {
  const explore = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const params = requestParams(request);
    const search = (optionalString(params, 'search') ?? '').trim().slice(0, 200);
    const sortParam = optionalString(params, 'sort') ?? 'latest_activity_desc';
    const sort: ExploreSort =
      sortParam in EXPLORE_SORTS ? (sortParam as ExploreSort) : 'latest_activity_desc';
    const page = pageNumber(request);
    const { projects, hasNext } = await listProjectCards(deps, request.viewer, {
      scope: 'visible',
      search: search === '' ? undefined : search,
      orderBy: EXPLORE_SORTS[sort][0],
      page,
    });
    return sendPage(
      reply,
      <ExplorePage
        ctx={pageContext(deps, request, reply)}
        search={search}
        sort={sort}
        projects={projects}
        page={page}
        hasNext={hasNext}
      />,
    );
  };

  const dashboard =
    (tab: DashboardTab) => async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
      const page = pageNumber(request);
      const { projects, hasNext } = await listProjectCards(deps, request.viewer, {
        scope: tab === 'yours' ? 'member' : 'starred',
        orderBy: 'last_activity_at',
        page,
      });
      return sendPage(
        reply,
        <DashboardPage
          ctx={pageContext(deps, request, reply)}
          tab={tab}
          projects={projects}
          page={page}
          hasNext={hasNext}
        />,
      );
    };
  const yours = dashboard('yours');
  const starred = dashboard('starred');

  web.get('/', async (request, reply) => (request.viewer ? yours(request, reply) : explore(request, reply)));
  web.get('/explore', async (_request, reply) => reply.redirect('/explore/projects', 302));
  web.get('/explore/projects', explore);
  web.get('/dashboard/projects', async (request, reply) =>
    request.viewer ? yours(request, reply) : redirectToSignIn(reply, request.url),
  );
  web.get('/dashboard/projects/starred', async (request, reply) =>
    request.viewer ? starred(request, reply) : redirectToSignIn(reply, request.url),
  );

  const namespaceList = async (
    request: FastifyRequest,
    namespaceId: number,
  ): Promise<{
    projects: Awaited<ReturnType<typeof listProjectCards>>['projects'];
    hasNext: boolean;
    page: number;
  }> => {
    const page = pageNumber(request);
    const query: ProjectListPageQuery = { scope: 'visible', namespaceId, orderBy: 'last_activity_at', page };
    return { ...(await listProjectCards(deps, request.viewer, query)), page };
  };

  web.get('/u/:username', async (request, reply) =>
    reply.redirect(`/${encodeURIComponent((request.params as { username: string }).username)}`, 302),
  );
  web.get('/:username', async (request, reply) => {
    const user = await loadUserByUsernameOr404(deps, (request.params as { username: string }).username);
    const namespace = user ? await findUserNamespaceOf(deps, user.id) : undefined;
    if (!user || !namespace) throw notFound('User');
    const { projects, hasNext, page } = await namespaceList(request, namespace.id);
    return sendPage(
      reply,
      <NamespacePage
        ctx={pageContext(deps, request, reply)}
        title={user.name}
        subtitle={`@${user.username}`}
        description={user.bio}
        base={`/${user.username}`}
        projects={projects}
        page={page}
        hasNext={hasNext}
      />,
    );
  });

  web.get('/groups/:group', async (request, reply) => {
    const { group, access } = await hiddenAsks(request, () =>
      loadGroup(deps, request, (request.params as { group: string }).group),
    );
    const viewer = request.viewer;
    // The Request or Withdraw button, for a signed-in non-member of a group that takes requests.
    const [{ projects, hasNext, page }, requested] = await Promise.all([
      namespaceList(request, group.id),
      viewer && canRequestGroupAccess(viewer, group, access)
        ? hasAccessRequest(deps, { type: 'Namespace', id: group.id }, viewer.id)
        : undefined,
    ]);
    return sendPage(
      reply,
      <NamespacePage
        ctx={pageContext(deps, request, reply)}
        title={group.name}
        subtitle={`Group · ${group.path}`}
        description={group.description}
        markdown
        base={`/groups/${group.path}`}
        links={[{ href: `/groups/${group.path}/group_members`, text: 'Members' }]}
        accessRequest={requested === undefined ? undefined : { requested }}
        flash={doneNotice(request, {
          created: `Group '${group.name}' was successfully created.`,
          access_requested: 'Your request for access has been queued for review.',
          access_withdrawn: 'Your access request to the group has been withdrawn.',
        })}
        projects={projects}
        page={page}
        hasNext={hasNext}
      />,
    );
  });
}
