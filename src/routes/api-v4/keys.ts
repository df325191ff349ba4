// SSH keys in v4: /user/keys and /users/:id/keys (readable by anyone signed in, by id or username), and
// the administrators' lookups of any key: GET /keys/:id and GET /keys?fingerprint= (MD5 or SHA256; a
// deploy key comes with its deploy_keys_projects), each with its owner (null for a deploy key).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { pathId, presentString, requestParams } from '../../http/params.ts';
import { notFound, recordNotFound } from '../../errors.ts';
import { createKey, destroyKey } from '../../services/users/keys.ts';
import { keyByFingerprint, keyWithOwner, userKey, userKeys } from '../../views/key-views.ts';
import type { FullUserModel } from '../../views/user-views.ts';
import { presentSSHKey } from '../../presenters/api-v4/key.ts';
import { presentDeployKey } from '../../presenters/api-v4/deploy-key.ts';
import { presentUserWithAdmin } from '../../presenters/api-v4/user.ts';
import { registerUserResource } from './user-resources.ts';
import { requireParams } from './conventions.ts';

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

  const owner = (model: FullUserModel | null) =>
    model ? presentUserWithAdmin(model.user, deps.config.externalUrl, model.extras) : null;

  app.get<{ Params: { id: string } }>('/keys/:id', async (request) => {
    requireAdmin(request);
    const id = pathId(request.params.id);
    const found = id === undefined ? undefined : await keyWithOwner(deps, id);
    if (!found) throw recordNotFound();
    return { ...presentSSHKey(found.key), user: owner(found.owner) };
  });

  app.get('/keys', async (request) => {
    requireAdmin(request);
    const params = requestParams(request);
    requireParams(params, 'fingerprint');
    const found = await keyByFingerprint(deps, presentString(params, 'fingerprint')!.trim());
    if (!found) throw notFound('Key');
    if (found.key.type !== 'DeployKey') return { ...presentSSHKey(found.key), user: owner(found.owner) };
    return {
      ...presentDeployKey(found.key),
      user: owner(found.owner),
      deploy_keys_projects: found.links.map((link) => ({
        id: link.id,
        deploy_key_id: link.deploy_key_id,
        project_id: link.project_id,
        created_at: link.created_at,
        updated_at: link.updated_at,
        can_push: false,
      })),
    };
  });
}
