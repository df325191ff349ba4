// Groups as pages (GitLab 8.13's dashboard/groups, explore/groups, groups/new and group_members): lists of
// the API's presented groups, the new group form, and a group's members with add and remove for owners.
import {
  ActionButton,
  Csrf,
  ExploreTabs,
  Layout,
  tabLinks,
  type Flash,
  type PageContext,
} from './layout.tsx';
import { Pager, visibilityName } from './projects.tsx';
import { FormErrors } from './issues.tsx';
import { UserLink } from './inline.tsx';
import { ACCESS_LEVELS, accessLevelName } from './project-settings/settings-frame.tsx';
import { LevelSelect } from './project-settings/repository-settings.tsx';
import { AccessRequestList, type AccessRequestItem } from './access-requests.tsx';

export interface GroupItem {
  name: string;
  path: string;
  description: string;
  visibility_level: number;
}

export type GroupListTab = 'mine' | 'explore';

export function GroupListPage(props: {
  ctx: PageContext;
  tab: GroupListTab;
  groups: GroupItem[];
  search: string;
  page: number;
  hasNext: boolean;
  canCreate: boolean;
}) {
  const base = props.tab === 'mine' ? '/dashboard/groups' : '/explore/groups';
  const tab = tabLinks(props.tab);
  return (
    <Layout ctx={props.ctx} title={props.tab === 'mine' ? 'Groups' : 'Explore groups'}>
      <div class="row">
        <h1>{props.tab === 'mine' ? 'Groups' : 'Explore groups'}</h1>
        {props.canCreate ? (
          <a class="btn btn-primary" href="/groups/new">
            New group
          </a>
        ) : null}
      </div>
      {props.tab === 'explore' ? <ExploreTabs current="groups" /> : null}
      {props.ctx.viewer ? (
        <ul class="tabs">
          {tab('mine', '/dashboard/groups', 'Your groups')}
          {tab('explore', '/explore/groups', 'Explore groups')}
        </ul>
      ) : null}
      <form class="searchbar" method="get" action={base} role="search">
        <label>
          Filter by name
          <input type="search" name="search" value={props.search} />
        </label>
        <button type="submit">Search</button>
      </form>
      {props.groups.length === 0 ? (
        <p class="muted">
          {props.search
            ? 'No groups match.'
            : props.tab === 'mine'
              ? 'You are not a member of any group yet.'
              : 'There are no groups to show.'}
        </p>
      ) : (
        <ul class="list" aria-label="Groups">
          {props.groups.map((group) => (
            <li>
              <div class="row">
                <a href={`/groups/${group.path}`}>
                  <strong>{group.name}</strong>
                </a>
                <span class="badge">{visibilityName(group.visibility_level)}</span>
              </div>
              {group.description ? <p class="muted">{group.description}</p> : null}
            </li>
          ))}
        </ul>
      )}
      <Pager base={base} query={{ search: props.search }} page={props.page} hasNext={props.hasNext} />
    </Layout>
  );
}

export interface NewGroupForm {
  name: string;
  path: string;
  description: string;
  visibility_level: number;
}

export function NewGroupPage(props: { ctx: PageContext; form: NewGroupForm; errors: string[] }) {
  const { form } = props;
  return (
    <Layout ctx={props.ctx} title="New group">
      <h1>New group</h1>
      <FormErrors errors={props.errors} />
      <form class="stack" method="post" action="/groups">
        <Csrf ctx={props.ctx} />
        <label>
          Group path
          <input type="text" name="group[path]" value={form.path} required />
        </label>
        <label>
          Group name
          <input type="text" name="group[name]" value={form.name} required />
        </label>
        <label>
          Description
          <textarea name="group[description]">{form.description}</textarea>
        </label>
        <fieldset>
          <legend>Visibility level</legend>
          {[0, 10, 20].map((level) => (
            <label class="check">
              <input
                type="radio"
                name="group[visibility_level]"
                value={String(level)}
                checked={form.visibility_level === level}
              />{' '}
              {visibilityName(level)}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary">
          Create group
        </button>
      </form>
    </Layout>
  );
}

export interface GroupMemberItem {
  id: number;
  username: string;
  name: string;
  access_level: number;
  expires_at: string | null;
}

const GROUP_LEVELS: Array<[number, string]> = [...ACCESS_LEVELS, [50, 'Owner']];

export function GroupMembersPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  group: { name: string; path: string };
  members: GroupMemberItem[];
  total: number;
  page: number;
  hasNext: boolean;
  canManage: boolean;
  /** The pending access requests (the first page) and how many there are; for who manages. */
  requests: AccessRequestItem[];
  requestCount: number;
  typed?: { username: string; accessLevel: number };
}) {
  const base = `/groups/${props.group.path}/group_members`;
  return (
    <Layout ctx={props.ctx} title={`Members · ${props.group.name}`} flash={props.flash}>
      <p class="muted">
        <a href={`/groups/${props.group.path}`}>{props.group.name}</a>
      </p>
      <h1>Members</h1>
      <AccessRequestList
        ctx={props.ctx}
        base={base}
        sourceName={props.group.name}
        requests={props.requests}
        total={props.requestCount}
        levels={GROUP_LEVELS}
      />
      {props.canManage ? <h2>Add a member</h2> : null}
      {props.canManage ? (
        <form class="stack" method="post" action={base}>
          <Csrf ctx={props.ctx} />
          <label>
            Username
            <input type="text" name="username" value={props.typed?.username ?? ''} required />
          </label>
          <LevelSelect
            name="access_level"
            value={props.typed?.accessLevel ?? 10}
            label="Access level"
            levels={GROUP_LEVELS}
          />
          <div>
            <button type="submit" class="primary">
              Add to group
            </button>
          </div>
        </form>
      ) : null}
      <h2>
        {props.total === 1 ? '1 member' : `${props.total} members`} of {props.group.name}
      </h2>
      <ul class="list" aria-label="Members">
        {props.members.map((member) => (
          <li>
            <div class="row">
              <span>
                <UserLink user={member} /> <span class="muted">@{member.username}</span>{' '}
                <span class="badge">{accessLevelName(member.access_level)}</span>
                {member.expires_at ? <span class="muted"> until {member.expires_at}</span> : null}
              </span>
              {props.canManage ? (
                <ActionButton
                  ctx={props.ctx}
                  action={`${base}/${member.id}/delete`}
                  text="Remove"
                  label={`Remove ${member.username}`}
                  danger
                />
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      <Pager base={base} query={{}} page={props.page} hasNext={props.hasNext} />
    </Layout>
  );
}
