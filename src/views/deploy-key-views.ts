// Deploy keys as the API shows them: the key rows, for v3's SSHKey and v4's DeployKey entities. Lists are
// one query each.
import type { Deps } from '../deps.ts';
import {
  allDeployKeys,
  deployKeysOfProject,
  findDeployKeyOfProject,
} from '../db/repositories/deploy-keys.ts';
import type { KeyRow } from '../db/types.ts';

export function projectDeployKeys(deps: Deps, projectId: number): Promise<KeyRow[]> {
  return deployKeysOfProject(deps.db.kysely, projectId);
}

/** One deploy key enabled on the project; undefined when it is not. */
export function projectDeployKey(deps: Deps, projectId: number, keyId: number): Promise<KeyRow | undefined> {
  return findDeployKeyOfProject(deps.db.kysely, projectId, keyId);
}

export function everyDeployKey(deps: Deps): Promise<KeyRow[]> {
  return allDeployKeys(deps.db.kysely);
}
