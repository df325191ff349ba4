// POST /groups/:id/projects/:project_id (GitLab 8.13's Projects::TransferService, administrators): the
// project moves into the group, its visibility capped at the group's, with project_transfer announced to
// system hooks; its directories follow on disk through the repository-move journal, so a crash between
// the database change and the renames is finished at the next start-up instead of losing the repository.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { findGroupById } from '../../db/repositories/namespaces.ts';
import {
  findNameOrPathClash,
  findProjectRecordById,
  moveProjectToNamespace,
} from '../../db/repositories/projects.ts';
import { repositoryExists, repositoryPath } from '../../git/repository.ts';
import { failedWith, recordNotFound } from '../../errors.ts';
import { announceProjectMove } from '../hooks/system-hook-announcements.ts';
import {
  finishRepositoryMove,
  journalRepositoryMove,
  type JournaledMove,
} from '../repository/repository-moves.ts';
import type { NamespaceRow, ProjectRecord } from '../../db/types.ts';

/** GitLab answered with the Ruby inspection of the project's errors. */
const failed = (field: string, message: string) =>
  failedWith('Failed to transfer project', { [field]: [message] });

const PATH_TAKEN = 'Project with same path in target namespace already exists';

/** Transfers the project; answers the group it went to. */
export async function transferProjectToGroup(
  deps: Deps,
  groupId: number | undefined,
  projectId: number | undefined,
): Promise<NamespaceRow> {
  const db = deps.db.kysely;
  const group = groupId === undefined ? undefined : await findGroupById(db, groupId);
  const record = projectId === undefined ? undefined : await findProjectRecordById(db, projectId);
  if (!record) throw recordNotFound();
  if (!group) throw failed('new_namespace', 'is invalid');
  await transferProject(deps, record, group);
  return group;
}

/**
 * Moves the project into `target` (a group or a user's namespace: v4's PUT /projects/:id/transfer, where
 * the caller's right to create projects there is checked first); answers the project as moved.
 */
export async function transferProject(
  deps: Deps,
  record: ProjectRecord,
  target: NamespaceRow,
): Promise<ProjectRecord> {
  const db = deps.db.kysely;
  const group = target;
  const { project, namespace } = record;
  if (group.id === namespace.id) throw failed('new_namespace', 'is invalid');
  const clash = await findNameOrPathClash(db, group.id, project.name, project.path);
  if (clash.path) throw failed('new_namespace', PATH_TAKEN);
  if (clash.name) throw failed('name', 'has already been taken');
  const from = { namespacePath: namespace.path, projectPath: project.path };
  const to = { namespacePath: group.path, projectPath: project.path };
  // Something already on disk where the repository would go is never overwritten.
  if (await repositoryExists(repositoryPath(deps.config.dataDir, to.namespacePath, to.projectPath))) {
    throw failed('new_namespace', 'Cannot move project');
  }

  const at = now();
  const changes = {
    namespace_id: group.id,
    // A user's namespace caps nothing (its visibility_level is public's).
    visibility_level:
      group.type === 'Group'
        ? Math.min(project.visibility_level, group.visibility_level)
        : project.visibility_level,
    updated_at: at,
  };
  let move: JournaledMove;
  try {
    move = await db.transaction().execute(async (trx) => {
      if (!(await moveProjectToNamespace(trx, project.id, namespace.id, changes))) {
        throw failed('new_namespace', 'is invalid');
      }
      const journaled = await journalRepositoryMove(trx, project.id, from, to, at);
      await announceProjectMove(
        trx,
        'project_transfer',
        { ...project, ...changes },
        group,
        `${namespace.path}/${project.path}`,
      );
      return journaled;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw failed('new_namespace', PATH_TAKEN);
    throw error;
  }
  try {
    await finishRepositoryMove(deps, move);
  } catch (error) {
    // The project has moved; its directories follow at the next start-up.
    deps.log.error(
      { err: error, projectId: project.id },
      'moving the repository of a transferred project failed',
    );
  }
  return { project: { ...project, ...changes }, namespace: group };
}
