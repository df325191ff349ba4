// Today's EnvironmentBasic, Environment (tier, project as BasicProjectDetails, state; last_deployment on
// GET one, without the project) and Deployment (user as UserBasic, environment as EnvironmentBasic, the
// job as Ci::Job, status) entities.
import { environmentTier } from '../../ci/environments.ts';
import { presentUserBasic } from './user.ts';
import type { DeploymentView } from '../../views/environment-views.ts';
import type { EnvironmentRow } from '../../db/types.ts';

function presentEnvironmentBasicV4(environment: EnvironmentRow) {
  return {
    id: environment.id,
    name: environment.name,
    slug: environment.slug,
    external_url: environment.external_url,
    created_at: environment.created_at,
    updated_at: environment.updated_at,
  };
}

/** In lists and write answers: with the project. */
export function presentEnvironmentV4(environment: EnvironmentRow, project: unknown) {
  return {
    ...presentEnvironmentBasicV4(environment),
    tier: environmentTier(environment),
    project,
    state: environment.state,
  };
}

/** GET one: the last deployment (without its environment) instead of the project. */
export function presentEnvironmentDetailV4(
  environment: EnvironmentRow,
  last: DeploymentView | undefined,
  baseUrl: string,
) {
  let lastDeployment: Record<string, unknown> | null = null;
  if (last) {
    const { environment: _omitted, ...rest } = presentDeploymentV4(last, baseUrl);
    lastDeployment = rest;
  }
  return {
    ...presentEnvironmentBasicV4(environment),
    tier: environmentTier(environment),
    last_deployment: lastDeployment,
    state: environment.state,
  };
}

export function presentDeploymentV4(view: DeploymentView, baseUrl: string) {
  const { deployment } = view;
  return {
    id: deployment.id,
    iid: deployment.iid,
    ref: deployment.ref,
    sha: deployment.sha,
    created_at: deployment.created_at,
    updated_at: deployment.updated_at,
    user: view.user ? presentUserBasic(view.user, baseUrl) : null,
    environment: presentEnvironmentBasicV4(view.environment),
    deployable: view.deployable,
    status: deployment.status,
  };
}
