// Award emoji on issues and their notes (GitLab 8.13's lib/api/award_emoji.rb, Awardable): a known
// emoji name (aliases such as `+1` resolved), once per user and name; authors may not thumb their own
// item up or down; only the award's owner or an administrator removes it (401 otherwise, as 8.13 said).
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { notFound, unauthorized, type ApiError } from '../../errors.ts';
import { deleteAward, insertAward } from '../../db/repositories/award-emoji.ts';
import { isKnownEmoji, normalizeEmojiName } from '../../lib/emoji.ts';
import { ISSUE, MERGE_REQUEST } from '../../domain/types.ts';
import type { AwardEmojiRow, Executor, IssueRow, MergeRequestRow, UserRow } from '../../db/types.ts';

export interface Awardable {
  type: string;
  id: number;
  projectId: number;
  /** null: the author's account is gone. */
  authorId: number | null;
}

export function issueAwardable(issue: IssueRow): Awardable {
  return { type: ISSUE, id: issue.id, projectId: issue.project_id, authorId: issue.author_id };
}

export function mergeRequestAwardable(mr: MergeRequestRow): Awardable {
  return { type: MERGE_REQUEST, id: mr.id, projectId: mr.target_project_id, authorId: mr.author_id };
}

/** Awardable#user_can_award?: the author may not vote on their own item. */
export function mayAward(user: UserRow, awardable: Awardable, name: string): boolean {
  return !(awardable.authorId === user.id && (name === 'thumbsup' || name === 'thumbsdown'));
}

/**
 * The award, in the caller's transaction. A second award of the same emoji by the same user is refused
 * with `duplicate()` (the unique index decides, so two racing awards cannot both land); the route's words
 * differ, the award route's are the default.
 */
export async function awardIn(
  trx: Executor,
  user: UserRow,
  awardable: Awardable,
  name: string,
  at: string,
  duplicate: () => ApiError = () => notFound('Award Emoji {:name=>["has already been taken"]}'),
): Promise<AwardEmojiRow> {
  try {
    return await insertAward(trx, {
      project_id: awardable.projectId,
      user_id: user.id,
      name,
      awardable_type: awardable.type,
      awardable_id: awardable.id,
      created_at: at,
      updated_at: at,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate();
    throw error;
  }
}

/** An award; `selfVotes` (v4, as today's GitLab) lets an author vote on their own item. */
export async function awardEmoji(
  deps: Deps,
  user: UserRow,
  awardable: Awardable,
  rawName: string,
  selfVotes = false,
): Promise<AwardEmojiRow> {
  const name = normalizeEmojiName(rawName);
  if (!selfVotes && !mayAward(user, awardable, name)) throw notFound('Award Emoji');
  if (!isKnownEmoji(name)) throw notFound('Award Emoji {:name=>["is not included in the list"]}');
  // SQLite aborts the transaction on the constraint; PostgreSQL too: one statement, no transaction needed.
  return awardIn(deps.db.kysely, user, awardable, name, now());
}

export async function removeAward(deps: Deps, user: UserRow, award: AwardEmojiRow): Promise<AwardEmojiRow> {
  if (award.user_id !== user.id && user.admin !== 1) throw unauthorized();
  await deleteAward(deps.db.kysely, award.id);
  return award;
}
