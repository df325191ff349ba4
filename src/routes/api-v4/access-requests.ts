// v4's access requests (lib/api/access_requests.rb): v3's routes and rules, v4's UserBasic in the
// AccessRequester and Member entities, and 204 for a denial or withdrawal.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { presentAccessRequester } from '../../presenters/api-v4/access-request.ts';
import { presentMember } from '../../presenters/api-v4/member.ts';
import { registerAccessRequests } from '../api-v3/access-requests.ts';
import { noContent } from './conventions.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  registerAccessRequests(app, deps, {
    presentRequester: presentAccessRequester,
    presentMember,
    answerRemoval: (reply) => noContent(reply),
  });
}
