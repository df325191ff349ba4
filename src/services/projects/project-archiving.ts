// Archiving a project: an archived project stays readable, but refuses pushes and is left out of lists
// that ask for `archived=false`.
import type { Deps } from '../../deps.ts';
import { updateProject } from '../../db/repositories/projects.ts';
import { now } from '../../lib/clock.ts';

export async function setArchived(deps: Deps, projectId: number, archived: boolean): Promise<void> {
  await updateProject(deps.db.kysely, projectId, { archived: archived ? 1 : 0, updated_at: now() });
}
