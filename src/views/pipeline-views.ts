// Reads of pipelines for API v3: a page of a project's pipelines (ids found on an index first, then the
// rows and their users in one query each) and one pipeline.
import type { Deps } from '../deps.ts';
import { listPipelineVariables } from '../db/repositories/pipeline-variables.ts';
import { recordNotFound } from '../errors.ts';
import {
  countPipelinesUpTo,
  findProjectPipeline,
  listPipelines,
  projectListCounts,
  type PipelineListFilter,
  type PipelineOrder,
} from '../db/repositories/pipelines.ts';
import { findUserByUsername, usersByIds } from '../db/repositories/users.ts';
import { triggerRequestOfPipeline } from '../db/repositories/triggers.ts';
import { refNames } from '../git/refs.ts';
import { projectRepositoryPath, repositoryExists } from '../git/repository.ts';
import { presentPipeline } from '../presenters/api-v3/pipeline.ts';
import { cappedCount } from './build-views.ts';
import type { CiPipelineRow, ProjectRecord } from '../db/types.ts';
import type { CiStatus, PipelineSource } from '../domain/types.ts';

interface PageWindow {
  offset: number;
  limit: number;
}

/** The API's scopes, and the pages' `pending` and `finished` tabs (GitLab's builds page had those). */
export type PipelineScope = 'running' | 'pending' | 'finished' | 'branches' | 'tags';

export async function listPipelinesOf(deps: Deps, pipelines: CiPipelineRow[]) {
  const users = await usersByIds(
    deps.db.kysely,
    pipelines.map((p) => p.user_id).filter((id): id is number => id !== null),
  );
  return pipelines.map((pipeline) =>
    presentPipeline(
      pipeline,
      pipeline.user_id === null ? null : (users.get(pipeline.user_id) ?? null),
      deps.config.externalUrl,
    ),
  );
}

/** Pipelines with the users who ran them, read in one query (v4 presents them). */
export async function pipelinesWithUsers(deps: Deps, pipelines: CiPipelineRow[]) {
  const users = await usersByIds(
    deps.db.kysely,
    pipelines.map((p) => p.user_id).filter((id): id is number => id !== null),
  );
  return pipelines.map((pipeline) => ({
    pipeline,
    user: pipeline.user_id === null ? null : (users.get(pipeline.user_id) ?? null),
  }));
}

export async function loadPipeline(deps: Deps, pipeline: CiPipelineRow) {
  return (await listPipelinesOf(deps, [pipeline]))[0]!;
}

async function namesOf(deps: Deps, record: ProjectRecord, kind: 'heads' | 'tags'): Promise<string[]> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  return (await repositoryExists(repoPath)) ? refNames(repoPath, kind) : [];
}

/**
 * GitLab 8.13's PipelinesFinder: `running` (pending or running), `pending`, `finished` (success, failed or
 * canceled), `branches` / `tags` (the newest pipeline
 * of each existing branch or tag), or every pipeline; optionally of one status. Newest first.
 */
export async function pipelineList(
  deps: Deps,
  record: ProjectRecord,
  scope: PipelineScope | undefined,
  status: CiStatus | undefined,
  narrowing: Omit<PipelineListFilter, 'projectId' | 'statuses' | 'newestOfRefs' | 'order'> = {},
  order?: PipelineOrder,
) {
  const filter: PipelineListFilter = { ...narrowing, projectId: record.project.id, order };
  const narrowed = Object.values(narrowing).some((value) => value !== undefined);
  if (scope === 'running') filter.statuses = ['pending', 'running'];
  if (scope === 'pending') filter.statuses = ['pending'];
  if (scope === 'finished') filter.statuses = ['success', 'failed', 'canceled'];
  if (scope === 'branches') filter.newestOfRefs = await namesOf(deps, record, 'heads');
  if (scope === 'tags') filter.newestOfRefs = await namesOf(deps, record, 'tags');
  const db = deps.db.kysely;
  if (status !== undefined) {
    // `running` and another status: nothing is both.
    if (filter.statuses && !filter.statuses.includes(status)) {
      return { count: async () => 0, page: async () => [] as CiPipelineRow[] };
    }
    filter.statuses = [status];
  }
  return {
    // All of a project's pipelines are counted as they are written; a filtered list counts a bounded walk.
    count: async (cap: number) =>
      !filter.statuses && !filter.newestOfRefs && !narrowed
        ? (await projectListCounts(db, record.project.id)).pipelines
        : cappedCount(countPipelinesUpTo(db, filter, cap + 1), cap),
    page: (window: PageWindow) => listPipelines(db, filter, window.limit, window.offset),
  };
}

/** The project's pipeline with that id; 404 `404 Not found` otherwise. */
export async function loadPipelineOr404(
  deps: Deps,
  record: ProjectRecord,
  id: number,
): Promise<CiPipelineRow> {
  const pipeline = await findProjectPipeline(deps.db.kysely, record.project.id, id);
  if (!pipeline) throw recordNotFound();
  return pipeline;
}

/** The newest pipeline of `ref`; 404 `404 Not found` when it has none. */
export async function latestPipelineOr404(deps: Deps, record: ProjectRecord, ref: string) {
  const [pipeline] = await listPipelines(deps.db.kysely, { projectId: record.project.id, ref }, 1, 0);
  if (!pipeline) throw recordNotFound();
  return pipeline;
}

/** The variables a pipeline was run with: those of the trigger call that made it, if one did. */
/** A pipeline's variables: its trigger's, then its own (the API's or its schedule's). */
export async function pipelineVariables(deps: Deps, pipeline: CiPipelineRow) {
  const [request, own] = await Promise.all([
    triggerRequestOfPipeline(deps.db.kysely, pipeline.id),
    listPipelineVariables(deps.db.kysely, pipeline.id),
  ]);
  const variables = request?.variables ? (JSON.parse(request.variables) as Record<string, string>) : {};
  return [
    ...Object.entries(variables).map(([key, value]) => ({
      key,
      value: String(value),
      variableType: 'env_var',
    })),
    ...own.map((row) => ({ key: row.key, value: row.value, variableType: row.variable_type })),
  ];
}

/** v4's list filters: a username nobody has matches no pipeline. */
export async function narrowedPipelineList(
  deps: Deps,
  record: ProjectRecord,
  scope: PipelineScope | undefined,
  status: CiStatus | undefined,
  narrowing: { ref?: string; sha?: string; source?: PipelineSource; username?: string },
  order?: PipelineOrder,
) {
  const { username, ...rest } = narrowing;
  let userId: number | undefined;
  if (username !== undefined) {
    const user = await findUserByUsername(deps.db.kysely, username);
    if (!user) return { count: async () => 0, page: async () => [] as CiPipelineRow[] };
    userId = user.id;
  }
  return pipelineList(deps, record, scope, status, { ...rest, userId }, order);
}
