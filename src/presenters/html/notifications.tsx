// Notification levels on the pages (GitLab 8.13's profiles/notifications and its notification button):
// the profile's page with the global level (and custom's switches), the groups' and projects' levels,
// and the menu a project's page shows. Each is a plain form; with script a choice submits at once.
import { Csrf, type Flash, type PageContext } from './layout.tsx';
import { ProfileFrame } from './profile.tsx';
import type { NotificationSettingsView, SourceSettingView } from '../../views/notification-views.ts';

/** 8.13's notification_title and its descriptions, in its dropdown's order. */
const LEVELS: Array<[string, string, string]> = [
  ['global', 'Global', 'Use your global notification setting'],
  ['watch', 'Watch', 'You will receive notifications for any activity'],
  [
    'participating',
    'Participate',
    'You will only receive notifications for threads you have participated in',
  ],
  ['mention', 'On mention', 'You will receive notifications only for comments in which you were @mentioned'],
  ['disabled', 'Disabled', 'You will not get any notifications via email'],
  ['custom', 'Custom', 'You will only receive notifications for the events you choose'],
];

/** custom's switches as 8.13's custom notifications modal named them (and today's pipeline pair). */
const EVENT_LABELS: Record<string, string> = {
  new_note: 'New note',
  new_issue: 'New issue',
  reopen_issue: 'Reopen issue',
  close_issue: 'Close issue',
  reassign_issue: 'Reassign issue',
  new_merge_request: 'New merge request',
  reopen_merge_request: 'Reopen merge request',
  close_merge_request: 'Close merge request',
  reassign_merge_request: 'Reassign merge request',
  merge_merge_request: 'Merge merge request',
  failed_pipeline: 'Failed pipeline',
  success_pipeline: 'Successful pipeline',
};

function LevelSelect(props: { level: string; global?: boolean; label: string }) {
  return (
    <label>
      {props.label}
      <select name="notification_setting[level]" data-autosubmit="">
        {LEVELS.filter(([value]) => !(props.global && value === 'global')).map(([value, title, help]) => (
          <option value={value} selected={value === props.level} title={help}>
            {title}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The level of one project or group, posted to /notification_settings (back to `returnTo`). */
export function NotificationMenu(props: {
  ctx: PageContext;
  source: { type: 'project' | 'group'; id: number };
  level: string;
  returnTo: string;
}) {
  return (
    <form class="inline" method="post" action="/notification_settings" aria-label="Notifications">
      <Csrf ctx={props.ctx} />
      <input
        type="hidden"
        name={props.source.type === 'project' ? 'project_id' : 'namespace_id'}
        value={String(props.source.id)}
      />
      <input type="hidden" name="return_to" value={props.returnTo} />
      <LevelSelect level={props.level} label="Notifications" /> <button type="submit">Save</button>
    </form>
  );
}

function SourceList(props: { ctx: PageContext; type: 'project' | 'group'; rows: SourceSettingView[] }) {
  if (props.rows.length === 0) return <p class="muted">None.</p>;
  return (
    <ul class="list">
      {props.rows.map((row) => (
        <li>
          <a href={row.path}>{row.name}</a>{' '}
          <NotificationMenu
            ctx={props.ctx}
            source={{ type: props.type, id: row.id }}
            level={row.level}
            returnTo="/profile/notifications"
          />
        </li>
      ))}
    </ul>
  );
}

export function NotificationsPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  email: string;
  settings: NotificationSettingsView;
}) {
  const { global, groups, projects } = props.settings;
  return (
    <ProfileFrame ctx={props.ctx} tab="notifications" title="Notifications" flash={props.flash}>
      <p>
        You can specify notification level per group or per project. By default, all projects and groups will
        use the global notifications setting.
      </p>
      <h2>Global notification settings</h2>
      <p>
        Notification email: <strong>{props.email}</strong>
      </p>
      <form class="stack" method="post" action="/profile/notifications">
        <Csrf ctx={props.ctx} />
        <LevelSelect level={global.level} global label="Global notification level" />
        <fieldset>
          <legend>Custom: the events that also notify you</legend>
          {Object.entries(global.events).map(([event, on]) => (
            <label class="check">
              <input type="checkbox" name={`notification_setting[${event}]`} value="true" checked={on} />{' '}
              {EVENT_LABELS[event] ?? event}
            </label>
          ))}
        </fieldset>
        <div>
          <button type="submit" class="primary">
            Save notification settings
          </button>
        </div>
      </form>
      <h2>Groups ({groups.length})</h2>
      <SourceList ctx={props.ctx} type="group" rows={groups} />
      <h2>Projects ({projects.length})</h2>
      <p class="muted">
        To specify the notification level per project of a group you belong to, you need to visit project page
        and change notification level there.
      </p>
      <SourceList ctx={props.ctx} type="project" rows={projects} />
    </ProfileFrame>
  );
}
