// Pipelines as v4 shows them: Ci::PipelineBasic (embedded in a commit's last_pipeline and in a job) and
// Ci::Pipeline (the pipelines API), keys in GitLab's order. `source` is what made the pipeline.
import type { CiPipelineRow, ProjectRecord, UserRow } from '../../db/types.ts';
import { projectUrls } from '../../domain/paths.ts';
import { presentUserBasic } from './user.ts';

export function presentPipelineBasic(pipeline: CiPipelineRow, record: ProjectRecord, baseUrl: string) {
  return {
    id: pipeline.id,
    project_id: pipeline.project_id,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    source: pipeline.source,
    created_at: pipeline.created_at,
    updated_at: pipeline.updated_at,
    web_url: `${projectUrls(baseUrl, record).webUrl}/pipelines/${pipeline.id}`,
  };
}

/** The status badge GitLab's pages draw (DetailedStatusEntity), from the status alone. */
function detailedStatus(pipeline: CiPipelineRow, webUrl: string) {
  const label = pipeline.status === 'success' ? 'passed' : pipeline.status;
  return {
    icon: `status_${pipeline.status}`,
    text: label,
    label,
    group: pipeline.status,
    tooltip: label,
    has_details: true,
    details_path: new URL(webUrl).pathname,
    illustration: null,
    favicon: `/assets/ci_favicons/favicon_status_${pipeline.status}.png`,
  };
}

export function presentPipeline(
  pipeline: CiPipelineRow,
  record: ProjectRecord,
  user: UserRow | null,
  baseUrl: string,
) {
  const basic = presentPipelineBasic(pipeline, record, baseUrl);
  const queued =
    pipeline.started_at === null
      ? null
      : Math.max(0, Math.round((Date.parse(pipeline.started_at) - Date.parse(pipeline.created_at)) / 1000));
  return Object.assign(basic, {
    before_sha: pipeline.before_sha,
    tag: pipeline.tag === 1,
    yaml_errors: pipeline.yaml_errors,
    user: user ? presentUserBasic(user, baseUrl) : null,
    started_at: pipeline.started_at,
    finished_at: pipeline.finished_at,
    committed_at: pipeline.committed_at,
    duration: pipeline.duration,
    queued_duration: queued,
    coverage: null,
    detailed_status: detailedStatus(pipeline, basic.web_url),
  });
}
