// The project of a repository page by its `:namespace/:project` path, through the API's loader and
// policies: readable (else 404, or sign in first), and for the pages that write (branches, the file
// editor) a signed-in viewer who may push (else 403, as the API's repository writes answer).
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { forbidden } from '../../errors.ts';
import { canDownloadCode, canWriteRepository } from '../../policies/git-access.ts';
import type { Pusher } from '../../services/push/push-setup.ts';
import { signedIn } from './page-params.ts';
import { hiddenAsks } from './render.ts';

interface ProjectParams {
  namespace: string;
  project: string;
}

export function loadReadableProject(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const params = request.params as ProjectParams;
  return hiddenAsks(request, () => loadProject(deps, request, `${params.namespace}/${params.project}`));
}

export async function loadWritableProject(deps: Deps, request: FastifyRequest): Promise<Pusher> {
  const loaded = await loadReadableProject(deps, request);
  const user = signedIn(request);
  if (!canDownloadCode(loaded.access, loaded) || !canWriteRepository(loaded.access, loaded))
    throw forbidden();
  return { ...loaded, user };
}
