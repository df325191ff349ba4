// Deploy tokens as the API shows them: the row with its sign-in name, its scopes as a list and whether
// it has expired (policies/deploy-tokens.ts decides both).
import type { Deps } from '../deps.ts';
import {
  countDeployTokens,
  findDeployTokenOf,
  listDeployTokens,
  type DeployTokenFilter,
  type DeployTokenHolder,
} from '../db/repositories/deploy-tokens.ts';
import type { DeployTokenRow } from '../db/types.ts';
import { now } from '../lib/clock.ts';
import { deployTokenScopes, deployTokenUsername, isDeployTokenExpired } from '../policies/deploy-tokens.ts';

export interface DeployTokenView {
  token: DeployTokenRow;
  username: string;
  scopes: string[];
  expired: boolean;
}

export function deployTokenView(token: DeployTokenRow): DeployTokenView {
  return {
    token,
    username: deployTokenUsername(token),
    scopes: deployTokenScopes(token),
    expired: isDeployTokenExpired(token, now()),
  };
}

/** A holder's (or every) token list: its count and a page reader, for paginate. */
export function deployTokenList(deps: Deps, holder: DeployTokenHolder, active: boolean) {
  const filter: DeployTokenFilter = { holder, activeAt: active ? now() : undefined };
  return {
    count: () => countDeployTokens(deps.db.kysely, filter),
    page: async (page: { offset: number; limit: number }) =>
      (await listDeployTokens(deps.db.kysely, filter, page)).map(deployTokenView),
  };
}

export async function findDeployTokenView(
  deps: Deps,
  holder: DeployTokenHolder,
  id: number,
): Promise<DeployTokenView | undefined> {
  const token = await findDeployTokenOf(deps.db.kysely, holder, id);
  return token && deployTokenView(token);
}
