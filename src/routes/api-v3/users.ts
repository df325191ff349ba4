// The users resource: list, show, create, modify, delete, block and unblock. `:id` must be digits;
// anything else falls through to the catch-all `{"error":"404 Not Found"}`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { findUserByIdParam } from '../../http/loaders.ts';
import { recordNotFound } from '../../errors.ts';
import { paginate } from '../../http/pagination.ts';
import {
  boundedSearch,
  optionalBoolean,
  pathId,
  presentAttributes,
  presentString,
  requestParams,
  requiredString,
  type Params,
} from '../../http/params.ts';
import {
  blockUser,
  createUser,
  deleteUser,
  modifyUser,
  unblockUser,
  type UserAttributes,
} from '../../services/users/users.ts';
import { USER_TEXT_ATTRIBUTES } from '../../services/users/user-validation.ts';
import {
  countUserList,
  loadUserFor,
  loadUserFull,
  listUsersPage,
  usersWithUsername,
} from '../../views/user-views.ts';
import { presentUserFor, presentUserFull, presentUserList } from '../../presenters/api-v3/user.ts';
import { digits, sendNull } from './user-resources.ts';

const ID = digits('id');

/** The switches of create and modify; a value that is not a boolean word is a 400 `<name> is invalid`. */
export function userSwitches(params: Params): UserAttributes {
  const switches: UserAttributes = {};
  for (const key of ['admin', 'can_create_group', 'external'] as const) {
    const value = optionalBoolean(params, key);
    if (value !== undefined) switches[key] = value;
  }
  return switches;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/users', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const username = presentString(params, 'username');
    // An exact lookup, not paginated (no headers), as in GitLab.
    if (username !== undefined)
      return presentUserList(await usersWithUsername(deps, viewer, username), baseUrl);
    // GitLab checked `active` for presence only: any value selects active users.
    const filter = {
      active: presentString(params, 'active') !== undefined,
      search: boundedSearch(presentString(params, 'search')),
    };
    return paginate(
      request,
      reply,
      baseUrl,
      () => countUserList(deps, filter),
      async (page) => presentUserList(await listUsersPage(deps, viewer, filter, page), baseUrl),
    );
  });

  app.get<{ Params: { id: string } }>(`/users/${ID}`, async (request) => {
    const viewer = requireViewer(request);
    const user = await findUserByIdParam(deps, request.params.id);
    if (!user) throw recordNotFound();
    return presentUserFor(await loadUserFor(deps, viewer, user), baseUrl);
  });

  app.post('/users', async (request, reply) => {
    requireAdmin(request);
    const params = requestParams(request);
    // Blank values count as not given; a NUL byte is refused as the model refuses a bad value.
    const text = presentAttributes(params, USER_TEXT_ATTRIBUTES, 400);
    // Checked one by one in GitLab's order.
    const email = requiredString(params, 'email');
    const password = requiredString(params, 'password');
    const name = requiredString(params, 'name');
    const username = requiredString(params, 'username');
    // `confirm` is accepted and has no effect: Labrador sends no confirmation mail.
    const attrs = { ...text, ...userSwitches(params), email, password, name, username };
    const user = await createUser(deps, attrs);
    reply.status(201);
    return presentUserFor(await loadUserFull(deps, user), baseUrl);
  });

  app.put<{ Params: { id: string } }>(`/users/${ID}`, async (request) => {
    requireAdmin(request);
    const id = pathId(request.params.id);
    if (id === undefined) throw recordNotFound();
    const params = requestParams(request);
    // Every failure of a modification is a 404, a NUL byte in a text attribute too.
    const attrs = { ...presentAttributes(params, USER_TEXT_ATTRIBUTES, 404), ...userSwitches(params) };
    const user = await modifyUser(deps, id, attrs);
    return presentUserFor(await loadUserFull(deps, user), baseUrl);
  });

  // Idempotent: an unknown user is 200 with `null`.
  app.delete<{ Params: { id: string } }>(`/users/${ID}`, async (request, reply) => {
    requireAdmin(request);
    const id = pathId(request.params.id);
    const deleted = id === undefined ? null : await deleteUser(deps, id);
    if (!deleted) return sendNull(reply);
    return presentUserFull(deleted.user, baseUrl, deleted.extras);
  });

  // `true` when the state changed, `false` when it already was so.
  app.put<{ Params: { id: string } }>(`/users/${ID}/block`, async (request, reply) => {
    requireAdmin(request);
    const changed = await blockUser(deps, pathId(request.params.id) ?? 0);
    return reply.type('application/json').send(JSON.stringify(changed));
  });

  app.put<{ Params: { id: string } }>(`/users/${ID}/unblock`, async (request, reply) => {
    requireAdmin(request);
    const changed = await unblockUser(deps, pathId(request.params.id) ?? 0);
    return reply.type('application/json').send(JSON.stringify(changed));
  });
}
