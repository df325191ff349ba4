// What every event payload embeds (push today; builds and pipelines too): GitLab's Time#xmlschema stamps,
// Project#hook_attrs and Commit#hook_attrs.
import type { ChangedFiles, Commit } from '../../git/commits.ts';
import { projectUrls, uploadedAvatarUrl } from '../../domain/paths.ts';
import type { ProjectRecord } from '../../db/types.ts';

/** ActiveSupport's Time#xmlschema: ISO 8601 without fractions (our stamps carry milliseconds). */
export function xmlschema(iso: string): string {
  return iso.replace(/\.\d+(?=Z|[+-]\d\d:\d\d$)/, '');
}

/** Project#hook_attrs(backward: true): the current fields, then the legacy ones. */
export function projectHookAttrs(baseUrl: string, record: ProjectRecord, sshBase?: string) {
  const urls = projectUrls(baseUrl, record, sshBase);
  return {
    name: record.project.name,
    description: record.project.description ?? '',
    web_url: urls.webUrl,
    avatar_url: uploadedAvatarUrl(baseUrl, 'project', record.project.id, record.project.avatar),
    git_ssh_url: urls.sshUrl,
    git_http_url: urls.httpUrl,
    namespace: record.namespace.name,
    visibility_level: record.project.visibility_level,
    path_with_namespace: urls.fullPath,
    default_branch: record.project.default_branch,
    homepage: urls.webUrl,
    url: urls.sshUrl,
    ssh_url: urls.sshUrl,
    http_url: urls.httpUrl,
  };
}

/** The `repository` object of push and build payloads: a part of Project#hook_attrs. */
export function repositoryHookAttrs(project: ReturnType<typeof projectHookAttrs>) {
  return {
    name: project.name,
    url: project.url,
    description: project.description,
    homepage: project.homepage,
    git_http_url: project.git_http_url,
    git_ssh_url: project.git_ssh_url,
    visibility_level: project.visibility_level,
  };
}

/** Commit#hook_attrs without its changed files: what a note hook on a commit carries. */
export function commitBaseHookAttrs(baseUrl: string, record: ProjectRecord, commit: Commit) {
  const { webUrl } = projectUrls(baseUrl, record);
  return {
    id: commit.id,
    message: commit.message,
    timestamp: xmlschema(commit.committedDate),
    url: `${webUrl}/commit/${commit.id}`,
    author: { name: commit.authorName, email: commit.authorEmail },
  };
}

/** Commit#hook_attrs(with_changed_files: true). */
export function commitHookAttrs(
  baseUrl: string,
  record: ProjectRecord,
  commit: Commit,
  files: ChangedFiles | undefined,
) {
  return {
    ...commitBaseHookAttrs(baseUrl, record, commit),
    added: files?.added ?? [],
    modified: files?.modified ?? [],
    removed: files?.removed ?? [],
  };
}
