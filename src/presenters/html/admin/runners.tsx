// /admin/runners: the shared runners registration token, every runner with its status and last contact
// (pause, resume, remove), and one runner's page with its settings and projects.
import type { CiRunnerRow } from '../../../db/types.ts';
import type { RunnerStatus } from '../../../domain/types.ts';
import type { presentRunnerDetails } from '../../api-v3/runner.ts';
import { ActionButton, Csrf, type Flash, type PageContext } from '../layout.tsx';
import { Pager, TimeAgo } from '../projects.tsx';
import { AdminFrame } from './frame.tsx';

const STATUS_TEXT: Record<RunnerStatus, string> = {
  not_connected: 'not connected',
  paused: 'paused',
  online: 'online',
  offline: 'offline',
};

export const RUNNER_SCOPES = ['shared', 'specific', 'active', 'paused', 'online'] as const;
export type RunnerScopeFilter = (typeof RUNNER_SCOPES)[number];

function runnerName(runner: { id: number; description: string | null }): string {
  return runner.description ? runner.description : `Runner #${runner.id}`;
}

/** Pause or resume, as the runner's state asks. */
function ActiveSwitch(props: {
  ctx: PageContext;
  runner: { id: number; active: boolean; description: string | null };
}) {
  const { runner } = props;
  return (
    <ActionButton
      ctx={props.ctx}
      action={`/admin/runners/${runner.id}/${runner.active ? 'pause' : 'resume'}`}
      text={runner.active ? 'Pause' : 'Resume'}
      label={`${runner.active ? 'Pause' : 'Resume'} ${runnerName(runner)}`}
    />
  );
}

export function AdminRunnersPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  token: string;
  tokenFixed: boolean;
  externalUrl: string;
  runners: Array<{ runner: CiRunnerRow; status: RunnerStatus }>;
  total: number;
  scope: RunnerScopeFilter | undefined;
  page: number;
  hasNext: boolean;
}) {
  return (
    <AdminFrame ctx={props.ctx} tab="runners" title="Runners" flash={props.flash}>
      <h2>Shared runners registration token</h2>
      <p>
        Register a shared runner with the coordinator URL <code>{props.externalUrl}/ci</code> (
        <code>gitlab-ci-multi-runner register</code>; Labrador's own runner takes{' '}
        <code>--url {props.externalUrl}</code>) and this token.
      </p>
      <div class="clone">
        <label for="registration-token">Registration token</label>
        <input id="registration-token" type="text" readOnly value={props.token} class="mono" />
        <button type="button" data-copy="registration-token" hidden>
          Copy token
        </button>
      </div>
      {props.tokenFixed ? (
        <p class="muted">The token is set by LABRADOR_RUNNER_TOKEN; change it there.</p>
      ) : (
        <ActionButton
          ctx={props.ctx}
          action="/admin/runners/reset_token"
          text="Reset registration token"
          danger
        />
      )}
      <h2>Runners ({props.total})</h2>
      <form class="searchbar" method="get" action="/admin/runners">
        <label>
          Show
          <select name="scope">
            <option value="" selected={props.scope === undefined}>
              All runners
            </option>
            {RUNNER_SCOPES.map((scope) => (
              <option value={scope} selected={props.scope === scope}>
                {scope}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      {props.runners.length === 0 ? (
        <p class="muted">No runners found.</p>
      ) : (
        <div class="table-wrap">
          <table aria-label="Runners">
            <thead>
              <tr>
                <th scope="col">Runner</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Version</th>
                <th scope="col">Tags</th>
                <th scope="col">Last contact</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {props.runners.map(({ runner, status }) => {
                const named = { id: runner.id, description: runner.description, active: runner.active === 1 };
                return (
                  <tr>
                    <td>
                      <a href={`/admin/runners/${runner.id}`}>{runnerName(runner)}</a>{' '}
                      <span class="muted mono">{runner.token.slice(0, 8)}</span>
                    </td>
                    <td>
                      {runner.is_shared === 1 ? 'shared' : 'specific'}
                      {runner.locked === 1 ? ', locked' : ''}
                    </td>
                    <td>
                      <span class="badge">{STATUS_TEXT[status]}</span>
                    </td>
                    <td>{runner.version ?? ''}</td>
                    <td>{(JSON.parse(runner.tag_list) as string[]).join(', ')}</td>
                    <td>{runner.contacted_at ? <TimeAgo at={runner.contacted_at} /> : 'never'}</td>
                    <td>
                      <ActiveSwitch ctx={props.ctx} runner={named} />
                      <ActionButton
                        ctx={props.ctx}
                        action={`/admin/runners/${runner.id}/delete`}
                        text="Remove"
                        label={`Remove ${runnerName(runner)}`}
                        danger
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/admin/runners" query={{ scope: props.scope }} page={props.page} hasNext={props.hasNext} />
    </AdminFrame>
  );
}

export function AdminRunnerPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  runner: ReturnType<typeof presentRunnerDetails>;
  status: RunnerStatus;
}) {
  const { runner } = props;
  return (
    <AdminFrame ctx={props.ctx} tab="runners" title={runnerName(runner)} flash={props.flash}>
      <div class="row">
        <span>
          <span class="badge">{STATUS_TEXT[props.status]}</span> {runner.is_shared ? 'Shared' : 'Specific'}{' '}
          runner
        </span>
        <span>
          <ActiveSwitch ctx={props.ctx} runner={runner} />
          <ActionButton
            ctx={props.ctx}
            action={`/admin/runners/${runner.id}/delete`}
            text="Remove runner"
            danger
          />
        </span>
      </div>
      <h2>Details</h2>
      <dl class="facts" aria-label="Details">
        <dt>Name</dt>
        <dd>{runner.name ?? ''}</dd>
        <dt>Version</dt>
        <dd>{runner.version ?? ''}</dd>
        <dt>Revision</dt>
        <dd class="mono">{runner.revision ?? ''}</dd>
        <dt>Platform</dt>
        <dd>{[runner.platform, runner.architecture].filter(Boolean).join(' / ')}</dd>
        <dt>Last contact</dt>
        <dd>{runner.contacted_at ? <TimeAgo at={runner.contacted_at} /> : 'never'}</dd>
        <dt>Token</dt>
        <dd class="mono">{runner.token ?? ''}</dd>
      </dl>
      <h2>Settings</h2>
      <form class="stack" method="post" action={`/admin/runners/${runner.id}`}>
        <Csrf ctx={props.ctx} />
        <label>
          Description
          <input type="text" name="runner[description]" value={runner.description ?? ''} />
        </label>
        <label>
          Tags (comma-separated)
          <input type="text" name="runner[tag_list]" value={runner.tag_list.join(', ')} />
        </label>
        <label class="check">
          <input type="checkbox" name="runner[active]" value="1" checked={runner.active} /> Active (takes new
          builds)
        </label>
        <label class="check">
          <input type="checkbox" name="runner[run_untagged]" value="1" checked={runner.run_untagged} /> Runs
          untagged builds
        </label>
        <label class="check">
          <input type="checkbox" name="runner[locked]" value="1" checked={runner.locked} /> Locked to its
          current projects
        </label>
        <div>
          <button type="submit" class="primary">
            Save changes
          </button>
        </div>
      </form>
      <h2>Projects ({runner.projects.length})</h2>
      {runner.projects.length === 0 ? (
        <p class="muted">{runner.is_shared ? 'A shared runner builds every project.' : 'No projects.'}</p>
      ) : (
        <ul class="list" aria-label="Projects">
          {runner.projects.map((project) => (
            <li>
              <a href={`/${project.path_with_namespace}`}>{project.name_with_namespace}</a>
            </li>
          ))}
        </ul>
      )}
    </AdminFrame>
  );
}
