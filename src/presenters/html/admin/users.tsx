// /admin/users: the list with search, one user's page (block, unblock, edit) and the new/edit form. The
// users are the API's administrator form (presentUserFull), so the page shows what GET /users shows.
import type { presentUserFull } from '../../api-v3/user.ts';
import { ActionButton, Csrf, type Flash, type PageContext } from '../layout.tsx';
import { Pager, TimeAgo } from '../projects.tsx';
import { AdminFrame } from './frame.tsx';

type AdminUser = ReturnType<typeof presentUserFull>;

function UserBadges(props: { user: AdminUser }) {
  const { user } = props;
  return (
    <>
      {user.is_admin ? <span class="badge">Admin</span> : null}{' '}
      {user.state !== 'active' ? (
        <span class="badge">{user.state === 'blocked' ? 'Blocked' : user.state}</span>
      ) : null}{' '}
      {user.external ? <span class="badge">External</span> : null}
    </>
  );
}

export function AdminUsersPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  users: AdminUser[];
  total: number;
  search: string;
  page: number;
  hasNext: boolean;
}) {
  return (
    <AdminFrame ctx={props.ctx} tab="users" title="Users" flash={props.flash}>
      <div class="row">
        <form class="searchbar" method="get" action="/admin/users" role="search">
          <label>
            Search by name, username or email
            <input type="search" name="search" value={props.search} />
          </label>
          <button type="submit">Search</button>
        </form>
        <a class="btn btn-primary" href="/admin/users/new">
          New user
        </a>
      </div>
      <p class="muted">{props.total === 1 ? '1 user' : `${props.total} users`}</p>
      {props.users.length === 0 ? (
        <p class="muted">No users found.</p>
      ) : (
        <div class="table-wrap">
          <table aria-label="Users">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Username</th>
                <th scope="col">Email</th>
                <th scope="col">Created</th>
                <th scope="col">Last sign-in</th>
              </tr>
            </thead>
            <tbody>
              {props.users.map((user) => (
                <tr>
                  <td>
                    <a href={`/admin/users/${encodeURIComponent(user.username)}`}>{user.name}</a>{' '}
                    <UserBadges user={user} />
                  </td>
                  <td>{user.username}</td>
                  <td>{user.email}</td>
                  <td>
                    <TimeAgo at={user.created_at} />
                  </td>
                  <td>{user.current_sign_in_at ? <TimeAgo at={user.current_sign_in_at} /> : 'never'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/admin/users" query={{ search: props.search }} page={props.page} hasNext={props.hasNext} />
    </AdminFrame>
  );
}

export function AdminUserPage(props: { ctx: PageContext; flash?: Flash | null; user: AdminUser }) {
  const { user } = props;
  const base = `/admin/users/${encodeURIComponent(user.username)}`;
  const text = (value: string | null) => (value ? value : <span class="muted">none</span>);
  return (
    <AdminFrame ctx={props.ctx} tab="users" title={user.name} flash={props.flash}>
      <p>
        <a href={`/${user.username}`}>@{user.username}</a> <UserBadges user={user} />
      </p>
      <div class="row">
        <span>
          <a class="btn" href={`${base}/edit`}>
            Edit
          </a>
        </span>
        {user.state === 'active' ? (
          <ActionButton ctx={props.ctx} action={`${base}/block`} text="Block user" danger />
        ) : user.state === 'blocked' ? (
          <ActionButton ctx={props.ctx} action={`${base}/unblock`} text="Unblock user" />
        ) : null}
      </div>
      <h2>Account</h2>
      <dl class="facts" aria-label="Account">
        <dt>Name</dt>
        <dd>{user.name}</dd>
        <dt>Username</dt>
        <dd>{user.username}</dd>
        <dt>Email</dt>
        <dd>{user.email}</dd>
        <dt>State</dt>
        <dd>{user.state}</dd>
        <dt>Administrator</dt>
        <dd>{user.is_admin ? 'yes' : 'no'}</dd>
        <dt>External</dt>
        <dd>{user.external ? 'yes' : 'no'}</dd>
        <dt>Can create groups</dt>
        <dd>{user.can_create_group ? 'yes' : 'no'}</dd>
        <dt>Projects limit</dt>
        <dd>{user.projects_limit}</dd>
        <dt>Member since</dt>
        <dd>
          <TimeAgo at={user.created_at} />
        </dd>
        <dt>Last sign-in</dt>
        <dd>{user.current_sign_in_at ? <TimeAgo at={user.current_sign_in_at} /> : 'never'}</dd>
        <dt>Identities</dt>
        <dd>
          {user.identities.length === 0
            ? text(null)
            : user.identities.map((identity) => `${identity.provider}: ${identity.extern_uid}`).join(', ')}
        </dd>
      </dl>
      <h2>Profile</h2>
      <dl class="facts" aria-label="Profile">
        <dt>Bio</dt>
        <dd>{text(user.bio)}</dd>
        <dt>Location</dt>
        <dd>{text(user.location)}</dd>
        <dt>Organization</dt>
        <dd>{text(user.organization)}</dd>
        <dt>Website</dt>
        <dd>{text(user.website_url)}</dd>
      </dl>
    </AdminFrame>
  );
}

/** What the new/edit form shows: the user's values, or what was typed when the service refused it. */
export interface AdminUserForm {
  name: string;
  username: string;
  email: string;
  projects_limit: string;
  can_create_group: boolean;
  admin: boolean;
  external: boolean;
  bio: string;
  location: string;
  organization: string;
  website_url: string;
  skype: string;
  linkedin: string;
  twitter: string;
}

export const USER_FORM_TEXT = [
  ['name', 'Name'],
  ['username', 'Username'],
  ['email', 'Email'],
  ['projects_limit', 'Projects limit'],
  ['skype', 'Skype'],
  ['linkedin', 'LinkedIn'],
  ['twitter', 'Twitter'],
  ['website_url', 'Website'],
  ['organization', 'Organization'],
  ['location', 'Location'],
] as const;

export const USER_FORM_SWITCHES = [
  ['can_create_group', 'Can create groups'],
  ['admin', 'Administrator'],
  ['external', 'External (sees only public projects and those they are a member of)'],
] as const;

export function AdminUserFormPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  /** The username the form edits (its current one), or undefined for a new user. */
  editing?: string;
  form: AdminUserForm;
}) {
  const { form } = props;
  const creating = props.editing === undefined;
  const action = creating ? '/admin/users' : `/admin/users/${encodeURIComponent(props.editing!)}`;
  const required = new Set(['name', 'username', 'email']);
  return (
    <AdminFrame
      ctx={props.ctx}
      tab="users"
      title={creating ? 'New user' : `Edit user ${props.editing}`}
      flash={props.flash}
    >
      <form class="stack" method="post" action={action}>
        <Csrf ctx={props.ctx} />
        {USER_FORM_TEXT.map(([key, label]) => (
          <label>
            {label}
            <input
              // One element for the three kinds (Preact's types want a single literal).
              type={(key === 'email' ? 'email' : key === 'projects_limit' ? 'number' : 'text') as 'text'}
              name={`user[${key}]`}
              value={form[key]}
              required={required.has(key)}
            />
          </label>
        ))}
        <label>
          Bio
          <textarea name="user[bio]">{form.bio}</textarea>
        </label>
        <label>
          {creating ? 'Password' : 'New password (leave blank to keep the current one)'}
          <input type="password" name="user[password]" autocomplete="new-password" required={creating} />
        </label>
        <label>
          Password confirmation
          <input
            type="password"
            name="user[password_confirmation]"
            autocomplete="new-password"
            required={creating}
          />
        </label>
        <fieldset>
          <legend>Access</legend>
          {USER_FORM_SWITCHES.map(([key, label]) => (
            <label class="check">
              <input type="checkbox" name={`user[${key}]`} value="1" checked={form[key]} /> {label}
            </label>
          ))}
        </fieldset>
        <div>
          <button type="submit" class="primary">
            {creating ? 'Create user' : 'Save changes'}
          </button>{' '}
          <a href={creating ? '/admin/users' : `/admin/users/${encodeURIComponent(props.editing!)}`}>
            Cancel
          </a>
        </div>
      </form>
    </AdminFrame>
  );
}
