// What v4 does alike for a user's SSH keys and secondary emails: the caller's own under /user/<kind>,
// any user's under /users/:id/<kind> (administrators write; keys are readable by anyone signed in, by id
// or username), lists paginated, DELETE 204, and GitLab's `404 Key Not Found`-style answers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { findUserByIdParam } from '../../http/loaders.ts';
import { notFound, paramsMissing } from '../../errors.ts';
import { paginateLoaded } from '../../http/pagination.ts';
import { pathId, presentString, requestParams } from '../../http/params.ts';
import { loadAnyUserByUsernameOr404 } from '../../views/user-views.ts';
import { digits } from '../api-v3/user-resources.ts';
import { noContent } from './conventions.ts';
import type { UserRow } from '../../db/types.ts';

export interface UserResource<Row, Input> {
  /** The path segment: `keys`, `emails`. */
  kind: string;
  /** The 404 resource name: `Key`, `Email`. */
  label: string;
  /** Required parameters in GitLab's order; all present → `input` reads them. */
  required: readonly string[];
  input(values: Record<string, string>): Input;
  /** Whether anyone signed in may read another user's (keys) or only administrators (emails). */
  publicList: boolean;
  list(deps: Deps, userId: number): Promise<Row[]>;
  find(deps: Deps, userId: number, id: number): Promise<Row | undefined>;
  create(deps: Deps, userId: number, input: Input): Promise<Row>;
  destroy(deps: Deps, userId: number, id: number): Promise<Row | undefined>;
  present(row: Row): unknown;
}

function readInput<Row, Input>(request: FastifyRequest, resource: UserResource<Row, Input>): Input {
  const params = requestParams(request);
  const values: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of resource.required) {
    const value = presentString(params, name);
    if (value === undefined) missing.push(name);
    else values[name] = value;
  }
  if (missing.length > 0) throw paramsMissing(...missing);
  return resource.input(values);
}

/** `:user_id` as v4 reads it where GitLab allows a username too. */
async function findUserByIdOrUsername(deps: Deps, idOrUsername: string): Promise<UserRow> {
  if (/^\d+$/.test(idOrUsername)) {
    const user = await findUserByIdParam(deps, idOrUsername);
    if (!user) throw notFound('User');
    return user;
  }
  return loadAnyUserByUsernameOr404(deps, idOrUsername);
}

async function findUserById(deps: Deps, id: string): Promise<UserRow> {
  const user = await findUserByIdParam(deps, id);
  if (!user) throw notFound('User');
  return user;
}

export function registerUserResource<Row, Input>(
  app: FastifyInstance,
  deps: Deps,
  resource: UserResource<Row, Input>,
): void {
  const baseUrl = deps.config.externalUrl;
  const { kind, label } = resource;
  type Own = { Params: { item: string } };
  type Others = { Params: { id: string; item: string } };

  const listOf = async (
    request: FastifyRequest,
    reply: Parameters<typeof paginateLoaded>[1],
    userId: number,
  ) => paginateLoaded(request, reply, baseUrl, await resource.list(deps, userId)).map(resource.present);

  const one = async (userId: number, item: string) => {
    const id = pathId(item);
    const row = id === undefined ? undefined : await resource.find(deps, userId, id);
    if (!row) throw notFound(label);
    return resource.present(row);
  };

  const destroy = async (userId: number, item: string) => {
    const id = pathId(item);
    const row = id === undefined ? undefined : await resource.destroy(deps, userId, id);
    if (!row) throw notFound(label);
  };

  app.get(`/user/${kind}`, async (request, reply) => listOf(request, reply, requireViewer(request).id));

  app.get<Own>(`/user/${kind}/:item`, async (request) => one(requireViewer(request).id, request.params.item));

  app.post(`/user/${kind}`, async (request, reply) => {
    const viewer = requireViewer(request);
    const row = await resource.create(deps, viewer.id, readInput(request, resource));
    return reply.status(201).send(resource.present(row));
  });

  app.delete<Own>(`/user/${kind}/:item`, async (request, reply) => {
    await destroy(requireViewer(request).id, request.params.item);
    return noContent(reply);
  });

  app.get<{ Params: { id: string } }>(`/users/:id/${kind}`, async (request, reply) => {
    if (resource.publicList) requireViewer(request);
    else requireAdmin(request);
    const user = resource.publicList
      ? await findUserByIdOrUsername(deps, request.params.id)
      : await findUserById(deps, request.params.id);
    return listOf(request, reply, user.id);
  });

  if (resource.publicList) {
    app.get<Others>(`/users/${digits('id')}/${kind}/:item`, async (request) => {
      requireViewer(request);
      const user = await findUserById(deps, request.params.id);
      return one(user.id, request.params.item);
    });
  }

  app.post<{ Params: { id: string } }>(`/users/${digits('id')}/${kind}`, async (request, reply) => {
    requireAdmin(request);
    const user = await findUserById(deps, request.params.id);
    const row = await resource.create(deps, user.id, readInput(request, resource));
    return reply.status(201).send(resource.present(row));
  });

  app.delete<Others>(`/users/${digits('id')}/${kind}/:item`, async (request, reply) => {
    requireAdmin(request);
    const user = await findUserById(deps, request.params.id);
    await destroy(user.id, request.params.item);
    return noContent(reply);
  });
}
