// Loading a merge request named by `:merge_request_id` (the global id, as v3 paths take) within a project
// the caller reads: merge requests unreadable in it answer 403 (8.13's authorize! :read_merge_request);
// one that is missing or in another project answers 404 `404 Not found`.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { forbidden } from '../errors.ts';
import { canReadMergeRequests } from '../policies/merge-requests.ts';
import { loadMergeRequest } from '../services/merge-requests/merge-requests.ts';
import { requireViewer } from './auth.ts';
import { loadProject, type LoadedProject } from './loaders.ts';
import { pathId } from './params.ts';
import type { MergeRequestRow, UserRow } from '../db/types.ts';

/** The project of the route, readable and with merge requests readable by the caller (a user). */
export async function loadMergeRequestProject(
  deps: Deps,
  request: FastifyRequest,
  loaded?: LoadedProject,
): Promise<{ viewer: UserRow; project: LoadedProject }> {
  const viewer = requireViewer(request);
  const project = loaded ?? (await loadProject(deps, request));
  if (!canReadMergeRequests(project.access, project)) throw forbidden();
  return { viewer, project };
}

export async function loadMergeRequestOf(
  deps: Deps,
  request: FastifyRequest,
  loaded?: LoadedProject,
): Promise<{ viewer: UserRow; project: LoadedProject; mr: MergeRequestRow }> {
  const { viewer, project } = await loadMergeRequestProject(deps, request, loaded);
  const params = request.params as Record<string, unknown>;
  const mr = await loadMergeRequest(deps, project, pathId(params.merge_request_id));
  return { viewer, project, mr };
}
