// GitLab 8.13's EnvironmentBasic, Environment (with the Project entity) and Deployment (its user as
// UserBasic, its environment as EnvironmentBasic, its job as Build) entities.
import { presentUserBasic } from './user.ts';
import type { DeploymentView } from '../../views/environment-views.ts';
import type { EnvironmentRow } from '../../db/types.ts';

function presentEnvironmentBasic(environment: EnvironmentRow) {
  return { id: environment.id, name: environment.name, external_url: environment.external_url };
}

export function presentEnvironment(environment: EnvironmentRow, project: unknown) {
  return { ...presentEnvironmentBasic(environment), project };
}

export function presentDeployment(view: DeploymentView, baseUrl: string) {
  const { deployment } = view;
  return {
    id: deployment.id,
    iid: deployment.iid,
    ref: deployment.ref,
    sha: deployment.sha,
    created_at: deployment.created_at,
    user: view.user ? presentUserBasic(view.user, baseUrl) : null,
    environment: presentEnvironmentBasic(view.environment),
    deployable: view.deployable,
  };
}
