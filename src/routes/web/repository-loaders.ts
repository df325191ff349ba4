// The project of the repository pages that write (branches, the file editor), through the pages' loader
// (http/loaders.ts loadPageProject: readable, else 404 or sign in first) and the API's policies: a
// signed-in viewer who may push (else 403, as the API's repository writes answer).
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadPageProject } from '../../http/loaders.ts';
import { forbidden } from '../../errors.ts';
import { canDownloadCode, canWriteRepository } from '../../policies/git-access.ts';
import type { Pusher } from '../../services/push/push-setup.ts';
import { signedIn } from './page-params.ts';

export async function loadWritableProject(deps: Deps, request: FastifyRequest): Promise<Pusher> {
  const loaded = await loadPageProject(deps, request);
  const user = signedIn(request);
  if (!canDownloadCode(loaded.access, loaded) || !canWriteRepository(loaded.access, loaded))
    throw forbidden();
  return { ...loaded, user };
}
