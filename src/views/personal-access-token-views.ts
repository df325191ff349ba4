// Personal access tokens as the API and the profile page show them: the row with its scopes as a list
// and whether it still works today (a count and a page: two statements for any list).
import type { Deps } from '../deps.ts';
import {
  countPersonalAccessTokens,
  findPersonalAccessToken,
  listPersonalAccessTokens,
  type TokenFilter,
} from '../db/repositories/personal-access-tokens.ts';
import { today } from '../lib/clock.ts';
import { isTokenActive, tokenScopes } from '../policies/access-tokens.ts';
import type { TokenViewModel as TokenView } from '../presenters/api-v4/personal-access-tokens.ts';
import type { PersonalAccessTokenRow } from '../db/types.ts';

export function tokenView(token: PersonalAccessTokenRow): TokenView {
  return { token, scopes: tokenScopes(token), active: isTokenActive(token, today()) };
}

export type TokenListFilter = Omit<TokenFilter, 'today'>;

export function countTokens(deps: Deps, filter: TokenListFilter): Promise<number> {
  return countPersonalAccessTokens(deps.db.kysely, { ...filter, today: today() });
}

export async function tokensPage(
  deps: Deps,
  filter: TokenListFilter,
  page: { offset: number; limit: number },
): Promise<TokenView[]> {
  return (await listPersonalAccessTokens(deps.db.kysely, { ...filter, today: today() }, page)).map(tokenView);
}

export async function findTokenView(deps: Deps, id: number): Promise<TokenView | undefined> {
  const token = await findPersonalAccessToken(deps.db.kysely, id);
  return token && tokenView(token);
}
