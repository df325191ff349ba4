// Forks: a fork is a new project in the caller's (or a chosen) namespace that copies the source's name,
// path, description and settings, with a bare clone of its repository and a fork link. The clone is made
// first in a scratch folder; then the fork goes through the same creation step as any new project
// (projects.ts insertNewProject, as Projects::ForkService called Projects::CreateService), so it records
// the same event and announces project_create and the owner's user_add_to_team to system hooks.
import crypto from 'node:crypto';
import path from 'node:path';
import type { Deps } from '../../deps.ts';
import { findNameOrPathClash, countPersonalProjects } from '../../db/repositories/projects.ts';
import { deleteForkLink, findForkLinkTo, insertForkLink } from '../../db/repositories/forks.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { apiError, conflict } from '../../errors.ts';
import { canForkProject, type ProjectAccess } from '../../policies/access.ts';
import {
  cloneBareRepository,
  removeRepository,
  repositoriesScratch,
  repositoryPath,
} from '../../git/repository.ts';
import { REPOSITORY_ON_DISK, RepositoryPathTaken } from '../repository/repository-placement.ts';
import { insertNewProject, projectLimitMessage } from './projects.ts';
import type { ForkLinkRow, NamespaceRow, ProjectRecord, UserRow } from '../../db/types.ts';

export async function forkProject(
  deps: Deps,
  viewer: UserRow,
  source: ProjectRecord,
  access: ProjectAccess,
  target: NamespaceRow,
  /** v4's `name` and `path` of the fork; the source's by default. */
  naming: { name?: string; path?: string } = {},
): Promise<number> {
  const db = deps.db.kysely;
  // GitLab reported every failure of the fork as 409 with the model's error hash.
  if (!canForkProject(viewer, source, access)) throw conflict({ forked_from_project_id: ['is forbidden'] });
  const personal = target.type !== 'Group';
  if (personal && target.owner_id === viewer.id) {
    const count = await countPersonalProjects(db, viewer.id);
    if (count >= viewer.projects_limit)
      throw conflict({ limit_reached: [projectLimitMessage(viewer.projects_limit)] });
  }
  const { project } = source;
  const name = naming.name ?? project.name;
  const forkPath = naming.path ?? project.path;
  const taken = async () => {
    const clash = await findNameOrPathClash(db, target.id, name, forkPath);
    const errors: Record<string, string[]> = {};
    if (clash.name) errors.name = ['has already been taken'];
    if (clash.path) errors.path = ['has already been taken'];
    return errors;
  };
  const before = await taken();
  if (Object.keys(before).length > 0) throw conflict(before);

  const scratch = path.join(
    repositoriesScratch(deps.config.dataDir),
    `fork-${crypto.randomBytes(8).toString('hex')}.git`,
  );
  const sourceRepo = repositoryPath(deps.config.dataDir, source.namespace.path, project.path);
  try {
    await cloneBareRepository(sourceRepo, scratch);
  } catch (error) {
    await removeRepository(scratch);
    deps.log.error({ err: error }, 'fork clone failed');
    throw apiError(500, 'Failed to copy the repository');
  }
  // A fork into a less visible group takes the group's level (GitLab 8.13 refused with a 409 instead).
  const visibility = personal
    ? project.visibility_level
    : Math.min(project.visibility_level, target.visibility_level);
  try {
    const fork = await insertNewProject(deps, {
      namespace: target,
      creator: viewer,
      values: {
        name,
        path: forkPath,
        description: project.description,
        default_branch: project.default_branch,
        visibility_level: visibility,
        archived: 0,
        issues_enabled: project.issues_enabled,
        merge_requests_enabled: project.merge_requests_enabled,
        wiki_enabled: project.wiki_enabled,
        builds_enabled: project.builds_enabled,
        snippets_enabled: project.snippets_enabled,
        container_registry_enabled: project.container_registry_enabled,
        shared_runners_enabled: project.shared_runners_enabled,
        public_builds: project.public_builds,
        lfs_enabled: project.lfs_enabled,
        only_allow_merge_if_build_succeeds: project.only_allow_merge_if_build_succeeds,
        request_access_enabled: project.request_access_enabled,
        import_url: null,
      },
      repository: { source: scratch },
      forkedFromId: project.id,
    });
    return fork.id;
  } catch (error) {
    if (error instanceof RepositoryPathTaken) throw conflict({ path: [REPOSITORY_ON_DISK] });
    if (isUniqueViolation(error)) {
      const errors = await taken();
      throw conflict(Object.keys(errors).length > 0 ? errors : { path: ['has already been taken'] });
    }
    throw error;
  } finally {
    // Gone once placed; a fork that did not commit leaves its clone behind here.
    await removeRepository(scratch);
  }
}

/** Admin: mark an existing project as a fork of another. */
export async function linkFork(deps: Deps, fork: ProjectRecord, source: ProjectRecord): Promise<ForkLinkRow> {
  if (fork.project.id === source.project.id) throw conflict('Project cannot be a fork of itself');
  if (await findForkLinkTo(deps.db.kysely, fork.project.id)) throw apiError(409, 'Project already forked');
  try {
    return await insertForkLink(deps.db.kysely, fork.project.id, source.project.id, now());
  } catch (error) {
    if (isUniqueViolation(error)) throw apiError(409, 'Project already forked');
    throw error;
  }
}

export async function unlinkFork(deps: Deps, fork: ProjectRecord): Promise<ForkLinkRow | null> {
  return (await deleteForkLink(deps.db.kysely, fork.project.id)) ?? null;
}
