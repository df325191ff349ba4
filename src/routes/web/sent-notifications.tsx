// GET /sent_notifications/:key/unsubscribe: the link at the foot of every notification mail; works signed
// out (the key is the credential, and all it can do is stop mail about one thread).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { ErrorPage } from '../../presenters/html/layout.tsx';
import { unsubscribeByReplyKey } from '../../services/mail/unsubscribe.ts';
import { pageContext } from './web-session.ts';
import { sendPage } from './render.ts';

export function registerSentNotifications(web: FastifyInstance, deps: Deps): void {
  web.get<{ Params: { key: string } }>('/sent_notifications/:key/unsubscribe', async (request, reply) => {
    const subject = await unsubscribeByReplyKey(deps, request.params.key);
    if (subject === undefined) throw notFound();
    return sendPage(
      reply,
      <ErrorPage
        ctx={pageContext(deps, request, reply)}
        status={200}
        title="Unsubscribed"
        text={`You will no longer get mail about “${subject}”.`}
      />,
    );
  });
}
