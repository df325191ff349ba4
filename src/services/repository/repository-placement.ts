// Putting a new project's repository on disk without ever deleting one that is not provably ours.
//
// 1. reserveRepository: a row with a random token and the target path is committed before anything is
//    made on disk (the same crash-safe order as pushes: recorded, then acted on).
// 2. placeRepository, the last step of the transaction that inserts the project row (its unique index on
//    the path keeps every other live create away): makes the directory, writes the token into it as a
//    marker, fills it, and deletes the reservation row in that same transaction.
// 3. After the commit the marker goes (settleRepository).
// A directory already at the target is replaced only when its marker names a reservation still in this
// database: a create that made it and never committed. Anything else (another database's repository, an
// orphan, a copy made by hand) is refused, and left exactly as it was.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../../deps.ts';
import type { Executor } from '../../db/types.ts';
import {
  deleteRepositoryCreation,
  findRepositoryCreation,
  insertRepositoryCreation,
} from '../../db/repositories/repository-creations.ts';
import { now } from '../../lib/clock.ts';
import {
  claimDirectory,
  initBareRepository,
  readCreationMarker,
  removeCreationMarker,
  removeRepository,
  writeCreationMarker,
} from '../../git/repository.ts';
import { hexToken } from '../../lib/tokens.ts';

/** GitLab's later wording for the same refusal (8.13 adopted whatever was there). */
export const REPOSITORY_ON_DISK = 'There is already a repository with that name on disk';

/** The target directory holds something this create cannot prove is its own leftover. */
export class RepositoryPathTaken extends Error {
  constructor(readonly target: string) {
    super(`${target} already exists`);
  }
}

export interface RepositoryReservation {
  token: string;
  target: string;
  /** Something of ours is on disk at the target (until the transaction commits or cleans it up). */
  placed: boolean;
}

export async function reserveRepository(deps: Deps, target: string): Promise<RepositoryReservation> {
  const token = hexToken(16);
  await insertRepositoryCreation(deps.db.kysely, {
    token,
    disk_path: path.relative(deps.config.dataDir, target),
    created_at: now(),
  });
  return { token, target, placed: false };
}

/**
 * Inside the project's transaction: the repository at the reserved path, as a new empty one (with
 * `defaultBranch` as HEAD) or by moving `source` (a finished clone on the same file system) into place.
 */
export async function placeRepository(
  trx: Executor,
  deps: Deps,
  reservation: RepositoryReservation,
  fill: { source: string } | { defaultBranch: string },
): Promise<void> {
  const { target, token } = reservation;
  if (!(await claimDirectory(target))) {
    const marker = await readCreationMarker(target);
    const leftover = marker && marker !== token ? await findRepositoryCreation(trx, marker) : undefined;
    if (!leftover || path.resolve(deps.config.dataDir, leftover.disk_path) !== target) {
      throw new RepositoryPathTaken(target);
    }
    deps.log.warn({ path: target }, 'replacing the leftover of a project create that never committed');
    await removeRepository(target);
    await deleteRepositoryCreation(trx, leftover.token);
    if (!(await claimDirectory(target))) throw new RepositoryPathTaken(target);
  }
  reservation.placed = true;
  try {
    if ('source' in fill) {
      await writeCreationMarker(fill.source, token);
      // Replaces the empty directory claimed above in one step.
      await fs.rename(fill.source, target);
    } else {
      await writeCreationMarker(target, token);
      await initBareRepository(deps.config.dataDir, target, fill.defaultBranch);
    }
    await deleteRepositoryCreation(trx, token);
  } catch (error) {
    // Still inside the transaction, so no other create can be looking at this directory yet.
    await removeRepository(target);
    reservation.placed = false;
    throw error;
  }
}

/**
 * After the transaction: committed, the repository is the project's and loses its marker; rolled back
 * before anything was placed, the reservation goes. A commit that failed after placing leaves both, a
 * provable leftover that the next create at this path replaces.
 */
export async function settleRepository(
  deps: Deps,
  reservation: RepositoryReservation,
  committed: boolean,
): Promise<void> {
  if (committed) {
    await removeCreationMarker(reservation.target).catch((error) =>
      deps.log.warn({ err: error, path: reservation.target }, 'could not remove a creation marker'),
    );
  } else if (!reservation.placed) {
    await deleteRepositoryCreation(deps.db.kysely, reservation.token).catch(() => {});
  }
}
