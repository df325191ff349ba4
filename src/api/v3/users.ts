// The users resource (lib/api/users.rb): list, show, create, modify, delete, block and unblock.
// `:id` must be digits; anything else falls through to the catch-all `{"error":"404 Not Found"}`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { recordNotFound } from '../../http/errors.ts';
import { paginate } from '../../http/pagination.ts';
import {
  optionalBoolean,
  pathId,
  presentString,
  requestParams,
  requiredString,
  type Params,
} from '../../http/params.ts';
import { findUserById, type UserRow } from '../../db/repositories/users.ts';
import {
  blockUser,
  countUserList,
  createUser,
  deleteUser,
  loadUserFullExtrasMany,
  modifyUser,
  unblockUser,
  userListPage,
  usersWithUsername,
  type UserAttributes,
} from '../../services/users.ts';
import { presentUser, presentUserBasic, presentUserFull } from '../../presenters/user.ts';

const ID = ':id(^\\d+$)';

/** The optional attributes of create and modify; blank values count as not given (attributes_for_keys). */
function userAttributes(params: Params): UserAttributes {
  const attrs: UserAttributes = {};
  for (const key of [
    'email',
    'password',
    'name',
    'username',
    'skype',
    'linkedin',
    'twitter',
    'website_url',
    'organization',
    'bio',
    'location',
    'projects_limit',
    'provider',
    'extern_uid',
  ] as const) {
    const value = presentString(params, key);
    if (value !== undefined) attrs[key] = value;
  }
  for (const key of ['admin', 'can_create_group', 'external'] as const) {
    const value = optionalBoolean(params, key);
    if (value !== undefined) attrs[key] = value;
  }
  return attrs;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  async function presentFullList(users: UserRow[]) {
    const extras = await loadUserFullExtrasMany(
      deps.db.kysely,
      users.map((user) => user.id),
    );
    return users.map((user) => presentUserFull(user, baseUrl, extras.get(user.id)!));
  }

  app.get('/users', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const username = presentString(params, 'username');
    let users: UserRow[];
    if (username !== undefined) {
      // An exact lookup, not paginated (no headers), as in GitLab.
      users = await usersWithUsername(deps, username);
    } else {
      // GitLab checked `active` for presence only: any value selects active users.
      const filter = {
        active: presentString(params, 'active') !== undefined,
        search: presentString(params, 'search'),
      };
      users = await paginate(
        request,
        reply,
        baseUrl,
        () => countUserList(deps, filter),
        (page) => userListPage(deps, filter, page.offset, page.limit),
      );
    }
    if (viewer.admin === 1) return presentFullList(users);
    return users.map((user) => presentUserBasic(user, baseUrl));
  });

  app.get(`/users/${ID}`, async (request) => {
    const viewer = requireViewer(request);
    const id = pathId((request.params as { id: string }).id);
    const user = id === undefined ? undefined : await findUserById(deps.db.kysely, id);
    if (!user) throw recordNotFound();
    if (viewer.admin === 1) return (await presentFullList([user]))[0];
    return presentUser(user, baseUrl);
  });

  app.post('/users', async (request, reply) => {
    requireAdmin(request);
    const params = requestParams(request);
    // Checked one by one in GitLab's order.
    const email = requiredString(params, 'email');
    const password = requiredString(params, 'password');
    const name = requiredString(params, 'name');
    const username = requiredString(params, 'username');
    // `confirm` is accepted and has no effect: Labrador sends no confirmation mail (README row 18).
    const user = await createUser(deps, { ...userAttributes(params), email, password, name, username });
    reply.status(201);
    return (await presentFullList([user]))[0];
  });

  app.put(`/users/${ID}`, async (request) => {
    requireAdmin(request);
    const id = pathId((request.params as { id: string }).id);
    if (id === undefined) throw recordNotFound();
    const user = await modifyUser(deps, id, userAttributes(requestParams(request)));
    return (await presentFullList([user]))[0];
  });

  app.delete(`/users/${ID}`, async (_request, reply) => {
    requireAdmin(_request);
    const id = pathId((_request.params as { id: string }).id);
    const deleted = id === undefined ? null : await deleteUser(deps, id);
    // Idempotent (SPEC): an unknown user is 200 with `null`.
    if (!deleted) return reply.type('application/json').send('null');
    return presentUserFull(deleted.user, baseUrl, deleted.extras);
  });

  app.put(`/users/${ID}/block`, async (request, reply) => {
    requireAdmin(request);
    const id = pathId((request.params as { id: string }).id);
    const changed = await blockUser(deps, id ?? 0);
    return reply.type('application/json').send(JSON.stringify(changed));
  });

  app.put(`/users/${ID}/unblock`, async (request, reply) => {
    requireAdmin(request);
    const id = pathId((request.params as { id: string }).id);
    const changed = await unblockUser(deps, id ?? 0);
    return reply.type('application/json').send(JSON.stringify(changed));
  });
}
