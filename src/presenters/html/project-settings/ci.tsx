// The CI settings pages: pipelines settings (timeout, coverage regex, public builds), secret variables
// (values hidden until asked, without script: a disclosure), triggers (with the curl line that uses one)
// and runners (the registration token, its reset, the project's runners and those the viewer may add).
import { ActionButton, Csrf, type Flash, type PageContext } from '../layout.tsx';
import { Checkbox, SettingsFrame, settingsUrl, type SettingsProject } from './settings-frame.tsx';

export interface PipelinesForm {
  timeoutMinutes: string;
  coverageRegex: string;
  publicBuilds: boolean;
}

export function PipelinesSettingsPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  project: SettingsProject;
  form: PipelinesForm;
}) {
  const { form } = props;
  return (
    <SettingsFrame
      ctx={props.ctx}
      project={props.project}
      section="pipelines"
      title="CI/CD pipelines"
      flash={props.flash}
    >
      <form class="stack" method="post" action={settingsUrl(props.project, '/pipelines/settings')}>
        <Csrf ctx={props.ctx} />
        <label>
          Timeout (minutes per build)
          <input
            type="number"
            name="build_timeout_in_minutes"
            min="10"
            value={form.timeoutMinutes}
            required
          />
        </label>
        <label>
          Test coverage parsing (a regular expression; blank turns it off)
          <input
            type="text"
            name="build_coverage_regex"
            value={form.coverageRegex}
            placeholder="\(\d+.\d+\%\) covered"
          />
        </label>
        <Checkbox
          name="public_builds"
          checked={form.publicBuilds}
          text="Public builds: everyone who may read a public or internal project may see its builds and traces"
        />
        <div>
          <button type="submit" class="primary">
            Save changes
          </button>
        </div>
      </form>
    </SettingsFrame>
  );
}

export function VariablesPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  project: SettingsProject;
  variables: Array<{ key: string; value: string | null }>;
  typed?: { key: string; value: string };
}) {
  const { project } = props;
  return (
    <SettingsFrame
      ctx={props.ctx}
      project={project}
      section="variables"
      title="Secret variables"
      flash={props.flash}
    >
      <p>
        These variables are passed to every build of this project as environment variables. Their values are
        hidden until you ask for them.
      </p>
      <h2>Add a variable</h2>
      <form class="stack" method="post" action={settingsUrl(project, '/variables')}>
        <Csrf ctx={props.ctx} />
        <label>
          Key
          <input type="text" name="variable[key]" value={props.typed?.key ?? ''} required />
        </label>
        <label>
          Value
          <textarea name="variable[value]">{props.typed?.value ?? ''}</textarea>
        </label>
        <div>
          <button type="submit" class="primary">
            Add new variable
          </button>
        </div>
      </form>
      <h2>Your variables ({props.variables.length})</h2>
      {props.variables.length === 0 ? (
        <p class="muted">No variables yet.</p>
      ) : (
        <ul class="list" aria-label="Variables">
          {props.variables.map((variable) => {
            const url = settingsUrl(project, `/variables/${encodeURIComponent(variable.key)}`);
            return (
              <li>
                <div class="row">
                  <strong class="mono">{variable.key}</strong>
                  <ActionButton
                    ctx={props.ctx}
                    action={`${url}/delete`}
                    text="Remove"
                    label={`Remove ${variable.key}`}
                    danger
                  />
                </div>
                <details>
                  <summary>Show and change the value of {variable.key}</summary>
                  <form class="stack" method="post" action={url}>
                    <Csrf ctx={props.ctx} />
                    <label>
                      Value of {variable.key}
                      <textarea name="variable[value]">{variable.value ?? ''}</textarea>
                    </label>
                    <div>
                      <button type="submit">Save value</button>
                    </div>
                  </form>
                </details>
              </li>
            );
          })}
        </ul>
      )}
    </SettingsFrame>
  );
}

export function TriggersPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  project: SettingsProject;
  triggers: Array<{ token: string; last_used: string | null }>;
  /** The URL a trigger is called at. */
  triggerUrl: string;
}) {
  const { project } = props;
  return (
    <SettingsFrame ctx={props.ctx} project={project} section="triggers" title="Triggers" flash={props.flash}>
      <p>A trigger runs a pipeline for a branch or tag from anywhere, with only its token.</p>
      {props.triggers.length === 0 ? (
        <p class="muted">No triggers yet.</p>
      ) : (
        <ul class="list" aria-label="Triggers">
          {props.triggers.map((trigger) => (
            <li class="row">
              <span>
                <code>{trigger.token}</code>{' '}
                <span class="muted">
                  {trigger.last_used ? `last used ${trigger.last_used}` : 'never used'}
                </span>
              </span>
              <ActionButton
                ctx={props.ctx}
                action={settingsUrl(project, `/triggers/${trigger.token}/delete`)}
                text="Revoke"
                label={`Revoke trigger ${trigger.token}`}
                danger
              />
            </li>
          ))}
        </ul>
      )}
      <ActionButton ctx={props.ctx} action={settingsUrl(project, '/triggers')} text="Add trigger" />
      <h2>Use a trigger</h2>
      <p>With curl, replacing TOKEN with a trigger's token and REF_NAME with a branch or tag:</p>
      <pre class="mono">
        {`curl -X POST \\\n  -F token=${props.triggers[0]?.token ?? 'TOKEN'} \\\n  -F ref=REF_NAME \\\n  ${props.triggerUrl}`}
      </pre>
      <p>
        Variables for the builds go in as <code>-F "variables[KEY]=value"</code>.
      </p>
    </SettingsFrame>
  );
}

export interface RunnerItem {
  id: number;
  description: string | null;
  active: boolean;
  is_shared: boolean;
}

function RunnerLine(props: { runner: RunnerItem }) {
  const { runner } = props;
  return (
    <span>
      <strong>#{runner.id}</strong> {runner.description ?? ''}{' '}
      <span class="badge">{runner.active ? 'active' : 'paused'}</span>
    </span>
  );
}

export function RunnersPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  project: SettingsProject & { runners_token?: string; shared_runners_enabled: boolean };
  runnersUrl: string;
  enabled: RunnerItem[];
  available: RunnerItem[];
}) {
  const { project } = props;
  return (
    <SettingsFrame ctx={props.ctx} project={project} section="runners" title="Runners" flash={props.flash}>
      <h2>Register a specific runner</h2>
      <ol>
        <li>Install a runner compatible with GitLab CI 8.x.</li>
        <li>
          Give it this URL: <code>{props.runnersUrl}</code>
        </li>
        <li>
          and this registration token: <code id="runners-token">{project.runners_token ?? ''}</code>
        </li>
      </ol>
      <ActionButton
        ctx={props.ctx}
        action={settingsUrl(project, '/runners/reset_token')}
        text="Reset registration token"
        danger
      />
      <h2>Runners enabled for this project ({props.enabled.length})</h2>
      {props.enabled.length === 0 ? (
        <p class="muted">No specific runner is enabled for this project.</p>
      ) : (
        <ul class="list" aria-label="Enabled runners">
          {props.enabled.map((runner) => (
            <li class="row">
              <RunnerLine runner={runner} />
              <ActionButton
                ctx={props.ctx}
                action={settingsUrl(project, `/runners/${runner.id}/disable`)}
                text="Disable for this project"
                label={`Disable runner ${runner.id} for this project`}
                danger
              />
            </li>
          ))}
        </ul>
      )}
      <h2>Other runners you may enable ({props.available.length})</h2>
      {props.available.length === 0 ? (
        <p class="muted">None of your other projects' specific runners can be added here.</p>
      ) : (
        <ul class="list" aria-label="Available runners">
          {props.available.map((runner) => (
            <li class="row">
              <RunnerLine runner={runner} />
              <ActionButton
                ctx={props.ctx}
                action={settingsUrl(project, '/runners')}
                fields={{ runner_id: String(runner.id) }}
                text="Enable for this project"
                label={`Enable runner ${runner.id} for this project`}
              />
            </li>
          ))}
        </ul>
      )}
      <h2>Shared runners</h2>
      <p>
        Shared runners are {project.shared_runners_enabled ? 'enabled' : 'disabled'} for this project (switch
        them in the <a href={settingsUrl(project, '/edit')}>general settings</a>).
      </p>
    </SettingsFrame>
  );
}
