// Snippets (GitLab 8.13's CreateSnippetService, UpdateSnippetService and Snippet's validations): a
// title (1–255), content, a file name of letters, digits, `_-.@` (at most 255) and a visibility level
// 0/10/20, checked in the model's order and answered as render_validation_error! does. Deleting one
// takes its notes, their awards and its own awards in the same transaction (they point at it by type).
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { ValidationErrors, forbidden } from '../../errors.ts';
import { deleteSnippetRow, insertSnippet, updateSnippet } from '../../db/repositories/snippets.ts';
import { deleteIssueDependents } from '../../db/repositories/issues.ts';
import { canUpdateSnippet } from '../../policies/snippets.ts';
import { snippetNoteHookNoteable } from '../../presenters/hooks/issue-hook-payloads.ts';
import type { ProjectAccess } from '../../policies/access.ts';
import type { Noteable } from '../issues/notes.ts';
import type { Awardable } from '../issues/award-emoji.ts';
import type { LoadedProject } from '../../http/loaders.ts';
import type { SnippetRow, UserRow } from '../../db/types.ts';

const SNIPPET = 'Snippet';

/** What a caller may set on a snippet (undefined: left as it is). */
export interface SnippetAttributes {
  title?: string;
  file_name?: string;
  content?: string;
  description?: string | null;
  visibility_level?: number;
}

const FILE_NAME = /^[a-zA-Z0-9_\-.@]*$/;

function validate(row: Required<Omit<SnippetAttributes, 'description'>>): void {
  const errors = new ValidationErrors();
  if (row.title.trim() === '') errors.add('title', "can't be blank");
  else if (row.title.length > 255) errors.add('title', 'is too long (maximum is 255 characters)');
  if (row.file_name.length > 255) errors.add('file_name', 'is too long (maximum is 255 characters)');
  if (!FILE_NAME.test(row.file_name)) {
    errors.add('file_name', "can contain only letters, digits, '_', '-', '@' and '.'.");
  }
  if (row.content.trim() === '') errors.add('content', "can't be blank");
  if (![0, 10, 20].includes(row.visibility_level))
    errors.add('visibility_level', 'is not included in the list');
  errors.throwIfAny();
}

/** A new snippet by `viewer`: the project's when `project` is given, else the viewer's own. */
export async function createSnippet(
  deps: Deps,
  viewer: UserRow,
  project: LoadedProject | null,
  attributes: SnippetAttributes,
): Promise<SnippetRow> {
  const row = {
    title: attributes.title ?? '',
    file_name: attributes.file_name ?? '',
    content: attributes.content ?? '',
    visibility_level: attributes.visibility_level ?? 0,
  };
  validate(row);
  const at = now();
  return insertSnippet(deps.db.kysely, {
    ...row,
    description: attributes.description ?? null,
    author_id: viewer.id,
    project_id: project === null ? null : project.project.id,
    type: project === null ? 'PersonalSnippet' : 'ProjectSnippet',
    created_at: at,
    updated_at: at,
  });
}

export async function editSnippet(
  deps: Deps,
  viewer: UserRow,
  access: ProjectAccess | null,
  snippet: SnippetRow,
  attributes: SnippetAttributes,
  masters = false,
): Promise<SnippetRow> {
  if (!canUpdateSnippet(viewer, snippet, access, masters)) throw forbidden();
  const changes = Object.fromEntries(
    Object.entries(attributes).filter(([, value]) => value !== undefined),
  ) as SnippetAttributes;
  validate({
    title: changes.title ?? snippet.title,
    file_name: changes.file_name ?? snippet.file_name,
    content: changes.content ?? snippet.content,
    visibility_level: changes.visibility_level ?? snippet.visibility_level,
  });
  const updated = await updateSnippet(deps.db.kysely, snippet.id, { ...changes, updated_at: now() });
  return updated ?? snippet;
}

export async function destroySnippet(
  deps: Deps,
  viewer: UserRow,
  access: ProjectAccess | null,
  snippet: SnippetRow,
  masters = false,
): Promise<void> {
  if (!canUpdateSnippet(viewer, snippet, access, masters)) throw forbidden();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await deleteIssueDependents(trx, SNIPPET, snippet.id);
    await deleteSnippetRow(trx, snippet.id);
  });
}

/** A project snippet as what notes go on: a note touches it and its hook carries its columns. */
export function snippetNoteable(deps: Deps, loaded: LoadedProject, snippet: SnippetRow): Noteable {
  return {
    type: SNIPPET,
    id: snippet.id,
    projectId: loaded.project.id,
    authorId: snippet.author_id,
    touch: async (trx, at) =>
      snippetNoteHookNoteable(
        deps.config.externalUrl,
        loaded,
        (await updateSnippet(trx, snippet.id, { updated_at: at })) ?? snippet,
      ),
  };
}

export function snippetAwardable(snippet: SnippetRow): Awardable {
  return { type: SNIPPET, id: snippet.id, projectId: snippet.project_id ?? 0, authorId: snippet.author_id };
}
