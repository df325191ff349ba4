// GET /version and GET /metadata: what clients probe first (python-gitlab's gl.version(), glab's
// api check). v4 answers the version Labrador implements v4 as; v3 keeps 8.13's.
import type { FastifyInstance } from 'fastify';
import { API_V4_GITLAB_VERSION, REVISION } from '../../domain/version.ts';

const about = async () => ({
  version: API_V4_GITLAB_VERSION,
  revision: REVISION,
  kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
  enterprise: false,
});

export function register(app: FastifyInstance): void {
  app.get('/version', about);
  app.get('/metadata', about);
}
