// The mail outbox: the one way any area sends mail. A service records what happened (recordMailEvent, one
// row in its own transaction, so the event exists exactly when the change committed); the worker
// (workers/mail-delivery.ts) expands it into one mail per recipient (queueMails, in the transaction that
// marks the event done) and sends them. Without LABRADOR_SMTP_URL nothing is recorded.
//
// Threading as GitLab 8.13's Notify did it: the first mail about an issue or merge request carries
// Message-ID <issue_ID@host>; every later one answers it (In-Reply-To and References), so mail clients
// show one thread per issue. The unsubscribe link carries a random key stored with the row (8.13's
// SentNotification reply_key), so it works without signing in and says nothing else.
import crypto from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { insertMailEvent, insertMails, type NewMail } from '../../db/repositories/mails.ts';
import { projectFullPath } from '../../domain/paths.ts';
import { now } from '../../lib/clock.ts';
import type { Executor, ProjectRecord, UserRow } from '../../db/types.ts';

export interface MailContent {
  subject: string;
  /** Plain-text body paragraphs; the HTML part is made from the same. */
  paragraphs: string[];
  /** The object's page, shown as the last line of both parts. */
  url?: string;
  /** Headers of this kind of mail (a pipeline's X-GitLab-Pipeline-Id …). */
  headers?: Record<string, string>;
}

export interface MailThread {
  record: ProjectRecord;
  noteable: { type: 'Issue' | 'MergeRequest'; id: number };
  /** The mail that opens the thread (a new issue or merge request). */
  opens: boolean;
}

const listeners = new Set<() => void>();

export function onMailsQueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function mailEnabled(deps: Deps): boolean {
  return deps.config.mail.smtpUrl !== undefined;
}

function hostOf(deps: Deps): string {
  return new URL(deps.config.externalUrl).hostname;
}

function threadMessageId(deps: Deps, noteable: MailThread['noteable']): string {
  const kind = noteable.type === 'Issue' ? 'issue' : 'merge_request';
  return `<${kind}_${noteable.id}@${hostOf(deps)}>`;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function htmlOf(content: MailContent, footer: string[], unsubscribeUrl: string | undefined): string {
  const paragraph = (text: string) => `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`;
  const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
  return [
    '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>',
    ...content.paragraphs.map(paragraph),
    content.url ? `<p>${link(content.url, 'View it on GitLab')}</p>` : '',
    `<p style="color:#777;font-size:small">${footer.map(escapeHtml).join('<br>')}${
      unsubscribeUrl ? `<br>${link(unsubscribeUrl, 'unsubscribe')}` : ''
    }</p>`,
    '</body></html>',
  ].join('\n');
}

/**
 * Queues one mail per recipient, in the caller's transaction. `content` is built once per recipient (it
 * may name them); the event key makes one event's rows unique per user.
 */
export async function queueMails(
  trx: Executor,
  deps: Deps,
  eventKey: string,
  recipients: UserRow[],
  content: (recipient: UserRow) => MailContent,
  thread?: MailThread,
): Promise<number> {
  if (!mailEnabled(deps) || recipients.length === 0) return 0;
  const at = now();
  const host = hostOf(deps);
  const base = deps.config.externalUrl;
  const rows: NewMail[] = recipients.map((user) => {
    const mail = content(user);
    const replyKey = crypto.randomBytes(16).toString('hex');
    const headers: Record<string, string> = {};
    let unsubscribeUrl: string | undefined;
    if (thread) {
      const threadId = threadMessageId(deps, thread.noteable);
      const fullPath = projectFullPath(thread.record);
      unsubscribeUrl = `${base}/sent_notifications/${replyKey}/unsubscribe`;
      headers['Message-ID'] = thread.opens ? threadId : `<${eventKey}.${user.id}@${host}>`;
      if (!thread.opens) {
        headers['In-Reply-To'] = threadId;
        headers['References'] = threadId;
      }
      headers['List-Id'] = `${fullPath} <${fullPath.replace(/\//g, '.')}.${host}>`;
      headers['List-Unsubscribe'] = `<${unsubscribeUrl}>`;
      headers['X-GitLab-Project'] = thread.record.project.name;
      headers['X-GitLab-Project-Path'] = fullPath;
      headers[thread.noteable.type === 'Issue' ? 'X-GitLab-Issue-ID' : 'X-GitLab-MergeRequest-ID'] = String(
        thread.noteable.id,
      );
    } else {
      headers['Message-ID'] = `<${eventKey}.${user.id}@${host}>`;
    }
    Object.assign(headers, mail.headers);
    const footer = [
      `You're receiving this email because of your account on ${host}.`,
      `Manage your notification levels: ${base}/profile/notifications`,
    ];
    const text = [
      ...mail.paragraphs,
      ...(mail.url ? [`View it on GitLab: ${mail.url}`] : []),
      ['—', ...footer, ...(unsubscribeUrl ? [`Unsubscribe: ${unsubscribeUrl}`] : [])].join('\n'),
    ].join('\n\n');
    return {
      event_key: eventKey,
      user_id: user.id,
      reply_key: replyKey,
      project_id: thread?.record.project.id ?? null,
      noteable_type: thread?.noteable.type ?? null,
      noteable_id: thread?.noteable.id ?? null,
      to_address: user.email,
      subject: mail.subject,
      text_body: `${text}\n`,
      html_body: htmlOf(mail, footer, unsubscribeUrl),
      headers: JSON.stringify(headers),
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    };
  });
  const count = await insertMails(trx, rows);
  for (const listener of listeners) listener();
  return count;
}

/** Records that something happened that may cause mail, in the caller's transaction (one INSERT). */
export async function recordMailEvent(trx: Executor, deps: Deps, payload: object): Promise<void> {
  if (mailEnabled(deps)) await recordMailEventWhileOn(trx, payload, now());
}

/** recordMailEvent for a caller that has checked already that mail is on (a CI transaction). */
export async function recordMailEventWhileOn(trx: Executor, payload: object, at: string): Promise<void> {
  await insertMailEvent(trx, JSON.stringify(payload), at);
  for (const listener of listeners) listener();
}
