import type { NamespaceRow } from '../../db/types.ts';
// Group, GroupDetail and Namespace, keys in GitLab's order.

export function presentGroup(group: NamespaceRow, baseUrl: string) {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility_level: group.visibility_level,
    lfs_enabled: group.lfs_enabled === 1,
    // Labrador stores no group avatars.
    avatar_url: null,
    web_url: `${baseUrl}/groups/${group.path}`,
    request_access_enabled: group.request_access_enabled === 1,
  };
}

/** GroupDetail: the group plus its own and its shared projects, already presented by the caller. */
export function presentGroupDetail(
  group: NamespaceRow,
  baseUrl: string,
  projects: unknown[],
  sharedProjects: unknown[],
) {
  return Object.assign(presentGroup(group, baseUrl), { projects, shared_projects: sharedProjects });
}

export function presentNamespace(namespace: NamespaceRow) {
  return { id: namespace.id, path: namespace.path, kind: namespace.type === 'Group' ? 'group' : 'user' };
}
