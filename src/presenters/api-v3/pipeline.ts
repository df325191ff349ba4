// Pipelines as API v3 showed them: PipelineBasic (embedded in a build) and Pipeline (the pipelines API).
// Keys in GitLab's order.
import { presentUserBasic } from './user.ts';
import type { CiPipelineRow, UserRow } from '../../db/types.ts';

export function presentPipelineBasic(pipeline: CiPipelineRow) {
  return { id: pipeline.id, sha: pipeline.sha, ref: pipeline.ref, status: pipeline.status };
}

export function presentPipeline(pipeline: CiPipelineRow, user: UserRow | null, baseUrl: string) {
  return Object.assign(presentPipelineBasic(pipeline), {
    before_sha: pipeline.before_sha,
    tag: pipeline.tag === 1,
    yaml_errors: pipeline.yaml_errors,
    user: user ? presentUserBasic(user, baseUrl) : null,
    created_at: pipeline.created_at,
    updated_at: pipeline.updated_at,
    started_at: pipeline.started_at,
    finished_at: pipeline.finished_at,
    committed_at: pipeline.committed_at,
    duration: pipeline.duration,
  });
}
