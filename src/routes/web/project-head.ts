// The header every project page shows: the project as the API presents it to this viewer, and whether
// the viewer may open its settings (so the Settings tab is the same on every tab).
import type { Deps } from '../../deps.ts';
import type { LoadedProject } from '../../http/loaders.ts';
import { canAdminProject } from '../../policies/access.ts';
import type { ProjectHead } from '../../presenters/html/repository.tsx';
import { loadProjectWithAccess } from '../../views/project-views.ts';

export async function loadProjectHead(deps: Deps, loaded: LoadedProject): Promise<ProjectHead> {
  return {
    ...(await loadProjectWithAccess(deps, loaded, loaded.access)),
    settings: canAdminProject(loaded.access),
  };
}
