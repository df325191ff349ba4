// Stars (GitLab's POST/DELETE /projects/:id/star): starring twice, or unstarring a project one has not
// starred, answers 304. The star row and the project's star_count move in one transaction.
import type { Deps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { deleteStar, insertStar } from '../../db/repositories/stars.ts';
import { now } from '../../lib/clock.ts';
import { notModified } from '../../errors.ts';
import type { UserRow } from '../../db/types.ts';

export async function starProject(deps: Deps, viewer: UserRow, projectId: number): Promise<void> {
  const at = now();
  try {
    await deps.db.kysely.transaction().execute((trx) => insertStar(trx, viewer.id, projectId, at));
  } catch (error) {
    if (isUniqueViolation(error)) throw notModified();
    throw error;
  }
}

export async function unstarProject(deps: Deps, viewer: UserRow, projectId: number): Promise<void> {
  const at = now();
  const removed = await deps.db.kysely
    .transaction()
    .execute((trx) => deleteStar(trx, viewer.id, projectId, at));
  if (!removed) throw notModified();
}
