// API v4's Entities::Snippet (ProjectSnippet and PersonalSnippet add nothing to it): the visibility by
// name, the description, the project's id (null for a personal snippet), web_url and raw_url.
import { presentUserBasic } from './user.ts';
import { snippetWebUrl } from '../../domain/paths.ts';
import { VISIBILITY_NAMES } from '../../domain/types.ts';
import type { SnippetView } from '../../views/snippet-views.ts';

export function presentSnippetV4(view: SnippetView, baseUrl: string) {
  const { snippet } = view;
  const webUrl = snippetWebUrl(baseUrl, view.record, snippet.id);
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: VISIBILITY_NAMES[snippet.visibility_level] ?? 'private',
    author: view.author ? presentUserBasic(view.author, baseUrl) : null,
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    project_id: snippet.project_id,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    file_name: snippet.file_name,
    files: [{ path: snippet.file_name, raw_url: `${webUrl}/raw` }],
  };
}
