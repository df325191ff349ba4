// The users resource in v4: list (filters, order, pages), show, create, modify, delete (204), block and
// unblock (POST, 201 true/false; null blocking one already blocked). Same services as v3; v4 answers a taken email or username with 409 and
// an invalid value with 400 on modify too, and reads `reset_password`/`force_random_password` as "make
// a password" (Labrador sends no mail, so the administrator sets a real one later).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { findUserByIdParam } from '../../http/loaders.ts';
import {
  forbidden,
  grapeError,
  notFound,
  paramInvalid,
  paramsMissing,
  paramValueInvalid,
} from '../../errors.ts';
import { paginate } from '../../http/pagination.ts';
import {
  boundedSearch,
  optionalBoolean,
  optionalOneOf,
  pathId,
  presentAttributes,
  presentString,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { friendlyToken } from '../../lib/tokens.ts';
import { canSeeUserDetails } from '../../policies/users.ts';
import {
  blockUser,
  createUser,
  deleteUser,
  ensureGhostUser,
  modifyUser,
  unblockUser,
  type ModifyFailures,
} from '../../services/users/users.ts';
import { USER_TEXT_ATTRIBUTES } from '../../services/users/user-validation.ts';
import { checkAvatar, setAvatar } from '../../services/users/avatars.ts';
import { bufferedFile } from '../../http/body-parsers.ts';
import {
  countUserList,
  listUsersPage,
  loadUserFor,
  loadUserFull,
  type UserListFilter,
  type UserListOrder,
} from '../../views/user-views.ts';
import { presentUserFor, presentUserList, presentUserWithAdmin } from '../../presenters/api-v4/user.ts';
import { userSwitches } from '../api-v3/users.ts';
import { digits } from '../api-v3/user-resources.ts';
import { noContent } from './conventions.ts';

const ID = digits('id');

const V4_FAILURES: ModifyFailures = {
  conflictStatus: 409,
  invalidStatus: 400,
  missing: () => notFound('User'),
};

const PASSWORD_CHOICES = 'password, reset_password, force_random_password';

const ORDER_COLUMNS = ['id', 'name', 'username', 'created_at', 'updated_at'] as const;

/** A DateTime parameter as an ISO 8601 UTC text (the stored form), or a 400 `<name> is invalid`. */
function optionalTime(params: Params, name: string): string | undefined {
  const text = presentString(params, name);
  if (text === undefined) return undefined;
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw paramInvalid(name);
  return new Date(time).toISOString();
}

/** GET /users' filters; the time window and the order are administrators' only (GitLab drops them). */
function listQuery(params: Params, admin: boolean): { filter: UserListFilter; order: UserListOrder } {
  const filter: UserListFilter = {
    username: presentString(params, 'username'),
    search: boundedSearch(presentString(params, 'search')),
    active: optionalBoolean(params, 'active'),
    blocked: optionalBoolean(params, 'blocked'),
    external: optionalBoolean(params, 'external'),
  };
  if (!admin) return { filter, order: { column: 'id', direction: 'desc' } };
  filter.createdAfter = optionalTime(params, 'created_after');
  filter.createdBefore = optionalTime(params, 'created_before');
  const column =
    optionalOneOf(params, 'order_by', ORDER_COLUMNS, () => paramValueInvalid('order_by')) ?? 'id';
  const direction = optionalOneOf(params, 'sort', ['asc', 'desc'], () => paramValueInvalid('sort')) ?? 'desc';
  return { filter, order: { column, direction } };
}

/** POST /users: the password given, or made up when `reset_password`/`force_random_password` asks. */
function newPassword(params: Params): string | undefined {
  const password = presentString(params, 'password');
  if (password !== undefined) return password;
  if (optionalBoolean(params, 'reset_password') || optionalBoolean(params, 'force_random_password')) {
    return friendlyToken();
  }
  return undefined;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/users', async (request, reply) => {
    const viewer = requireViewer(request);
    const { filter, order } = listQuery(requestParams(request), canSeeUserDetails(viewer));
    return paginate(
      request,
      reply,
      baseUrl,
      () => countUserList(deps, filter),
      async (page) => presentUserList(await listUsersPage(deps, viewer, filter, page, order), baseUrl),
    );
  });

  app.get<{ Params: { id: string } }>(`/users/${ID}`, async (request) => {
    const viewer = requireViewer(request);
    const user = await findUserByIdParam(deps, request.params.id);
    if (!user) throw notFound('User');
    return presentUserFor(await loadUserFor(deps, viewer, user), baseUrl);
  });

  app.post('/users', async (request, reply) => {
    requireAdmin(request);
    const params = requestParams(request);
    const text = presentAttributes(params, USER_TEXT_ATTRIBUTES, 400);
    const email = presentString(params, 'email');
    const password = newPassword(params);
    const name = presentString(params, 'name');
    const username = presentString(params, 'username');
    if (email === undefined || name === undefined || username === undefined) {
      const missing = { email, name, username };
      throw paramsMissing(
        ...Object.keys(missing).filter((key) => missing[key as keyof typeof missing] === undefined),
      );
    }
    if (password === undefined) {
      throw grapeError(400, `${PASSWORD_CHOICES} are missing, at least one parameter must be provided`);
    }
    const file = bufferedFile(request, 'avatar');
    if (file) checkAvatar(file);
    // `skip_confirmation` changes nothing: Labrador sends no confirmation mail, every user is confirmed.
    let user = await createUser(deps, {
      ...text,
      ...userSwitches(params),
      email,
      password,
      name,
      username,
    });
    if (file) user = { ...user, avatar: await setAvatar(deps, 'user', user.id, file) };
    reply.status(201);
    const { extras } = await loadUserFull(deps, user);
    return presentUserWithAdmin(user, baseUrl, extras);
  });

  app.put<{ Params: { id: string } }>(`/users/${ID}`, async (request) => {
    requireAdmin(request);
    const params = requestParams(request);
    const attrs = { ...presentAttributes(params, USER_TEXT_ATTRIBUTES, 400), ...userSwitches(params) };
    // A multipart `avatar` is checked before anything changes, and stored once the rest is saved.
    const file = bufferedFile(request, 'avatar');
    if (file) checkAvatar(file);
    let user = await modifyUser(deps, pathId(request.params.id) ?? 0, attrs, V4_FAILURES);
    if (file) user = { ...user, avatar: await setAvatar(deps, 'user', user.id, file) };
    const { extras } = await loadUserFull(deps, user);
    return presentUserWithAdmin(user, baseUrl, extras);
  });

  // As GitLab since 9.0: the user's issues, merge requests, notes and award emoji move to the ghost
  // user, unless `hard_delete` takes them with the user (as v3's delete always does).
  app.delete<{ Params: { id: string } }>(`/users/${ID}`, async (request, reply) => {
    requireAdmin(request);
    const hardDelete = optionalBoolean(requestParams(request), 'hard_delete') === true;
    const contributionsTo = hardDelete ? undefined : await ensureGhostUser(deps);
    const deleted = await deleteUser(deps, pathId(request.params.id) ?? 0, { contributionsTo });
    if (!deleted) throw notFound('User');
    return noContent(reply);
  });

  // `true` when the state changed, `false` when it did not, 201 as GitLab's POST answers; blocking a
  // user already blocked answers `null` (GitLab's route stops before its service).
  for (const [action, change] of [
    ['block', blockUser],
    ['unblock', unblockUser],
  ] as const) {
    app.post<{ Params: { id: string } }>(`/users/${ID}/${action}`, async (request, reply) => {
      const viewer = requireAdmin(request);
      const id = pathId(request.params.id) ?? 0;
      if (action === 'block' && id === viewer.id) {
        throw forbidden('The API initiating user cannot be blocked by the API');
      }
      const changed = await change(deps, id);
      const already =
        action === 'block' && !changed && (await findUserByIdParam(deps, id))?.state === 'blocked';
      return reply
        .status(201)
        .type('application/json')
        .send(JSON.stringify(already ? null : changed));
    });
  }
}
