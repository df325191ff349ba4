// Push processing, in two steps. A push is recorded as 'pending' before receive-pack can move a ref.
// Once receive-pack has reported (or ended), settlePush records which refs really moved (from its
// report, else from the refs) and does the branch bookkeeping a next push depends on (the first push
// chooses the default branch, which becomes protected), before `git push` gets its answer. processPush then records the events, hook deliveries and pipelines and
// marks the push processed in ONE transaction; for git pushes that runs after the answer (PushQueue).
// A crash anywhere leaves a pending row that the next start-up processes (recoverPendingPushes),
// settled or not.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import {
  claimDefaultBranch,
  findDefaultBranch,
  findProjectRecordById,
} from '../../db/repositories/projects.ts';
import {
  findPush,
  insertPendingPush,
  listPendingPushes,
  markPushProcessed,
  markPushSettled,
} from '../../db/repositories/pushes.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { changedFiles, commitsBetween, readCommits } from '../../git/commits.ts';
import type { RefUpdate } from '../../git/protocol/pkt-line.ts';
import { peelTag, resolveRefs, setHead, tagMessage } from '../../git/refs.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { recordEvent } from '../activity/events.ts';
import { closeIssuesFromPush, planIssueClosing, type ClosingCommit } from './issue-closing.ts';
import { crossReferenceCommits } from './commit-references.ts';
import { EventAction, BLANK_SHA } from '../../domain/types.ts';
import {
  presentPushPayload,
  systemPushPayload,
  type PushPayload,
} from '../../presenters/hooks/push-payload.ts';
import { enqueueProjectHooks, enqueueSystemHooks } from '../hooks/hook-outbox.ts';
import { createsDefaultBranch, protectCreatedDefaultBranch } from './default-branch-protection.ts';
import { CI_FILE_MAX_BYTES, createPipeline, planPipeline, type PipelinePlan } from '../ci/pipelines.ts';
import { projectOpener } from '../ci/include-projects.ts';
import {
  createMergeRequestPipeline,
  planMergeRequestPipeline,
  type MergeRequestPipelinePlan,
} from '../ci/merge-request-pipelines.ts';
import { findOpenFromSourceBranch } from '../../db/repositories/merge-requests.ts';
import { projectFullPath } from '../../domain/paths.ts';
import {
  applyMergeRequestRefresh,
  planMergeRequestRefresh,
  type MergeRequestRefresh,
} from '../merge-requests/push-refresh.ts';
import type { Executor, MergeRequestRow, ProjectRecord, PushRow, UserRow } from '../../db/types.ts';

export async function recordPendingPush(
  deps: Deps,
  projectId: number,
  userId: number,
  changes: RefUpdate[],
  /** GitLab's `ci.skip` push option: no pipelines. */
  ciSkip = false,
): Promise<number> {
  return insertPendingPush(deps.db.kysely, {
    project_id: projectId,
    user_id: userId,
    changes: JSON.stringify(changes.map(({ before, after, ref }) => ({ before, after, ref }))),
    created_at: now(),
    ...(ciSkip ? { ci_skip: 1 as const } : {}),
  });
}

/** GitLab sent at most this many commits (the newest ones, oldest first) with a push. */
const PUSH_COMMITS_LIMIT = 20;

const BRANCH_PREFIX = 'refs/heads/';
const TAG_PREFIX = 'refs/tags/';

/** The updates of a push that really happened: each ref now holds the pushed value (or is gone). */
async function appliedChanges(repoPath: string, changes: RefUpdate[]): Promise<RefUpdate[]> {
  const current = await resolveRefs(
    repoPath,
    changes.map((change) => change.ref),
  );
  return changes.filter((change) =>
    change.after === BLANK_SHA ? !current.has(change.ref) : current.get(change.ref) === change.after,
  );
}

/** The default branch a first push chooses: `master` if pushed, else the first branch pushed. */
function firstPushDefaultBranch(applied: RefUpdate[]): string | null {
  const pushed = applied
    .filter((change) => change.ref.startsWith(BRANCH_PREFIX) && change.after !== BLANK_SHA)
    .map((change) => change.ref.slice(BRANCH_PREFIX.length));
  if (pushed.length === 0) return null;
  return pushed.includes('master') ? 'master' : pushed[0]!;
}

/** GitPushService / GitTagPushService: which commits a ref update brought, and its payload. */
async function pushPayloadFor(
  deps: Deps,
  repoPath: string,
  record: ProjectRecord,
  user: UserRow,
  change: RefUpdate,
  defaultBranch: string | null,
  isFirstDefaultPush: boolean,
): Promise<PushPayload> {
  const { before, after, ref } = change;
  let commits: Awaited<ReturnType<typeof commitsBetween>> = { total: 0, commits: [] };
  let checkoutSha: string | null = null;
  let message: string | null = null;
  if (ref.startsWith(TAG_PREFIX)) {
    if (after !== BLANK_SHA) {
      checkoutSha = (await peelTag(repoPath, ref)) ?? null;
      message = await tagMessage(repoPath, after);
      // The single tagged commit (GitTagPushService).
      if (checkoutSha) {
        const tagged = (await readCommits(repoPath, [checkoutSha])).get(checkoutSha);
        if (tagged) commits = { total: 1, commits: [tagged] };
      }
    }
  } else if (after !== BLANK_SHA) {
    checkoutSha = after;
    if (before !== BLANK_SHA) {
      commits = await commitsBetween(repoPath, before, after, PUSH_COMMITS_LIMIT);
    } else if (isFirstDefaultPush || !defaultBranch) {
      // First push of the default branch: its whole history counts as pushed.
      commits = await commitsBetween(repoPath, null, after, PUSH_COMMITS_LIMIT);
    } else {
      // A new branch: the commits the default branch does not have.
      commits = await commitsBetween(repoPath, `${BRANCH_PREFIX}${defaultBranch}`, after, PUSH_COMMITS_LIMIT);
    }
  }
  const files = await changedFiles(repoPath, commits.commits);
  return presentPushPayload({
    baseUrl: deps.config.externalUrl,
    sshBase: deps.config.ssh.cloneUrlBase,
    record,
    user,
    before,
    after,
    ref,
    checkoutSha,
    message,
    commits: commits.commits,
    files,
    totalCommitsCount: commits.total,
  });
}

export interface ProcessedPush {
  push: PushRow;
  record: ProjectRecord;
  user: UserRow | null;
  applied: RefUpdate[];
  payloads: PushPayload[];
}

export interface ProcessOptions {
  /**
   * Recovery at start-up: a push whose refs have not moved may still be running in another process,
   * so it stays pending until it is this old (ms).
   */
  leaveUnmovedYoungerThanMs?: number;
}

/** What settlePush found: the updates that happened, and the default branch this push chose. */
interface Settlement {
  applied: RefUpdate[];
  chosenDefaultBranch: string | null;
}

/** A pending row's applied_changes: null before settlePush, then its Settlement as JSON. */
function readSettlement(push: PushRow): Settlement | null {
  return push.applied_changes === null ? null : (JSON.parse(push.applied_changes) as Settlement);
}

class AlreadySettled extends Error {}

/**
 * Settles a pending push (once), given the updates that happened: HEAD and default_branch for a first
 * push, and the protection of a created default branch, in one transaction. `record` may have been read
 * before the push: the default branch is claimed and read inside the transaction, when the push may have
 * chosen or created it (judged by the one `record` names: a rename racing the push is not chased, as
 * GitLab's own push service did not). Null when the push was settled elsewhere first.
 */
async function settleApplied(
  deps: Deps,
  pushId: number,
  record: ProjectRecord,
  applied: RefUpdate[],
): Promise<Settlement | null> {
  const projectId = record.project.id;
  // A project that had a default branch keeps one (it is never unset), so only a first push chooses.
  const candidate = record.project.default_branch ? null : firstPushDefaultBranch(applied);
  const at = now();
  if (candidate === null && !createsDefaultBranch(applied, record.project.default_branch)) {
    // Most pushes: no default branch to choose, and the one the project had when the push began was not
    // created by it, so nothing to protect. One statement, without a transaction's round trips.
    const settlement: Settlement = { applied, chosenDefaultBranch: null };
    return (await markPushSettled(deps.db.kysely, pushId, JSON.stringify(settlement))) ? settlement : null;
  }
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      const chosen = candidate && (await claimDefaultBranch(trx, projectId, candidate)) ? candidate : null;
      const settlement: Settlement = { applied, chosenDefaultBranch: chosen };
      // Rolls the claim back too: whoever settled this push first chose for it.
      if (!(await markPushSettled(trx, pushId, JSON.stringify(settlement)))) throw new AlreadySettled();
      if (chosen) {
        // While the claim is held, so racing first pushes cannot leave HEAD naming another branch.
        const repoPath = projectRepositoryPath(deps.config.dataDir, record);
        await setHead(repoPath, chosen);
      }
      // Read again: another first push may have chosen it meanwhile.
      const defaultBranch = chosen ?? (await findDefaultBranch(trx, projectId));
      await protectCreatedDefaultBranch(trx, projectId, defaultBranch, applied, at);
      return settlement;
    });
  } catch (error) {
    if (error instanceof AlreadySettled) return null;
    throw error;
  }
}

/**
 * Settles a pending push from the refs on disk (recovery, or a push whose answer did not say). Null when
 * the push was not settled here: another process got there first, or (recovery) its refs have not moved
 * and it may still be running.
 */
async function settle(
  deps: Deps,
  push: PushRow,
  record: ProjectRecord | undefined,
  options: ProcessOptions,
): Promise<Settlement | null> {
  if (!record) return { applied: [], chosenDefaultBranch: null };
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const applied = await appliedChanges(repoPath, JSON.parse(push.changes) as RefUpdate[]);
  if (applied.length === 0 && options.leaveUnmovedYoungerThanMs !== undefined) {
    const age = Date.now() - Date.parse(push.created_at);
    if (age < options.leaveUnmovedYoungerThanMs) return null;
  }
  const settlement = await settleApplied(deps, push.id, record, applied);
  if (settlement?.chosenDefaultBranch) record.project.default_branch = settlement.chosenDefaultBranch;
  return settlement;
}

/** A push as receive-pack's caller knows it: the pending row's id and the commands it recorded. */
export interface AnsweredPush {
  id: number;
  changes: RefUpdate[];
}

/**
 * The first step of processing, for receive-pack to take before its answer ends: afterwards the
 * repository and the project say what the next push must find (default branch, its protection).
 * `applied` is what receive-pack reported, or null to read it from the refs; `record` is the project as
 * authorized for this push. Does nothing when the push was settled already.
 */
export async function settlePush(
  deps: Deps,
  push: AnsweredPush,
  record: ProjectRecord,
  applied: RefUpdate[] | null,
): Promise<void> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  await settleApplied(deps, push.id, record, applied ?? (await appliedChanges(repoPath, push.changes)));
}

/**
 * Processes one pending push: settles it unless that was done, then in ONE transaction records the push
 * events (with GitLab's push payload), hook deliveries, pipelines and last_activity_at, and marks the
 * push processed. Returns what was recorded, or null when another process got there first.
 */
export async function processPush(
  deps: Deps,
  pushId: number,
  options: ProcessOptions = {},
): Promise<ProcessedPush | null> {
  const db = deps.db.kysely;
  const push = await findPush(db, pushId);
  if (!push || push.status !== 'pending') return null;
  const record = await findProjectRecordById(db, push.project_id);
  const user = push.user_id === null ? null : ((await findUserById(db, push.user_id)) ?? null);
  const settlement = readSettlement(push) ?? (await settle(deps, push, record, options));
  if (!settlement) return null;
  const { applied, chosenDefaultBranch } = settlement;
  const payloads: PushPayload[] = [];
  let plans: PlannedPipelines = { branch: [], mergeRequests: [] };
  let closing: ClosingCommit[] = [];
  if (record && user) {
    const repoPath = projectRepositoryPath(deps.config.dataDir, record);
    // The payloads name the new default branch, as GitLab's did after the first push.
    const defaultBranch = chosenDefaultBranch ?? record.project.default_branch;
    for (const change of applied) {
      const isFirstDefaultPush =
        chosenDefaultBranch !== null && change.ref === `${BRANCH_PREFIX}${chosenDefaultBranch}`;
      payloads.push(
        await pushPayloadFor(deps, repoPath, record, user, change, defaultBranch, isFirstDefaultPush),
      );
    }
    if (Number(push.ci_skip) !== 1) plans = await planPipelines(deps, repoPath, record, user, payloads);
    closing = await planIssueClosing(repoPath, record, defaultBranch, applied);
  }
  // Merge requests from or into the moved branches, and the merges this push completes.
  const mergeRequests: MergeRequestRefresh | null = record
    ? await planMergeRequestRefresh(deps, record, applied)
    : null;
  const at = now();
  const claimed = await db.transaction().execute(async (trx) => {
    if (!(await markPushProcessed(trx, push.id, JSON.stringify(applied), at))) return false;
    await recordPushEvents(trx, record, user, payloads, at);
    // Push / tag push project hooks and system hooks, in this same transaction (pipelines join here too).
    if (record) for (const data of payloads) await announcePush(trx, record.project.id, data);
    for (const plan of plans.branch) await createPipeline(trx, deps.config, record!, user!.id, plan, at);
    for (const { plan, mr } of plans.mergeRequests)
      await createMergeRequestPipeline(trx, deps.config, record!, user!.id, plan, mr, at);
    // Merges first: an issue both a merged MR and its merge commit's message close was closed by the MR.
    if (mergeRequests) await applyMergeRequestRefresh(deps, trx, record!, user, mergeRequests, at);
    if (record && user) {
      const closed = await closeIssuesFromPush(trx, deps, record, user, closing, at);
      await crossReferenceCommits(trx, deps, record, user, payloads, closed, at);
    }
    return true;
  });
  if (!claimed) return null;
  return { push: { ...push, status: 'processed' }, record: record!, user, applied, payloads };
}

interface PlannedPipelines {
  branch: PipelinePlan[];
  /** Merge request pipelines of the open MRs from a pushed branch. */
  mergeRequests: Array<{ plan: MergeRequestPipelinePlan; mr: MergeRequestRow }>;
}

/** At most this many MRs are named in CI_OPEN_MERGE_REQUESTS, as GitLab. */
const OPEN_MERGE_REQUESTS_LISTED = 4;

/** CI_OPEN_MERGE_REQUESTS: `target/path!iid` of the open MRs from the branch, oldest first. */
async function openMergeRequestsList(
  deps: Deps,
  record: ProjectRecord,
  open: MergeRequestRow[],
): Promise<string | undefined> {
  const listed = [...open].sort((a, b) => a.id - b.id).slice(0, OPEN_MERGE_REQUESTS_LISTED);
  const names: string[] = [];
  for (const mr of listed) {
    const target =
      mr.target_project_id === record.project.id
        ? record
        : await findProjectRecordById(deps.db.kysely, mr.target_project_id);
    if (target) names.push(`${projectFullPath(target)}!${mr.iid}`);
  }
  return names.length > 0 ? names.join(',') : undefined;
}

/**
 * The pipelines a push makes (one per pushed branch or tag whose commit has a .gitlab-ci.yml, and a merge
 * request pipeline per open MR from a pushed branch whose file asks for one), planned with git before the
 * transaction. A CI problem never fails the push: it is logged and the push goes on.
 */
async function planPipelines(
  deps: Deps,
  repoPath: string,
  record: ProjectRecord,
  user: UserRow,
  payloads: PushPayload[],
): Promise<PlannedPipelines> {
  const plans: PlannedPipelines = { branch: [], mergeRequests: [] };
  for (const data of payloads) {
    if (!data.checkout_sha) continue;
    const tag = data.ref.startsWith(TAG_PREFIX);
    const ref = data.ref.slice(tag ? TAG_PREFIX.length : BRANCH_PREFIX.length);
    try {
      const open = tag ? [] : await findOpenFromSourceBranch(deps.db.kysely, record.project.id, ref);
      const openMergeRequests = await openMergeRequestsList(deps, record, open);
      const plan = await planPipeline({
        repoPath,
        record,
        ref,
        tag,
        sha: data.checkout_sha,
        beforeSha: data.before,
        openProject: projectOpener(deps, user, CI_FILE_MAX_BYTES),
        ...(openMergeRequests ? { openMergeRequests } : {}),
      });
      if (plan) plans.branch.push(plan);
      for (const mr of open) {
        const planned = await planMergeRequestPipeline(deps, record, mr, data.checkout_sha, user);
        if (planned) plans.mergeRequests.push({ plan: planned, mr });
      }
    } catch (error) {
      deps.log.error(
        { err: error, ref: data.ref },
        'reading .gitlab-ci.yml failed; no pipeline for this ref',
      );
    }
  }
  return plans;
}

/**
 * A branch or tag push: the project's push / tag push hooks get the payload whole (at most
 * PUSH_COMMITS_LIMIT commits), system hooks with the matching switch get it without commits (GitLab 8.13).
 */
async function announcePush(trx: Executor, projectId: number, payload: PushPayload): Promise<void> {
  const tag = payload.object_kind === 'tag_push';
  await enqueueProjectHooks(trx, projectId, tag ? 'tag_push_events' : 'push_events', payload);
  await enqueueSystemHooks(trx, payload.object_kind, systemPushPayload(payload));
}

async function recordPushEvents(
  trx: Executor,
  record: ProjectRecord | undefined,
  user: UserRow | null,
  payloads: PushPayload[],
  at: string,
): Promise<void> {
  if (!record || !user) return;
  for (const data of payloads) {
    await recordEvent(trx, {
      projectId: record.project.id,
      authorId: user.id,
      action: EventAction.Pushed,
      data,
      at,
    });
  }
}

/** Start-up: every push left pending by a crash is processed (oldest first). */
export async function recoverPendingPushes(deps: Deps): Promise<number> {
  let processed = 0;
  let afterId = 0;
  for (;;) {
    const batch = await listPendingPushes(deps.db.kysely, afterId, 100);
    if (batch.length === 0) return processed;
    for (const push of batch) {
      afterId = push.id;
      try {
        if (await processPush(deps, push.id, { leaveUnmovedYoungerThanMs: 10 * 60 * 1000 })) processed++;
      } catch (error) {
        deps.log.error({ err: error, pushId: push.id }, 'processing a pending push failed');
      }
    }
  }
}
