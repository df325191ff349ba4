// The unsubscribe link of a notification mail (8.13's SentNotificationsController#unsubscribe): its random
// key names the mail, whose recipient is unsubscribed from the issue or merge request, without signing in.
import type { Deps } from '../../deps.ts';
import { findMailByReplyKey } from '../../db/repositories/mails.ts';
import { setSubscription } from '../../db/repositories/subscriptions.ts';
import { now } from '../../lib/clock.ts';

/** The subject of the thread left, or undefined when the key names no mail about an issue or MR. */
export async function unsubscribeByReplyKey(deps: Deps, replyKey: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{32}$/.test(replyKey)) return undefined;
  const mail = await findMailByReplyKey(deps.db.kysely, replyKey);
  if (!mail || mail.noteable_id === null || mail.project_id === null) return undefined;
  const type = mail.noteable_type === 'MergeRequest' ? 'MergeRequest' : 'Issue';
  await setSubscription(
    deps.db.kysely,
    { type, id: mail.noteable_id, projectId: mail.project_id },
    mail.user_id,
    false,
    now(),
  );
  return mail.subject;
}
