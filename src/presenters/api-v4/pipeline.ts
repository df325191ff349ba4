// Ci::PipelineBasic as v4 embeds it (a commit's last_pipeline). Every pipeline here came from a push or
// the commit-status API; `source` says push for both, as 9.x did for pipelines from before sources.
import type { CiPipelineRow, ProjectRecord } from '../../db/types.ts';
import { projectUrls } from '../../domain/paths.ts';

export function presentPipelineBasic(pipeline: CiPipelineRow, record: ProjectRecord, baseUrl: string) {
  return {
    id: pipeline.id,
    project_id: pipeline.project_id,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    source: 'push',
    created_at: pipeline.created_at,
    updated_at: pipeline.updated_at,
    web_url: `${projectUrls(baseUrl, record).webUrl}/pipelines/${pipeline.id}`,
  };
}
