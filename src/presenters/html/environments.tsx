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

/**
 * The pages' one table: 8.13's hint where there is nothing yet, else the columns and a row per item.
 */
function DeploymentTable<T>(props: {
  label: string;
  nothing: string;
  columns: string[];
  items: T[];
  row: (item: T) => preact.JSX.Element;
}) {
  if (props.items.length === 0) {
    return (
      <p class="muted">
        {`You don't have any ${props.nothing} right now. Define environments in the deploy stage(s) in .gitlab-ci.yml to track deployments here.`}
      </p>
    );
  }
  return (
    <div class="table-wrap">
      <table aria-label={props.label}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{props.items.map(props.row)}</tbody>
      </table>
    </div>
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
      <DeploymentTable
        label="Environments"
        nothing="environments"
        columns={['Environment', 'Deployment', 'Commit', 'Build', 'Updated']}
        items={props.environments}
        row={(environment) => (
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
        )}
      />
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
      <DeploymentTable
        label="Deployments"
        nothing="deployments"
        columns={['ID', 'Commit', 'Build', 'Created']}
        items={props.deployments}
        row={(deployment) => (
          <tr>
            <Deployment project={project} deployment={deployment} />
          </tr>
        )}
      />
      <NewerOlder base={url} page={props.page} hasNext={props.hasNext} />
    </ProjectFrame>
  );
}
