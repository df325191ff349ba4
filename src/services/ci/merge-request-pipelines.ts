// Merge request pipelines (source `merge_request_event`), as GitLab makes them for an MR whose source
// branch is in the target project: opening the MR and every push to its source branch plan one for the
// source head, and it exists when the file's rules (or `only: [merge_requests]`) choose a job for it. It
// is written in the transaction that records the MR or the push. Its ref is refs/merge-requests/<iid>/head,
// which Labrador keeps pointing at the source head, as GitLab does. A fork's MR gets none here.
import type { CiSettings } from './ci-announcements.ts';
import type { Deps } from '../../deps.ts';
import { mergeRequestVariables, type MergeRequestVariablesInput } from '../../ci/variables.ts';
import { findProjectMilestone } from '../../db/repositories/milestones.ts';
import { listProtectedBranches } from '../../db/repositories/protected-branches.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { labelTitlesByTarget } from '../../db/repositories/issues.ts';
import { mergeBase } from '../../git/diffs.ts';
import { resolveRefs } from '../../git/refs.ts';
import { compareAndSwapRef } from '../../git/ref-writes.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { isWorkInProgress } from '../../domain/titles.ts';
import { projectFullPath, projectUrls } from '../../domain/paths.ts';
import { BLANK_SHA, MERGE_REQUEST } from '../../domain/types.ts';
import { branchProtection } from '../../policies/protected-branches.ts';
import {
  CI_FILE_MAX_BYTES,
  createPreparedPipeline,
  preparePipeline,
  type PreparedPipeline,
} from './pipelines.ts';
import { projectOpener } from './include-projects.ts';
import type { CiPipelineRow, Executor, MergeRequestRow, ProjectRecord, UserRow } from '../../db/types.ts';

/** What a merge request pipeline's plan needs of its MR (the id and iid may not exist yet). */
export type PipelineMergeRequest = Pick<
  MergeRequestRow,
  'title' | 'source_branch' | 'target_branch' | 'milestone_id' | 'assignee_id' | 'source_project_id'
> & { labels?: string[]; id?: number };

export interface MergeRequestPipelinePlan {
  prepared: PreparedPipeline;
  variables: Omit<MergeRequestVariablesInput, 'id' | 'iid'>;
}

/**
 * Reads (before the transaction) what a merge request pipeline of `head` needs: the file, the MR's
 * labels, milestone, assignee, the merge base with the target branch. Undefined for a fork's MR or a
 * commit without a usable file; a failure is logged and makes no pipeline (the MR or push goes on).
 */
export async function planMergeRequestPipeline(
  deps: Deps,
  record: ProjectRecord,
  mr: PipelineMergeRequest,
  head: string | null,
  user: UserRow | null,
): Promise<MergeRequestPipelinePlan | undefined> {
  if (!head || mr.source_project_id !== record.project.id) return undefined;
  try {
    const db = deps.db.kysely;
    const repoPath = projectRepositoryPath(deps.config.dataDir, record);
    const targetRef = `refs/heads/${mr.target_branch}`;
    const targetSha = (await resolveRefs(repoPath, [targetRef])).get(targetRef);
    const base = targetSha ? await mergeBase(repoPath, targetSha, head) : undefined;
    const prepared = await preparePipeline({
      repoPath,
      record,
      ref: mr.source_branch,
      tag: false,
      sha: head,
      beforeSha: BLANK_SHA,
      source: 'merge_request_event',
      openProject: projectOpener(deps, user, CI_FILE_MAX_BYTES),
      ...(base ? { changesFrom: base } : {}),
    });
    if (!prepared) return undefined;
    const [milestone, assignee, rules, labels] = await Promise.all([
      mr.milestone_id === null ? undefined : findProjectMilestone(db, record.project.id, mr.milestone_id),
      mr.assignee_id === null ? undefined : findUserById(db, mr.assignee_id),
      listProtectedBranches(db, record.project.id),
      mr.labels ??
        (mr.id === undefined
          ? []
          : labelTitlesByTarget(db, MERGE_REQUEST, [mr.id]).then((map) => map.get(mr.id!) ?? [])),
    ]);
    const { webUrl } = projectUrls(deps.config.externalUrl, record);
    return {
      prepared,
      variables: {
        title: mr.title,
        sourceBranch: mr.source_branch,
        targetBranch: mr.target_branch,
        labels: [...labels].sort(),
        milestone: milestone?.title ?? null,
        assignee: assignee?.username ?? null,
        draft: isWorkInProgress(mr.title),
        diffBaseSha: base ?? null,
        diffId: null,
        targetProtected: branchProtection(rules, mr.target_branch).protected,
        project: { id: record.project.id, path: projectFullPath(record), webUrl },
      },
    };
  } catch (error) {
    deps.log.error({ err: error }, 'reading .gitlab-ci.yml failed; no merge request pipeline');
    return undefined;
  }
}

/** Writes the planned pipeline for the MR (`id`, `iid` known now), in the caller's transaction. */
export function createMergeRequestPipeline(
  trx: Executor,
  settings: CiSettings,
  record: ProjectRecord,
  userId: number | null,
  plan: MergeRequestPipelinePlan,
  mr: Pick<MergeRequestRow, 'id' | 'iid'>,
  at: string,
): Promise<CiPipelineRow | undefined> {
  const variables = mergeRequestVariables({ ...plan.variables, id: mr.id, iid: mr.iid });
  return createPreparedPipeline(
    trx,
    settings,
    record,
    userId,
    plan.prepared,
    { id: mr.id, iid: mr.iid, variables },
    at,
  );
}

/**
 * Points refs/merge-requests/<iid>/head of a same-project MR at its source head (a fork's is fetched
 * there by the MR code). A ref that moved meanwhile is left for the next push.
 */
export async function updateMergeRequestHeadRef(
  deps: Deps,
  record: ProjectRecord,
  mr: Pick<MergeRequestRow, 'iid' | 'source_project_id' | 'target_project_id'>,
  head: string,
): Promise<void> {
  if (mr.source_project_id !== mr.target_project_id) return;
  const repo = projectRepositoryPath(deps.config.dataDir, record);
  const ref = `refs/merge-requests/${mr.iid}/head`;
  const current = (await resolveRefs(repo, [ref])).get(ref) ?? BLANK_SHA;
  if (current !== head) await compareAndSwapRef(repo, ref, current, head);
}
