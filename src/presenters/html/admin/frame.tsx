// The frame of every administrators' page (GitLab 8.13's admin area): its tabs, then the page's title.
import type { ComponentChildren } from 'preact';
import { Layout, tabLinks, type Flash, type PageContext } from '../layout.tsx';

export type AdminTab = 'overview' | 'users' | 'projects' | 'runners' | 'hooks' | 'broadcast_messages';

const TABS: Array<[AdminTab, string, string]> = [
  ['overview', '/admin', 'Overview'],
  ['users', '/admin/users', 'Users'],
  ['projects', '/admin/projects', 'Projects'],
  ['runners', '/admin/runners', 'Runners'],
  ['hooks', '/admin/hooks', 'System hooks'],
  ['broadcast_messages', '/admin/broadcast_messages', 'Messages'],
];

export function AdminFrame(props: {
  ctx: PageContext;
  tab: AdminTab;
  title: string;
  flash?: Flash | null;
  children: ComponentChildren;
}) {
  const tab = tabLinks(props.tab);
  return (
    <Layout ctx={props.ctx} title={`${props.title} · Admin area`} flash={props.flash}>
      <nav aria-label="Admin area">
        <ul class="tabs">{TABS.map(([name, href, text]) => tab(name, href, text))}</ul>
      </nav>
      <h1>{props.title}</h1>
      {props.children}
    </Layout>
  );
}
