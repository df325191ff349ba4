// The frame of every page: head with the hashed stylesheet and script, the navigation bar (sign-in link
// or the viewer's menu with a sign-out form), flash messages and the main landmark.
import { Avatar } from './avatar.tsx';
import type { ComponentChildren } from 'preact';
import { RawHtml, type TrustedHtml } from './raw-html.tsx';

export interface PageContext {
  viewer: {
    id: number;
    username: string;
    name: string;
    avatar: string | null;
    admin: boolean;
    pendingTodos: number;
  } | null;
  /** The form token of this browser (session or anonymous cookie). */
  csrfToken: string;
  /** The request's path and query, for "sign in and come back". */
  path: string;
  assets: { stylesheet: string; script: string; icon: string };
  /** The broadcast messages showing now (their Markdown rendered), oldest first. */
  broadcasts: Array<{ id: number; html: TrustedHtml; color: string | null; font: string | null }>;
}

export interface Flash {
  kind: 'notice' | 'alert';
  text: string;
}

/** The hidden form token every form carries. */
export function Csrf(props: { ctx: PageContext }) {
  return <input type="hidden" name="authenticity_token" value={props.ctx.csrfToken} />;
}

/** A form of its own that posts one action (with the form token, and any hidden fields) behind one button. */
export function ActionButton(props: {
  ctx: PageContext;
  action: string;
  text: string;
  label?: string;
  danger?: boolean;
  fields?: Record<string, string>;
}) {
  return (
    <form method="post" action={props.action} class="inline">
      <Csrf ctx={props.ctx} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.danger ? 'btn-danger' : undefined} aria-label={props.label}>
        {props.text}
      </button>
    </form>
  );
}

/** The items of a tab list: each tab a link, the one named `current` marked as the page shown. */
export function tabLinks<T extends string>(current: T) {
  return (name: T, href: string, text: string) => (
    <li>
      <a href={href} aria-current={current === name ? 'page' : undefined}>
        {text}
      </a>
    </li>
  );
}

/** 8.13's explore navigation: the public projects, groups and snippets, one tab each. */
export function ExploreTabs(props: { current: 'projects' | 'groups' | 'snippets' }) {
  const tab = tabLinks(props.current);
  return (
    <nav aria-label="Explore">
      <ul class="tabs">
        {tab('projects', '/explore/projects', 'Projects')}
        {tab('groups', '/explore/groups', 'Groups')}
        {tab('snippets', '/explore/snippets', 'Snippets')}
      </ul>
    </nav>
  );
}

export function Layout(props: {
  ctx: PageContext;
  title: string;
  flash?: Flash | null;
  children: ComponentChildren;
}) {
  const { ctx } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="csrf-token" content={ctx.csrfToken} />
        <title>{`${props.title} · Labrador`}</title>
        <link rel="icon" type="image/svg+xml" href={ctx.assets.icon} />
        <link rel="stylesheet" href={ctx.assets.stylesheet} />
        <script src={ctx.assets.script} defer />
      </head>
      <body>
        <a class="skip" href="#content">
          Skip to content
        </a>
        <header class="navbar">
          <a class="brand" href="/">
            Labrador
          </a>
          <nav aria-label="Main" class="row">
            {ctx.viewer ? (
              <>
                <a href="/dashboard/projects">Projects</a>
                <a href="/dashboard/activity">Activity</a>
                <a href="/dashboard/groups">Groups</a>
                <a href="/dashboard/issues">Issues</a>
                <a href="/dashboard/merge_requests">Merge Requests</a>
                <a href="/dashboard/snippets">Snippets</a>
                <a href="/dashboard/todos">
                  Todos
                  {ctx.viewer.pendingTodos > 0 ? (
                    <>
                      {' '}
                      <span class="badge" aria-label={`${ctx.viewer.pendingTodos} pending`}>
                        {ctx.viewer.pendingTodos}
                      </span>
                    </>
                  ) : null}
                </a>
                <a href="/explore/projects">Explore</a>
                <a href="/projects/new">New project</a>
                <a href={`/${ctx.viewer.username}`}>
                  <Avatar subject={ctx.viewer} size={24} /> {ctx.viewer.username}
                </a>
                <a href="/profile">Profile</a>
                {ctx.viewer.admin ? <a href="/admin">Admin area</a> : null}
                <form method="post" action="/users/sign_out">
                  <Csrf ctx={ctx} />
                  <button type="submit" class="link">
                    Sign out
                  </button>
                </form>
              </>
            ) : (
              <>
                <a href="/explore/projects">Explore</a>
                <a href={`/users/sign_in?redirect_to=${encodeURIComponent(ctx.path)}`}>Sign in</a>
              </>
            )}
          </nav>
        </header>
        {ctx.broadcasts.map((broadcast) => (
          <div
            class="broadcast"
            role="status"
            data-broadcast-id={String(broadcast.id)}
            data-broadcast-color={broadcast.color ?? undefined}
            data-broadcast-font={broadcast.font ?? undefined}
          >
            <RawHtml html={broadcast.html} />
          </div>
        ))}
        <main id="content">
          {props.flash ? (
            <p class={`flash ${props.flash.kind}`} role={props.flash.kind === 'alert' ? 'alert' : 'status'}>
              {props.flash.text}
            </p>
          ) : null}
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A page that only says what went wrong (404, 403, 422, 429). */
export function ErrorPage(props: { ctx: PageContext; status: number; title: string; text: string }) {
  return (
    <Layout ctx={props.ctx} title={props.title}>
      <h1>{props.title}</h1>
      <p>{props.text}</p>
      <p>
        <a href="/">Back to the start page</a>
      </p>
    </Layout>
  );
}
