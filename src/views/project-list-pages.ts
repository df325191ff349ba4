// Project lists as the pages show them (the start page, explore, a user's and a group's page): the same
// list queries and project presenter as GET /projects…, a page at a time with one extra row read to know
// whether a next page exists (no count). A signed-out visitor reads the visible list as an external user
// without memberships would: public projects only, exactly what the API's policies show to nobody.
import type { Deps } from '../deps.ts';
import { findUserByUsername } from '../db/repositories/users.ts';
import { presentProjects } from '../presenters/api-v3/project.ts';
import { listProjectViewsByIds, listProjectsPage } from './project-views.ts';
import { canSignIn } from '../policies/users.ts';
import type { ProjectOrder, ProjectScope, UserRow } from '../db/types.ts';

const PROJECTS_PER_PAGE = 20;

export interface ProjectListPageQuery {
  /** `all` is the administrators' list (every project, archived ones too). */
  scope: Extract<ProjectScope, 'member' | 'visible' | 'starred' | 'all'>;
  namespaceId?: number;
  /** Only projects at this visibility level. */
  visibility?: number;
  search?: string;
  orderBy: Extract<ProjectOrder, 'last_activity_at' | 'name' | 'created_at'>;
  /** 1-based. */
  page: number;
}

export async function listProjectCards(deps: Deps, viewer: UserRow | null, query: ProjectListPageQuery) {
  if (!viewer && query.scope !== 'visible') return { projects: [], hasNext: false };
  const ids = await listProjectsPage(
    deps,
    {
      scope: query.scope,
      viewerId: viewer?.id ?? 0,
      external: viewer ? viewer.external === 1 : true,
      namespaceId: query.namespaceId,
      search: query.search,
      visibility: query.visibility,
      searchDescription: true,
      orderBy: query.orderBy,
      sort: query.orderBy === 'name' ? 'asc' : 'desc',
      archived: query.scope === 'visible' && query.namespaceId === undefined ? false : undefined,
    },
    { limit: PROJECTS_PER_PAGE + 1, offset: (query.page - 1) * PROJECTS_PER_PAGE },
  );
  const hasNext = ids.length > PROJECTS_PER_PAGE;
  const views = await listProjectViewsByIds(deps, viewer, ids.slice(0, PROJECTS_PER_PAGE));
  const projects = presentProjects(views, deps.config);
  return { projects, hasNext };
}

export type ListedProject = Awaited<ReturnType<typeof listProjectCards>>['projects'][number];

/** The user a profile page names (blocked users have no page, as GitLab answered 404). */
export async function loadUserByUsernameOr404(deps: Deps, username: string): Promise<UserRow | undefined> {
  const user = await findUserByUsername(deps.db.kysely, username);
  return user && canSignIn(user) ? user : undefined;
}
