import type { NamespaceRow } from '../../db/types.ts';
import { groupWebUrl, uploadedAvatarUrl } from '../../domain/paths.ts';
// Group, GroupDetail and Namespace, keys in GitLab's order.

export function presentGroup(group: NamespaceRow, baseUrl: string) {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility_level: group.visibility_level,
    lfs_enabled: group.lfs_enabled === 1,
    avatar_url: uploadedAvatarUrl(baseUrl, 'group', group.id, group.avatar),
    web_url: groupWebUrl(baseUrl, group.path),
    request_access_enabled: group.request_access_enabled === 1,
  };
}

/** GroupDetail: the group plus its own and its shared projects, already presented by the project view. */
export function presentGroupDetail(
  detail: { group: NamespaceRow; projects: unknown[]; sharedProjects: unknown[] },
  baseUrl: string,
) {
  return Object.assign(presentGroup(detail.group, baseUrl), {
    projects: detail.projects,
    shared_projects: detail.sharedProjects,
  });
}

export function presentNamespace(namespace: NamespaceRow) {
  return { id: namespace.id, path: namespace.path, kind: namespace.type === 'Group' ? 'group' : 'user' };
}
