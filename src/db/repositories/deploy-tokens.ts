// Deploy tokens: a project's or a group's (deploy_tokens_project_id / _group_id lead each holder's list),
// found by the digest of their secret (deploy_tokens_token_digest, unique).
import type { DeployTokenRow, Executor } from '../types.ts';

/** Whose tokens: a project's, a group's, or every token (an administrator's list). */
export type DeployTokenHolder = { projectId: number } | { groupId: number } | 'all';

export interface DeployTokenFilter {
  holder: DeployTokenHolder;
  /** Only tokens neither revoked nor expired at `now` (an ISO timestamp). */
  activeAt?: string;
}

function filtered(db: Executor, filter: DeployTokenFilter) {
  let query = db.selectFrom('deploy_tokens');
  const { holder } = filter;
  if (holder !== 'all') {
    query =
      'projectId' in holder
        ? query.where('project_id', '=', holder.projectId)
        : query.where('group_id', '=', holder.groupId);
  }
  if (filter.activeAt !== undefined) {
    const at = filter.activeAt;
    query = query
      .where('revoked', '=', 0)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>=', at)]));
  }
  return query;
}

export async function countDeployTokens(db: Executor, filter: DeployTokenFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of tokens, oldest first (the holder's index walks them in id order). */
export function listDeployTokens(
  db: Executor,
  filter: DeployTokenFilter,
  page: { offset: number; limit: number },
): Promise<DeployTokenRow[]> {
  return filtered(db, filter).selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute();
}

export function findDeployTokenOf(
  db: Executor,
  holder: DeployTokenHolder,
  id: number,
): Promise<DeployTokenRow | undefined> {
  return filtered(db, { holder }).selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDeployTokenByDigest(db: Executor, digest: string): Promise<DeployTokenRow | undefined> {
  return db.selectFrom('deploy_tokens').selectAll().where('token_digest', '=', digest).executeTakeFirst();
}

export function insertDeployToken(
  db: Executor,
  values: Omit<DeployTokenRow, 'id' | 'revoked'>,
): Promise<DeployTokenRow> {
  return db.insertInto('deploy_tokens').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Removes the holder's token; false when it has none with that id. */
export async function deleteDeployToken(
  db: Executor,
  holder: DeployTokenHolder,
  id: number,
): Promise<boolean> {
  let query = db.deleteFrom('deploy_tokens').where('id', '=', id);
  if (holder !== 'all') {
    query =
      'projectId' in holder
        ? query.where('project_id', '=', holder.projectId)
        : query.where('group_id', '=', holder.groupId);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
