// The merges owed to merge_when_build_succeeds (8.13's MergeWorker): each owed row is merged as the user
// who set the flag, with the params they gave, after 8.13's checks (MergeService refused an MR that was no
// longer mergeable, leaving the reason in merge_error and the flag on). The row goes once the MR is merged
// or turned out not to want the merge; a crash before that leaves it for the next look, and a crash inside
// the merge is finished by the recovery of pending pushes (merge.ts), after which the MR is no longer open.
import type { Deps } from '../../deps.ts';
import { deleteAutoMerge, listAutoMerges } from '../../db/repositories/merge-request-auto-merges.ts';
import { findMergeRequestById, updateMergeRequest } from '../../db/repositories/merge-requests.ts';
import { findPipeline } from '../../db/repositories/pipelines.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { projectAccess } from '../../policies/access.ts';
import { ApiError } from '../../errors.ts';
import { isOpen } from './merge-requests.ts';
import { mergeMergeRequest } from './merge.ts';
import type { MergeRequestAutoMergeRow } from '../../db/types.ts';

const BATCH = 20;

/** Performs every merge owed now; answers how many rows it finished. */
export async function performOwedMerges(deps: Deps, stopping: () => boolean = () => false): Promise<number> {
  let done = 0;
  let afterId = 0;
  while (!stopping()) {
    const batch = await listAutoMerges(deps.db.kysely, afterId, BATCH);
    if (batch.length === 0) break;
    for (const row of batch) {
      afterId = row.id;
      try {
        await performOwedMerge(deps, row);
        done++;
      } catch (error) {
        // Left in place: the next look tries again.
        deps.log.error(
          { err: error, mergeRequestId: row.merge_request_id },
          'merge when build succeeds failed',
        );
      }
    }
  }
  return done;
}

async function performOwedMerge(deps: Deps, row: MergeRequestAutoMergeRow): Promise<void> {
  const db = deps.db.kysely;
  const [mr, pipeline] = await Promise.all([
    findMergeRequestById(db, row.merge_request_id),
    findPipeline(db, row.pipeline_id),
  ]);
  const wanted =
    mr &&
    pipeline &&
    mr.deleted_at === null &&
    isOpen(mr) &&
    Number(mr.merge_when_build_succeeds) === 1 &&
    mr.merge_user_id !== null &&
    mr.head_sha === pipeline.sha;
  if (wanted) {
    const [user, target] = await Promise.all([
      findUserById(db, mr.merge_user_id!),
      findProjectRecordById(db, mr.target_project_id),
    ]);
    if (user && target && user.state === 'active') {
      const access = await projectAccess(db, user, target);
      const params = mr.merge_params ? (JSON.parse(mr.merge_params) as Record<string, unknown>) : {};
      try {
        await mergeMergeRequest(deps, user, { ...target, access }, mr, {
          merge_commit_message: typeof params.commit_message === 'string' ? params.commit_message : undefined,
          should_remove_source_branch:
            typeof params.should_remove_source_branch === 'string'
              ? params.should_remove_source_branch
              : undefined,
          // The commit the pipeline tested, and no other.
          sha: pipeline.sha,
        });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // Not mergeable any more (conflict, rights, a newer head): 8.13's log_merge_error.
        await updateMergeRequest(
          db,
          mr.id,
          { merge_error: 'Merge request is not mergeable' },
          { state: mr.state },
        );
      }
    }
  }
  await deleteAutoMerge(db, row);
}
