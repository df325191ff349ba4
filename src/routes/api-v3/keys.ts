// SSH keys: the caller's own (/user/keys) and, for administrators, any user's (/users/:uid/keys, and
// /keys/:id with its owner). Lists are not paginated: GitLab presented the whole association.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { findUserByIdParam } from '../../http/loaders.ts';
import { notFound, recordNotFound } from '../../errors.ts';
import { pathId, requestParams, requiredFields } from '../../http/params.ts';
import { createKey, destroyKey } from '../../services/users/keys.ts';
import { keyWithOwner, userKey, userKeys } from '../../views/key-views.ts';
import { presentKeyRecord, presentSSHKey, presentSSHKeyWithUser } from '../../presenters/api-v3/key.ts';
import { digits, failuresAsNotFound, sendNull } from './user-resources.ts';

type IdParams = { id: string };
type UserKeyParams = { uid: string; id: string };

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/user/keys', async (request) => {
    const viewer = requireViewer(request);
    return (await userKeys(deps, viewer.id)).map(presentSSHKey);
  });

  // Another user's key is simply not found, for administrators too (GitLab scoped the find to the caller).
  app.get<{ Params: IdParams }>('/user/keys/:id', async (request) => {
    const viewer = requireViewer(request);
    const id = pathId(request.params.id);
    const key = id === undefined ? undefined : await userKey(deps, viewer.id, id);
    if (!key) throw recordNotFound();
    return presentSSHKey(key);
  });

  app.post('/user/keys', async (request, reply) => {
    const viewer = requireViewer(request);
    const input = requiredFields(requestParams(request), ['title', 'key']);
    const key = await createKey(deps, viewer.id, input);
    return reply.status(201).send(presentSSHKey(key));
  });

  // Idempotent: the destroyed row, or null when there was nothing to destroy.
  app.delete<{ Params: IdParams }>('/user/keys/:id', async (request, reply) => {
    const viewer = requireViewer(request);
    const id = pathId(request.params.id);
    const key = id === undefined ? undefined : await destroyKey(deps, viewer.id, id);
    return key ? presentKeyRecord(key) : sendNull(reply);
  });

  app.get<{ Params: { uid: string } }>(`/users/${digits('uid')}/keys`, async (request) => {
    requireAdmin(request);
    const user = await findUserByIdParam(deps, request.params.uid);
    if (!user) throw notFound('User');
    return (await userKeys(deps, user.id)).map(presentSSHKey);
  });

  // Parameters are checked before the user is looked up, as GitLab did.
  app.post<{ Params: IdParams }>(`/users/${digits('id')}/keys`, async (request, reply) => {
    requireAdmin(request);
    const key = await failuresAsNotFound(async () => {
      const input = requiredFields(requestParams(request), ['title', 'key']);
      const user = await findUserByIdParam(deps, request.params.id);
      if (!user) throw recordNotFound();
      return createKey(deps, user.id, input);
    });
    return reply.status(201).send(presentSSHKey(key));
  });

  app.delete<{ Params: UserKeyParams }>(`/users/${digits('uid')}/keys/:id`, async (request) => {
    requireAdmin(request);
    const user = await findUserByIdParam(deps, request.params.uid);
    if (!user) throw notFound('User');
    const id = pathId(request.params.id);
    const key = id === undefined ? undefined : await destroyKey(deps, user.id, id);
    if (!key) throw notFound('Key');
    return presentKeyRecord(key);
  });

  // GitLab 8.13 had it (lib/api/keys.rb) and clients such as python-gitlab call it.
  app.get<{ Params: IdParams }>('/keys/:id', async (request) => {
    requireAdmin(request);
    const id = pathId(request.params.id);
    const found = id === undefined ? undefined : await keyWithOwner(deps, id);
    if (!found) throw recordNotFound();
    // A deploy key has no owner: GitLab presented `"user": null`.
    if (!found.owner) return { ...presentSSHKey(found.key), user: null };
    return presentSSHKeyWithUser(found.key, found.owner.user, deps.config.externalUrl, found.owner.extras);
  });
}
