// Who may read and change snippets (GitLab 8.13's ProjectSnippetPolicy, PersonalSnippetPolicy,
// SnippetsFinder and the project's snippets feature): a public snippet is for everyone, an internal one
// for signed-in users who are not external, a private one for its author and (a project's) the project's
// members; administrators see all. A project's snippets need the project readable and its snippets
// feature on; reporters and up write them; the author or an administrator edits and deletes (v4 lets
// masters too, as today's GitLab does).
import { AccessLevel, Visibility } from '../domain/types.ts';
import { minimumVisibilityWithoutMembership } from './visibility.ts';
import type { ProjectAccess } from './access.ts';
import type { ProjectRecord, SnippetRow, UserRow } from '../db/types.ts';

/** read_project_snippet on the project: readable, and its snippets feature on. */
export const canReadProjectSnippets = (access: ProjectAccess, record: ProjectRecord): boolean =>
  access.canRead && record.project.snippets_enabled === 1;

/** create_project_snippet: reporters and up (with the feature on). */
export const canCreateProjectSnippet = (access: ProjectAccess, record: ProjectRecord): boolean =>
  canReadProjectSnippets(access, record) && access.level >= AccessLevel.Reporter;

/** The lowest visibility of a project's snippets the caller lists (SnippetsFinder#by_project). */
export function projectSnippetListMinimum(viewer: UserRow | null, access: ProjectAccess): number {
  if (access.admin || access.level >= AccessLevel.Guest) return Visibility.Private;
  return minimumVisibilityWithoutMembership(viewer);
}

/** read_project_snippet / read_personal_snippet on one snippet (`access`: its project's, if any). */
export function canReadSnippet(
  viewer: UserRow | null,
  snippet: SnippetRow,
  access: ProjectAccess | null,
): boolean {
  if (snippet.visibility_level === Visibility.Public) return true;
  if (viewer === null) return false;
  if (viewer.admin === 1 || snippet.author_id === viewer.id) return true;
  if (snippet.visibility_level === Visibility.Internal) return viewer.external !== 1;
  return access !== null && access.level >= AccessLevel.Guest;
}

/** update_ and admin_ project/personal snippet: its author or an administrator; `masters` for v4. */
export function canUpdateSnippet(
  viewer: UserRow,
  snippet: SnippetRow,
  access: ProjectAccess | null,
  masters = false,
): boolean {
  if (viewer.admin === 1 || snippet.author_id === viewer.id) return true;
  return masters && access !== null && access.level >= AccessLevel.Master;
}
