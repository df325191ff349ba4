// v4's /broadcast_messages (lib/api/broadcast_messages.rb): the list and one message are readable
// without a token, as today's GitLab has it; create, update and delete stay with administrators and
// take v4's `target_path` and `broadcast_type`; a delete answers the removed message, as GitLab's does.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { presentBroadcastMessage } from '../../presenters/api-v4/broadcast-message.ts';
import { registerBroadcastMessages } from '../api-v3/broadcast-messages.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  registerBroadcastMessages(app, deps, {
    present: presentBroadcastMessage,
    publicReads: true,
    v4: true,
  });
}
