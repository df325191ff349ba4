// GET /avatar?email=&size= (lib/api/avatar.rb), public: the avatar URL GitLab would show for that
// address. Every avatar in Labrador is the address's Gravatar (no uploads), so a user's and an unknown
// address's are made alike.
import type { FastifyInstance } from 'fastify';
import { optionalInteger, optionalString, requestParams } from '../../http/params.ts';
import { paramValueInvalid } from '../../errors.ts';
import { gravatarUrl } from '../../presenters/api-v3/user.ts';
import { requireParams } from './conventions.ts';

export function register(app: FastifyInstance): void {
  app.get('/avatar', { config: { public: true } }, async (request) => {
    const params = requestParams(request);
    requireParams(params, 'email');
    const size = optionalInteger(params, 'size') ?? 80;
    if (size < 1 || size > 4096) throw paramValueInvalid('size');
    return { avatar_url: gravatarUrl(optionalString(params, 'email')!, size) };
  });
}
