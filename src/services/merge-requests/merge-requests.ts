// Merge requests (GitLab 8.13's MergeRequests::{Create,Update,Close,Reopen}Service and the API's
// checks). Each change is one transaction that also records its event and queues its hooks. The source
// head lives in the target repository (a fork's branch is fetched to refs/merge-requests/<iid>/head, as
// GitLab did), so merging, listing commits and diffing read one repository.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { findForkLinkTo } from '../../db/repositories/forks.ts';
import {
  findMergeRequest,
  findOpenTwin,
  insertMergeRequest,
  updateMergeRequest,
} from '../../db/repositories/merge-requests.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { readCommits } from '../../git/commits.ts';
import { fetchBranchInto, hasCommit } from '../../git/merges.ts';
import { resolveRefs } from '../../git/refs.ts';
import { compareAndSwapRef } from '../../git/ref-writes.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { BLANK_SHA, EventAction, MERGE_REQUEST } from '../../domain/types.ts';
import type { ProjectAccess } from '../../policies/access.ts';
import {
  canDestroyMergeRequest,
  canUpdateMergeRequest,
  canWriteMergeRequests,
} from '../../policies/merge-requests.ts';
import {
  presentMergeRequestHook,
  type MergeRequestHookAction,
} from '../../presenters/hooks/merge-request-hook-payloads.ts';
import { isWorkInProgress, wiplessTitle } from '../../domain/titles.ts';
import { recordEvent } from '../activity/events.ts';
import { enqueueProjectHooks } from '../hooks/hook-outbox.ts';
import { mailMergeRequestEvent } from '../mail/issuable-mails.ts';
import { mayMergeIntoBranch } from '../push/push-setup.ts';
import { planVersion, recordVersion } from './versions.ts';
import {
  createMergeRequestPipeline,
  planMergeRequestPipeline,
  updateMergeRequestHeadRef,
} from '../ci/merge-request-pipelines.ts';
import {
  addAssignmentTodo,
  checkIssuableTitle,
  findOrCreateLabels,
  noteAssigneeChange,
  noteMilestoneChange,
  noteTaskChanges,
  projectMilestoneOrNone,
  replaceLabels,
} from '../issues/issuable-links.ts';
import { addSystemNoteOn } from '../issues/issue-activity.ts';
import { titleChangeNote } from '../issues/system-note-texts.ts';
import { recordMentions } from '../issues/mentions.ts';
import { STALE_DESCRIPTION } from '../issues/issues.ts';
import { setLabelLinks } from '../../db/repositories/issues.ts';
import { apiError, ApiError, badRequest, conflict, forbidden, grapeError } from '../../errors.ts';
import type { Executor, MergeRequestRow, ProjectRecord, UserRow } from '../../db/types.ts';

/** A project as loaded for the caller, with the caller's access. */
export interface AccessibleProject extends ProjectRecord {
  access: ProjectAccess;
}

export function isOpen(mr: MergeRequestRow): boolean {
  return mr.state === 'opened' || mr.state === 'reopened';
}

/** MergeRequest#can_be_merged_by?: the user may push (or merge) to the target branch. */
export async function canBeMergedBy(
  deps: Deps,
  viewer: UserRow,
  target: AccessibleProject,
  mr: MergeRequestRow,
): Promise<boolean> {
  return (
    target.access.canRead && (await mayMergeIntoBranch(deps, { ...target, user: viewer }, mr.target_branch))
  );
}

/** The merge request `id` of `target`, or undefined. */
export async function findMergeRequestOf(deps: Deps, target: ProjectRecord, id: number | undefined) {
  return id === undefined ? undefined : await findMergeRequest(deps.db.kysely, target.project.id, id);
}

/** The ref of the target repository that holds the source head of a fork's MR. */
function mergeRequestHeadRef(mr: Pick<MergeRequestRow, 'iid'>): string {
  return `refs/merge-requests/${mr.iid}/head`;
}

/**
 * The source branch's head as the target repository has it (fetched from a fork first), or undefined
 * when the source branch or its project is gone.
 */
async function sourceHeadInTarget(
  deps: Deps,
  target: ProjectRecord,
  mr: Pick<MergeRequestRow, 'iid' | 'source_project_id' | 'target_project_id' | 'source_branch'>,
): Promise<string | undefined> {
  const targetRepo = projectRepositoryPath(deps.config.dataDir, target);
  if (mr.source_project_id === mr.target_project_id) {
    const ref = `refs/heads/${mr.source_branch}`;
    return (await resolveRefs(targetRepo, [ref])).get(ref);
  }
  if (mr.source_project_id === null) return undefined;
  const source = await findProjectRecordById(deps.db.kysely, mr.source_project_id);
  if (!source) return undefined;
  return fetchBranchInto(
    targetRepo,
    projectRepositoryPath(deps.config.dataDir, source),
    mr.source_branch,
    mergeRequestHeadRef(mr),
  );
}

/** Makes sure the MR's recorded head is in the target repository (fetching a fork's branch if not). */
export async function ensureHeadInTarget(
  deps: Deps,
  target: ProjectRecord,
  mr: MergeRequestRow,
): Promise<boolean> {
  if (!mr.head_sha) return false;
  const targetRepo = projectRepositoryPath(deps.config.dataDir, target);
  if (await hasCommit(targetRepo, mr.head_sha)) return true;
  await sourceHeadInTarget(deps, target, mr);
  return hasCommit(targetRepo, mr.head_sha);
}

export interface HookContext {
  action: MergeRequestHookAction;
  user: UserRow;
  oldrev?: string;
}

/** What a hook of this MR needs, read before the transaction (git and the source project). */
export async function hookParts(
  deps: Deps,
  target: ProjectRecord,
  mr: Pick<MergeRequestRow, 'source_project_id' | 'assignee_id' | 'head_sha'>,
) {
  const db = deps.db.kysely;
  const [source, assignee] = await Promise.all([
    mr.source_project_id === null
      ? undefined
      : mr.source_project_id === target.project.id
        ? target
        : findProjectRecordById(db, mr.source_project_id),
    mr.assignee_id === null ? undefined : findUserById(db, mr.assignee_id),
  ]);
  let lastCommit;
  const repoPath = projectRepositoryPath(deps.config.dataDir, target);
  if (mr.head_sha && (await hasCommit(repoPath, mr.head_sha))) {
    lastCommit = (await readCommits(repoPath, [mr.head_sha])).get(mr.head_sha);
  }
  return { source, assignee, lastCommit };
}

type HookParts = Awaited<ReturnType<typeof hookParts>>;

/** Queues the MR's hook (merge_requests_events) in the caller's transaction. */
export async function announceMergeRequest(
  deps: Deps,
  trx: Executor,
  target: ProjectRecord,
  mr: MergeRequestRow,
  parts: HookParts,
  context: HookContext,
): Promise<void> {
  const payload = presentMergeRequestHook(
    { mr, target, ...parts, user: context.user, action: context.action, oldrev: context.oldrev },
    deps.config.externalUrl,
    deps.config.ssh.cloneUrlBase,
  );
  await enqueueProjectHooks(trx, target.project.id, 'merge_requests_events', payload);
  if (context.action !== 'update') await mailMergeRequestEvent(trx, deps, context.user, mr, context.action);
}

async function recordMergeRequestEvent(
  trx: Executor,
  mr: MergeRequestRow,
  authorId: number,
  action: EventAction,
  at: string,
): Promise<void> {
  await recordEvent(trx, {
    projectId: mr.target_project_id,
    authorId,
    action,
    targetId: mr.id,
    targetType: 'MergeRequest',
    title: mr.title,
    at,
  });
}

const SAME_BRANCH = 'You can not use same project/branch for source and target';

function alreadyExists(twin: MergeRequestRow): ApiError {
  return conflict([
    `Cannot Create: This merge request already exists: ${JSON.stringify([twin.title])}`,
  ] as never);
}

async function validAssignee(deps: Deps, assigneeId: number | null | undefined): Promise<number | null> {
  if (assigneeId === undefined || assigneeId === null) return null;
  return (await findUserById(deps.db.kysely, assigneeId)) ? assigneeId : null;
}

/** What only those who may administer the target's MRs set (8.13's filter_params); others' is dropped. */
export interface MergeRequestLinks {
  /** null removes the assignee; undefined leaves it. */
  assignee_id?: number | null;
  /** A milestone of the target project; another id counts as none, as 8.13 had it. */
  milestone_id?: number | null;
  /** The whole set of label titles, created in the target project when missing; [] removes every label. */
  labels?: string[];
}

export interface NewMergeRequestParams extends MergeRequestLinks {
  source_branch?: string;
  target_branch?: string;
  title?: string;
  description?: string;
  /** v4's squash: merge as one commit. */
  squash?: boolean;
}

/** IssuableBaseService#filter_params with admin_merge_request on the target project (developer+). */
function filterLinks<T extends MergeRequestLinks>(target: AccessibleProject, params: T): T {
  if (canWriteMergeRequests(target.access, target)) return params;
  const { assignee_id: _assignee, milestone_id: _milestone, labels: _labels, ...rest } = params;
  return rest as T;
}

/** The MR as its system notes name it. */
export function mergeRequestNoteTarget(mr: MergeRequestRow) {
  return { type: MERGE_REQUEST, id: mr.id, projectId: mr.target_project_id } as const;
}

/**
 * POST …/merge_requests on the source project (`source`); `target` is the same project or the project
 * it was forked from. 8.13's checks in 8.13's order.
 */
export async function createMergeRequest(
  deps: Deps,
  viewer: UserRow,
  source: AccessibleProject,
  target: AccessibleProject,
  rawParams: NewMergeRequestParams,
): Promise<MergeRequestRow> {
  const params = filterLinks(target, rawParams);
  for (const name of ['source_branch', 'target_branch', 'title'] as const) {
    if (params[name] === undefined || params[name]!.trim() === '') throw badRequest(name);
  }
  if (!canWriteMergeRequests(source.access, source)) throw forbidden();
  const sourceBranch = params.source_branch!;
  const targetBranch = params.target_branch!;
  if (source.project.id !== target.project.id) {
    const link = await findForkLinkTo(deps.db.kysely, source.project.id);
    if (link?.forked_from_project_id !== target.project.id) {
      throw grapeError(422, ['Source project is not a fork of the target project']);
    }
  } else if (sourceBranch === targetBranch) {
    throw grapeError(422, [SAME_BRANCH]);
  }
  const shape = {
    source_project_id: source.project.id,
    source_branch: sourceBranch,
    target_project_id: target.project.id,
    target_branch: targetBranch,
  };
  const twin = await findOpenTwin(deps.db.kysely, shape, null);
  if (twin) throw alreadyExists(twin);
  checkIssuableTitle(params.title!.trim());
  const assigneeId = await validAssignee(deps, params.assignee_id);
  const milestoneId =
    (await projectMilestoneOrNone(deps.db.kysely, target.project.id, params.milestone_id)) ?? null;
  const fetched = await fetchSourceHead(deps, source, target, sourceBranch);
  // What the `open` hook needs is read first, so the MR, its event and its hook are one transaction.
  const parts = await hookParts(deps, target, {
    source_project_id: source.project.id,
    assignee_id: assigneeId,
    head_sha: fetched.head,
  });
  const version = fetched.head ? await planVersion(deps, target, targetBranch, fetched.head) : null;
  const pipeline = await planMergeRequestPipeline(
    deps,
    target,
    {
      ...shape,
      title: params.title!.trim(),
      milestone_id: milestoneId,
      assignee_id: assigneeId,
      labels: params.labels ?? [],
    },
    fetched.head,
    viewer,
  );
  const at = now();
  let mr: MergeRequestRow | undefined;
  for (let attempt = 0; !mr; attempt++) {
    try {
      mr = await deps.db.kysely.transaction().execute(async (trx) => {
        const row = await insertMergeRequest(trx, {
          ...shape,
          author_id: viewer.id,
          assignee_id: assigneeId,
          milestone_id: milestoneId,
          title: params.title!.trim(),
          description: params.description ?? null,
          state: 'opened',
          merge_status: 'unchecked',
          head_sha: fetched.head,
          ...(params.squash ? { squash: 1 as const } : {}),
          created_at: at,
          updated_at: at,
        });
        if (version) await recordVersion(trx, row.id, version, at);
        const labels = await findOrCreateLabels(trx, target.project.id, params.labels ?? [], at);
        await setLabelLinks(
          trx,
          MERGE_REQUEST,
          row.id,
          labels.map((label) => label.id),
          at,
        );
        await recordMergeRequestEvent(trx, row, viewer.id, EventAction.Created, at);
        await addAssignmentTodo(trx, mergeRequestNoteTarget(row), row.assignee_id, viewer, at);
        await recordMentions(trx, deps, {
          author: viewer,
          record: target,
          mentioner: { kind: 'merge_request', row },
          texts: [row.title, row.description],
          crossReference: true,
          todos: { target: row, targetType: MERGE_REQUEST, noteId: null },
          at,
        });
        await announceMergeRequest(deps, trx, target, row, parts, { action: 'open', user: viewer });
        if (pipeline)
          await createMergeRequestPipeline(trx, deps.config, target, viewer.id, pipeline, row, at);
        return row;
      });
    } catch (error) {
      // Two creates took the same iid: the unique index refused one; it takes the next.
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
  // GitLab's refs/merge-requests/<iid>/head of a same-project MR, as a fork's below.
  if (fetched.head) await updateMergeRequestHeadRef(deps, target, mr, fetched.head);
  if (fetched.stagingRef) {
    // GitLab's ref for the fork's head, now that the iid is known; the staging name is not needed after.
    const repo = projectRepositoryPath(deps.config.dataDir, target);
    await compareAndSwapRef(repo, mergeRequestHeadRef(mr), BLANK_SHA, fetched.head!);
    await compareAndSwapRef(repo, fetched.stagingRef, fetched.head!, BLANK_SHA);
  }
  return mr;
}

/**
 * The source branch's head for a new MR. A fork's is fetched into the target first, under a ref named by
 * the head (the iid that names GitLab's ref is not known before the insert), so the `open` hook can read
 * its last commit in the target and be queued in the insert's own transaction. A crash after the fetch
 * leaves only that ref, which the next create of the same head reuses.
 */
async function fetchSourceHead(
  deps: Deps,
  source: ProjectRecord,
  target: ProjectRecord,
  branch: string,
): Promise<{ head: string | null; stagingRef?: string }> {
  const ref = `refs/heads/${branch}`;
  const head =
    (await resolveRefs(projectRepositoryPath(deps.config.dataDir, source), [ref])).get(ref) ?? null;
  if (head === null || source.project.id === target.project.id) return { head };
  const stagingRef = `refs/merge-requests/fetched/${head}`;
  const fetched = await fetchBranchInto(
    projectRepositoryPath(deps.config.dataDir, target),
    projectRepositoryPath(deps.config.dataDir, source),
    branch,
    stagingRef,
  );
  return fetched ? { head: fetched, stagingRef } : { head };
}

export interface MergeRequestEdit extends MergeRequestLinks {
  title?: string;
  description?: string;
  target_branch?: string;
  state_event?: 'close' | 'reopen' | 'merge';
  source_branch?: string;
  /** The description's version the change was made from: another one is refused (409). */
  ifUpdatedAt?: string;
  /** v4's squash: merge as one commit. */
  squash?: boolean;
  /** A task box ticked: no mention todos (TodoService#toggling_tasks?). */
  togglingTasks?: boolean;
}

/** PUT …/merge_requests/:id: the edit, then close/reopen, then the `update` hook (always, as 8.13). */
export async function updateMergeRequestFields(
  deps: Deps,
  viewer: UserRow,
  target: AccessibleProject,
  mr: MergeRequestRow,
  rawEdit: MergeRequestEdit,
): Promise<MergeRequestRow> {
  if (!canUpdateMergeRequest(target.access, target, viewer, mr)) throw forbidden();
  const edit = filterLinks(target, rawEdit);
  if (edit.source_branch !== undefined) throw apiError(400, 'Source branch cannot be changed');
  const changes: Partial<MergeRequestRow> = {};
  if (edit.title !== undefined && edit.title.trim() !== '') changes.title = edit.title.trim();
  if (edit.description !== undefined && edit.description !== '') changes.description = edit.description;
  if (edit.assignee_id !== undefined) changes.assignee_id = await validAssignee(deps, edit.assignee_id);
  if (edit.squash !== undefined) changes.squash = edit.squash ? 1 : 0;
  const milestoneId = await projectMilestoneOrNone(deps.db.kysely, target.project.id, edit.milestone_id);
  if (milestoneId !== undefined) changes.milestone_id = milestoneId;
  if (
    edit.target_branch !== undefined &&
    edit.target_branch !== '' &&
    edit.target_branch !== mr.target_branch
  ) {
    if (mr.source_project_id === mr.target_project_id && edit.target_branch === mr.source_branch) {
      throw grapeError(422, [SAME_BRANCH]);
    }
    const twin = await findOpenTwin(deps.db.kysely, { ...mr, target_branch: edit.target_branch }, mr.id);
    if (twin && isOpen(mr)) throw alreadyExists(twin);
    changes.target_branch = edit.target_branch;
    changes.merge_status = 'unchecked';
  }
  // After the branch checks: 8.13 answered a 422 or 409 before the validation hash.
  checkIssuableTitle(changes.title);
  let transition: { to: MergeRequestRow['state']; event: EventAction } | null = null;
  if (edit.state_event === 'close' && isOpen(mr)) {
    transition = { to: 'closed', event: EventAction.Closed };
  } else if (edit.state_event === 'reopen' && mr.state === 'closed') {
    // reopenable?: the source branch (and a fork's project) must still be there.
    const head = await sourceHeadInTarget(deps, target, mr);
    if (head) {
      transition = { to: 'reopened', event: EventAction.Reopened };
      changes.head_sha = head;
      changes.merge_status = 'unchecked';
    }
  }
  const at = now();
  const parts = await hookParts(deps, target, { ...mr, ...changes });
  const updated = await deps.db.kysely.transaction().execute(async (trx) => {
    // Compare-and-swap on the state: a racing close, reopen or merge wins and this edit answers 409.
    const row = await updateMergeRequest(
      trx,
      mr.id,
      {
        ...changes,
        ...(transition ? { state: transition.to } : {}),
        updated_by_id: viewer.id,
        updated_at: at,
      },
      edit.ifUpdatedAt === undefined
        ? { state: mr.state }
        : { state: mr.state, updated_at: edit.ifUpdatedAt },
    );
    if (!row) return undefined;
    // 8.13's order: the state change, then title, tasks and labels, then target branch, milestone, assignee.
    const noteTarget = mergeRequestNoteTarget(row);
    if (transition) await noteStatusChange(trx, row, viewer, at);
    if (row.title !== mr.title) await noteTitleChange(trx, row, viewer, mr.title, at);
    await noteTaskChanges(trx, noteTarget, viewer, mr.description, row.description, at);
    if (edit.labels !== undefined) await replaceLabels(trx, noteTarget, viewer, edit.labels, at);
    if (row.target_branch !== mr.target_branch) {
      const body = `Target branch changed from \`${mr.target_branch}\` to \`${row.target_branch}\``;
      await addSystemNoteOn(trx, noteTarget, viewer, body, at);
    }
    if (row.milestone_id !== mr.milestone_id)
      await noteMilestoneChange(trx, noteTarget, viewer, row.milestone_id, at);
    if (row.assignee_id !== mr.assignee_id) {
      await noteAssigneeChange(trx, noteTarget, viewer, row.assignee_id, at);
      await addAssignmentTodo(trx, noteTarget, row.assignee_id, viewer, at);
      await mailMergeRequestEvent(trx, deps, viewer, row, 'reassign', mr.assignee_id);
    }
    if (transition) {
      await recordMergeRequestEvent(trx, row, viewer.id, transition.event, at);
      await announceMergeRequest(deps, trx, target, row, parts, {
        action: transition.to === 'closed' ? 'close' : 'reopen',
        user: viewer,
      });
    }
    if (row.title !== mr.title || row.description !== mr.description) {
      await recordMentions(trx, deps, {
        author: viewer,
        record: target,
        mentioner: { kind: 'merge_request', row },
        texts: [row.title, row.description],
        crossReference: true,
        todos: edit.togglingTasks ? undefined : { target: row, targetType: MERGE_REQUEST, noteId: null },
        at,
      });
    }
    await announceMergeRequest(deps, trx, target, row, parts, { action: 'update', user: viewer });
    return row;
  });
  if (!updated) throw conflict(edit.ifUpdatedAt === undefined ? undefined : STALE_DESCRIPTION);
  return updated;
}

/** MergeRequests::BaseService#create_note: `Status changed to closed` (reopened, merged). */
export async function noteStatusChange(
  trx: Executor,
  mr: MergeRequestRow,
  actor: UserRow,
  at: string,
): Promise<void> {
  await addSystemNoteOn(trx, mergeRequestNoteTarget(mr), actor, `Status changed to ${mr.state}`, at);
}

/**
 * MergeRequests::BaseService#create_title_change_note: adding or removing a WIP prefix has its own note,
 * and the title note follows only when the title without its prefix changed too.
 */
async function noteTitleChange(
  trx: Executor,
  mr: MergeRequestRow,
  actor: UserRow,
  oldTitle: string,
  at: string,
): Promise<void> {
  const target = mergeRequestNoteTarget(mr);
  const wasWip = isWorkInProgress(oldTitle);
  const isWip = isWorkInProgress(mr.title);
  if (wasWip && !isWip)
    await addSystemNoteOn(trx, target, actor, 'Unmarked this merge request as a Work In Progress', at);
  if (!wasWip && isWip)
    await addSystemNoteOn(trx, target, actor, 'Marked this merge request as a **Work In Progress**', at);
  if (wiplessTitle(oldTitle) !== wiplessTitle(mr.title))
    await addSystemNoteOn(trx, target, actor, titleChangeNote(oldTitle, mr.title), at);
}

/** DELETE …/merge_requests/:id: owners and administrators; a soft delete (the iid is never reused). */
export async function deleteMergeRequest(
  deps: Deps,
  target: AccessibleProject,
  mr: MergeRequestRow | undefined,
): Promise<MergeRequestRow> {
  if (!mr || !canDestroyMergeRequest(target.access)) throw forbidden();
  const at = now();
  const deleted = await updateMergeRequest(deps.db.kysely, mr.id, { deleted_at: at, updated_at: at });
  if (!deleted) throw forbidden();
  return deleted;
}
