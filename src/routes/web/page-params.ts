// Small readers the collaboration pages share: a number in a path or form (an iid, an id, a page), the
// milestone and label fields of the issue and merge request forms, and the signed-in viewer a write
// needs (a signed-out visitor is asked to sign in).
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors.ts';
import { optionalString, optionalStringList, type Params } from '../../http/params.ts';
import type { UserRow } from '../../db/types.ts';
import { ISSUE_SORTS, type IssueSort, type ListQuery } from '../../presenters/html/issues.tsx';

/** A positive integer as text, or undefined for anything else (which pages answer as not found). */
export function positiveInteger(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}

export function signedIn(request: FastifyRequest): UserRow {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
}

/**
 * `<scope>[milestone_id]` and `<scope>[label_ids][]` as the services take them: a milestone id or none,
 * and the titles of the ticked labels among the project's (`labels`). A field the form lacked (it is
 * shown only to who may set it) stays undefined, so nothing changes.
 */
export function milestoneAndLabelInput(
  params: Params,
  scope: 'issue' | 'merge_request',
  labels: Array<{ id: number; title: string }>,
): { milestoneId?: number | null; labels?: string[] } {
  const input: { milestoneId?: number | null; labels?: string[] } = {};
  const milestone = optionalString(params, `${scope}[milestone_id]`);
  if (milestone !== undefined) input.milestoneId = positiveInteger(milestone) ?? null;
  const labelIds = optionalStringList(params, `${scope}[label_ids]`);
  if (labelIds !== undefined) {
    const wanted = new Set(labelIds);
    input.labels = labels.filter((label) => wanted.has(String(label.id))).map((label) => label.title);
  }
  return input;
}

/**
 * An issue or merge request list's query as 8.13's filter links name it (`state`, `search`, `author_id`,
 * `assignee_id`, `milestone_title`, `label_name[]`, `sort`); `state` is one of `states`, else the first.
 */
export function issuableListQuery(params: Params, states: readonly string[]): ListQuery {
  const state = optionalString(params, 'state');
  const sort = optionalString(params, 'sort') ?? '';
  const text = (name: string) => (optionalString(params, name) ?? '').trim().slice(0, 255);
  // 8.13's own links say `label_name[]=bug` (one key per label, every one required); `label_name=bug` too.
  const labelNames = (optionalStringList(params, 'label_name') ?? [])
    .map((name) => name.trim().slice(0, 255))
    .filter((name) => name !== '')
    .slice(0, 20);
  return {
    state: state !== undefined && states.includes(state) ? state : states[0]!,
    search: text('search'),
    author_id: text('author_id'),
    assignee_id: text('assignee_id'),
    milestone_title: text('milestone_title'),
    label_name: labelNames[0] ?? '',
    label_names: labelNames,
    sort: sort in ISSUE_SORTS ? (sort as IssueSort) : 'created_desc',
  };
}

/** The list filters such a query asks for (an unknown id filters everything out, `0`: no assignee). */
export function issuableListFilters(query: ListQuery) {
  const [column, direction] = query.sort.split('_') as ['created' | 'updated', 'asc' | 'desc'];
  const id = (text: string) => (text === '' ? undefined : (positiveInteger(text) ?? -1));
  return {
    search: query.search || undefined,
    authorId: id(query.author_id),
    assigneeId: query.assignee_id === '0' ? null : id(query.assignee_id),
    ...(query.milestone_title === 'No Milestone'
      ? { noMilestone: true }
      : query.milestone_title
        ? { milestoneTitle: query.milestone_title }
        : {}),
    labels: query.label_names.length > 0 ? query.label_names : undefined,
    orderBy: column === 'updated' ? ('updated_at' as const) : ('created_at' as const),
    sort: direction,
  };
}
