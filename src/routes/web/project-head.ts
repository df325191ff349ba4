// The header every project page shows: the project as the API presents it to this viewer, and what the
// viewer may do from its tabs (settings, push, merge requests, which CI tabs it may read), so the buttons are the same everywhere.
import type { Deps } from '../../deps.ts';
import type { LoadedProject } from '../../http/loaders.ts';
import { canAdminProject } from '../../policies/access.ts';
import { canWriteRepository } from '../../policies/git-access.ts';
import { canWriteMergeRequests } from '../../policies/merge-requests.ts';
import { canReadBuilds, canReadEnvironments, canReadPipelines } from '../../policies/ci.ts';
import type { ProjectHead } from '../../presenters/html/repository.tsx';
import { loadProjectView } from '../../views/project-views.ts';
import { presentProjects } from '../../presenters/api-v3/project.ts';

export async function loadProjectHead(deps: Deps, loaded: LoadedProject): Promise<ProjectHead> {
  return {
    ...presentProjects([await loadProjectView(deps, loaded, loaded.access)], deps.config)[0]!,
    settings: canAdminProject(loaded.access),
    canPush: canWriteRepository(loaded.access, loaded),
    canOpenMergeRequest: canWriteMergeRequests(loaded.access, loaded),
    canReadPipelines: canReadPipelines(loaded.access, loaded.project),
    canReadBuilds: canReadBuilds(loaded.access, loaded.project),
    canReadEnvironments: canReadEnvironments(loaded.access, loaded),
  };
}
