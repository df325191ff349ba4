// v4's DeployToken and DeployTokenWithToken entities.
import type { DeployTokenView } from '../../views/deploy-token-views.ts';

export function presentDeployToken(view: DeployTokenView) {
  return {
    id: view.token.id,
    name: view.token.name,
    username: view.username,
    expires_at: view.token.expires_at,
    scopes: view.scopes,
    revoked: view.token.revoked === 1,
    expired: view.expired,
  };
}

/** The entity a creation answers: the only time the secret is shown. */
export function presentDeployTokenWithToken(view: DeployTokenView, token: string) {
  return { ...presentDeployToken(view), token };
}
