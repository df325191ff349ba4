// Secondary emails: the caller's own (/user/emails) and, for administrators, any user's
// (/users/:uid/emails). The primary email is never listed; lists are not paginated.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { findUserByIdParam } from '../../http/loaders.ts';
import { notFound, recordNotFound } from '../../errors.ts';
import { pathId, requestParams, requiredFields } from '../../http/params.ts';
import { createEmail, destroyEmail } from '../../services/users/emails.ts';
import { userEmail, userEmails } from '../../views/email-views.ts';
import { presentEmail } from '../../presenters/api-v3/email.ts';
import { digits, failuresAsNotFound, sendNull } from './user-resources.ts';

type IdParams = { id: string };
type UserEmailParams = { uid: string; id: string };

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/user/emails', async (request) => {
    const viewer = requireViewer(request);
    return (await userEmails(deps, viewer.id)).map(presentEmail);
  });

  app.get<{ Params: IdParams }>('/user/emails/:id', async (request) => {
    const viewer = requireViewer(request);
    const id = pathId(request.params.id);
    const email = id === undefined ? undefined : await userEmail(deps, viewer.id, id);
    if (!email) throw recordNotFound();
    return presentEmail(email);
  });

  app.post('/user/emails', async (request, reply) => {
    const viewer = requireViewer(request);
    const input = requiredFields(requestParams(request), ['email']);
    const email = await createEmail(deps, viewer.id, input.email);
    return reply.status(201).send(presentEmail(email));
  });

  // Idempotent; GitLab's body was the result of re-computing notification emails: null here.
  app.delete<{ Params: IdParams }>('/user/emails/:id', async (request, reply) => {
    const viewer = requireViewer(request);
    const id = pathId(request.params.id);
    if (id !== undefined) await destroyEmail(deps, viewer.id, id);
    return sendNull(reply);
  });

  app.get<{ Params: { uid: string } }>(`/users/${digits('uid')}/emails`, async (request) => {
    requireAdmin(request);
    const user = await findUserByIdParam(deps, request.params.uid);
    if (!user) throw notFound('User');
    return (await userEmails(deps, user.id)).map(presentEmail);
  });

  // Parameters are checked before the user is looked up, as GitLab did.
  app.post<{ Params: IdParams }>(`/users/${digits('id')}/emails`, async (request, reply) => {
    requireAdmin(request);
    const email = await failuresAsNotFound(async () => {
      const input = requiredFields(requestParams(request), ['email']);
      const user = await findUserByIdParam(deps, request.params.id);
      if (!user) throw recordNotFound();
      return createEmail(deps, user.id, input.email);
    });
    return reply.status(201).send(presentEmail(email));
  });

  app.delete<{ Params: UserEmailParams }>(`/users/${digits('uid')}/emails/:id`, async (request, reply) => {
    requireAdmin(request);
    const user = await findUserByIdParam(deps, request.params.uid);
    if (!user) throw notFound('User');
    const id = pathId(request.params.id);
    const email = id === undefined ? undefined : await destroyEmail(deps, user.id, id);
    if (!email) throw notFound('Email');
    return sendNull(reply);
  });
}
