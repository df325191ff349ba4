// Build triggers: masters create and delete them; a call with a trigger's token runs a pipeline for a
// branch or tag, as GitLab 8.13's CreateTriggerRequestService did. The pipeline's builds carry the trigger
// request, so their jobs get CI_BUILD_TRIGGERED and the call's variables, and `only/except: triggers`
// chooses its jobs. `[ci skip]` does not stop a triggered pipeline.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { apiError } from '../../errors.ts';
import { hexToken } from '../../lib/tokens.ts';
import { isRefShortName } from '../../git/ref-names.ts';
import { peelTag, resolveRefs } from '../../git/refs.ts';
import { projectRepositoryPath, repositoryExists } from '../../git/repository.ts';
import {
  insertTrigger,
  insertTriggerRequest,
  setTriggerRequestPipeline,
  softDeleteTrigger,
  updateTrigger,
} from '../../db/repositories/triggers.ts';
import { CI_FILE_MAX_BYTES, createPipeline, planPipeline, type PipelinePlan } from './pipelines.ts';
import { projectOpener } from './include-projects.ts';
import type { CiTriggerRequestRow, CiTriggerRow, ProjectRecord } from '../../db/types.ts';
import { BLANK_SHA } from '../../domain/types.ts';

/** A new trigger; v4 names its owner (the caller) and what it is for. */
export async function createTrigger(
  deps: Deps,
  projectId: number,
  owned?: { ownerId: number; description: string },
): Promise<CiTriggerRow> {
  const at = now();
  return insertTrigger(deps.db.kysely, {
    project_id: projectId,
    token: hexToken(),
    ...(owned ? { owner_id: owned.ownerId, description: owned.description } : {}),
    deleted_at: null,
    created_at: at,
    updated_at: at,
  });
}

/** Marks the trigger deleted (it stops working); undefined when a concurrent delete was first. */
export function deleteTrigger(deps: Deps, trigger: CiTriggerRow): Promise<CiTriggerRow | undefined> {
  return softDeleteTrigger(deps.db.kysely, trigger.id, now());
}

/** v4's PUT (a new description) and take_ownership (the caller becomes the owner). */
export function changeTrigger(
  deps: Deps,
  trigger: CiTriggerRow,
  changes: { description?: string; owner_id?: number },
): Promise<CiTriggerRow> {
  return updateTrigger(deps.db.kysely, trigger.id, { ...changes, updated_at: now() });
}

/** Gitlab::Git.ref_name: a full ref name given for a branch or tag is taken as its short name. */
function shortRefName(ref: string): string {
  for (const prefix of ['refs/heads/', 'refs/tags/'])
    if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  return ref;
}

/** The branch (preferred) or tag `ref` names and its commit; undefined when it is neither. */
export async function resolveTriggerRef(
  repoPath: string,
  ref: string,
): Promise<{ ref: string; tag: boolean; sha: string } | undefined> {
  const name = shortRefName(ref);
  if (!isRefShortName(name) || !(await repositoryExists(repoPath))) return undefined;
  const branchRef = `refs/heads/${name}`;
  const tagRef = `refs/tags/${name}`;
  const found = await resolveRefs(repoPath, [branchRef, tagRef]);
  const branchSha = found.get(branchRef);
  if (branchSha) return { ref: name, tag: false, sha: branchSha };
  if (!found.has(tagRef)) return undefined;
  const sha = await peelTag(repoPath, tagRef);
  return sha ? { ref: name, tag: true, sha } : undefined;
}

/**
 * Runs a pipeline for `ref` on behalf of the trigger. The request row, the pipeline and its builds are
 * written in one transaction, or nothing is: an unknown ref, a commit without .gitlab-ci.yml, builds
 * turned off or no job for the ref answer 400 `No builds created`, as 8.13 did.
 */
export async function triggerBuilds(
  deps: Deps,
  record: ProjectRecord,
  trigger: CiTriggerRow,
  ref: string,
  variables: Record<string, string> | undefined,
): Promise<CiTriggerRequestRow> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const target = await resolveTriggerRef(repoPath, ref);
  let plan: PipelinePlan | undefined;
  if (target) {
    plan = await planPipeline({
      repoPath,
      record,
      ...target,
      beforeSha: BLANK_SHA,
      triggered: true,
      variables: Object.entries(variables ?? {}),
      // v4's triggers run as their owner; an 8.13 trigger has none and reads only public projects.
      openProject: projectOpener(deps, { userId: trigger.owner_id }, CI_FILE_MAX_BYTES),
    });
  }
  if (!plan) throw apiError(400, 'No builds created');
  const planned = plan;
  const at = now();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const request = await insertTriggerRequest(trx, {
      trigger_id: trigger.id,
      pipeline_id: null,
      variables: variables === undefined ? null : JSON.stringify(variables),
      created_at: at,
      updated_at: at,
    });
    const pipeline = await createPipeline(
      trx,
      deps.config,
      record,
      // v4's triggers run their pipelines as their owner.
      trigger.owner_id,
      { ...planned, triggerRequestId: request.id },
      at,
    );
    await setTriggerRequestPipeline(trx, request.id, pipeline.id);
    return { ...request, pipeline_id: pipeline.id };
  });
}
