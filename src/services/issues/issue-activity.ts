// What every change of an issue records in its own transaction: events (GitLab's EventCreateService),
// system notes (SystemNoteService, in 8.13's words), hook deliveries (Issues::BaseService#execute_hooks:
// confidential issues go only to hooks with confidential_issues_events) and finished todos.
import type { Deps } from '../../deps.ts';
import { recordEvent } from '../activity/events.ts';
import { enqueueProjectHooks } from '../hooks/hook-outbox.ts';
import { mailIssueEvent } from '../mail/issuable-mails.ts';
import { insertNote } from '../../db/repositories/notes.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { markTargetTodosDone } from '../../db/repositories/todos.ts';
import { updateIssue } from '../../db/repositories/issues.ts';
import { presentIssueHookPayload, type IssueHookAction } from '../../presenters/hooks/issue-hook-payloads.ts';
import { EventAction, ISSUE } from '../../domain/types.ts';
import type { Executor, IssueRow, NoteRow, ProjectRecord, UserRow } from '../../db/types.ts';

/** What a system note is on: an issue or a merge request (its target project). */
export interface SystemNoteTarget {
  type: 'Issue' | 'MergeRequest';
  id: number;
  projectId: number;
}

export async function addSystemNoteOn(
  trx: Executor,
  target: SystemNoteTarget,
  author: UserRow,
  body: string,
  at: string,
): Promise<NoteRow> {
  return insertNote(trx, {
    project_id: target.projectId,
    noteable_type: target.type,
    noteable_id: target.id,
    commit_id: null,
    author_id: author.id,
    note: body,
    system: 1,
    attachment: null,
    line_code: null,
    updated_by_id: null,
    created_at: at,
    updated_at: at,
  });
}

export function addSystemNote(
  trx: Executor,
  issue: IssueRow,
  author: UserRow,
  body: string,
  at: string,
): Promise<NoteRow> {
  return addSystemNoteOn(trx, { type: ISSUE, id: issue.id, projectId: issue.project_id }, author, body, at);
}

export async function announceIssue(
  trx: Executor,
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  issue: IssueRow,
  action: IssueHookAction,
): Promise<void> {
  const assignee = issue.assignee_id === null ? null : ((await findUserById(trx, issue.assignee_id)) ?? null);
  const payload = presentIssueHookPayload(
    { baseUrl: deps.config.externalUrl, sshBase: deps.config.ssh.cloneUrlBase, record, actor },
    issue,
    assignee,
    action,
  );
  const scope = issue.confidential === 1 ? 'confidential_issues_events' : 'issues_events';
  await enqueueProjectHooks(trx, record.project.id, scope, payload);
  if (action !== 'update') await mailIssueEvent(trx, deps, actor, issue, action);
}

export function recordIssueEvent(
  trx: Executor,
  issue: IssueRow,
  actor: UserRow,
  action: (typeof EventAction)['Created' | 'Closed' | 'Reopened'],
  at: string,
) {
  return recordEvent(trx, {
    projectId: issue.project_id,
    authorId: actor.id,
    action,
    targetId: issue.id,
    targetType: ISSUE,
    at,
  });
}

/**
 * Issues::CloseService: the issue closed (unless it already was, also by a concurrent request), with its
 * event, the `Status changed to closed[ by <source>]` note, the pending todos done and the close hook.
 * The closed row, or undefined when nothing changed.
 */
export async function closeIssueIn(
  trx: Executor,
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  issue: IssueRow,
  at: string,
  source?: string,
): Promise<IssueRow | undefined> {
  if (issue.closed === 1) return undefined;
  const closed = await transitionIssue(trx, issue.id, 'closed', at);
  if (!closed) return undefined;
  await recordIssueEvent(trx, closed, actor, EventAction.Closed, at);
  await addSystemNote(trx, closed, actor, `Status changed to closed${source ? ` by ${source}` : ''}`, at);
  await markTargetTodosDone(trx, ISSUE, closed.id, at);
  await announceIssue(trx, deps, record, actor, closed, 'close');
  return closed;
}

/** Issues::ReopenService: closed → reopened, with its event, note and hook. */
export async function reopenIssueIn(
  trx: Executor,
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  issue: IssueRow,
  at: string,
): Promise<IssueRow | undefined> {
  if (issue.closed !== 1) return undefined;
  const reopened = await transitionIssue(trx, issue.id, 'reopened', at);
  if (!reopened) return undefined;
  await recordIssueEvent(trx, reopened, actor, EventAction.Reopened, at);
  await addSystemNote(trx, reopened, actor, 'Status changed to reopened', at);
  await announceIssue(trx, deps, record, actor, reopened, 'reopen');
  return reopened;
}

/** One conditional update: of two concurrent closes only one changes the row. */
async function transitionIssue(
  trx: Executor,
  id: number,
  state: 'closed' | 'reopened',
  at: string,
): Promise<IssueRow | undefined> {
  const closed = state === 'closed' ? 1 : 0;
  return updateIssue(trx, id, { state, closed, updated_at: at }, { closed: closed === 1 ? 0 : 1 });
}
