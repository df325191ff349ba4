// The mails about issues, merge requests and their notes (GitLab 8.13's Notify issue, merge request and
// note mails, with their subjects `<project> | <title> (#<iid>)` and `(!<iid>)`). A service records the
// event in its transaction with one call (mailIssueEvent, mailMergeRequestEvent, mailNote); the worker
// expands it (expandMailEvent): recipients by 8.13's rules, one mail each.
import type { Deps } from '../../deps.ts';
import { usersByIds, findUserById } from '../../db/repositories/users.ts';
import { findIssueById } from '../../db/repositories/issues.ts';
import { findMergeRequestById } from '../../db/repositories/merge-requests.ts';
import { notesByIds } from '../../db/repositories/notes.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { issueWebUrl, mergeRequestWebUrl } from '../../domain/paths.ts';
import { canReadIssue } from '../../policies/issues.ts';
import type { ProjectAccess } from '../../policies/access.ts';
import { findRecipients, type CustomEvent } from './recipients.ts';
import { queueMails, recordMailEvent, type MailContent } from './mail-outbox.ts';
import type { Executor, IssueRow, MergeRequestRow, NoteRow, ProjectRecord, UserRow } from '../../db/types.ts';

export type IssuableMailEvent = 'open' | 'close' | 'reopen' | 'merge' | 'reassign';

/** What a mail_events row says (its JSON payload). */
type MailEvent =
  | {
      kind: 'issuable';
      type: 'Issue' | 'MergeRequest';
      id: number;
      event: IssuableMailEvent;
      actorId: number;
      previousAssigneeId: number | null;
    }
  | { kind: 'note'; noteId: number; actorId: number };

type Issuable = { kind: 'Issue'; row: IssueRow } | { kind: 'MergeRequest'; row: MergeRequestRow };

export function mailIssueEvent(
  trx: Executor,
  deps: Deps,
  actor: UserRow,
  issue: IssueRow,
  event: IssuableMailEvent,
  previousAssigneeId: number | null = null,
): Promise<void> {
  const payload: MailEvent = {
    kind: 'issuable',
    type: 'Issue',
    id: issue.id,
    event,
    actorId: actor.id,
    previousAssigneeId,
  };
  return recordMailEvent(trx, deps, payload);
}

export function mailMergeRequestEvent(
  trx: Executor,
  deps: Deps,
  actor: UserRow,
  mr: MergeRequestRow,
  event: IssuableMailEvent,
  previousAssigneeId: number | null = null,
): Promise<void> {
  const payload: MailEvent = {
    kind: 'issuable',
    type: 'MergeRequest',
    id: mr.id,
    event,
    actorId: actor.id,
    previousAssigneeId,
  };
  return recordMailEvent(trx, deps, payload);
}

/** A comment on an issue or merge request (commit comments send nothing). */
export async function mailNote(trx: Executor, deps: Deps, actor: UserRow, note: NoteRow): Promise<void> {
  if (note.noteable_type !== 'Issue' && note.noteable_type !== 'MergeRequest') return;
  const payload: MailEvent = { kind: 'note', noteId: note.id, actorId: actor.id };
  await recordMailEvent(trx, deps, payload);
}

function describe(deps: Deps, record: ProjectRecord, issuable: Issuable) {
  const { row } = issuable;
  if (issuable.kind === 'Issue') {
    return {
      noun: 'Issue',
      ref: `#${row.iid}`,
      url: issueWebUrl(deps.config.externalUrl, record, issuable.row),
      subject: `${record.project.name} | ${row.title} (#${row.iid})`,
    };
  }
  return {
    noun: 'Merge Request',
    ref: `!${row.iid}`,
    url: mergeRequestWebUrl(deps.config.externalUrl, record, row.iid),
    subject: `${record.project.name} | ${row.title} (!${row.iid})`,
  };
}

function readerCheck(record: ProjectRecord, issuable: Issuable) {
  return issuable.kind === 'Issue'
    ? (user: UserRow, access: ProjectAccess) => canReadIssue(user, access, record, issuable.row)
    : (_user: UserRow, access: ProjectAccess) =>
        access.canRead && record.project.merge_requests_enabled === 1;
}

/** The custom level's switch that covers this event (8.13's build_custom_key). */
function customEventOf(event: MailEvent, kind: Issuable['kind']): CustomEvent {
  if (event.kind === 'note') return 'new_note';
  const noun = kind === 'Issue' ? 'issue' : 'merge_request';
  const verb = event.event === 'open' ? 'new' : event.event;
  return `${verb}_${noun}` as CustomEvent;
}

const nameOf = (users: Map<number, UserRow>, id: number | null) =>
  id === null ? 'Unassigned' : (users.get(id)?.name ?? 'Unassigned');

async function loadIssuable(trx: Executor, type: string, id: number) {
  if (type === 'Issue') {
    const row = await findIssueById(trx, id);
    return row ? { issuable: { kind: 'Issue', row } as Issuable, projectId: row.project_id } : undefined;
  }
  const row = await findMergeRequestById(trx, id);
  return row
    ? { issuable: { kind: 'MergeRequest', row } as Issuable, projectId: row.target_project_id }
    : undefined;
}

/**
 * Turns one recorded event into its mails, in the worker's transaction (which also marks the event
 * done): the recipients as they are now (a user blocked or removed meanwhile gets nothing). Answers how
 * many mails were queued; 0 when the issue, note or actor is gone.
 */
export async function expandMailEvent(trx: Executor, deps: Deps, eventId: number, payloadJson: string) {
  const event = JSON.parse(payloadJson) as MailEvent;
  const actor = await findUserById(trx, event.actorId);
  let note: NoteRow | undefined;
  let type: string;
  let id: number;
  if (event.kind === 'note') {
    note = (await notesByIds(trx, [event.noteId])).get(event.noteId);
    if (!note || note.noteable_id === null || note.noteable_type === null) return 0;
    type = note.noteable_type;
    id = note.noteable_id;
  } else {
    type = event.type;
    id = event.id;
  }
  const loaded = await loadIssuable(trx, type, id);
  const record = loaded && (await findProjectRecordById(trx, loaded.projectId));
  if (!actor || !loaded || !record) return 0;
  const { issuable } = loaded;
  const { row } = issuable;
  const what = describe(deps, record, issuable);
  const previousAssigneeId = event.kind === 'issuable' ? event.previousAssigneeId : null;
  const recipients = await findRecipients(trx, {
    record,
    target: { type: issuable.kind, id: row.id, authorId: row.author_id, assigneeId: row.assignee_id },
    actor,
    action: customEventOf(event, issuable.kind),
    texts: note
      ? [note.note]
      : event.kind === 'issuable' && event.event === 'open'
        ? [row.title, row.description]
        : [],
    extra:
      event.kind === 'issuable' && event.event === 'reassign'
        ? [previousAssigneeId, row.assignee_id].filter((user): user is number => user !== null)
        : [],
    canRead: readerCheck(record, issuable),
  });
  if (recipients.length === 0) return 0;
  let content: MailContent;
  if (note) {
    content = {
      subject: what.subject,
      paragraphs: [`${actor.name} commented on ${what.noun} ${what.ref}:`, note.note],
      url: `${what.url}#note_${note.id}`,
    };
  } else {
    const people = await usersByIds(
      trx,
      [row.author_id, row.assignee_id, previousAssigneeId].filter((user): user is number => user !== null),
    );
    const paragraphs: string[] = [];
    const kind = (event as Extract<MailEvent, { kind: 'issuable' }>).event;
    if (kind === 'open') {
      paragraphs.push(
        `New ${what.noun} ${what.ref} was created by ${nameOf(people, row.author_id)}.`,
        `Assignee: ${nameOf(people, row.assignee_id)}`,
      );
      if (row.description) paragraphs.push(row.description);
    } else if (kind === 'reassign') {
      paragraphs.push(
        `Reassigned ${what.noun} ${what.ref}`,
        `Assignee changed from ${nameOf(people, previousAssigneeId)} to ${nameOf(people, row.assignee_id)}`,
      );
    } else if (kind === 'merge') {
      paragraphs.push(`${what.noun} ${what.ref} was merged by ${actor.name}.`);
    } else {
      paragraphs.push(
        `${what.noun} ${what.ref} was ${kind === 'close' ? 'closed' : 'reopened'} by ${actor.name}.`,
      );
    }
    content = { subject: what.subject, paragraphs, url: what.url };
  }
  const opens = event.kind === 'issuable' && event.event === 'open';
  return queueMails(
    trx,
    deps,
    `event-${eventId}`,
    recipients.map((recipient) => recipient.user),
    () => content,
    { record, noteable: { type: issuable.kind, id: row.id }, opens },
  );
}
