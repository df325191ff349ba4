// Secondary emails in v4: /user/emails and, for administrators, /users/:id/emails. The Email entity is
// v3's (id, email); `skip_confirmation` changes nothing (Labrador sends no mail).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { createEmail, destroyEmail } from '../../services/users/emails.ts';
import { userEmail, userEmails } from '../../views/email-views.ts';
import { presentEmail } from '../../presenters/api-v3/email.ts';
import { registerUserResource } from './user-resources.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  registerUserResource(app, deps, {
    kind: 'emails',
    label: 'Email',
    required: ['email'],
    input: (values) => values.email!,
    publicList: false,
    list: userEmails,
    find: userEmail,
    create: createEmail,
    destroy: destroyEmail,
    present: presentEmail,
  });
}
