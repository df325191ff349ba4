// GET /version (added in 8.13; clients probe it first to learn what they talk to).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';

export const GITLAB_VERSION = '8.13.0';
export const REVISION = 'labrador';

export function register(app: FastifyInstance, _deps: Deps): void {
  app.get('/version', async () => ({ version: GITLAB_VERSION, revision: REVISION }));
}
