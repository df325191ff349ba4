// GitLab's v4 PersonalAccessToken and PersonalAccessTokenWithToken entities (lib/api/entities), in
// their key order; expires_at is the day alone.
import type { PersonalAccessTokenRow } from '../../db/types.ts';

export interface TokenViewModel {
  token: PersonalAccessTokenRow;
  scopes: string[];
  active: boolean;
}

export function presentPersonalAccessToken(view: TokenViewModel) {
  const { token } = view;
  return {
    id: token.id,
    name: token.name,
    revoked: Boolean(token.revoked),
    created_at: token.created_at,
    description: token.description,
    scopes: view.scopes,
    user_id: token.user_id,
    last_used_at: token.last_used_at,
    active: view.active,
    expires_at: token.expires_at,
  };
}

/** The entity at creation: the only answer that holds the secret. */
export function presentPersonalAccessTokenWithToken(view: TokenViewModel, secret: string) {
  return { ...presentPersonalAccessToken(view), token: secret };
}
