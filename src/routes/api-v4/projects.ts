// API v4's projects resource: one GET /projects with v4's filters (public projects for a caller without
// a token), a user's projects, one project, create (for oneself or, by an administrator, for a user),
// edit and delete (202). Over v3's loaders, services, views and parameter readers: only the names v4
// renamed (RENAMES), `visibility` as a word and v4's entities differ.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { findUserByIdParam, loadProject } from '../../http/loaders.ts';
import { paginate, parsePage, setKeysetLink } from '../../http/pagination.ts';
import {
  blankParam,
  optionalBoolean,
  optionalInteger,
  optionalOneOf,
  optionalString,
  optionalStringList,
  presentString,
  type Params,
} from '../../http/params.ts';
import {
  assertMayEdit,
  optionalVisibility,
  projectAttributes,
  projectListFilters,
  projectListSearch,
  type AttributeForm,
} from '../../http/project-params.ts';
import { v4Params, type Renames } from './conventions.ts';
import { ApiError, forbidden, grapeError, notFound, paramValueInvalid, paramsMissing } from '../../errors.ts';
import { canAdminProject, isProjectOwner } from '../../policies/access.ts';
import { isAdministrator } from '../../policies/users.ts';
import { createProject, deleteProject, updateProject } from '../../services/projects/projects.ts';
import { defaultBranchName, defaultVisibilityLevel } from '../../services/instance/application-settings.ts';
import { setProjectTopics, topicNames } from '../../services/projects/topics.ts';
import { MAX_LIST_TOPICS, topicIdsByNames } from '../../views/topic-views.ts';
import {
  countProjectList,
  listBasicProjectViewsByIds,
  listProjectRecordViews,
  listProjectViewsByIds,
  listProjectsPage,
  loadProjectView,
  loadProjectViewById,
  personalNamespaceId,
} from '../../views/project-views.ts';
import { loadUserByUsernameOr404 } from '../../views/project-list-pages.ts';
import {
  presentBasicProjectsV4,
  presentProjectDetailsV4,
  presentProjectV4,
  presentProjectsV4,
} from '../../presenters/api-v4/project.ts';
import type { ProjectListQuery, ProjectScope, UserRow } from '../../db/types.ts';
import { type AvatarFile, checkAvatar, removeAvatarOf, setAvatar } from '../../services/users/avatars.ts';
import { bufferedFile } from '../../http/body-parsers.ts';

/** The project parameters v4 renamed and nothing else (their v3 names are what the readers know). */
const RENAMES: Renames = {
  jobs_enabled: 'builds_enabled',
  public_jobs: 'public_builds',
  only_allow_merge_if_pipeline_succeeds: 'only_allow_merge_if_build_succeeds',
};

const CREATE: AttributeForm = { namespaceId: true, importUrl: true, defaultBranch: true };
const EDIT: AttributeForm = { namespaceId: false, importUrl: false, defaultBranch: true };
const EDITABLE =
  'name, path, description, default_branch, visibility, issues_enabled, merge_requests_enabled, ' +
  'wiki_enabled, jobs_enabled, snippets_enabled, container_registry_enabled, shared_runners_enabled, ' +
  'public_jobs, lfs_enabled, only_allow_merge_if_pipeline_succeeds, request_access_enabled, topics';

/** v4's `topics` (a list or comma-separated text), or the older `tag_list`; undefined when neither. */
function topicsParam(params: Params): string[] | undefined {
  const given = optionalStringList(params, 'topics') ?? optionalStringList(params, 'tag_list');
  return given === undefined ? undefined : topicNames(given);
}

/** The request's parameters as v3's readers know them: v4's names renamed, `visibility` as a level. */
export function projectParams(request: FastifyRequest): Params {
  const params = v4Params(request, RENAMES);
  // v4 knows only `visibility`: v3's `public` and `visibility_level` are not its parameters.
  delete params.public;
  delete params.visibility_level;
  const level = optionalVisibility(params);
  if (level !== undefined) params.visibility_level = String(level);
  return params;
}

const ACCESS_LEVELS = ['10', '20', '30', '40', '50'] as const;

/**
 * A v4 list's query. Without a caller: public projects only (GitLab's public_to_user). With one: every
 * project they may see (administrators: every project), narrowed by owned, starred or membership (in that
 * order of precedence when several are given) and by min_access_level.
 */
export function projectListQuery(
  viewer: UserRow | null,
  params: Params,
  extra: Partial<ProjectListQuery> = {},
): ProjectListQuery {
  const filters = projectListFilters(params, true);
  let scope: ProjectScope = viewer && isAdministrator(viewer) ? 'all' : 'visible';
  let minAccessLevel: number | undefined;
  const level = optionalOneOf(params, 'min_access_level', ACCESS_LEVELS, () =>
    paramValueInvalid('min_access_level'),
  );
  const flag = (name: string) => optionalBoolean(params, name) === true;
  const owned = flag('owned');
  const starred = flag('starred');
  const membership = flag('membership');
  if (viewer) {
    if (owned) scope = 'owned';
    else if (starred) scope = 'starred';
    else if (membership) scope = 'member';
    if (level !== undefined) minAccessLevel = Number(level);
  }
  return {
    scope,
    viewerId: viewer?.id ?? 0,
    external: viewer ? viewer.external === 1 : true,
    archived: filters.archived,
    visibility: filters.visibility,
    search: projectListSearch(params),
    searchDescription: true,
    searchNamespaces: flag('search_namespaces'),
    minAccessLevel,
    withIssuesEnabled: flag('with_issues_enabled'),
    withMergeRequestsEnabled: flag('with_merge_requests_enabled'),
    idAfter: optionalInteger(params, 'id_after'),
    idBefore: optionalInteger(params, 'id_before'),
    orderBy: filters.orderBy,
    sort: filters.sort,
    ...extra,
  };
}

/** Past this many rows (page × per_page) a project list is read by keyset (GitLab's default limit). */
const OFFSET_LIMIT = 50_000;

/**
 * `pagination=keyset` (GitLab's Keyset::Pager, which serves projects ordered by id alone): per_page
 * projects past id_after (ascending) or before id_before (descending), uncounted, and a `next` Link
 * naming the bound after this page's last project whenever the page holds one. Any other order is a 405.
 */
async function keysetProjectIds(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  params: Params,
  query: ProjectListQuery,
): Promise<number[]> {
  if (optionalString(params, 'order_by') !== 'id') {
    throw new ApiError(405, { error: 'Keyset pagination is not yet available for this type of request' });
  }
  const { perPage } = parsePage(request);
  const ids = await listProjectsPage(deps, query, { limit: perPage, offset: 0 });
  const last = ids.at(-1);
  if (last !== undefined) {
    const bound = query.sort === 'asc' ? 'id_after' : 'id_before';
    setKeysetLink(request, reply, deps.config.externalUrl, { [bound]: last });
  }
  return ids;
}

/** Offset pages of projects end at OFFSET_LIMIT rows: the rest are read by keyset, as GitLab asks. */
function offsetProjectIds(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  query: ProjectListQuery,
): Promise<number[]> {
  const { page, perPage } = parsePage(request);
  if (page * perPage > OFFSET_LIMIT) {
    throw new ApiError(405, {
      error:
        `Offset pagination has a maximum allowed offset of ${OFFSET_LIMIT} for requests that return ` +
        'objects of type Project. Remaining records can be retrieved using keyset pagination.',
    });
  }
  return paginate(
    request,
    reply,
    deps.config.externalUrl,
    () => countProjectList(deps, query),
    (next) => listProjectsPage(deps, query, next),
  );
}

/**
 * A page of a v4 project list: ProjectWithAccess for a caller, BasicProjectDetails with `simple=true`
 * or without a caller (GitLab's present_projects). GET /groups/:id/projects and GET /projects/:id/forks
 * answer theirs through this too.
 */
export async function presentProjectListV4(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  params: Params,
  query: ProjectListQuery,
) {
  const viewer = request.viewer;
  const ids =
    optionalString(params, 'pagination') === 'keyset'
      ? await keysetProjectIds(deps, request, reply, params, query)
      : await offsetProjectIds(deps, request, reply, query);
  if (!viewer || optionalBoolean(params, 'simple') === true) {
    return presentBasicProjectsV4(await listBasicProjectViewsByIds(deps, ids, viewer), deps.config);
  }
  const views = await listProjectViewsByIds(deps, viewer, ids, { forkSourceCounts: true });
  return presentProjectsV4(views, deps.config, { permissions: true });
}

/** A write's answer: the Project entity with what masters see (GitLab's user_can_admin_project). */
export async function presentWrittenProject(deps: Deps, viewer: UserRow, projectId: number) {
  const view = await loadProjectViewById(deps, viewer, projectId, { forkSourceCounts: true });
  if (!view) throw notFound('Project');
  return presentProjectV4(view, deps.config, { adminFields: true });
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects', { config: { public: true } }, async (request, reply) => {
    const params = projectParams(request);
    const names = topicNames(optionalStringList(params, 'topic') ?? []);
    if (names.length > MAX_LIST_TOPICS) throw paramValueInvalid('topic');
    const topicIds = names.length > 0 ? await topicIdsByNames(deps, names) : undefined;
    const query = projectListQuery(request.viewer, params, { topicIds });
    return presentProjectListV4(deps, request, reply, params, query);
  });

  app.get('/users/:user_id/projects', { config: { public: true } }, async (request, reply) => {
    const params = projectParams(request);
    const idOrName = String((request.params as { user_id: string }).user_id);
    const user = (await findUserByIdParam(deps, idOrName)) ?? (await loadUserByUsernameOr404(deps, idOrName));
    const namespaceId = user && (await personalNamespaceId(deps, user.id));
    if (namespaceId === undefined) throw notFound('User');
    const query = projectListQuery(request.viewer, params, { namespaceId });
    return presentProjectListV4(deps, request, reply, params, query);
  });

  app.get('/projects/:id', { config: { public: true } }, async (request) => {
    const loaded = await loadProject(deps, request);
    const view = await loadProjectView(deps, loaded, loaded.access, { forkSourceCounts: true });
    if (!request.viewer) return presentProjectDetailsV4(view, deps.config);
    return presentProjectV4(view, deps.config, { permissions: true, adminFields: true });
  });

  /** Both creates: the caller for itself, or an administrator for `creator`. */
  const create = async (
    reply: FastifyReply,
    actor: UserRow,
    creator: UserRow,
    params: Params,
    limitStyle: 'forbidden' | 'validation',
    avatar: AvatarFile | undefined,
  ) => {
    const attributes = projectAttributes(params, CREATE);
    // As PUT: the file is judged before anything is created, and written once the project exists.
    if (avatar) checkAvatar(avatar);
    // v4's creations follow the instance's settings (GitLab's default_branch_name, default visibility).
    attributes.visibility_level ??= await defaultVisibilityLevel(deps.db.kysely, 'project');
    const initialBranch = await defaultBranchName(deps.db.kysely);
    const record = await createProject(deps, { actor, creator, attributes, initialBranch, limitStyle });
    const topics = topicsParam(params);
    if (topics !== undefined && topics.length > 0) {
      record.project.topic_list = await setProjectTopics(deps, record.project.id, topics);
    }
    if (avatar) record.project.avatar = await setAvatar(deps, 'project', record.project.id, avatar);
    const [view] = await listProjectRecordViews(deps, actor, [record], { forkSourceCounts: true });
    return reply.status(201).send(presentProjectV4(view!, deps.config, { adminFields: true }));
  };

  app.post('/projects', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = projectParams(request);
    if (presentString(params, 'name') === undefined && presentString(params, 'path') === undefined) {
      throw grapeError(400, 'name, path are missing, at least one parameter must be provided');
    }
    return create(reply, viewer, viewer, params, 'forbidden', bufferedFile(request, 'avatar'));
  });

  app.post('/projects/user/:user_id', async (request, reply) => {
    const viewer = requireAdmin(request);
    const params = projectParams(request);
    const user = await findUserByIdParam(deps, params.user_id);
    if (!user) throw notFound('User');
    if (presentString(params, 'name') === undefined) throw paramsMissing('name');
    return create(reply, viewer, user, params, 'validation', bufferedFile(request, 'avatar'));
  });

  app.put('/projects/:id', async (request) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    if (!canAdminProject(loaded.access)) throw forbidden();
    const params = projectParams(request);
    const attributes = projectAttributes(params, EDIT);
    const topics = topicsParam(params);
    const file = bufferedFile(request, 'avatar');
    if (file) checkAvatar(file);
    // GitLab 15.4: a blank `avatar` removes the project's.
    const removeAvatar = !file && blankParam(params, 'avatar');
    if (Object.keys(attributes).length === 0 && topics === undefined && !file && !removeAvatar) {
      throw grapeError(400, `${EDITABLE} are missing, at least one parameter must be provided`);
    }
    if (Object.keys(attributes).length > 0) {
      assertMayEdit(loaded, attributes);
      await updateProject(deps, { record: loaded, attributes });
    }
    if (topics !== undefined) await setProjectTopics(deps, loaded.project.id, topics);
    if (file) await setAvatar(deps, 'project', loaded.project.id, file);
    if (removeAvatar) await removeAvatarOf(deps, 'project', loaded.project.id);
    return presentWrittenProject(deps, viewer, loaded.project.id);
  });

  app.delete('/projects/:id', async (request, reply) => {
    const loaded = await loadProject(deps, request);
    if (!isProjectOwner(loaded.access)) throw forbidden();
    await deleteProject(deps, loaded);
    return reply.status(202).send({ message: '202 Accepted' });
  });
}
