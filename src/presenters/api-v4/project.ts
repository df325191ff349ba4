// API v4's project entities (GitLab's lib/api/entities: ProjectIdentity ⊂ BasicProjectDetails ⊂
// ProjectDetails, Project ⊂ ProjectWithAccess), keys in GitLab's order, built from the same view models
// as v3's. What Labrador does not have is given as GitLab shows it switched off (no
// service desk, no packages, fast-forward-less merges). A field an entity leaves out is `undefined`, which
// JSON leaves out too: every object of a kind then has one shape (the conditional spreads it replaced made
// the list's presenter and JSON.stringify four times slower than v3's).
import { canAdminProject, type ProjectAccess } from '../../policies/access.ts';
import { canDownloadCode } from '../../policies/git-access.ts';
import { avatarUrl } from '../api-v3/user.ts';
import { namespaceHumanName, type ProjectUrlSettings } from '../api-v3/project.ts';
import { projectUrls, uploadedAvatarUrl } from '../../domain/paths.ts';
import { VISIBILITY_NAMES } from '../../domain/types.ts';
import type { ProjectRecord, UserBasicRow } from '../../db/types.ts';
import type { BasicProjectView, ProjectView } from '../../views/project-views.ts';
import { presentUserBasic } from './user.ts';

/** NamespaceBasic: a personal namespace is its owner's (`kind: user`), a group's is `kind: group`. */
function presentNamespaceBasic(record: ProjectRecord, owner: UserBasicRow | null, baseUrl: string) {
  const { namespace } = record;
  const group = namespace.type === 'Group';
  return {
    id: namespace.id,
    name: namespaceHumanName(namespace, owner),
    path: namespace.path,
    kind: group ? 'group' : 'user',
    full_path: namespace.path,
    parent_id: null,
    // A group's uploaded avatar; a user's namespace shows its owner's.
    avatar_url: group
      ? uploadedAvatarUrl(baseUrl, 'group', namespace.id, namespace.avatar)
      : owner
        ? avatarUrl(owner, baseUrl)
        : null,
    web_url: group ? `${baseUrl}/groups/${namespace.path}` : `${baseUrl}/${namespace.path}`,
  };
}

interface BasicInput {
  record: ProjectRecord;
  owner: UserBasicRow | null;
  forksCount: number;
  /** Whether the caller may read the code (default_branch, readme_url and forks_count show then). */
  readCode: boolean;
}

function presentBasic(input: BasicInput, settings: ProjectUrlSettings) {
  const { record, owner } = input;
  const { project, namespace } = record;
  const baseUrl = settings.externalUrl;
  const urls = projectUrls(baseUrl, record, settings.ssh.cloneUrlBase);
  const topics = JSON.parse(project.topic_list) as string[];
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${namespaceHumanName(namespace, owner)} / ${project.name}`,
    path: project.path,
    path_with_namespace: urls.fullPath,
    created_at: project.created_at,
    // A new repository's HEAD, until the first push sets the default branch.
    default_branch: input.readCode ? (project.default_branch ?? 'master') : undefined,
    tag_list: topics,
    topics,
    ssh_url_to_repo: urls.sshUrl,
    http_url_to_repo: urls.httpUrl,
    web_url: urls.webUrl,
    readme_url: input.readCode ? null : undefined,
    forks_count: input.readCode ? input.forksCount : undefined,
    avatar_url: uploadedAvatarUrl(baseUrl, 'project', project.id, project.avatar),
    star_count: project.star_count,
    last_activity_at: project.last_activity_at,
    namespace: presentNamespaceBasic(record, owner, baseUrl),
  };
}

/** BasicProjectDetails: `simple=true` lists and anonymous callers' lists. */
export function presentBasicProjectsV4(views: BasicProjectView[], settings: ProjectUrlSettings) {
  return views.map((view) =>
    presentBasic(
      {
        record: view.record,
        owner: view.owner,
        forksCount: view.forksCount,
        readCode: canDownloadCode(view.access, view.record),
      },
      settings,
    ),
  );
}

function forkedFrom(view: ProjectView, settings: ProjectUrlSettings) {
  if (!view.forkedFrom) return undefined;
  const source = {
    record: view.forkedFrom,
    owner: view.forkedFromOwner,
    forksCount: view.forkedFromForksCount,
    readCode: view.forkedFrom.project.visibility_level !== 0 || view.access.admin,
  };
  return presentBasic(source, settings);
}

/** ProjectDetails: GET /projects/:id for a caller without a token. */
export function presentProjectDetailsV4(view: ProjectView, settings: ProjectUrlSettings) {
  const readCode = canDownloadCode(view.access, view.record);
  const basic = { record: view.record, owner: view.owner, forksCount: view.forksCount, readCode };
  return Object.assign(presentBasic(basic, settings), { forked_from_project: forkedFrom(view, settings) });
}

const featureLevel = (enabled: number) => (enabled === 1 ? 'enabled' : 'disabled');

export interface ProjectV4Options {
  /** ProjectWithAccess: `permissions` (the lists and GET /projects/:id for a signed-in caller). */
  permissions?: boolean;
  /** GitLab's user_can_admin_project: runners_token and build_git_strategy for masters (not in lists). */
  adminFields?: boolean;
}

/** Project (the answers of writes) and ProjectWithAccess. */
export function presentProjectV4(
  view: ProjectView,
  settings: ProjectUrlSettings,
  options: ProjectV4Options = {},
) {
  const { record, access } = view;
  const { project, namespace } = record;
  const baseUrl = settings.externalUrl;
  const bool = (value: number) => value === 1;
  const readCode = canDownloadCode(access, record);
  const admin = options.adminFields === true && canAdminProject(access);
  const api = `${baseUrl}/api/v4/projects/${project.id}`;
  const owner = namespace.type !== 'Group' && view.owner ? presentUserBasic(view.owner, baseUrl) : undefined;
  const issues = bool(project.issues_enabled);
  const mergeRequests = bool(project.merge_requests_enabled);
  const basic = presentBasic({ record, owner: view.owner, forksCount: view.forksCount, readCode }, settings);
  // One literal with every key (BasicProjectDetails' first): adding ~80 keys to `basic` afterwards
  // (Object.assign) left V8 a slow object that took three times as long to build and stringify.
  return {
    id: basic.id,
    description: basic.description,
    name: basic.name,
    name_with_namespace: basic.name_with_namespace,
    path: basic.path,
    path_with_namespace: basic.path_with_namespace,
    created_at: basic.created_at,
    default_branch: basic.default_branch,
    tag_list: basic.tag_list,
    topics: basic.topics,
    ssh_url_to_repo: basic.ssh_url_to_repo,
    http_url_to_repo: basic.http_url_to_repo,
    web_url: basic.web_url,
    readme_url: basic.readme_url,
    forks_count: basic.forks_count,
    avatar_url: basic.avatar_url,
    star_count: basic.star_count,
    last_activity_at: basic.last_activity_at,
    namespace: basic.namespace,
    _links: {
      self: api,
      issues: issues ? `${api}/issues` : undefined,
      merge_requests: mergeRequests ? `${api}/merge_requests` : undefined,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    },
    packages_enabled: false,
    // Until the first push there is no default branch (Labrador records it at that push).
    empty_repo: project.default_branch === null,
    archived: bool(project.archived),
    visibility: VISIBILITY_NAMES[project.visibility_level] ?? 'private',
    owner,
    resolve_outdated_diff_discussions: false,
    issues_enabled: issues,
    merge_requests_enabled: mergeRequests,
    wiki_enabled: bool(project.wiki_enabled),
    jobs_enabled: bool(project.builds_enabled),
    snippets_enabled: bool(project.snippets_enabled),
    container_registry_enabled: bool(project.container_registry_enabled),
    service_desk_enabled: false,
    service_desk_address: null,
    can_create_merge_request_in: access.canRead && access.level >= 30,
    issues_access_level: featureLevel(project.issues_enabled),
    repository_access_level: 'enabled',
    merge_requests_access_level: featureLevel(project.merge_requests_enabled),
    forking_access_level: 'enabled',
    wiki_access_level: featureLevel(project.wiki_enabled),
    builds_access_level: featureLevel(project.builds_enabled),
    snippets_access_level: featureLevel(project.snippets_enabled),
    pages_access_level: 'disabled',
    container_registry_access_level: featureLevel(project.container_registry_enabled),
    emails_disabled: false,
    shared_runners_enabled: bool(project.shared_runners_enabled),
    lfs_enabled: bool(project.lfs_enabled),
    creator_id: project.creator_id,
    forked_from_project: forkedFrom(view, settings),
    import_status: project.import_url ? 'finished' : 'none',
    open_issues_count: issues ? view.openIssuesCount : undefined,
    runners_token: admin ? project.runners_token : undefined,
    ci_default_git_depth: null,
    public_jobs: bool(project.public_builds),
    build_git_strategy: admin ? (bool(project.build_allow_git_fetch) ? 'fetch' : 'clone') : undefined,
    build_timeout: project.build_timeout,
    auto_cancel_pending_pipelines: 'disabled',
    build_coverage_regex: project.build_coverage_regex,
    ci_config_path: readCode ? null : undefined,
    shared_with_groups: view.sharedWithGroups.map((share) => ({
      group_id: share.group_id,
      group_name: share.group_name,
      group_full_path: share.group_path,
      group_access_level: share.group_access,
      expires_at: share.expires_at,
    })),
    only_allow_merge_if_pipeline_succeeds: bool(project.only_allow_merge_if_build_succeeds),
    allow_merge_on_skipped_pipeline: false,
    request_access_enabled: bool(project.request_access_enabled),
    only_allow_merge_if_all_discussions_are_resolved: false,
    remove_source_branch_after_merge: false,
    printing_merge_request_link_enabled: true,
    merge_method: 'merge',
    squash_option: 'default_off',
    auto_devops_enabled: false,
    autoclose_referenced_issues: true,
    permissions: options.permissions ? presentPermissions(access) : undefined,
  };
}

function presentPermissions(access: ProjectAccess) {
  return { project_access: access.projectMember, group_access: access.groupMember };
}

export function presentProjectsV4(
  views: ProjectView[],
  settings: ProjectUrlSettings,
  options: ProjectV4Options = {},
) {
  return views.map((view) => presentProjectV4(view, settings, options));
}
