// Labels and milestones of issues and merge requests, one implementation for both (GitLab 8.13's
// IssuableBaseService#filter_milestone / find_or_create_label_ids and SystemNoteService#change_label /
// change_milestone), and the other system notes both kinds write on an edit (assignee, task list items).
// Both kinds take labels and milestones from the project they live in (an MR's target) or its group.
import { labelIdsOf, setLabelLinks } from '../../db/repositories/issues.ts';
import {
  findAvailableLabelByTitle,
  findProjectLabelsByIds,
  insertLabelIfMissing,
} from '../../db/repositories/labels.ts';
import { findProjectMilestone } from '../../db/repositories/milestones.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { insertPendingTodo } from './todos.ts';
import { TodoAction } from '../../domain/types.ts';
import { addSystemNoteOn, type SystemNoteTarget } from './issue-activity.ts';
import { taskChangeNotes } from './system-note-texts.ts';
import { validationFailed } from '../../errors.ts';
import type { Executor, LabelRow, UserRow } from '../../db/types.ts';

/** Issuable's `validates :title, length: { within: 0..255 }`, in characters as Ruby counts them. */
export function checkIssuableTitle(title: string | undefined): void {
  if (title !== undefined && Array.from(title).length > 255)
    throw validationFailed({ title: ['is too long (maximum is 255 characters)'] });
}

/** New labels named in an issuable's `labels` get GitLab's default colour. */
const DEFAULT_LABEL_COLOR = '#428BCA';

/**
 * Labels by title, the project's or its group's, the missing ones created in the project
 * (Labels::FindOrCreateService); titles with a comma are dropped.
 */
export async function findOrCreateLabels(
  trx: Executor,
  projectId: number,
  titles: string[],
  at: string,
): Promise<LabelRow[]> {
  const wanted = [...new Set(titles.map((title) => title.trim()).filter((title) => title !== ''))];
  const labels: LabelRow[] = [];
  for (const title of wanted) {
    const found =
      (await findAvailableLabelByTitle(trx, projectId, title)) ??
      (await insertLabelIfMissing(trx, {
        project_id: projectId,
        title,
        color: DEFAULT_LABEL_COLOR,
        description: null,
        created_at: at,
        updated_at: at,
      }));
    labels.push(found);
  }
  return labels;
}

/**
 * filter_milestone: a milestone id that is not one of the project's becomes none (8.13 answered no
 * error). undefined leaves the milestone as it is.
 */
export async function projectMilestoneOrNone(
  trx: Executor,
  projectId: number,
  milestoneId: number | null | undefined,
): Promise<number | null | undefined> {
  if (milestoneId === undefined || milestoneId === null) return milestoneId;
  return (await findProjectMilestone(trx, projectId, milestoneId)) ? milestoneId : null;
}

/**
 * Replaces the issuable's labels with those titled (created when missing) and, when the set changed,
 * writes the `Added ~1 and removed ~2 labels` note. Whether anything changed.
 */
export async function replaceLabels(
  trx: Executor,
  target: SystemNoteTarget,
  actor: UserRow,
  titles: string[],
  at: string,
): Promise<boolean> {
  const old = await labelIdsOf(trx, target.type, target.id);
  const labels = await findOrCreateLabels(trx, target.projectId, titles, at);
  return setLabelIds(
    trx,
    target,
    actor,
    old,
    labels.map((label) => label.id),
    at,
  );
}

/**
 * Adds and removes labels by id (8.13's add_label_ids / remove_label_ids, which board moves send): ids that
 * are not the project's labels are ignored. Writes the same note as a replacement. Whether anything changed.
 */
export async function changeLabelIds(
  trx: Executor,
  target: SystemNoteTarget,
  actor: UserRow,
  add: number[],
  remove: number[],
  at: string,
): Promise<boolean> {
  const old = await labelIdsOf(trx, target.type, target.id);
  const known = new Set((await findProjectLabelsByIds(trx, target.projectId, add)).map((label) => label.id));
  const next = [...old.filter((id) => !remove.includes(id)), ...add.filter((id) => known.has(id))];
  return setLabelIds(trx, target, actor, old, [...new Set(next)], at);
}

async function setLabelIds(
  trx: Executor,
  target: SystemNoteTarget,
  actor: UserRow,
  old: number[],
  next: number[],
  at: string,
): Promise<boolean> {
  const added = next.filter((id) => !old.includes(id));
  const removed = old.filter((id) => !next.includes(id));
  if (added.length === 0 && removed.length === 0) return false;
  await setLabelLinks(trx, target.type, target.id, next, at);
  await addSystemNoteOn(trx, target, actor, labelsNote(added, removed), at);
  return true;
}

/** SystemNoteService.change_label: `Added ~1 and removed ~2 ~3 labels`. */
function labelsNote(added: number[], removed: number[]): string {
  let body = '';
  if (added.length > 0) body += `added ${added.map((id) => `~${id}`).join(' ')}`;
  if (added.length > 0 && removed.length > 0) body += ' and ';
  if (removed.length > 0) body += `removed ${removed.map((id) => `~${id}`).join(' ')}`;
  body += added.length + removed.length === 1 ? ' label' : ' labels';
  return body.charAt(0).toUpperCase() + body.slice(1);
}

/** SystemNoteService.change_milestone, after the milestone changed: `Milestone changed to %1` or removed. */
export async function noteMilestoneChange(
  trx: Executor,
  target: SystemNoteTarget,
  actor: UserRow,
  milestoneId: number | null,
  at: string,
): Promise<void> {
  const milestone =
    milestoneId === null ? undefined : await findProjectMilestone(trx, target.projectId, milestoneId);
  await addSystemNoteOn(
    trx,
    target,
    actor,
    milestone ? `Milestone changed to %${milestone.iid}` : 'Milestone removed',
    at,
  );
}

/** SystemNoteService.change_assignee, after the assignee changed: `Reassigned to @user` or removed. */
export async function noteAssigneeChange(
  trx: Executor,
  target: SystemNoteTarget,
  actor: UserRow,
  assigneeId: number | null,
  at: string,
): Promise<void> {
  const assignee = assigneeId === null ? undefined : await findUserById(trx, assigneeId);
  await addSystemNoteOn(
    trx,
    target,
    actor,
    assignee ? `Reassigned to @${assignee.username}` : 'Assignee removed',
    at,
  );
}

/** SystemNoteService.change_task_status, one note per task list item a description edit ticked or unticked. */
export async function noteTaskChanges(
  trx: Executor,
  target: SystemNoteTarget,
  actor: UserRow,
  oldDescription: string | null,
  newDescription: string | null,
  at: string,
): Promise<void> {
  if (oldDescription === newDescription) return;
  for (const body of taskChangeNotes(oldDescription, newDescription))
    await addSystemNoteOn(trx, target, actor, body, at);
}

/** TodoService#create_assignment_todo: an `assigned` todo for the new assignee, unless they assigned themselves. */
export async function addAssignmentTodo(
  trx: Executor,
  target: SystemNoteTarget,
  assigneeId: number | null,
  author: UserRow,
  at: string,
): Promise<void> {
  if (assigneeId === null || assigneeId === author.id) return;
  await insertPendingTodo(trx, { userId: assigneeId, target, author, action: TodoAction.Assigned, at });
}
