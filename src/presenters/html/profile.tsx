// The signed-in user's settings (GitLab 8.13's /profile pages) and the new-project form.
import { Avatar } from './avatar.tsx';
import type { ComponentChildren } from 'preact';
import { Csrf, Layout, tabLinks, type Flash, type PageContext } from './layout.tsx';
import { VisibilityLevelChoice } from './projects.tsx';

export type ProfileTab = 'profile' | 'account' | 'emails' | 'password' | 'keys' | 'tokens' | 'notifications';

export function ProfileFrame(props: {
  ctx: PageContext;
  tab: ProfileTab;
  title: string;
  flash?: Flash | null;
  children: ComponentChildren;
}) {
  const tab = tabLinks(props.tab);
  return (
    <Layout ctx={props.ctx} title={props.title} flash={props.flash}>
      <h1>{props.title}</h1>
      <nav aria-label="Settings">
        <ul class="tabs">
          {tab('profile', '/profile', 'Profile')}
          {tab('account', '/profile/account', 'Account')}
          {tab('emails', '/profile/emails', 'Emails')}
          {tab('password', '/profile/password/edit', 'Password')}
          {tab('keys', '/profile/keys', 'SSH Keys')}
          {tab('tokens', '/profile/personal_access_tokens', 'Access Tokens')}
          {tab('notifications', '/profile/notifications', 'Notifications')}
        </ul>
      </nav>
      {props.children}
    </Layout>
  );
}

export function ProfilePage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  user: { id: number; name: string; email: string; bio: string | null; avatar: string | null };
}) {
  return (
    <ProfileFrame ctx={props.ctx} tab="profile" title="Profile settings" flash={props.flash}>
      <form class="stack" method="post" action="/profile" enctype="multipart/form-data">
        <Csrf ctx={props.ctx} />
        <div class="row">
          <Avatar subject={props.user} size={90} />
          <label>
            Avatar (an image, at most 200 KB)
            <input type="file" name="user[avatar]" accept="image/png,image/jpeg,image/gif,image/x-icon" />
          </label>
        </div>
        <label>
          Name
          <input type="text" name="user[name]" value={props.user.name} required />
        </label>
        <label>
          Email
          <input type="email" name="user[email]" value={props.user.email} required />
        </label>
        <label>
          Bio
          <textarea name="user[bio]">{props.user.bio ?? ''}</textarea>
        </label>
        <div>
          <button type="submit" class="primary">
            Update profile settings
          </button>
        </div>
      </form>
      {props.user.avatar ? (
        <form method="post" action="/profile/avatar/delete">
          <Csrf ctx={props.ctx} />
          <button type="submit" class="btn-danger">
            Remove avatar
          </button>
        </form>
      ) : null}
    </ProfileFrame>
  );
}

export function AccountPage(props: { ctx: PageContext; flash?: Flash | null; token: string }) {
  return (
    <ProfileFrame ctx={props.ctx} tab="account" title="Account" flash={props.flash}>
      <h2>Private token</h2>
      <p>Your private token is used to access the API and git over HTTP. Keep it secret.</p>
      <div class="clone">
        <label for="private-token">Private token</label>
        <input id="private-token" type="text" readOnly value={props.token} />
        <button type="button" data-copy="private-token" hidden>
          Copy token
        </button>
      </div>
      <form method="post" action="/profile/reset_private_token">
        <Csrf ctx={props.ctx} />
        <button type="submit" class="btn-danger">
          Reset private token
        </button>
      </form>
    </ProfileFrame>
  );
}

export function EmailsPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  primary: string;
  emails: Array<{ id: number; email: string }>;
  typed?: string;
}) {
  return (
    <ProfileFrame ctx={props.ctx} tab="emails" title="Emails" flash={props.flash}>
      <ul class="list" aria-label="Emails">
        <li>
          {props.primary} <span class="badge">Primary</span>
        </li>
        {props.emails.map((email) => (
          <li class="row">
            <span>{email.email}</span>
            <form method="post" action={`/profile/emails/${email.id}/delete`}>
              <Csrf ctx={props.ctx} />
              <button type="submit" class="btn-danger" aria-label={`Remove ${email.email}`}>
                Remove
              </button>
            </form>
          </li>
        ))}
      </ul>
      <h2>Add an email address</h2>
      <form class="stack" method="post" action="/profile/emails">
        <Csrf ctx={props.ctx} />
        <label>
          Email
          <input type="email" name="email[email]" value={props.typed ?? ''} required />
        </label>
        <div>
          <button type="submit" class="primary">
            Add email address
          </button>
        </div>
      </form>
    </ProfileFrame>
  );
}

export function PasswordPage(props: { ctx: PageContext; flash?: Flash | null }) {
  return (
    <ProfileFrame ctx={props.ctx} tab="password" title="Password" flash={props.flash}>
      <p>After a change, every other browser signed in as you is signed out.</p>
      <form class="stack" method="post" action="/profile/password">
        <Csrf ctx={props.ctx} />
        <label>
          Current password
          <input type="password" name="user[current_password]" autocomplete="current-password" required />
        </label>
        <label>
          New password
          <input type="password" name="user[password]" autocomplete="new-password" required />
        </label>
        <label>
          Password confirmation
          <input type="password" name="user[password_confirmation]" autocomplete="new-password" required />
        </label>
        <div>
          <button type="submit" class="primary">
            Save password
          </button>
        </div>
      </form>
    </ProfileFrame>
  );
}

export function KeysPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  keys: Array<{ id: number; title: string; key: string; created_at: string }>;
  typed?: { title: string; key: string };
}) {
  return (
    <ProfileFrame ctx={props.ctx} tab="keys" title="SSH Keys" flash={props.flash}>
      <h2>Add an SSH key</h2>
      <form class="stack" method="post" action="/profile/keys">
        <Csrf ctx={props.ctx} />
        <label>
          Key
          <textarea name="key[key]" required placeholder="ssh-ed25519 AAAA… you@example.com">
            {props.typed?.key ?? ''}
          </textarea>
        </label>
        <label>
          Title
          <input type="text" name="key[title]" value={props.typed?.title ?? ''} required />
        </label>
        <div>
          <button type="submit" class="primary">
            Add key
          </button>
        </div>
      </form>
      <h2>Your SSH keys ({props.keys.length})</h2>
      {props.keys.length === 0 ? (
        <p class="muted">There are no SSH keys with access to your account.</p>
      ) : (
        <ul class="list" aria-label="SSH keys">
          {props.keys.map((key) => (
            <li class="row">
              <span>
                <strong>{key.title}</strong> <span class="muted mono">{key.key.slice(0, 40)}…</span>
              </span>
              <form method="post" action={`/profile/keys/${key.id}/delete`}>
                <Csrf ctx={props.ctx} />
                <button type="submit" class="btn-danger" aria-label={`Remove ${key.title}`}>
                  Remove
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </ProfileFrame>
  );
}

export interface NewProjectForm {
  name: string;
  path: string;
  description: string;
  visibility: number;
  namespaceId: number;
}

export function NewProjectPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  namespaces: Array<{ id: number; path: string; kind: string }>;
  form: NewProjectForm;
}) {
  const { form } = props;
  return (
    <Layout ctx={props.ctx} title="New project" flash={props.flash}>
      <h1>New project</h1>
      <form class="stack" method="post" action="/projects">
        <Csrf ctx={props.ctx} />
        <label>
          Namespace
          <select name="project[namespace_id]">
            {props.namespaces.map((namespace) => (
              <option value={String(namespace.id)} selected={namespace.id === form.namespaceId}>
                {namespace.path}
                {namespace.kind === 'group' ? ' (group)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          Project name
          <input type="text" name="project[name]" value={form.name} required />
        </label>
        <label>
          Project path (optional)
          <input type="text" name="project[path]" value={form.path} />
        </label>
        <label>
          Description (optional)
          <textarea name="project[description]">{form.description}</textarea>
        </label>
        <VisibilityLevelChoice legend="Visibility level" level={form.visibility} />
        <div>
          <button type="submit" class="primary">
            Create project
          </button>
        </div>
      </form>
    </Layout>
  );
}
