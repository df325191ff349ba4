// SSH keys in v4: /user/keys and /users/:id/keys (readable by anyone signed in, by id or username).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { createKey, destroyKey } from '../../services/users/keys.ts';
import { userKey, userKeys } from '../../views/key-views.ts';
import { presentSSHKey } from '../../presenters/api-v4/key.ts';
import { registerUserResource } from './user-resources.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  registerUserResource(app, deps, {
    kind: 'keys',
    label: 'Key',
    required: ['key', 'title'],
    input: (values) => ({ key: values.key!, title: values.title! }),
    publicList: true,
    list: userKeys,
    find: userKey,
    create: createKey,
    destroy: destroyKey,
    present: presentSSHKey,
  });
}
