// Issues (GitLab 8.13's Issues::CreateService, UpdateService, MoveService, destroy, subscriptions and
// todos), each one transaction with its events, system notes, todos and hook deliveries. iids come from
// the project's internal_ids row, bumped in the creating transaction: concurrent creates never share one.
// Callers below reporter have assignee, milestone, labels and due date dropped silently, as 8.13 did.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { apiError, notModified, forbidden, conflict } from '../../errors.ts';
import {
  deleteIssue,
  deleteIssueDependents,
  findIssueById,
  insertIssue,
  labelIdsOf,
  nextInternalId,
  setLabelLinks,
  updateIssue,
} from '../../db/repositories/issues.ts';
import { findLabelsByTitles, findProjectLabelsByIds } from '../../db/repositories/labels.ts';
import { findMilestoneByTitle, findProjectMilestone } from '../../db/repositories/milestones.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { findSubscription, setSubscription } from '../../db/repositories/subscriptions.ts';
import { findPendingTodo } from '../../db/repositories/todos.ts';
import { insertPendingTodo } from './todos.ts';
import { insertNote, listNotes } from '../../db/repositories/notes.ts';
import { insertAward, listAwards } from '../../db/repositories/award-emoji.ts';
import { EventAction, ISSUE, TodoAction } from '../../domain/types.ts';
import { canAdminIssues, canSetIssueTimes, canUpdateIssue } from '../../policies/issues.ts';
import type { LoadedProject } from '../../http/loaders.ts';
import {
  addSystemNote,
  addSystemNoteOn,
  announceIssue,
  closeIssueIn,
  recordIssueEvent,
  reopenIssueIn,
} from './issue-activity.ts';
import { titleChangeNote } from './system-note-texts.ts';
import { recordMentions } from './mentions.ts';
import { mailIssueEvent } from '../mail/issuable-mails.ts';
import { isParticipant, type Participable } from './participants.ts';
import {
  addAssignmentTodo,
  changeLabelIds,
  checkIssuableTitle,
  findOrCreateLabels,
  noteAssigneeChange,
  noteMilestoneChange,
  noteTaskChanges,
  projectMilestoneOrNone,
  replaceLabels,
} from './issuable-links.ts';
import type { Executor, IssueRow, ProjectRecord, TodoRow, UserRow } from '../../db/types.ts';

/** The answer to a change made from a version of the description that is no longer current. */
export const STALE_DESCRIPTION = 'The description changed since this version: reload and try again';

export interface IssueInput {
  title?: string;
  description?: string;
  /** null removes the assignee; undefined leaves it. */
  assigneeId?: number | null;
  milestoneId?: number | null;
  /** The whole set of label titles; [] removes every label; undefined leaves them. */
  labels?: string[];
  /** Label ids added and removed (a board move), after `labels`. */
  addLabelIds?: number[];
  removeLabelIds?: number[];
  dueDate?: string | null;
  confidential?: boolean;
  createdAt?: string;
  updatedAt?: string;
  stateEvent?: 'close' | 'reopen';
  /** The description's version the change was made from: another one is a lost update, refused (409). */
  ifUpdatedAt?: string;
  /** A task box ticked: no mention todos (TodoService#toggling_tasks?). */
  togglingTasks?: boolean;
}

/** The assignee and milestone as 8.13 filtered them: a missing user or a milestone of another project is none. */
async function resolveLinks(trx: Executor, projectId: number, input: IssueInput) {
  let assigneeId = input.assigneeId;
  if (assigneeId !== undefined && assigneeId !== null && !(await findUserById(trx, assigneeId)))
    assigneeId = null;
  const milestoneId = await projectMilestoneOrNone(trx, projectId, input.milestoneId);
  return { assigneeId, milestoneId };
}

/** Admin-only fields dropped for callers below reporter (IssuableBaseService#filter_params). */
function filtered(loaded: LoadedProject, input: IssueInput): IssueInput {
  const result = { ...input };
  if (!canAdminIssues(loaded.access, loaded)) {
    delete result.assigneeId;
    delete result.milestoneId;
    delete result.labels;
    delete result.addLabelIds;
    delete result.removeLabelIds;
    delete result.dueDate;
  }
  if (!canSetIssueTimes(loaded.access)) {
    delete result.createdAt;
    delete result.updatedAt;
  }
  return result;
}

/** Inserts an issue with the next iid of its project, its labels, event, todo and open hook. */
async function insertIssueIn(
  trx: Executor,
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  values: {
    title: string;
    description: string | null;
    authorId: number;
    assigneeId: number | null;
    milestoneId: number | null;
    labelIds: number[];
    dueDate: string | null;
    confidential: boolean;
    state?: string;
    createdAt: string;
    updatedAt: string;
  },
): Promise<IssueRow> {
  const iid = await nextInternalId(trx, record.project.id, 'issues');
  const state = values.state ?? 'opened';
  const issue = await insertIssue(trx, {
    project_id: record.project.id,
    iid,
    title: values.title,
    description: values.description,
    author_id: values.authorId,
    assignee_id: values.assigneeId,
    updated_by_id: null,
    milestone_id: values.milestoneId,
    state,
    closed: state === 'closed' ? 1 : 0,
    confidential: values.confidential ? 1 : 0,
    due_date: values.dueDate,
    moved_to_id: null,
    created_at: values.createdAt,
    updated_at: values.updatedAt,
  });
  await setLabelLinks(trx, ISSUE, issue.id, values.labelIds, values.createdAt);
  await recordIssueEvent(trx, issue, actor, EventAction.Created, values.createdAt);
  await addAssignmentTodo(
    trx,
    { type: ISSUE, id: issue.id, projectId: issue.project_id },
    issue.assignee_id,
    actor,
    values.createdAt,
  );
  await announceIssue(trx, deps, record, actor, issue, 'open');
  return issue;
}

/** POST /projects/:id/issues. */
export async function createIssue(
  deps: Deps,
  viewer: UserRow,
  loaded: LoadedProject,
  rawInput: IssueInput & { title: string },
): Promise<IssueRow> {
  // 8.13 never checked create_issue; refusing it while issues are off is what a user would expect.
  if (loaded.project.issues_enabled !== 1) throw forbidden();
  checkIssuableTitle(rawInput.title);
  const input = filtered(loaded, rawInput);
  return deps.db.kysely.transaction().execute(async (trx) => {
    const at = now();
    const createdAt = input.createdAt ?? at;
    const { assigneeId, milestoneId } = await resolveLinks(trx, loaded.project.id, input);
    const labels = await findOrCreateLabels(trx, loaded.project.id, input.labels ?? [], at);
    const issue = await insertIssueIn(trx, deps, loaded, viewer, {
      title: rawInput.title,
      description: input.description ?? null,
      authorId: viewer.id,
      assigneeId: assigneeId ?? null,
      milestoneId: milestoneId ?? null,
      labelIds: labels.map((label) => label.id),
      dueDate: input.dueDate ?? null,
      confidential: input.confidential ?? false,
      createdAt,
      updatedAt: createdAt,
    });
    await recordMentions(trx, deps, {
      author: viewer,
      record: loaded,
      mentioner: { kind: 'issue', row: issue },
      texts: [issue.title, issue.description],
      crossReference: true,
      todos: { target: issue, targetType: ISSUE, noteId: null },
      at,
    });
    return issue;
  });
}

/**
 * PUT /projects/:id/issues/:issue_id: the state event first (its close/reopen hook), then the other
 * changes with 8.13's system notes, then always an `update` hook.
 */
export async function editIssue(
  deps: Deps,
  viewer: UserRow,
  loaded: LoadedProject,
  issue: IssueRow,
  rawInput: IssueInput,
): Promise<IssueRow> {
  if (!canUpdateIssue(viewer, loaded.access, loaded, issue)) throw forbidden();
  checkIssuableTitle(rawInput.title);
  const input = filtered(loaded, rawInput);
  return deps.db.kysely.transaction().execute(async (trx) => {
    const at = now();
    let current = (await findIssueById(trx, issue.id)) ?? issue;
    if (input.stateEvent === 'close')
      current = (await closeIssueIn(trx, deps, loaded, viewer, current, at)) ?? current;
    if (input.stateEvent === 'reopen')
      current = (await reopenIssueIn(trx, deps, loaded, viewer, current, at)) ?? current;
    const { assigneeId, milestoneId } = await resolveLinks(trx, loaded.project.id, input);
    const changes: Parameters<typeof updateIssue>[2] = {
      updated_by_id: viewer.id,
      updated_at: input.updatedAt ?? at,
    };
    if (input.title !== undefined) changes.title = input.title;
    if (input.description !== undefined) changes.description = input.description;
    if (assigneeId !== undefined) changes.assignee_id = assigneeId;
    if (milestoneId !== undefined) changes.milestone_id = milestoneId;
    if (input.dueDate !== undefined) changes.due_date = input.dueDate;
    if (input.confidential !== undefined) changes.confidential = input.confidential ? 1 : 0;
    const before = current;
    const guard = input.ifUpdatedAt === undefined ? undefined : { updated_at: input.ifUpdatedAt };
    const written = await updateIssue(trx, current.id, changes, guard);
    if (!written && guard) throw conflict(STALE_DESCRIPTION);
    const updated = written ?? current;

    // IssuableBaseService#update's order: title, tasks and labels, then milestone, assignee, confidential.
    const target = { type: ISSUE, id: updated.id, projectId: updated.project_id } as const;
    if (updated.title !== before.title)
      await addSystemNoteOn(trx, target, viewer, titleChangeNote(before.title, updated.title), at);
    await noteTaskChanges(trx, target, viewer, before.description, updated.description, at);
    if (input.labels !== undefined) await replaceLabels(trx, target, viewer, input.labels, at);
    if (input.addLabelIds !== undefined || input.removeLabelIds !== undefined)
      await changeLabelIds(trx, target, viewer, input.addLabelIds ?? [], input.removeLabelIds ?? [], at);
    if (updated.milestone_id !== before.milestone_id)
      await noteMilestoneChange(trx, target, viewer, updated.milestone_id, at);
    if (updated.assignee_id !== before.assignee_id) {
      await noteAssigneeChange(trx, target, viewer, updated.assignee_id, at);
      await addAssignmentTodo(trx, target, updated.assignee_id, viewer, at);
      await mailIssueEvent(trx, deps, viewer, updated, 'reassign', before.assignee_id);
    }
    if (updated.confidential !== before.confidential) {
      await addSystemNote(
        trx,
        updated,
        viewer,
        updated.confidential === 1 ? 'Made the issue confidential' : 'Made the issue visible',
        at,
      );
    }
    if (updated.title !== before.title || updated.description !== before.description) {
      await recordMentions(trx, deps, {
        author: viewer,
        record: loaded,
        mentioner: { kind: 'issue', row: updated },
        texts: [updated.title, updated.description],
        crossReference: true,
        todos: input.togglingTasks ? undefined : { target: updated, targetType: ISSUE, noteId: null },
        at,
      });
    }
    await announceIssue(trx, deps, loaded, viewer, updated, 'update');
    return updated;
  });
}

/** DELETE /projects/:id/issues/:issue_id: the row, gone with its notes, awards, links and todos. */
export async function destroyIssue(deps: Deps, issue: IssueRow): Promise<string> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const at = now();
    await deleteIssueDependents(trx, ISSUE, issue.id);
    await deleteIssue(trx, issue.id);
    return at;
  });
}

/**
 * POST …/issues/:issue_id/move (Issues::MoveService): a new issue in the target project with the old one's
 * fields, labels and milestone matched by title, its notes and awards copied, `Moved to`/`Moved from`
 * notes, and the old issue closed with moved_to_id set.
 */
export async function moveIssue(
  deps: Deps,
  viewer: UserRow,
  from: LoadedProject,
  issue: IssueRow,
  to: LoadedProject,
): Promise<IssueRow> {
  if (to.project.id === from.project.id)
    throw apiError(400, 'Cannot move issue to project it originates from!');
  if (!canAdminIssues(from.access, from) || !canAdminIssues(to.access, to))
    throw apiError(400, 'Cannot move issue due to insufficient permissions!');
  return deps.db.kysely.transaction().execute(async (trx) => {
    const at = now();
    const current = await findIssueById(trx, issue.id);
    if (!current || current.moved_to_id !== null)
      throw apiError(400, 'Cannot move issue due to insufficient permissions!');
    const oldLabelIds = await labelIdsOf(trx, ISSUE, current.id);
    const oldLabels = oldLabelIds.length === 0 ? [] : await labelTitles(trx, from.project.id, oldLabelIds);
    const newLabels = await findLabelsByTitles(trx, to.project.id, oldLabels);
    const oldMilestone =
      current.milestone_id === null
        ? undefined
        : await findProjectMilestone(trx, from.project.id, current.milestone_id);
    const newMilestone = oldMilestone
      ? await findMilestoneByTitle(trx, to.project.id, oldMilestone.title)
      : undefined;
    const moved = await insertIssueIn(trx, deps, to, viewer, {
      title: current.title,
      description: current.description,
      authorId: current.author_id,
      assigneeId: current.assignee_id,
      milestoneId: newMilestone?.id ?? null,
      labelIds: newLabels.map((label) => label.id),
      dueDate: current.due_date,
      confidential: current.confidential === 1,
      state: current.state,
      createdAt: at,
      updatedAt: at,
    });
    for (const note of await listNotes(trx, ISSUE, current.id, 1_000_000, 0)) {
      await insertNote(trx, { ...withoutId(note), project_id: to.project.id, noteable_id: moved.id });
    }
    for (const award of await listAwards(trx, ISSUE, current.id, 1_000_000, 0)) {
      await insertAward(trx, { ...withoutId(award), project_id: to.project.id, awardable_id: moved.id });
    }
    const fromRef = `${from.namespace.path}/${from.project.path}#${current.iid}`;
    const toRef = `${to.namespace.path}/${to.project.path}#${moved.iid}`;
    await addSystemNote(trx, moved, viewer, `Moved from ${fromRef}`, at);
    await addSystemNote(trx, current, viewer, `Moved to ${toRef}`, at);
    await closeIssueIn(trx, deps, from, viewer, current, at);
    await updateIssue(trx, current.id, { moved_to_id: moved.id, updated_at: at });
    return moved;
  });
}

function withoutId<T extends { id: number }>(row: T): Omit<T, 'id'> {
  const { id: _id, ...rest } = row;
  return rest;
}

async function labelTitles(trx: Executor, projectId: number, ids: number[]): Promise<string[]> {
  return (await findProjectLabelsByIds(trx, projectId, ids)).map((label) => label.title);
}

/** An issue or a merge request, as subscriptions and todos name it. */
export interface Issuable extends Participable {
  projectId: number;
}

export function issueIssuable(issue: IssueRow): Issuable {
  return {
    type: ISSUE,
    id: issue.id,
    projectId: issue.project_id,
    author_id: issue.author_id,
    assignee_id: issue.assignee_id,
  };
}

/**
 * POST/DELETE …/(issues|merge_requests)/:id/subscription: 304 when the user already is (or is not)
 * subscribed, participants counting as subscribed.
 */
export async function changeSubscription(
  deps: Deps,
  viewer: UserRow,
  issuable: Issuable,
  subscribe: boolean,
): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const explicit = await findSubscription(trx, issuable, viewer.id);
    const subscribed = explicit ?? (await isParticipant(trx, issuable, viewer.id));
    if (subscribed === subscribe) throw notModified();
    await setSubscription(trx, issuable, viewer.id, subscribe, now());
  });
}

/** POST …/(issues|merge_requests)/:id/todo: a `marked` todo, or 304 when one is pending already. */
export async function markTodo(deps: Deps, viewer: UserRow, issuable: Issuable): Promise<TodoRow> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    if (await findPendingTodo(trx, viewer.id, issuable.type, issuable.id)) throw notModified();
    const at = now();
    return insertPendingTodo(trx, {
      userId: viewer.id,
      target: issuable,
      author: viewer,
      action: TodoAction.Marked,
      at,
    });
  });
}
