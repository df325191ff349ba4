// GET /-/health, without a token, for load balancers and supervisors: 200 when the database answers and
// the data dir is writable, 503 otherwise (and while the server is stopping).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { createHealthCheck } from '../../services/instance/health.ts';

export function registerHealth(app: FastifyInstance, deps: Deps): void {
  const check = createHealthCheck(deps);
  app.get('/-/health', async (_request, reply) => {
    const report = await check();
    reply.header('cache-control', 'no-store');
    return reply.code(report.healthy ? 200 : 503).send({
      status: report.healthy ? 'ok' : 'failing',
      database: report.database,
      data_dir: report.dataDir,
    });
  });
}
