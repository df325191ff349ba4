// What the push rules need to decide a push (the pusher's level, archived, protected branches),
// gathered before receive-pack starts, for git over HTTP and SSH alike.
import type { Deps } from '../../deps.ts';
import { listProtectedBranches } from '../../db/repositories/protected-branches.ts';
import { pushAccessLevel } from '../../policies/git-access.ts';
import type { ProjectAccess } from '../../policies/access.ts';
import type { PushRules } from '../../policies/push-rules.ts';
import type { ProjectRecord } from '../../db/types.ts';

export async function pushRulesFor(
  deps: Deps,
  record: ProjectRecord,
  access: ProjectAccess,
): Promise<PushRules> {
  const rules = await listProtectedBranches(deps.db.kysely, record.project.id);
  return {
    accessLevel: pushAccessLevel(access),
    archived: record.project.archived === 1,
    protectedBranches: rules.map((rule) => ({
      name: rule.name,
      developersCanPush: rule.developers_can_push === 1,
    })),
  };
}
