// /admin/broadcast_messages: list, add and remove broadcast messages through the API's service and views.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { optionalString, pathId, requestParams } from '../../../http/params.ts';
import {
  createBroadcastMessage,
  removeBroadcastMessage,
} from '../../../services/instance/broadcast-messages.ts';
import { listBroadcastMessagesPage } from '../../../views/broadcast-message-views.ts';
import { presentBroadcastMessage } from '../../../presenters/api-v3/broadcast-message.ts';
import type { Flash } from '../../../presenters/html/layout.tsx';
import { AdminBroadcastMessagesPage } from '../../../presenters/html/admin/broadcast-messages.tsx';
import { pageContext } from '../web-session.ts';
import { sendPage } from '../render.ts';
import { doneNotice, errorText } from '../form-errors.ts';

const DONE: Record<string, string> = {
  added: 'The broadcast message was added.',
  removed: 'The broadcast message was removed.',
};
const FIELDS = ['message', 'starts_at', 'ends_at', 'color', 'font'] as const;

function timeField(text: string, name: string): string | undefined {
  if (text === '') return undefined;
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new ApiError(400, { message: { [name]: ['is not a date and time'] } });
  return new Date(time).toISOString();
}

export function registerAdminBroadcastMessages(admin: FastifyInstance, deps: Deps): void {
  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    flash: Flash | null,
    typed?: Record<string, string>,
    status = 200,
  ) =>
    sendPage(
      reply,
      <AdminBroadcastMessagesPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        messages={(await listBroadcastMessagesPage(deps, { offset: 0, limit: 100 })).map(
          presentBroadcastMessage,
        )}
        typed={typed}
      />,
      status,
    );

  admin.get('/admin/broadcast_messages', async (request, reply) =>
    listPage(request, reply, doneNotice(request, DONE)),
  );

  admin.post('/admin/broadcast_messages', async (request, reply) => {
    const params = requestParams(request);
    const typed: Record<string, string> = {};
    for (const field of FIELDS) {
      typed[field] = (optionalString(params, `broadcast_message[${field}]`) ?? '').trim();
    }
    try {
      await createBroadcastMessage(deps, {
        message: typed.message,
        startsAt: timeField(typed.starts_at!, 'starts_at'),
        endsAt: timeField(typed.ends_at!, 'ends_at'),
        color: typed.color || null,
        font: typed.font || null,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return listPage(request, reply, { kind: 'alert', text: errorText(error) }, typed, 422);
    }
    return reply.redirect('/admin/broadcast_messages?done=added', 302);
  });

  admin.post('/admin/broadcast_messages/:id/delete', async (request, reply) => {
    const id = pathId((request.params as { id: string }).id);
    if (id === undefined) throw notFound();
    await removeBroadcastMessage(deps, id);
    return reply.redirect('/admin/broadcast_messages?done=removed', 302);
  });
}
