// v4's /broadcast_messages (lib/api/broadcast_messages.rb): the list and one message are readable
// without a token, as today's GitLab has it; create, update and delete stay with administrators and
// take v4's `target_path` and `broadcast_type`; a delete answers the removed message, as GitLab's does.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import {
  countBroadcastMessageList,
  listBroadcastMessagesPage,
  loadBroadcastMessageOr404,
} from '../../views/broadcast-message-views.ts';
import { presentBroadcastMessage } from '../../presenters/api-v4/broadcast-message.ts';
import {
  changeBroadcastMessage,
  createBroadcastMessage,
  removeBroadcastMessage,
} from '../../services/instance/broadcast-messages.ts';
import { broadcastId, broadcastInput } from '../api-v3/broadcast-messages.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  app.get('/broadcast_messages', { config: { public: true } }, async (request, reply) =>
    paginate(
      request,
      reply,
      baseUrl,
      () => countBroadcastMessageList(deps),
      async (page) => (await listBroadcastMessagesPage(deps, page)).map(presentBroadcastMessage),
    ),
  );
  app.get('/broadcast_messages/:id', { config: { public: true } }, async (request) =>
    presentBroadcastMessage(await loadBroadcastMessageOr404(deps, broadcastId(request))),
  );
  app.post('/broadcast_messages', async (request, reply) => {
    requireAdmin(request);
    const created = await createBroadcastMessage(deps, broadcastInput(request, true, true));
    reply.status(201);
    return presentBroadcastMessage(created);
  });
  app.put('/broadcast_messages/:id', async (request) => {
    requireAdmin(request);
    const id = broadcastId(request);
    return presentBroadcastMessage(
      await changeBroadcastMessage(deps, id, broadcastInput(request, false, true)),
    );
  });
  app.delete('/broadcast_messages/:id', async (request) => {
    requireAdmin(request);
    return presentBroadcastMessage(await removeBroadcastMessage(deps, broadcastId(request)));
  });
}
