// Today's deployment hook body (Gitlab::DataBuilder::Deployment), field for field; 8.13 had none.
import { avatarUrl } from '../api-v3/user.ts';
import { buildPath, commitWebUrl, projectFullPath, userWebUrl } from '../../domain/paths.ts';
import { commitTitle } from '../../domain/titles.ts';
import { environmentTier } from '../../ci/environments.ts';
import { hookTime } from './ci-hook-payloads.ts';
import { projectHookAttrs } from './hook-attrs.ts';
import type { CiPipelineRow, DeploymentRow, EnvironmentRow, ProjectRecord, UserRow } from '../../db/types.ts';

export interface DeploymentHookInput {
  baseUrl: string;
  record: ProjectRecord;
  deployment: DeploymentRow;
  environment: EnvironmentRow;
  /** The deploying job's pipeline (its commit message), when a job deployed. */
  pipeline: CiPipelineRow | null;
  user: UserRow | null;
}

export function presentDeploymentHook(input: DeploymentHookInput) {
  const { baseUrl, record, deployment, environment, user } = input;
  return {
    object_kind: 'deployment',
    status: deployment.status,
    status_changed_at: hookTime(deployment.updated_at),
    deployment_id: deployment.id,
    deployable_id: deployment.deployable_id,
    deployable_url:
      deployment.deployable_id === null
        ? null
        : `${baseUrl}${buildPath(projectFullPath(record), deployment.deployable_id)}`,
    environment: environment.name,
    environment_tier: environmentTier(environment),
    environment_slug: environment.slug,
    environment_external_url: environment.external_url,
    project: { id: record.project.id, ...projectHookAttrs(baseUrl, record), ci_config_path: null },
    short_sha: deployment.sha.slice(0, 8),
    user: user
      ? {
          id: user.id,
          name: user.name,
          username: user.username,
          avatar_url: avatarUrl(user, baseUrl),
          email: user.email,
        }
      : null,
    user_url: user ? userWebUrl(baseUrl, user.username) : null,
    commit_url: commitWebUrl(baseUrl, record, deployment.sha),
    commit_title: input.pipeline?.commit_message ? commitTitle(input.pipeline.commit_message) : null,
    ref: deployment.ref,
  };
}
