// GET /version (added in 8.13; clients probe it first to learn what they talk to).
import type { FastifyInstance } from 'fastify';
import { GITLAB_VERSION, REVISION } from '../../domain/version.ts';

export function register(app: FastifyInstance): void {
  app.get('/version', async () => ({ version: GITLAB_VERSION, revision: REVISION }));
}
