// Personal access tokens (migration 080-personal-access-tokens). A request's token is found by the SHA-256
// of its secret, joined to its user, in one prepared statement on the unique digest index (kept by the
// read cache while the database is unchanged, as the private token's lookup is); lists of a user's
// tokens walk the (user_id, id) index.
import { prepared, rowSplitter } from '../prepared.ts';
import { USER_COLUMNS } from './users.ts';
import type { Executor, PersonalAccessTokenRow, UserRow } from '../types.ts';

/** Every column, named (a prepared `select *` would change shape under a later migration). */
const TOKEN_COLUMNS = [
  'id',
  'user_id',
  'name',
  'description',
  'token_digest',
  'scopes',
  'expires_at',
  'revoked',
  'created_at',
  'updated_at',
  'last_used_at',
] as const satisfies ReadonlyArray<keyof PersonalAccessTokenRow>;

export interface TokenWithUser {
  token: PersonalAccessTokenRow;
  user: UserRow;
}

const byDigest = prepared<{ digest: string }>()((db, slot) =>
  db
    .selectFrom('personal_access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(TOKEN_COLUMNS.map((c) => `t.${c} as t_${c}` as const))
    .select(USER_COLUMNS.map((c) => `u.${c} as u_${c}` as const))
    .where('t.token_digest', '=', slot('digest')),
);

const split = rowSplitter({
  token: { prefix: 't_', columns: TOKEN_COLUMNS },
  user: { prefix: 'u_', columns: USER_COLUMNS },
});

/** The token with this digest and its user, whatever the token's state (the caller judges it). */
export async function findTokenWithUserByDigest(
  db: Executor,
  digest: string,
): Promise<TokenWithUser | undefined> {
  const row = await byDigest.first(db, { digest });
  return row ? (split(row) as unknown as TokenWithUser) : undefined;
}

export function findPersonalAccessToken(
  db: Executor,
  id: number,
): Promise<PersonalAccessTokenRow | undefined> {
  return db
    .selectFrom('personal_access_tokens')
    .select(TOKEN_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function insertPersonalAccessToken(
  db: Executor,
  values: Omit<PersonalAccessTokenRow, 'id' | 'revoked' | 'last_used_at'>,
): Promise<PersonalAccessTokenRow> {
  return db
    .insertInto('personal_access_tokens')
    .values(values)
    .returning(TOKEN_COLUMNS)
    .executeTakeFirstOrThrow();
}

export interface TokenFilter {
  /** Only this user's tokens; undefined: everybody's (an administrator's list). */
  userId?: number;
  revoked?: boolean;
  /** active: neither revoked nor expired (expires_at after `today`); inactive: the others. */
  state?: 'active' | 'inactive';
  today: string;
}

function filtered(db: Executor, filter: TokenFilter) {
  let query = db.selectFrom('personal_access_tokens');
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.revoked !== undefined) query = query.where('revoked', '=', filter.revoked ? 1 : 0);
  if (filter.state === 'active') {
    query = query
      .where('revoked', '=', 0)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', filter.today)]));
  } else if (filter.state === 'inactive') {
    query = query.where((eb) =>
      eb.or([
        eb('revoked', '=', 1),
        eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', filter.today)]),
      ]),
    );
  }
  return query;
}

export async function countPersonalAccessTokens(db: Executor, filter: TokenFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of tokens, newest first. */
export function listPersonalAccessTokens(
  db: Executor,
  filter: TokenFilter,
  page: { offset: number; limit: number },
): Promise<PersonalAccessTokenRow[]> {
  return filtered(db, filter)
    .select(TOKEN_COLUMNS)
    .orderBy('id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/** Revokes the token; false when it was not there. */
export async function revokePersonalAccessToken(db: Executor, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('personal_access_tokens')
    .set({ revoked: 1, updated_at: at })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Stamps last_used_at unless another request (of any process) stamped it at or after `staleBefore`
 * already: one write per token per interval, however many processes see it at once.
 */
export async function touchPersonalAccessToken(
  db: Executor,
  id: number,
  at: string,
  staleBefore: string,
): Promise<void> {
  await db
    .updateTable('personal_access_tokens')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}
