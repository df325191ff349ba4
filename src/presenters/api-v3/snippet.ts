// GitLab 8.13's Entities::ProjectSnippet (no content: `raw` answers it; `expires_at` always null, kept
// for old clients), and the snippet's columns as its DELETE answered them (the destroyed record's JSON).
import { presentUserBasic } from './user.ts';
import { snippetWebUrl } from '../../domain/paths.ts';
import type { SnippetView } from '../../views/snippet-views.ts';
import type { SnippetRow } from '../../db/types.ts';

export function presentProjectSnippet(view: SnippetView, baseUrl: string) {
  const { snippet } = view;
  return {
    id: snippet.id,
    title: snippet.title,
    file_name: snippet.file_name,
    author: view.author ? presentUserBasic(view.author, baseUrl) : null,
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    expires_at: null,
    web_url: snippetWebUrl(baseUrl, view.record, snippet.id),
  };
}

export function presentSnippetColumns(snippet: SnippetRow) {
  return {
    id: snippet.id,
    title: snippet.title,
    content: snippet.content,
    author_id: snippet.author_id,
    project_id: snippet.project_id,
    created_at: snippet.created_at,
    updated_at: snippet.updated_at,
    file_name: snippet.file_name,
    type: snippet.type,
    visibility_level: snippet.visibility_level,
  };
}
