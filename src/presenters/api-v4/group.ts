// API v4's Group, GroupDetail and Namespace entities, keys in GitLab's order, from the same rows as v3's.
// Labrador has no subgroups (every group is a root: parent_id null, full_path = path), no group-level
// 2FA or runners: those fields show GitLab's defaults.
import type { NamespaceRow } from '../../db/types.ts';
import { groupWebUrl, uploadedAvatarUrl, userWebUrl } from '../../domain/paths.ts';
import { visibilityName } from '../../domain/types.ts';

export function presentGroup(group: NamespaceRow, baseUrl: string) {
  return {
    id: group.id,
    web_url: groupWebUrl(baseUrl, group.path),
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: visibilityName(group.visibility_level),
    share_with_group_lock: group.share_with_group_lock === 1,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: 'developer',
    auto_devops_enabled: null,
    subgroup_creation_level: 'maintainer',
    emails_disabled: false,
    emails_enabled: true,
    mentions_disabled: null,
    lfs_enabled: group.lfs_enabled === 1,
    default_branch: null,
    default_branch_protection: 2,
    avatar_url: uploadedAvatarUrl(baseUrl, 'group', group.id, group.avatar),
    request_access_enabled: group.request_access_enabled === 1,
    full_name: group.name,
    full_path: group.path,
    created_at: group.created_at,
    parent_id: null,
    shared_runners_setting: 'enabled',
  };
}

/** GroupDetail; `projects` and `shared_projects` (presented by the project view) only when asked for. */
export function presentGroupDetail(
  detail: { group: NamespaceRow; projects?: unknown[]; sharedProjects?: unknown[] },
  baseUrl: string,
) {
  const shown = Object.assign(presentGroup(detail.group, baseUrl), {
    shared_with_groups: [],
    prevent_sharing_groups_outside_hierarchy: false,
  });
  if (!detail.projects) return shown;
  return Object.assign(shown, { projects: detail.projects, shared_projects: detail.sharedProjects ?? [] });
}

export function presentNamespace(namespace: NamespaceRow, baseUrl: string) {
  const group = namespace.type === 'Group';
  return {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    kind: group ? 'group' : 'user',
    full_path: namespace.path,
    parent_id: null,
    avatar_url: group ? uploadedAvatarUrl(baseUrl, 'group', namespace.id, namespace.avatar) : null,
    web_url: group ? groupWebUrl(baseUrl, namespace.path) : userWebUrl(baseUrl, namespace.path),
  };
}
