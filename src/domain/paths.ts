// Where things live on the web: a project's page and clone URLs, an issue's and a merge request's page,
// a ref's tree, blob or commits, a pipeline's and a build's page. One definition for API entities, hook
// payloads, mail and pages alike: URLs (`…Url`, absolute) and site paths (`…Path`, from a project's full
// path, which a record gives through projectFullPath and a page's project as `path_with_namespace`).
import type { IssueRow, ProjectRecord } from '../db/types.ts';

/** GitLab's scp-like form on the external URL's host, when no SSH setting says otherwise. */
function defaultSshBase(baseUrl: string): string {
  return `git@${new URL(baseUrl).hostname}:`;
}

/** `namespace/path`: a project's full path. */
export function projectFullPath(record: ProjectRecord): string {
  return `${record.namespace.path}/${record.project.path}`;
}

/** A repository path in a URL: each segment encoded, the slashes kept. */
export const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** `/<ns>/<p>/<kind>/<ref>/<path>` (kind: tree, blob, commits…) with each part encoded. */
export function refPath(fullPath: string, kind: string, ref: string, path = ''): string {
  const tail = path === '' ? '' : `/${encodePath(path)}`;
  return `/${fullPath}/${kind}/${encodePath(ref)}${tail}`;
}

export const pipelinePath = (fullPath: string, id: number) => `/${fullPath}/pipelines/${id}`;

export const buildPath = (fullPath: string, id: number) => `/${fullPath}/builds/${id}`;

/**
 * Where a project lives: its page, its HTTP and SSH clone URLs (the API entity and hook payloads alike).
 * `sshBase` is where SSH clone URLs start (`git@host:` or `ssh://git@host:port/`), from the SSH settings.
 */
export function projectUrls(baseUrl: string, record: ProjectRecord, sshBase = defaultSshBase(baseUrl)) {
  const fullPath = projectFullPath(record);
  return {
    fullPath,
    webUrl: `${baseUrl}/${fullPath}`,
    sshUrl: `${sshBase}${fullPath}.git`,
    httpUrl: `${baseUrl}/${fullPath}.git`,
  };
}

export function issueWebUrl(baseUrl: string, record: ProjectRecord, issue: IssueRow): string {
  return `${projectUrls(baseUrl, record).webUrl}/issues/${issue.iid}`;
}

/** A snippet's page: under its project, or `/snippets/:id` for a personal one. */
export function snippetWebUrl(baseUrl: string, record: ProjectRecord | null, snippetId: number): string {
  return record === null
    ? `${baseUrl}/snippets/${snippetId}`
    : `${projectUrls(baseUrl, record).webUrl}/snippets/${snippetId}`;
}

export function mergeRequestWebUrl(baseUrl: string, target: ProjectRecord, iid: number): string {
  return `${projectUrls(baseUrl, target).webUrl}/merge_requests/${iid}`;
}

/** A user's profile page (also the page of the user's personal namespace). */
/** A milestone's page (by iid, as 8.13's milestone pages are addressed). */
export function milestoneWebUrl(baseUrl: string, record: ProjectRecord, iid: number): string {
  return `${baseUrl}/${projectFullPath(record)}/milestones/${iid}`;
}

export type AvatarOwner = 'user' | 'project' | 'group';

/** Where an uploaded avatar is served (the path GitLab 8.13's uploads took). */
export function avatarPath(owner: AvatarOwner, id: number, filename: string): string {
  return `/uploads/${owner}/avatar/${id}/${encodeURIComponent(filename)}`;
}

/** The uploaded avatar's absolute URL, or null when there is none. */
export function uploadedAvatarUrl(
  baseUrl: string,
  owner: AvatarOwner,
  id: number,
  filename: string | null,
): string | null {
  return filename ? baseUrl + avatarPath(owner, id, filename) : null;
}

export function userWebUrl(baseUrl: string, username: string): string {
  return `${baseUrl}/${username}`;
}

/** A group's page. */
export function groupWebUrl(baseUrl: string, path: string): string {
  return `${baseUrl}/groups/${path}`;
}

/** A group milestone's page (today's GitLab path). */
export function groupMilestoneWebUrl(baseUrl: string, path: string, iid: number): string {
  return `${baseUrl}/groups/${path}/-/milestones/${iid}`;
}

/** The tree page of a branch or tag (8.13's `/:namespace/:project/tree/:ref`). */
export function treeWebUrl(baseUrl: string, record: ProjectRecord, ref: string): string {
  return `${projectUrls(baseUrl, record).webUrl}/tree/${encodePath(ref)}`;
}

/** A commit's page (`/:namespace/:project/commit/:sha`). */
export function commitWebUrl(baseUrl: string, record: ProjectRecord, sha: string): string {
  return `${projectUrls(baseUrl, record).webUrl}/commit/${sha}`;
}

/** A project's board page (8.13's namespace_project_board_path); the first board at `/boards`. */
export const boardPath = (fullPath: string, boardId?: number) =>
  boardId === undefined ? `/${fullPath}/boards` : `/${fullPath}/boards/${boardId}`;

/** A wiki page's site path (`/:namespace/:project/wikis/:slug`; a slug's slashes kept). */
export function wikiPagePath(fullPath: string, slug: string, action = ''): string {
  return `/${fullPath}/wikis/${encodePath(slug)}${action === '' ? '' : `/${action}`}`;
}

/** A wiki page's URL (GitLab's Gitlab::UrlBuilder for a WikiPage). */
export function wikiPageWebUrl(baseUrl: string, record: ProjectRecord, slug: string): string {
  return `${baseUrl}${wikiPagePath(projectFullPath(record), slug)}`;
}
