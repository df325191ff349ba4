// GET /user in v4: UserPublic for the caller, UserWithAdmin when the caller is an administrator (what
// python-gitlab's gl.auth() reads), and PUT /user/avatar. No private token here: v4 has personal access tokens instead.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadCurrentUser } from '../../views/user-views.ts';
import { presentCurrentUser } from '../../presenters/api-v4/user.ts';
import { avatarUrl } from '../../presenters/api-v3/user.ts';
import { bufferedFile } from '../../http/body-parsers.ts';
import { paramsMissing } from '../../errors.ts';
import { setAvatar } from '../../services/users/avatars.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/user', async (request) =>
    presentCurrentUser(await loadCurrentUser(deps, requireViewer(request)), deps.config.externalUrl),
  );

  // The caller's avatar from a multipart `avatar` file (GitLab 17.0); answers the Avatar entity.
  app.put('/user/avatar', async (request) => {
    const viewer = requireViewer(request);
    const file = bufferedFile(request, 'avatar');
    if (!file) throw paramsMissing('avatar');
    const avatar = await setAvatar(deps, 'user', viewer.id, file);
    return { avatar_url: avatarUrl({ ...viewer, avatar }, deps.config.externalUrl) };
  });
}
