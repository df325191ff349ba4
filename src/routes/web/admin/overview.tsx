// /admin: the instance's counts, version, database engine, data dir and health.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { version } from '../../../lib/version.ts';
import { createHealthCheck } from '../../../services/instance/health.ts';
import { loadInstanceCounts } from '../../../views/admin-views.ts';
import { AdminOverviewPage } from '../../../presenters/html/admin/overview.tsx';
import { pageContext } from '../web-session.ts';
import { sendPage } from '../render.ts';

export function registerAdminOverview(admin: FastifyInstance, deps: Deps): void {
  const health = createHealthCheck(deps);
  admin.get('/admin', async (request, reply) => {
    const [counts, report] = await Promise.all([loadInstanceCounts(deps), health()]);
    return sendPage(
      reply,
      <AdminOverviewPage
        ctx={pageContext(deps, request, reply)}
        overview={{
          counts,
          version,
          database: deps.db.dialect,
          dataDir: deps.config.dataDir,
          health: report,
        }}
      />,
    );
  });
}
