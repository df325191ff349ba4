// /admin: what the instance holds and how it runs (GitLab 8.13's admin dashboard, plus health).
import { GITLAB_VERSION } from '../../../domain/version.ts';
import type { PageContext } from '../layout.tsx';
import { AdminFrame } from './frame.tsx';

export interface InstanceOverview {
  counts: {
    users: number;
    projects: number;
    groups: number;
    runners: number;
    builds: number;
    pendingDeliveries: number;
  };
  version: string;
  database: 'sqlite' | 'postgres';
  dataDir: string;
  health: { healthy: boolean; database: string; dataDir: string };
}

const ENGINES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

export function AdminOverviewPage(props: { ctx: PageContext; overview: InstanceOverview }) {
  const { counts, health } = props.overview;
  const count = (label: string, value: number, href?: string) => (
    <>
      <dt>{href ? <a href={href}>{label}</a> : label}</dt>
      <dd>{value.toLocaleString('en-US')}</dd>
    </>
  );
  return (
    <AdminFrame ctx={props.ctx} tab="overview" title="Overview">
      <h2>Statistics</h2>
      <dl class="facts" aria-label="Statistics">
        {count('Users', counts.users, '/admin/users')}
        {count('Projects', counts.projects, '/admin/projects')}
        {count('Groups', counts.groups)}
        {count('Runners', counts.runners, '/admin/runners')}
        {count('Builds', counts.builds)}
        {count('Hook deliveries waiting', counts.pendingDeliveries, '/admin/hooks')}
      </dl>
      <h2>System</h2>
      <dl class="facts" aria-label="System">
        <dt>Version</dt>
        <dd>
          Labrador {props.overview.version} (GitLab {GITLAB_VERSION} API v3)
        </dd>
        <dt>Database</dt>
        <dd>{ENGINES[props.overview.database]}</dd>
        <dt>Data directory</dt>
        <dd class="mono">{props.overview.dataDir}</dd>
        <dt>Health</dt>
        <dd>
          <span class="badge">{health.healthy ? 'ok' : 'failing'}</span> database {health.database}, data
          directory {health.dataDir}
        </dd>
      </dl>
    </AdminFrame>
  );
}
