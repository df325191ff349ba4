// Moving a project's directories (repository, wiki, uploads) to a new `<namespace>/<project>` without
// ever losing them. The move is journaled in the same transaction that changes the project's namespace;
// the directories are renamed after that commits, and the journal row goes once they have moved. A crash
// in between leaves the row, and start-up finishes the move: every step is a rename that is done again
// only if its source still exists and its target does not, so finishing twice changes nothing.
import fs from 'node:fs/promises';
import type { Deps } from '../../deps.ts';
import {
  deleteRepositoryMove,
  insertRepositoryMove,
  listRepositoryMoves,
} from '../../db/repositories/repository-moves.ts';
import { moveRepository, repositoryPath } from '../../git/repository.ts';
import { projectUploadsDir } from '../../storage/uploads.ts';
import type { Executor, RepositoryMoveRow } from '../../db/types.ts';

export interface ProjectLocation {
  namespacePath: string;
  projectPath: string;
}

const fullPath = (location: ProjectLocation) => `${location.namespacePath}/${location.projectPath}`;

function parse(full: string): ProjectLocation {
  const slash = full.indexOf('/');
  return { namespacePath: full.slice(0, slash), projectPath: full.slice(slash + 1) };
}

/** The directories a project keeps under the data dir. */
function projectDirectories(dataDir: string, location: ProjectLocation): string[] {
  const { namespacePath, projectPath } = location;
  return [
    repositoryPath(dataDir, namespacePath, projectPath),
    repositoryPath(dataDir, namespacePath, projectPath, 'wiki'),
    projectUploadsDir(dataDir, namespacePath, projectPath),
  ];
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** Records the move in the caller's transaction (the one that changes the project's namespace). */
export async function journalRepositoryMove(
  trx: Executor,
  projectId: number,
  from: ProjectLocation,
  to: ProjectLocation,
  at: string,
): Promise<JournaledMove> {
  const move = { from_path: fullPath(from), to_path: fullPath(to) };
  const id = await insertRepositoryMove(trx, { project_id: projectId, ...move, created_at: at });
  return { id, ...move };
}

export type JournaledMove = Pick<RepositoryMoveRow, 'id' | 'from_path' | 'to_path'>;

/** Renames what is still at the old place and ends the journal row; throws (row kept) if a rename fails. */
export async function finishRepositoryMove(deps: Deps, move: JournaledMove): Promise<void> {
  const sources = projectDirectories(deps.config.dataDir, parse(move.from_path));
  const targets = projectDirectories(deps.config.dataDir, parse(move.to_path));
  for (const [index, source] of sources.entries()) {
    const target = targets[index];
    if (source === target || !(await exists(source))) continue;
    // Never over something: a directory at the target is left for an operator, with the row.
    if (await exists(target)) throw new Error(`cannot move ${source}: ${target} exists`);
    await moveRepository(source, target);
  }
  await deleteRepositoryMove(deps.db.kysely, move.id);
}

/** Start-up: finishes every move a crash interrupted, oldest first. */
export async function finishRepositoryMoves(deps: Deps): Promise<number> {
  let finished = 0;
  let afterId = 0;
  for (;;) {
    const batch = await listRepositoryMoves(deps.db.kysely, afterId, 100);
    if (batch.length === 0) return finished;
    for (const move of batch) {
      afterId = move.id;
      try {
        await finishRepositoryMove(deps, move);
        finished++;
      } catch (error) {
        deps.log.error({ err: error, move }, 'finishing a repository move failed');
      }
    }
  }
}
