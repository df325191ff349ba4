// Project hooks: masters add, change and remove them; events of the project reach those whose switch for
// the event is on (services/hook-outbox.ts).
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import {
  deleteProjectHook,
  findProjectHook,
  insertProjectHook,
  updateProjectHook as updateProjectHookRow,
} from '../../db/repositories/project-hooks.ts';
import { deleteDeliveriesOfHook } from '../../db/repositories/hook-deliveries.ts';
import { ApiError, apiError } from '../../errors.ts';
import { changedFiles, commitsBetween } from '../../git/commits.ts';
import { findBranch } from '../../git/refs.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { presentPushPayload } from '../../presenters/hooks/push-payload.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import { enqueueDelivery } from './hook-outbox.ts';
import { outboundPolicyFor, refuseLocalHookUrl, validHookUrl } from './hook-url.ts';
import type { ProjectHookRow, ProjectRecord, UserRow } from '../../db/types.ts';

export interface ProjectHookAttributes {
  push_events?: boolean;
  issues_events?: boolean;
  confidential_issues_events?: boolean;
  merge_requests_events?: boolean;
  tag_push_events?: boolean;
  note_events?: boolean;
  build_events?: boolean;
  pipeline_events?: boolean;
  wiki_page_events?: boolean;
  /** v4 only (8.13 had no deployment hooks). */
  deployment_events?: boolean;
  enable_ssl_verification?: boolean;
}

const SWITCHES = [
  'push_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'build_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'enable_ssl_verification',
] as const;

function switches(attributes: ProjectHookAttributes) {
  const values: Partial<Record<(typeof SWITCHES)[number], 0 | 1>> = {};
  for (const name of SWITCHES) {
    const value = attributes[name];
    if (value !== undefined) values[name] = value ? 1 : 0;
  }
  return values;
}

async function checkedUrl(deps: Deps, url: string): Promise<string> {
  const valid = validHookUrl(url);
  if (valid === undefined) throw new ApiError(422, { error: 'Invalid url given' });
  await refuseLocalHookUrl(valid, await outboundPolicyFor(deps.db.kysely, deps.config.outbound, 'project'));
  return valid;
}

export async function createProjectHook(
  deps: Deps,
  projectId: number,
  url: string,
  attributes: ProjectHookAttributes,
): Promise<ProjectHookRow> {
  const valid = await checkedUrl(deps, url);
  const at = now();
  return insertProjectHook(deps.db.kysely, {
    project_id: projectId,
    url: valid,
    push_events: 1,
    issues_events: 0,
    confidential_issues_events: 0,
    merge_requests_events: 0,
    tag_push_events: 0,
    note_events: 0,
    build_events: 0,
    pipeline_events: 0,
    wiki_page_events: 0,
    enable_ssl_verification: 1,
    ...switches(attributes),
    created_at: at,
    updated_at: at,
  });
}

export async function updateProjectHook(
  deps: Deps,
  hook: ProjectHookRow,
  url: string,
  attributes: ProjectHookAttributes,
): Promise<ProjectHookRow> {
  return updateProjectHookRow(deps.db.kysely, hook.id, {
    url: await checkedUrl(deps, url),
    ...switches(attributes),
    updated_at: now(),
  });
}

/** Idempotent, as SPEC asks: the deleted hook, or null when there was none. */
export async function destroyProjectHook(
  deps: Deps,
  projectId: number,
  hookId: number | undefined,
): Promise<ProjectHookRow | null> {
  if (hookId === undefined) return null;
  return deps.db.kysely.transaction().execute(async (trx) => {
    const hook = await findProjectHook(trx, projectId, hookId);
    if (!hook) return null;
    await deleteDeliveriesOfHook(trx, 'project', hook.id);
    await deleteProjectHook(trx, projectId, hook.id);
    return hook;
  });
}

/** GitLab's sample push (Gitlab::DataBuilder::Push.build_sample): the default branch's newest commits. */
const SAMPLE_COMMITS = 3;

/**
 * The hook page's Test button (8.13's TestHookService): a push event of the default branch's last commits,
 * queued for this hook only whatever its switches; its answer lands in the delivery log. A project without
 * commits has nothing to send (422, 8.13's "Ensure the project has commits").
 */
export async function testProjectHook(
  deps: Deps,
  record: ProjectRecord,
  hook: ProjectHookRow,
  user: UserRow,
) {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const branchName = record.project.default_branch ?? 'master';
  const branch = await findBranch(repoPath, branchName).catch(() => undefined);
  if (!branch) throw apiError(422, 'Hook execution failed. Ensure the project has commits.');
  const { commits } = await commitsBetween(repoPath, null, branch.commit.id, SAMPLE_COMMITS);
  const payload = presentPushPayload({
    baseUrl: deps.config.externalUrl,
    sshBase: deps.config.ssh.cloneUrlBase,
    record,
    user,
    // As build_sample did: from the oldest of the sample commits to the newest.
    before: commits[0]?.id ?? BLANK_SHA,
    after: branch.commit.id,
    ref: `refs/heads/${branchName}`,
    checkoutSha: branch.commit.id,
    message: null,
    commits,
    files: await changedFiles(repoPath, commits),
    totalCommitsCount: commits.length,
  });
  return enqueueDelivery(deps.db.kysely, 'project', hook.id, 'Push Hook', JSON.stringify(payload));
}
