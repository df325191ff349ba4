// Deploy keys as the API shows them (the SSHKey entity). Lists are not paginated: GitLab presented the
// whole association.
import type { Deps } from '../deps.ts';
import {
  allDeployKeys,
  deployKeysOfProject,
  findDeployKeyOfProject,
} from '../db/repositories/deploy-keys.ts';
import { presentSSHKey } from '../presenters/api-v3/key.ts';

export async function projectDeployKeys(deps: Deps, projectId: number) {
  return (await deployKeysOfProject(deps.db.kysely, projectId)).map(presentSSHKey);
}

/** One deploy key enabled on the project; undefined when it is not. */
export async function projectDeployKey(deps: Deps, projectId: number, keyId: number) {
  const key = await findDeployKeyOfProject(deps.db.kysely, projectId, keyId);
  return key && presentSSHKey(key);
}

export async function everyDeployKey(deps: Deps) {
  return (await allDeployKeys(deps.db.kysely)).map(presentSSHKey);
}
