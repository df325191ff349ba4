// The wiki page hook (GitLab 8.13's WikiPages::BaseService#hook_data, as doc/web_hooks/web_hooks.md shows
// it): the actor, the project's hook attributes, the wiki's (ProjectWiki#hook_attrs) and the page's
// attributes with its URL and the action. 8.13 announced create and update; delete is later GitLab's
// (WikiPages::DestroyService), with the same attributes.
import { projectHookAttrs } from './hook-attrs.ts';
import { userHookAttrs } from './issue-hook-payloads.ts';
import { projectUrls, wikiPageWebUrl } from '../../domain/paths.ts';
import type { ProjectRecord, UserRow } from '../../db/types.ts';

export type WikiPageHookAction = 'create' | 'update' | 'delete';

export interface WikiPageHookPage {
  title: string;
  content: string;
  format: string;
  message: string;
  slug: string;
}

interface WikiHookContext {
  baseUrl: string;
  sshBase?: string;
  record: ProjectRecord;
  actor: UserRow;
}

export function presentWikiPageHookPayload(
  context: WikiHookContext,
  page: WikiPageHookPage,
  action: WikiPageHookAction,
) {
  const urls = projectUrls(context.baseUrl, context.record, context.sshBase);
  return {
    object_kind: 'wiki_page',
    user: userHookAttrs(context.actor, context.baseUrl),
    project: projectHookAttrs(context.baseUrl, context.record, context.sshBase),
    wiki: {
      web_url: wikiPageWebUrl(context.baseUrl, context.record, 'home'),
      git_ssh_url: urls.sshUrl.replace(/\.git$/, '.wiki.git'),
      git_http_url: urls.httpUrl.replace(/\.git$/, '.wiki.git'),
      path_with_namespace: `${urls.fullPath}.wiki`,
      default_branch: 'master',
    },
    object_attributes: {
      title: page.title,
      content: page.content,
      format: page.format,
      message: page.message,
      slug: page.slug,
      url: wikiPageWebUrl(context.baseUrl, context.record, page.slug),
      action,
    },
  };
}
