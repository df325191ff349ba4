// The signed-in person's dashboards (GitLab 8.13's dashboard/issues, merge_requests, todos, activity):
// lists across every project the viewer may read, in the API's presented shapes, each row naming its
// project.
import type { ComponentChildren } from 'preact';
import { Csrf, Layout, type Flash, type PageContext } from './layout.tsx';
import { Pager, TimeAgo } from './projects.tsx';
import { IssueListAcrossProjects, StateTabs, type IssueItem } from './issues.tsx';
import { UserLink, type UserBasic } from './inline.tsx';
import { MergeRequestList, type MergeRequestItem } from './merge-requests.tsx';
import { EventList, type ActivityEvent } from './activity.tsx';

/** Whose rows a dashboard lists, as the query names it (8.13's `assignee_id` / `author_id`). */
export interface DashboardFilter {
  role: 'assignee' | 'author';
  userId: number;
  /** The viewer's own id: the "Assigned to me" and "Created by me" links. */
  viewerId: number;
}

function filterQuery(filter: DashboardFilter): Record<string, string> {
  return filter.role === 'author' ? { author_id: String(filter.userId) } : {};
}

function withQuery(base: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${base}?${text}` : base;
}

/** "Assigned to me" / "Created by me", the two views 8.13's dashboard filters were mostly used for. */
function PersonSwitch(props: { base: string; filter: DashboardFilter }) {
  const mine = props.filter.userId === props.filter.viewerId;
  const link = (role: DashboardFilter['role'], text: string) => (
    <a
      href={
        role === 'assignee' ? props.base : withQuery(props.base, { author_id: String(props.filter.viewerId) })
      }
      aria-current={mine && props.filter.role === role ? 'true' : undefined}
      class="btn"
    >
      {text}
    </a>
  );
  return (
    <nav class="actions" aria-label="Whose">
      {link('assignee', 'Assigned to me')}
      {link('author', 'Created by me')}
    </nav>
  );
}

function DashboardFrame(props: {
  ctx: PageContext;
  title: string;
  flash?: Flash | null;
  children: ComponentChildren;
}) {
  return (
    <Layout ctx={props.ctx} title={props.title} flash={props.flash}>
      <h1>{props.title}</h1>
      {props.children}
    </Layout>
  );
}

/** An issue or merge request dashboard: whose, the state tabs with counts, the rows and their pages. */
function PersonListPage<S extends string>(props: {
  ctx: PageContext;
  title: string;
  base: string;
  filter: DashboardFilter;
  state: S;
  tabs: Array<[S, string]>;
  counts: Record<S, number | undefined>;
  cap: number;
  page: number;
  hasNext: boolean;
  children: ComponentChildren;
}) {
  const keep = filterQuery(props.filter);
  const first = props.tabs[0]![0];
  const stateQuery = (state: S) => (state === first ? undefined : state);
  return (
    <DashboardFrame ctx={props.ctx} title={props.title}>
      <PersonSwitch base={props.base} filter={props.filter} />
      <StateTabs
        label={`${props.title} states`}
        current={props.state}
        cap={props.cap}
        tabs={props.tabs.map(([state, text]) => ({
          state,
          text,
          count: props.counts[state],
          href: withQuery(props.base, { ...keep, state: stateQuery(state) }),
        }))}
      />
      {props.children}
      <Pager
        base={props.base}
        query={{ ...keep, state: stateQuery(props.state) }}
        page={props.page}
        hasNext={props.hasNext}
      />
    </DashboardFrame>
  );
}

const emptyText = (filter: DashboardFilter, things: string) =>
  `No ${things} ${filter.role === 'author' ? 'created by' : 'assigned to'} you here.`;

export type DashboardIssueState = 'opened' | 'closed' | 'all';

export function DashboardIssuesPage(props: {
  ctx: PageContext;
  filter: DashboardFilter;
  state: DashboardIssueState;
  counts: Record<DashboardIssueState, number | undefined>;
  cap: number;
  issues: Array<IssueItem & { project_path: string }>;
  page: number;
  hasNext: boolean;
}) {
  return (
    <PersonListPage
      {...props}
      title="Issues"
      base="/dashboard/issues"
      tabs={[
        ['opened', 'Open'],
        ['closed', 'Closed'],
        ['all', 'All'],
      ]}
    >
      <IssueListAcrossProjects issues={props.issues} empty={emptyText(props.filter, 'issues')} />
    </PersonListPage>
  );
}

export type DashboardMergeRequestState = 'opened' | 'merged' | 'closed' | 'all';

export function DashboardMergeRequestsPage(props: {
  ctx: PageContext;
  filter: DashboardFilter;
  state: DashboardMergeRequestState;
  counts: Record<DashboardMergeRequestState, number>;
  mergeRequests: Array<MergeRequestItem & { project_path: string }>;
  page: number;
  hasNext: boolean;
}) {
  return (
    <PersonListPage
      {...props}
      title="Merge Requests"
      base="/dashboard/merge_requests"
      cap={Number.MAX_SAFE_INTEGER}
      tabs={[
        ['opened', 'Open'],
        ['merged', 'Merged'],
        ['closed', 'Closed'],
        ['all', 'All'],
      ]}
    >
      <MergeRequestList
        mergeRequests={props.mergeRequests}
        showProject
        empty={emptyText(props.filter, 'merge requests')}
      />
    </PersonListPage>
  );
}

export interface TodoItem {
  id: number;
  project: { path_with_namespace: string; name_with_namespace: string };
  author: UserBasic;
  action_name: string;
  target_type: string;
  target: { iid: number; title: string };
  body: string;
  created_at: string;
}

/** 8.13's todo sentences: "<author> assigned you issue #3 at <project>". */
const TODO_VERBS: Record<string, string> = {
  assigned: 'assigned you',
  mentioned: 'mentioned you on',
  build_failed: 'reported a failed build on',
  marked: 'added a todo for',
  approval_required: 'asked for your approval on',
};

export function TodosPage(props: {
  ctx: PageContext;
  todos: TodoItem[];
  total: number;
  page: number;
  hasNext: boolean;
  flash?: Flash | null;
}) {
  return (
    <DashboardFrame ctx={props.ctx} title="Todos" flash={props.flash}>
      <div class="row">
        <p class="muted">{props.total === 1 ? '1 pending todo' : `${props.total} pending todos`}</p>
        {props.total > 0 ? (
          <form method="post" action="/dashboard/todos/destroy_all">
            <Csrf ctx={props.ctx} />
            <button type="submit">Mark all as done</button>
          </form>
        ) : null}
      </div>
      {props.todos.length === 0 ? (
        <p class="muted">You have nothing to do. Todos appear here when someone assigns or mentions you.</p>
      ) : (
        <ul class="list" aria-label="Todos">
          {props.todos.map((todo) => {
            const isIssue = todo.target_type === 'Issue';
            const path = todo.project.path_with_namespace;
            const href = `/${path}/${isIssue ? 'issues' : 'merge_requests'}/${todo.target.iid}`;
            return (
              <li>
                <div class="row">
                  <span>
                    <UserLink user={todo.author} /> {TODO_VERBS[todo.action_name] ?? 'added a todo for'}{' '}
                    {isIssue ? 'issue' : 'merge request'}{' '}
                    <a href={href}>
                      {isIssue ? '#' : '!'}
                      {todo.target.iid} {todo.body}
                    </a>{' '}
                    at <a href={`/${path}`}>{todo.project.name_with_namespace}</a>
                  </span>
                  <form method="post" action={`/dashboard/todos/${todo.id}/delete`}>
                    <Csrf ctx={props.ctx} />
                    <button type="submit" aria-label={`Done: ${todo.body}`}>
                      Done
                    </button>
                  </form>
                </div>
                <span class="muted">
                  <TimeAgo at={todo.created_at} />
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <Pager base="/dashboard/todos" query={{}} page={props.page} hasNext={props.hasNext} />
    </DashboardFrame>
  );
}

export function ActivityPage(props: {
  ctx: PageContext;
  events: ActivityEvent[];
  page: number;
  hasNext: boolean;
}) {
  return (
    <DashboardFrame ctx={props.ctx} title="Activity">
      <EventList events={props.events} empty="No activity yet in your projects." showProject />
      <Pager base="/dashboard/activity" query={{}} page={props.page} hasNext={props.hasNext} />
    </DashboardFrame>
  );
}
