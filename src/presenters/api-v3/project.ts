// The project JSON shapes, keys in GitLab's order:
// BasicProjectDetails ⊂ Project ⊂ ProjectWithAccess. Everything embedded (owner, fork source, fork count,
// shares, the caller's access) arrives precomputed per page in the view model: presenters never query.
import { canAdminProject } from '../../policies/access.ts';
import { presentUserBasic } from './user.ts';
import type { NamespaceRow, ProjectRecord, UserBasicRow } from '../../db/types.ts';
import type { BasicProjectView, ProjectView } from '../../views/project-views.ts';
import { projectUrls, uploadedAvatarUrl } from '../../domain/paths.ts';

export interface ProjectPresentOptions {
  /** Callers below master never see it; the route decides whether the form carries it. */
  runnersToken?: boolean;
  /** ProjectWithAccess (`permissions`) on the lists and GET /projects/:id. */
  permissions?: boolean;
  /** Star and unstar responses leave the owner out. */
  owner?: boolean;
  /** Where ssh clone URLs start (`git@host:` or `ssh://git@host:port/`), from the SSH settings. */
  sshBase?: string;
}

export function namespaceHumanName(
  namespace: NamespaceRow,
  owner: Pick<UserBasicRow, 'name'> | null,
): string {
  // GitLab's Namespace#human_name: the owner's name for personal namespaces, the group name otherwise.
  return namespace.type === 'Group' ? namespace.name : (owner?.name ?? namespace.name);
}

/** BasicProjectDetails: `simple` lists and `forked_from_project`. */
export function presentBasicProject(
  record: ProjectRecord,
  owner: Pick<UserBasicRow, 'name'> | null,
  baseUrl: string,
) {
  const { project, namespace } = record;
  const urls = projectUrls(baseUrl, record);
  return {
    id: project.id,
    http_url_to_repo: urls.httpUrl,
    web_url: urls.webUrl,
    name: project.name,
    name_with_namespace: `${namespaceHumanName(namespace, owner)} / ${project.name}`,
    path: project.path,
    path_with_namespace: `${namespace.path}/${project.path}`,
  };
}

function presentNamespaceSummary(namespace: NamespaceRow) {
  return {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    owner_id: namespace.owner_id,
    created_at: namespace.created_at,
    updated_at: namespace.updated_at,
    type: namespace.type,
    description: namespace.description,
  };
}

function presentProject(view: ProjectView, baseUrl: string, options: ProjectPresentOptions = {}) {
  const { record } = view;
  const extras = view;
  const { project, namespace } = record;
  const bool = (value: number) => value === 1;
  const personal = namespace.type !== 'Group';
  const owner =
    personal && extras.owner && options.owner !== false
      ? {
          owner: Object.assign(presentUserBasic(extras.owner, baseUrl), {
            created_at: extras.owner.created_at,
          }),
        }
      : {};
  const forked = extras.forkedFrom
    ? { forked_from_project: presentBasicProject(extras.forkedFrom, extras.forkedFromOwner ?? null, baseUrl) }
    : {};
  const urls = projectUrls(baseUrl, record, options.sshBase);
  const showToken = options.runnersToken === true && canAdminProject(extras.access);
  return {
    id: project.id,
    description: project.description,
    // A new repository's HEAD, until the first push sets the default branch.
    default_branch: project.default_branch ?? 'master',
    tag_list: [] as string[],
    public: project.visibility_level === 20,
    archived: bool(project.archived),
    visibility_level: project.visibility_level,
    ssh_url_to_repo: urls.sshUrl,
    http_url_to_repo: urls.httpUrl,
    web_url: urls.webUrl,
    ...owner,
    name: project.name,
    name_with_namespace: `${namespaceHumanName(namespace, extras.owner)} / ${project.name}`,
    path: project.path,
    path_with_namespace: `${namespace.path}/${project.path}`,
    container_registry_enabled: bool(project.container_registry_enabled),
    issues_enabled: bool(project.issues_enabled),
    merge_requests_enabled: bool(project.merge_requests_enabled),
    wiki_enabled: bool(project.wiki_enabled),
    builds_enabled: bool(project.builds_enabled),
    snippets_enabled: bool(project.snippets_enabled),
    created_at: project.created_at,
    last_activity_at: project.last_activity_at,
    shared_runners_enabled: bool(project.shared_runners_enabled),
    lfs_enabled: bool(project.lfs_enabled),
    creator_id: project.creator_id,
    namespace: presentNamespaceSummary(namespace),
    ...forked,
    avatar_url: uploadedAvatarUrl(baseUrl, 'project', project.id, project.avatar),
    star_count: project.star_count,
    forks_count: extras.forksCount,
    open_issues_count: extras.openIssuesCount,
    ...(showToken ? { runners_token: project.runners_token } : {}),
    public_builds: bool(project.public_builds),
    shared_with_groups: extras.sharedWithGroups.map((share) => ({
      group_id: share.group_id,
      group_name: share.group_name,
      group_access_level: share.group_access,
    })),
    only_allow_merge_if_build_succeeds: bool(project.only_allow_merge_if_build_succeeds),
    request_access_enabled: bool(project.request_access_enabled),
    ...(options.permissions
      ? {
          permissions: {
            project_access: extras.access.projectMember,
            group_access: extras.access.groupMember,
          },
        }
      : {}),
  };
}

/** Where the entities' URLs start (the server's settings): the external URL and the SSH clone base. */
export interface ProjectUrlSettings {
  externalUrl: string;
  ssh: { cloneUrlBase: string };
}

export function presentProjects(
  views: ProjectView[],
  settings: ProjectUrlSettings,
  options: ProjectPresentOptions = {},
) {
  const withSsh: ProjectPresentOptions = { ...options, sshBase: settings.ssh.cloneUrlBase };
  return views.map((view) => presentProject(view, settings.externalUrl, withSsh));
}

export function presentBasicProjects(views: BasicProjectView[], baseUrl: string) {
  return views.map((view) => presentBasicProject(view.record, view.owner, baseUrl));
}

/** One project (a write's answer), or nothing when it was deleted meanwhile. */
export function presentOneProject(
  view: ProjectView | undefined,
  settings: ProjectUrlSettings,
  options: ProjectPresentOptions = {},
) {
  return view ? presentProjects([view], settings, options)[0] : undefined;
}
