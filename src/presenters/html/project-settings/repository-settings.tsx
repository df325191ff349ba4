// Settings of who reaches the repository and what it tells: members and group shares, protected
// branches, webhooks (with their delivery log for administrators) and deploy keys.
import { ActionButton, Csrf, type Flash, type PageContext } from '../layout.tsx';
import { AccessRequestList, type AccessRequestItem } from '../access-requests.tsx';
import {
  ACCESS_LEVELS,
  Checkbox,
  SettingsFrame,
  accessLevelName,
  settingsUrl,
  type SettingsProject,
} from './settings-frame.tsx';

/** An access level select: a project's levels, or `levels` (a group's, with Owner). */
export function LevelSelect(props: {
  name: string;
  value: number;
  label: string;
  levels?: Array<[number, string]>;
}) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        {(props.levels ?? ACCESS_LEVELS).map(([level, text]) => (
          <option value={String(level)} selected={level === props.value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

export interface MemberItem {
  id: number;
  username: string;
  name: string;
  access_level: number;
  expires_at: string | null;
}

export function MembersPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  project: SettingsProject & {
    shared_with_groups: Array<{ group_id: number; group_name: string; group_access_level: number }>;
  };
  members: MemberItem[];
  /** The pending access requests (the first page) and how many there are. */
  requests: AccessRequestItem[];
  requestCount: number;
  typed?: { username: string; accessLevel: number; expiresAt: string };
  typedShare?: { group: string; accessLevel: number; expiresAt: string };
}) {
  const { project } = props;
  return (
    <SettingsFrame ctx={props.ctx} project={project} section="members" title="Members" flash={props.flash}>
      <h2>Add a member</h2>
      <form class="stack" method="post" action={settingsUrl(project, '/project_members')}>
        <Csrf ctx={props.ctx} />
        <label>
          Username
          <input type="text" name="username" value={props.typed?.username ?? ''} required />
        </label>
        <LevelSelect name="access_level" value={props.typed?.accessLevel ?? 30} label="Access level" />
        <label>
          Access expires on (optional)
          <input type="date" name="expires_at" value={props.typed?.expiresAt ?? ''} />
        </label>
        <div>
          <button type="submit" class="primary">
            Add to project
          </button>
        </div>
      </form>
      <AccessRequestList
        ctx={props.ctx}
        base={settingsUrl(project, '/project_members')}
        sourceName={project.name}
        requests={props.requests}
        total={props.requestCount}
      />
      <h2>
        Members of {project.name} ({props.members.length})
      </h2>
      <ul class="list" aria-label="Members">
        {props.members.map((member) => {
          const url = settingsUrl(project, `/project_members/${member.id}`);
          return (
            <li>
              <div class="row">
                <span>
                  <strong>{member.name}</strong> <span class="muted">@{member.username}</span>{' '}
                  <span class="badge">{accessLevelName(member.access_level)}</span>
                  {member.expires_at ? <span class="muted"> until {member.expires_at}</span> : null}
                </span>
                <ActionButton
                  ctx={props.ctx}
                  action={`${url}/delete`}
                  text="Remove"
                  label={`Remove ${member.username}`}
                  danger
                />
              </div>
              <form class="searchbar" method="post" action={url}>
                <Csrf ctx={props.ctx} />
                <LevelSelect
                  name="access_level"
                  value={member.access_level}
                  label={`Access level of ${member.username}`}
                />
                <label>
                  Expires on
                  <input type="date" name="expires_at" value={member.expires_at ?? ''} />
                </label>
                <button type="submit" aria-label={`Save ${member.username}`}>
                  Save
                </button>
              </form>
            </li>
          );
        })}
      </ul>
      <h2>Share with a group</h2>
      {project.shared_with_groups.length > 0 ? (
        <ul class="list" aria-label="Groups">
          {project.shared_with_groups.map((share) => (
            <li>
              {share.group_name} <span class="badge">{accessLevelName(share.group_access_level)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">The project is not shared with any group.</p>
      )}
      <form class="stack" method="post" action={settingsUrl(project, '/group_links')}>
        <Csrf ctx={props.ctx} />
        <label>
          Group path
          <input type="text" name="link_group" value={props.typedShare?.group ?? ''} required />
        </label>
        <LevelSelect
          name="link_group_access"
          value={props.typedShare?.accessLevel ?? 30}
          label="Max access level"
        />
        <label>
          Share expires on (optional)
          <input type="date" name="expires_at" value={props.typedShare?.expiresAt ?? ''} />
        </label>
        <div>
          <button type="submit">Share</button>
        </div>
      </form>
    </SettingsFrame>
  );
}

export interface BranchItem {
  name: string;
  protected: boolean;
  developers_can_push: boolean;
  developers_can_merge: boolean;
}

export function ProtectedBranchesPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  project: SettingsProject;
  branches: BranchItem[];
}) {
  const { project } = props;
  const protectedOnes = props.branches.filter((branch) => branch.protected);
  const open = props.branches.filter((branch) => !branch.protected);
  return (
    <SettingsFrame
      ctx={props.ctx}
      project={project}
      section="protected_branches"
      title="Protected branches"
      flash={props.flash}
    >
      <p>
        Only masters may push to a protected branch, force-push or delete it, unless developers are allowed
        below.
      </p>
      <h2>Protect a branch</h2>
      {open.length === 0 ? (
        <p class="muted">Every branch is protected, or the repository has none yet.</p>
      ) : (
        <form class="stack" method="post" action={settingsUrl(project, '/protected_branches')}>
          <Csrf ctx={props.ctx} />
          <label>
            Branch
            <select name="name">
              {open.map((branch) => (
                <option value={branch.name}>{branch.name}</option>
              ))}
            </select>
          </label>
          <Checkbox name="developers_can_push" checked={false} text="Developers can push" />
          <Checkbox name="developers_can_merge" checked={false} text="Developers can merge" />
          <div>
            <button type="submit" class="primary">
              Protect
            </button>
          </div>
        </form>
      )}
      <h2>Protected branches ({protectedOnes.length})</h2>
      {protectedOnes.length === 0 ? (
        <p class="muted">No branch is protected.</p>
      ) : (
        <ul class="list" aria-label="Protected branches">
          {protectedOnes.map((branch) => (
            <li class="row">
              <form class="searchbar" method="post" action={settingsUrl(project, '/protected_branches')}>
                <Csrf ctx={props.ctx} />
                <input type="hidden" name="name" value={branch.name} />
                <strong class="mono">{branch.name}</strong>
                <Checkbox
                  name="developers_can_push"
                  checked={branch.developers_can_push}
                  text={`Developers can push to ${branch.name}`}
                />
                <Checkbox
                  name="developers_can_merge"
                  checked={branch.developers_can_merge}
                  text={`Developers can merge into ${branch.name}`}
                />
                <button type="submit" aria-label={`Save ${branch.name}`}>
                  Save
                </button>
              </form>
              <ActionButton
                ctx={props.ctx}
                action={settingsUrl(project, '/protected_branches/unprotect')}
                fields={{ name: branch.name }}
                text="Unprotect"
                label={`Unprotect ${branch.name}`}
                danger
              />
            </li>
          ))}
        </ul>
      )}
    </SettingsFrame>
  );
}

export type HookSwitch =
  | 'push_events'
  | 'tag_push_events'
  | 'note_events'
  | 'issues_events'
  | 'merge_requests_events'
  | 'build_events'
  | 'pipeline_events'
  | 'wiki_page_events'
  | 'enable_ssl_verification';

export const HOOK_EVENTS: Array<[Exclude<HookSwitch, 'enable_ssl_verification'>, string]> = [
  ['push_events', 'Push events'],
  ['tag_push_events', 'Tag push events'],
  ['note_events', 'Comments'],
  ['issues_events', 'Issues events'],
  ['merge_requests_events', 'Merge request events'],
  ['build_events', 'Build events'],
  ['pipeline_events', 'Pipeline events'],
  ['wiki_page_events', 'Wiki page events'],
];

export type HookForm = { url: string } & Partial<Record<HookSwitch, boolean>>;

function HookFields(props: { form: HookForm }) {
  return (
    <>
      <label>
        URL
        <input
          type="url"
          name="hook[url]"
          value={props.form.url}
          required
          placeholder="http://example.com/trigger"
        />
      </label>
      <fieldset>
        <legend>Trigger</legend>
        {HOOK_EVENTS.map(([name, text]) => (
          <Checkbox name={`hook[${name}]`} checked={props.form[name] === true} text={text} />
        ))}
      </fieldset>
      <Checkbox
        name="hook[enable_ssl_verification]"
        checked={props.form.enable_ssl_verification === true}
        text="Enable SSL verification"
      />
    </>
  );
}

export function HooksPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  project: SettingsProject;
  hooks: Array<{ id: number; url: string } & Record<HookSwitch, boolean>>;
  form: HookForm;
}) {
  const { project } = props;
  return (
    <SettingsFrame ctx={props.ctx} project={project} section="hooks" title="Webhooks" flash={props.flash}>
      <p>A webhook receives a POST with a JSON body when the events it is set for happen in the project.</p>
      <h2>Add a webhook</h2>
      <form class="stack" method="post" action={settingsUrl(project, '/hooks')}>
        <Csrf ctx={props.ctx} />
        <HookFields form={props.form} />
        <div>
          <button type="submit" class="primary">
            Add webhook
          </button>
        </div>
      </form>
      <h2>Webhooks ({props.hooks.length})</h2>
      {props.hooks.length === 0 ? (
        <p class="muted">No webhooks yet.</p>
      ) : (
        <ul class="list" aria-label="Webhooks">
          {props.hooks.map((hook) => (
            <li class="row">
              <span>
                <a href={settingsUrl(project, `/hooks/${hook.id}/edit`)} class="mono">
                  {hook.url}
                </a>{' '}
                <span class="muted">
                  {HOOK_EVENTS.filter(([name]) => hook[name] === true)
                    .map(([, text]) => text)
                    .join(', ')}
                </span>
              </span>
              <span class="row">
                <ActionButton
                  ctx={props.ctx}
                  action={settingsUrl(project, `/hooks/${hook.id}/test`)}
                  text="Test"
                  label={`Test ${hook.url}`}
                />
                <ActionButton
                  ctx={props.ctx}
                  action={settingsUrl(project, `/hooks/${hook.id}/delete`)}
                  text="Remove"
                  label={`Remove ${hook.url}`}
                  danger
                />
              </span>
            </li>
          ))}
        </ul>
      )}
    </SettingsFrame>
  );
}

export interface DeliveryItem {
  id: number;
  event: string;
  status: string;
  created_at: string;
  attempts: Array<{
    attempted_at: string;
    status_code: number | null;
    error: string | null;
    duration_ms: number | null;
  }>;
}

export function HookEditPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  project: SettingsProject;
  hookId: number;
  form: HookForm;
  /** The delivery log, for administrators (as the API's …/deliveries); undefined for others. */
  deliveries?: DeliveryItem[];
}) {
  const { project } = props;
  const url = settingsUrl(project, `/hooks/${props.hookId}`);
  return (
    <SettingsFrame ctx={props.ctx} project={project} section="hooks" title="Edit webhook" flash={props.flash}>
      <form class="stack" method="post" action={url}>
        <Csrf ctx={props.ctx} />
        <HookFields form={props.form} />
        <div>
          <button type="submit" class="primary">
            Save changes
          </button>
        </div>
      </form>
      <div class="row">
        <ActionButton ctx={props.ctx} action={`${url}/test`} text="Test webhook" />
        <ActionButton ctx={props.ctx} action={`${url}/delete`} text="Remove webhook" danger />
      </div>
      {props.deliveries ? (
        <>
          <h2>Recent deliveries</h2>
          {props.deliveries.length === 0 ? (
            <p class="muted">Nothing was sent to this webhook yet.</p>
          ) : (
            <ul class="list" aria-label="Deliveries">
              {props.deliveries.map((delivery) => (
                <li>
                  <div class="row">
                    <span>
                      <strong>#{delivery.id}</strong> {delivery.event}{' '}
                      <span class="badge">{delivery.status}</span>{' '}
                      <span class="muted">{delivery.created_at}</span>
                    </span>
                    <ActionButton
                      ctx={props.ctx}
                      action={`${url}/deliveries/${delivery.id}/resend`}
                      text="Resend"
                      label={`Resend delivery ${delivery.id}`}
                    />
                  </div>
                  {delivery.attempts.length > 0 ? (
                    <ol aria-label={`Attempts of delivery ${delivery.id}`}>
                      {delivery.attempts.map((attempt) => (
                        <li>
                          {attempt.attempted_at}:{' '}
                          {attempt.status_code !== null
                            ? `HTTP ${attempt.status_code}`
                            : (attempt.error ?? 'no answer')}
                          {attempt.duration_ms !== null ? ` in ${attempt.duration_ms} ms` : ''}
                        </li>
                      ))}
                    </ol>
                  ) : (
                    <p class="muted">Not attempted yet.</p>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </SettingsFrame>
  );
}

export function DeployKeysPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  project: SettingsProject;
  keys: Array<{ id: number; title: string; key: string; created_at: string }>;
  typed?: { title: string; key: string };
}) {
  const { project } = props;
  return (
    <SettingsFrame
      ctx={props.ctx}
      project={project}
      section="deploy_keys"
      title="Deploy keys"
      flash={props.flash}
    >
      <p>
        A deploy key gives read-only access to this repository over SSH. Adding a key that is already a deploy
        key of another of your projects enables that same key here.
      </p>
      <h2>Add a deploy key</h2>
      <form class="stack" method="post" action={settingsUrl(project, '/deploy_keys')}>
        <Csrf ctx={props.ctx} />
        <label>
          Title
          <input type="text" name="deploy_key[title]" value={props.typed?.title ?? ''} required />
        </label>
        <label>
          Key
          <textarea name="deploy_key[key]" required placeholder="ssh-ed25519 AAAA…">
            {props.typed?.key ?? ''}
          </textarea>
        </label>
        <div>
          <button type="submit" class="primary">
            Add key
          </button>
        </div>
      </form>
      <h2>Enabled deploy keys ({props.keys.length})</h2>
      {props.keys.length === 0 ? (
        <p class="muted">No deploy key is enabled for this project.</p>
      ) : (
        <ul class="list" aria-label="Deploy keys">
          {props.keys.map((key) => (
            <li class="row">
              <span>
                <strong>{key.title}</strong> <span class="muted mono">{key.key.slice(0, 40)}…</span>
              </span>
              <ActionButton
                ctx={props.ctx}
                action={settingsUrl(project, `/deploy_keys/${key.id}/disable`)}
                text="Remove"
                label={`Remove ${key.title}`}
                danger
              />
            </li>
          ))}
        </ul>
      )}
    </SettingsFrame>
  );
}
