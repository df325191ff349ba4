// The environments pages as GitLab 8.13 had them under Pipelines: a project's environments (the
// available or the stopped ones), each with its last deployment (iid, ref, commit, the job that deployed
// and who, when); one environment with its deployments, newest first, and a Stop button where the last
// deployment names an on_stop job and the caller may deploy.
import { ActionButton, type Flash, type PageContext } from './layout.tsx';
import { NewerOlder, TimeAgo } from './projects.tsx';
import { ProjectFrame, type ProjectHead } from './repository.tsx';
import { buildPath } from '../../domain/paths.ts';

export interface DeploymentItem {
  iid: number;
  ref: string;
  sha: string;
  created_at: string;
  user: { username: string } | null;
  job: { id: number; name: string } | null;
}

export interface EnvironmentItem {
  id: number;
  name: string;
  external_url: string | null;
  state: string;
  last: DeploymentItem | null;
}

const environmentsUrl = (project: ProjectHead) => `/${project.path_with_namespace}/environments`;

function Deployment(props: { project: ProjectHead; deployment: DeploymentItem }) {
  const { project, deployment } = props;
  return (
    <>
      <td>
        <strong>#{deployment.iid}</strong>
      </td>
      <td>
        <span class="mono">{deployment.ref}</span> ·{' '}
        <a class="mono" href={`/${project.path_with_namespace}/commit/${deployment.sha}`}>
          {deployment.sha.slice(0, 8)}
        </a>
      </td>
      <td>
        {deployment.job ? (
          <a href={buildPath(project.path_with_namespace, deployment.job.id)}>
            {deployment.job.name} (#{deployment.job.id})
          </a>
        ) : (
          <span class="muted">API</span>
        )}
        {deployment.user ? <span class="muted"> by {deployment.user.username}</span> : null}
      </td>
      <td>
        <TimeAgo at={deployment.created_at} />
      </td>
    </>
  );
}

export function EnvironmentsPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  scope: 'available' | 'stopped';
  counts: { available: number; stopped: number };
  environments: EnvironmentItem[];
  page: number;
  hasNext: boolean;
}) {
  const { project } = props;
  const base = environmentsUrl(project);
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`Environments · ${project.path_with_namespace}`}
      tab="environments"
    >
      <h1>Environments</h1>
      <nav aria-label="Environment scopes">
        <ul class="tabs">
          <li>
            <a href={base} aria-current={props.scope === 'available' ? 'page' : undefined}>
              Available <span class="badge">{props.counts.available}</span>
            </a>
          </li>
          <li>
            <a href={`${base}?scope=stopped`} aria-current={props.scope === 'stopped' ? 'page' : undefined}>
              Stopped <span class="badge">{props.counts.stopped}</span>
            </a>
          </li>
        </ul>
      </nav>
      {props.environments.length === 0 ? (
        <p class="muted">
          You don't have any environments right now. Define environments in the deploy stage(s) in
          .gitlab-ci.yml to track deployments here.
        </p>
      ) : (
        <div class="table-wrap">
          <table aria-label="Environments">
            <thead>
              <tr>
                <th scope="col">Environment</th>
                <th scope="col">Deployment</th>
                <th scope="col">Commit</th>
                <th scope="col">Build</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {props.environments.map((environment) => (
                <tr>
                  <td>
                    <a href={`${base}/${environment.id}`}>{environment.name}</a>
                    {environment.external_url ? (
                      <>
                        {' '}
                        <a href={environment.external_url} rel="noopener noreferrer">
                          (open)
                        </a>
                      </>
                    ) : null}
                  </td>
                  {environment.last ? (
                    <Deployment project={project} deployment={environment.last} />
                  ) : (
                    <td colSpan={4} class="muted">
                      No deployments yet
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <NewerOlder
        base={base}
        query={{ scope: props.scope === 'stopped' ? 'stopped' : undefined }}
        page={props.page}
        hasNext={props.hasNext}
      />
    </ProjectFrame>
  );
}

export function EnvironmentPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  environment: EnvironmentItem;
  deployments: DeploymentItem[];
  stoppable: boolean;
  page: number;
  hasNext: boolean;
  flash?: Flash | null;
}) {
  const { project, environment } = props;
  const url = `${environmentsUrl(project)}/${environment.id}`;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${environment.name} · Environments · ${project.path_with_namespace}`}
      tab="environments"
      flash={props.flash}
    >
      <h1>
        {environment.name} <span class="badge">{environment.state}</span>
      </h1>
      <p>
        {environment.external_url ? (
          <a href={environment.external_url} rel="noopener noreferrer">
            {environment.external_url}
          </a>
        ) : null}{' '}
        {props.stoppable ? (
          <ActionButton ctx={props.ctx} action={`${url}/stop`} text="Stop" danger={true} />
        ) : null}
      </p>
      {props.deployments.length === 0 ? (
        <p class="muted">
          You don't have any deployments right now. Define environments in the deploy stage(s) in
          .gitlab-ci.yml to track deployments here.
        </p>
      ) : (
        <div class="table-wrap">
          <table aria-label="Deployments">
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">Commit</th>
                <th scope="col">Build</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {props.deployments.map((deployment) => (
                <tr>
                  <Deployment project={project} deployment={deployment} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <NewerOlder base={url} page={props.page} hasNext={props.hasNext} />
    </ProjectFrame>
  );
}
