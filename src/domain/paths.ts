// Where things live on the web: a project's page and clone URLs, an issue's and a merge request's page.
// One definition for API entities, hook payloads, mail and pages alike.
import type { IssueRow, ProjectRecord } from '../db/types.ts';

/** GitLab's scp-like form on the external URL's host, when no SSH setting says otherwise. */
function defaultSshBase(baseUrl: string): string {
  return `git@${new URL(baseUrl).hostname}:`;
}

/**
 * Where a project lives: its page, its HTTP and SSH clone URLs (the API entity and hook payloads alike).
 * `sshBase` is where SSH clone URLs start (`git@host:` or `ssh://git@host:port/`), from the SSH settings.
 */
export function projectUrls(baseUrl: string, record: ProjectRecord, sshBase = defaultSshBase(baseUrl)) {
  const fullPath = `${record.namespace.path}/${record.project.path}`;
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

export function mergeRequestWebUrl(baseUrl: string, target: ProjectRecord, iid: number): string {
  return `${projectUrls(baseUrl, target).webUrl}/merge_requests/${iid}`;
}

/** A user's profile page (also the page of the user's personal namespace). */
export function userWebUrl(baseUrl: string, username: string): string {
  return `${baseUrl}/${username}`;
}

/** A group's page. */
export function groupWebUrl(baseUrl: string, path: string): string {
  return `${baseUrl}/groups/${path}`;
}
