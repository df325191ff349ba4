// v4's participants of an issue or merge request (lib/api/issues.rb, merge_requests.rb
// `get ':id/…/:iid/participants'`): an unpaginated array of UserBasic, for whoever may read the issue or merge request.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { presentUserBasic } from '../../presenters/api-v4/user.ts';
import { participantsOf } from '../../views/participant-views.ts';
import { NOTEABLE_PARENTS } from './noteables.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  for (const parent of NOTEABLE_PARENTS) {
    app.get(`${parent.base}/participants`, async (request) => {
      const found = await parent.load(deps, request);
      const users = await participantsOf(deps, found.issuable);
      return users.map((user) => presentUserBasic(user, deps.config.externalUrl));
    });
  }
}
