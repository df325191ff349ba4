// /broadcast_messages (GitLab 8.13's lib/api/broadcast_messages.rb): administrators only, every route —
// list (paginated), one, create (`message` required; `starts_at`, `ends_at` default to now and an hour
// on; `color`, `font`), update, delete (answers the removed message). v4 registers the same routes
// through its own BroadcastWire.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BroadcastMessageRow } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { grapeParams, requestParams, type GrapeParam, type Params } from '../../http/params.ts';
import { ApiError } from '../../errors.ts';
import {
  countBroadcastMessageList,
  listBroadcastMessagesPage,
  loadBroadcastMessageOr404,
} from '../../views/broadcast-message-views.ts';
import { presentBroadcastMessage } from '../../presenters/api-v3/broadcast-message.ts';
import {
  changeBroadcastMessage,
  createBroadcastMessage,
  removeBroadcastMessage,
  type BroadcastMessageInput,
} from '../../services/instance/broadcast-messages.ts';

const ID: GrapeParam = { name: 'id', kind: 'integer', required: true };

/** Grape's DateTime: any time Ruby's DateTime.parse reads; a bad one is `{"error":"starts_at is invalid"}`. */
function dateTimes(params: Params, names: string[]): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  const problems: string[] = [];
  for (const name of names) {
    const raw = params[name];
    if (raw === undefined || raw === null || raw === '') continue;
    const time = typeof raw === 'string' ? Date.parse(raw.trim()) : NaN;
    if (Number.isNaN(time)) problems.push(`${name} is invalid`);
    else values[name] = new Date(time).toISOString();
  }
  if (problems.length > 0) throw new ApiError(400, { error: problems.join(', ') });
  return values;
}

function broadcastInput(request: FastifyRequest, create: boolean, v4: boolean): BroadcastMessageInput {
  const params = requestParams(request);
  const specs: GrapeParam[] = [
    { name: 'message', kind: 'string', required: create },
    { name: 'color', kind: 'string', required: false },
    { name: 'font', kind: 'string', required: false },
  ];
  if (v4) {
    specs.push({ name: 'target_path', kind: 'string', required: false });
    specs.push({ name: 'broadcast_type', kind: 'string', required: false });
  }
  const values = grapeParams(params, specs);
  const times = dateTimes(params, ['starts_at', 'ends_at']);
  const text = (name: string) => values[name] as string | undefined;
  return {
    message: text('message'),
    startsAt: times.starts_at,
    endsAt: times.ends_at,
    color: text('color'),
    font: text('font'),
    targetPath: text('target_path'),
    broadcastType: text('broadcast_type'),
  };
}

function broadcastId(request: FastifyRequest): number {
  return grapeParams(requestParams(request), [ID]).id as number;
}

/** Where the versions differ: the entity, who may read, and v4's two extra fields. */
export interface BroadcastWire {
  present: (row: BroadcastMessageRow) => unknown;
  /** v4: the list and one message need no token; v3: administrators only, as every other route. */
  publicReads: boolean;
  /** v4 takes `target_path` and `broadcast_type`. */
  v4: boolean;
}

/** Both versions' /broadcast_messages routes, answered through `wire`. */
export function registerBroadcastMessages(app: FastifyInstance, deps: Deps, wire: BroadcastWire): void {
  const baseUrl = deps.config.externalUrl;
  const { present, publicReads, v4 } = wire;
  const readOptions = publicReads ? { config: { public: true } } : {};
  app.get('/broadcast_messages', readOptions, async (request, reply) => {
    if (!publicReads) requireAdmin(request);
    return paginate(
      request,
      reply,
      baseUrl,
      () => countBroadcastMessageList(deps),
      async (page) => (await listBroadcastMessagesPage(deps, page)).map(present),
    );
  });
  app.get('/broadcast_messages/:id', readOptions, async (request) => {
    if (!publicReads) requireAdmin(request);
    return present(await loadBroadcastMessageOr404(deps, broadcastId(request)));
  });
  app.post('/broadcast_messages', async (request, reply) => {
    requireAdmin(request);
    const created = await createBroadcastMessage(deps, broadcastInput(request, true, v4));
    reply.status(201);
    return present(created);
  });
  app.put('/broadcast_messages/:id', async (request) => {
    requireAdmin(request);
    const id = broadcastId(request);
    return present(await changeBroadcastMessage(deps, id, broadcastInput(request, false, v4)));
  });
  app.delete('/broadcast_messages/:id', async (request) => {
    requireAdmin(request);
    return present(await removeBroadcastMessage(deps, broadcastId(request)));
  });
}

export function register(app: FastifyInstance, deps: Deps): void {
  registerBroadcastMessages(app, deps, {
    present: presentBroadcastMessage,
    publicReads: false,
    v4: false,
  });
}
