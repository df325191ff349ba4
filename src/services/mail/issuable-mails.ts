// The mails about issues, merge requests and their notes (GitLab 8.13's Notify issue, merge request and
// note mails, with their subjects `<project> | <title> (#<iid>)` and `(!<iid>)`). Each is queued in the
// transaction of its change by one call from the service that makes it.
import type { Deps } from '../../deps.ts';
import { usersByIds } from '../../db/repositories/users.ts';
import { findIssueById } from '../../db/repositories/issues.ts';
import { findMergeRequestById } from '../../db/repositories/merge-requests.ts';
import { issueWebUrl, mergeRequestWebUrl } from '../../domain/paths.ts';
import { canReadIssue } from '../../policies/issues.ts';
import { findRecipients } from './recipients.ts';
import { mailEnabled, queueMails, type MailContent } from './mail-outbox.ts';
import type { Executor, IssueRow, MergeRequestRow, NoteRow, ProjectRecord, UserRow } from '../../db/types.ts';

export type IssuableMailEvent = 'open' | 'close' | 'reopen' | 'merge' | 'reassign';

type Issuable = { kind: 'Issue'; row: IssueRow } | { kind: 'MergeRequest'; row: MergeRequestRow };

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
    ? (user: UserRow, access: Parameters<typeof canReadIssue>[1]) =>
        canReadIssue(user, access, record, issuable.row)
    : (_user: UserRow, access: Parameters<typeof canReadIssue>[1]) =>
        access.canRead && record.project.merge_requests_enabled === 1;
}

const nameOf = (users: Map<number, UserRow>, id: number | null) =>
  id === null ? 'Unassigned' : (users.get(id)?.name ?? 'Unassigned');

async function mailIssuable(
  trx: Executor,
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  issuable: Issuable,
  event: IssuableMailEvent,
  previousAssigneeId: number | null = null,
): Promise<void> {
  if (!mailEnabled(deps)) return;
  const { row } = issuable;
  const recipients = await findRecipients(trx, {
    record,
    target: { type: issuable.kind, id: row.id, authorId: row.author_id, assigneeId: row.assignee_id },
    actor,
    texts: event === 'open' ? [row.title, row.description] : [],
    extra: event === 'reassign' ? [previousAssigneeId, row.assignee_id].filter((id) => id !== null) : [],
    canRead: readerCheck(record, issuable),
  });
  if (recipients.length === 0) return;
  const people = await usersByIds(
    trx,
    [row.author_id, row.assignee_id, previousAssigneeId].filter((id): id is number => id !== null),
  );
  const what = describe(deps, record, issuable);
  const paragraphs: string[] = [];
  if (event === 'open') {
    paragraphs.push(
      `New ${what.noun} ${what.ref} was created by ${nameOf(people, row.author_id)}.`,
      `Assignee: ${nameOf(people, row.assignee_id)}`,
    );
    if (row.description) paragraphs.push(row.description);
  } else if (event === 'reassign') {
    paragraphs.push(
      `Reassigned ${what.noun} ${what.ref}`,
      `Assignee changed from ${nameOf(people, previousAssigneeId)} to ${nameOf(people, row.assignee_id)}`,
    );
  } else if (event === 'merge') {
    paragraphs.push(`${what.noun} ${what.ref} was merged by ${actor.name}.`);
  } else {
    paragraphs.push(
      `${what.noun} ${what.ref} was ${event === 'close' ? 'closed' : 'reopened'} by ${actor.name}.`,
    );
  }
  const content: MailContent = { subject: what.subject, paragraphs, url: what.url };
  await queueMails(
    trx,
    deps,
    recipients.map((recipient) => recipient.user),
    () => content,
    { record, noteable: { type: issuable.kind, id: row.id }, opens: event === 'open' },
  );
}

export function mailIssueEvent(
  trx: Executor,
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  issue: IssueRow,
  event: IssuableMailEvent,
  previousAssigneeId?: number | null,
): Promise<void> {
  return mailIssuable(trx, deps, record, actor, { kind: 'Issue', row: issue }, event, previousAssigneeId);
}

export function mailMergeRequestEvent(
  trx: Executor,
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  mr: MergeRequestRow,
  event: IssuableMailEvent,
  previousAssigneeId?: number | null,
): Promise<void> {
  return mailIssuable(trx, deps, record, actor, { kind: 'MergeRequest', row: mr }, event, previousAssigneeId);
}

/** A comment: to the participants and watchers except its writer, mentioned users whatever their level. */
export async function mailNote(
  trx: Executor,
  deps: Deps,
  record: ProjectRecord,
  actor: UserRow,
  note: NoteRow,
): Promise<void> {
  if (!mailEnabled(deps) || note.noteable_id === null) return;
  let issuable: Issuable;
  if (note.noteable_type === 'Issue') {
    const row = await findIssueById(trx, note.noteable_id);
    if (!row) return;
    issuable = { kind: 'Issue', row };
  } else if (note.noteable_type === 'MergeRequest') {
    const row = await findMergeRequestById(trx, note.noteable_id);
    if (!row) return;
    issuable = { kind: 'MergeRequest', row };
  } else return;
  const { row } = issuable;
  const recipients = await findRecipients(trx, {
    record,
    target: { type: issuable.kind, id: row.id, authorId: row.author_id, assigneeId: row.assignee_id },
    actor,
    texts: [note.note],
    canRead: readerCheck(record, issuable),
  });
  const what = describe(deps, record, issuable);
  const content: MailContent = {
    subject: what.subject,
    paragraphs: [`${actor.name} commented on ${what.noun} ${what.ref}:`, note.note],
    url: `${what.url}#note_${note.id}`,
  };
  await queueMails(
    trx,
    deps,
    recipients.map((recipient) => recipient.user),
    () => content,
    { record, noteable: { type: issuable.kind, id: row.id }, opens: false },
  );
}
