// Issues as pages (GitLab 8.13's projects/issues views): the list with its state tabs, search, filters,
// sort and pages; one issue with its notes and a comment form; the new and edit forms. Props are the
// API's presented shapes; descriptions and comments are Markdown through the one safe renderer. The
// pieces merge requests share (state tabs, badges, buttons, the sidebar, forms) are exported from here.
import { UserAvatar } from './avatar.tsx';
import type { ComponentChildren } from 'preact';
import { ActionButton, Csrf, type Flash, type PageContext } from './layout.tsx';
import { Pager, TimeAgo } from './projects.tsx';
import { ProjectFrame, type ProjectHead } from './repository.tsx';
import { counted, UserLink, type PageReferences, type UserBasic } from './inline.tsx';
import { Description, Discussion, type NoteCounts, type NoteItem } from './discussion.tsx';

export interface IssueItem {
  id: number;
  iid: number;
  title: string;
  description: string | null;
  state: string;
  created_at: string;
  updated_at: string;
  labels: string[];
  milestone: { id: number; title: string } | null;
  assignee: UserBasic | null;
  author: UserBasic;
  user_notes_count: number;
  upvotes: number;
  downvotes: number;
  subscribed: boolean;
  confidential: boolean;
}

export interface IssueChoiceLists {
  labels: Array<{ id: number; title: string; color: string }>;
  milestones: Array<{ id: number; title: string }>;
  users: UserBasic[];
}

/** State tabs with their counts; a count that reached the cap reads "1000+". */
export function StateTabs<T extends string>(props: {
  label: string;
  current: T;
  tabs: Array<{ state: T; text: string; count: number | undefined; href: string }>;
  cap: number;
}) {
  return (
    <nav aria-label={props.label}>
      <ul class="tabs">
        {props.tabs.map((tab) => (
          <li>
            <a href={tab.href} aria-current={tab.state === props.current ? 'page' : undefined}>
              {tab.text} <span class="badge">{tab.count === undefined ? `${props.cap}+` : tab.count}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The state as 8.13's badges read it. */
export function StateBadge(props: { state: string }) {
  const text =
    props.state === 'closed'
      ? 'Closed'
      : props.state === 'merged'
        ? 'Merged'
        : props.state === 'locked'
          ? 'Locked'
          : 'Open';
  return <span class={`badge state-${props.state}`}>{text}</span>;
}

/** A thumb drawn inline (an emoji would need a font the reader's machine may lack), down turned over. */
function ThumbIcon(props: { down?: boolean }) {
  return (
    <svg class="thumb-icon" width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <g transform={props.down ? 'rotate(180 8 8)' : undefined} fill="currentColor">
        <path d="M1.5 7h3v7.5h-3z" />
        <path d="M5.5 7.2 8.6 1.8c1.2-.2 2.2.8 1.9 2.1l-.6 2.6h3.4c1 0 1.7.9 1.5 1.9l-1.2 5c-.2.7-.8 1.1-1.5 1.1H5.5z" />
      </g>
    </svg>
  );
}

/** Thumbs up and down with their counts; pressed when the viewer gave it, a second press takes it back. */
export function AwardButtons(props: {
  ctx: PageContext;
  action: string;
  upvotes: number;
  downvotes: number;
  /** The emoji names the viewer gave. */
  given: string[];
  /** False for a signed-out visitor and for the author, who may not vote on their own item. */
  canVote: boolean;
}) {
  const vote = (name: 'thumbsup' | 'thumbsdown', text: string, count: number) =>
    props.canVote ? (
      <form method="post" action={props.action} class="inline">
        <Csrf ctx={props.ctx} />
        <input type="hidden" name="name" value={name} />
        <button type="submit" aria-pressed={props.given.includes(name) ? 'true' : 'false'}>
          <ThumbIcon down={name === 'thumbsdown'} /> {text} {count}
        </button>
      </form>
    ) : (
      <span class="badge">
        <ThumbIcon down={name === 'thumbsdown'} /> {text} {count}
      </span>
    );
  return (
    <div class="actions" role="group" aria-label="Votes">
      {vote('thumbsup', 'Thumbs up', props.upvotes)}
      {vote('thumbsdown', 'Thumbs down', props.downvotes)}
    </div>
  );
}

/** Subscribe or unsubscribe (notifications of the issue or merge request), for a signed-in viewer. */
function SubscribeButton(props: { ctx: PageContext; action: string; subscribed: boolean }) {
  if (!props.ctx.viewer) return null;
  return (
    <StateButton
      ctx={props.ctx}
      action={props.action}
      field="subscribe"
      value={props.subscribed ? '0' : '1'}
      text={props.subscribed ? 'Unsubscribe' : 'Subscribe'}
    />
  );
}

/** The votes and the subscription button of the issue or merge request at `url`. */
export function VotesAndSubscription(props: {
  ctx: PageContext;
  url: string;
  item: { upvotes: number; downvotes: number; subscribed: boolean };
  /** The viewer's award emoji on the item, and whether they may vote on it. */
  awards: { given: string[]; canVote: boolean };
}) {
  const { ctx, url, item } = props;
  return (
    <>
      <AwardButtons
        ctx={ctx}
        action={`${url}/toggle_award_emoji`}
        upvotes={item.upvotes}
        downvotes={item.downvotes}
        {...props.awards}
      />
      <SubscribeButton ctx={ctx} action={`${url}/toggle_subscription`} subscribed={item.subscribed} />
    </>
  );
}

export const ISSUE_SORTS = {
  created_desc: 'Last created',
  created_asc: 'Oldest created',
  updated_desc: 'Last updated',
  updated_asc: 'Oldest updated',
} as const;
export type IssueSort = keyof typeof ISSUE_SORTS;

/** The list's query as 8.13's filters named it; empty values are left out of links. */
export interface IssueQuery {
  state: 'opened' | 'closed' | 'all';
  search: string;
  author_id: string;
  assignee_id: string;
  milestone_title: string;
  label_name: string;
  /** Every label named (`label_name[]`); an issue must have them all. */
  label_names: string[];
  sort: IssueSort;
}

export function queryHref(base: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${base}?${text}` : base;
}

/** One issue as a list row; `showProject` names its project too (lists across projects). */
function IssueRow(props: { projectPath: string; issue: IssueItem; showProject?: boolean }) {
  const { issue } = props;
  const base = `/${props.projectPath}`;
  return (
    <li>
      <div class="row">
        <a href={`${base}/issues/${issue.iid}`}>
          <strong>{issue.title}</strong>
        </a>
        {/* One group: each badge a child of the row would be spread out along it. */}
        <span class="badges">
          {issue.confidential ? <span class="badge">Confidential</span> : null}
          {issue.labels.map((label) => (
            <a class="badge" href={queryHref(`${base}/issues`, { label_name: label })}>
              {label}
            </a>
          ))}
          {issue.state === 'closed' ? <StateBadge state="closed" /> : null}
        </span>
      </div>
      <span class="muted">
        {props.showProject ? `${props.projectPath}#${issue.iid}` : `#${issue.iid}`} opened{' '}
        <TimeAgo at={issue.created_at} /> by <UserLink user={issue.author} />
        {issue.milestone ? ` · milestone ${issue.milestone.title}` : ''}
        {issue.assignee ? (
          <>
            {' · assigned to '}
            <UserLink user={issue.assignee} />
          </>
        ) : null}
        {` · ${counted(issue.user_notes_count, 'comment')}`}
      </span>
    </li>
  );
}

/** Issues as list rows (the issue list, a milestone's issues). */
export function IssueList(props: { project: ProjectHead; issues: IssueItem[] }) {
  if (props.issues.length === 0) return <p class="muted">No issues to show.</p>;
  return (
    <ul class="list" aria-label="Issues">
      {props.issues.map((issue) => (
        <IssueRow projectPath={props.project.path_with_namespace} issue={issue} />
      ))}
    </ul>
  );
}

/** Issues of several projects (a dashboard), each row naming its project. */
export function IssueListAcrossProjects(props: {
  issues: Array<IssueItem & { project_path: string }>;
  empty: string;
}) {
  if (props.issues.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <ul class="list" aria-label="Issues">
      {props.issues.map((issue) => (
        <IssueRow projectPath={issue.project_path} issue={issue} showProject />
      ))}
    </ul>
  );
}

/**
 * The filters of an issue or merge request list as 8.13's issuable filter bar offered them (search,
 * author, assignee, milestone, label, sort), a GET form that keeps the state tab.
 */
/** The filters of a list: an issue list's query, whose state a merge request list may also set to `merged`. */
export type ListQuery = Omit<IssueQuery, 'state'> & { state: string };

export function ListFilterForm(props: { base: string; query: ListQuery; choices: IssueChoiceLists }) {
  const { base, query } = props;
  return (
    <form class="searchbar" method="get" action={base} role="search">
      {query.state !== 'opened' ? <input type="hidden" name="state" value={query.state} /> : null}
      <label>
        Search
        <input type="search" name="search" value={query.search} />
      </label>
      <label>
        Author
        <select name="author_id">
          <option value="">Any author</option>
          {props.choices.users.map((user) => (
            <option value={String(user.id)} selected={String(user.id) === query.author_id}>
              {user.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Assignee
        <select name="assignee_id">
          <option value="">Any assignee</option>
          <option value="0" selected={query.assignee_id === '0'}>
            Unassigned
          </option>
          {props.choices.users.map((user) => (
            <option value={String(user.id)} selected={String(user.id) === query.assignee_id}>
              {user.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Milestone
        <select name="milestone_title">
          <option value="">Any milestone</option>
          <option value="No Milestone" selected={query.milestone_title === 'No Milestone'}>
            No milestone
          </option>
          {props.choices.milestones.map((milestone) => (
            <option value={milestone.title} selected={milestone.title === query.milestone_title}>
              {milestone.title}
            </option>
          ))}
        </select>
      </label>
      <label>
        Label
        <select name="label_name">
          <option value="">Any label</option>
          {props.choices.labels.map((label) => (
            <option value={label.title} selected={label.title === query.label_name}>
              {label.title}
            </option>
          ))}
        </select>
      </label>
      <label>
        Sort by
        <select name="sort">
          {Object.entries(ISSUE_SORTS).map(([key, text]) => (
            <option value={key} selected={key === query.sort}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}

export function IssueListPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  query: IssueQuery;
  counts: { opened: number | undefined; closed: number | undefined; all: number | undefined };
  cap: number;
  issues: IssueItem[];
  choices: IssueChoiceLists;
  page: number;
  hasNext: boolean;
  canCreate: boolean;
}) {
  const { project, query } = props;
  const base = `/${project.path_with_namespace}/issues`;
  // Tabs and pages carry the first label as `label_name` (the filter form's one select).
  const { state: _state, label_names: _labels, ...rest } = query;
  const keep = { ...rest, sort: query.sort === 'created_desc' ? undefined : query.sort };
  const tab = (state: IssueQuery['state'], text: string, count: number | undefined) => ({
    state,
    text,
    count,
    href: queryHref(base, { ...keep, state: state === 'opened' ? undefined : state }),
  });
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`Issues · ${project.path_with_namespace}`}
      tab="issues"
    >
      <div class="row">
        <h1>Issues</h1>
        {/* One group at the row's end: spread out, the links read as unrelated to each other. */}
        <div class="head-links">
          <a href={`/${project.path_with_namespace}/boards`}>Board</a>
          <a href={`/${project.path_with_namespace}/labels`}>Labels</a>
          <a href={`/${project.path_with_namespace}/milestones`}>Milestones</a>
          {props.canCreate ? (
            <a class="btn btn-primary" href={`${base}/new`}>
              New issue
            </a>
          ) : null}
        </div>
      </div>
      <StateTabs
        label="Issue states"
        current={query.state}
        cap={props.cap}
        tabs={[
          tab('opened', 'Open', props.counts.opened),
          tab('closed', 'Closed', props.counts.closed),
          tab('all', 'All', props.counts.all),
        ]}
      />
      <ListFilterForm base={base} query={query} choices={props.choices} />
      <IssueList project={project} issues={props.issues} />
      <Pager
        base={base}
        query={{ ...keep, state: query.state === 'opened' ? undefined : query.state }}
        page={props.page}
        hasNext={props.hasNext}
      />
    </ProjectFrame>
  );
}

/** A one-button form that posts a state change (close, reopen) to the issue or merge request. */
export function StateButton(props: {
  ctx: PageContext;
  action: string;
  field: string;
  value: string;
  text: string;
}) {
  return (
    <ActionButton
      ctx={props.ctx}
      action={props.action}
      text={props.text}
      fields={{ [props.field]: props.value }}
    />
  );
}

export function Sidebar(props: { children: ComponentChildren }) {
  return (
    <aside aria-label="Details">
      <dl>{props.children}</dl>
    </aside>
  );
}

export function IssuePage(props: {
  ctx: PageContext;
  project: ProjectHead;
  issue: IssueItem;
  notes: NoteItem[];
  noteCounts: NoteCounts;
  canUpdate: boolean;
  /** The viewer's award emoji on the issue, and whether they may vote on it. */
  awards: { given: string[]; canVote: boolean };
  flash?: Flash | null;
  comment?: string;
  /** The description's and notes' references, resolved for the viewer. */
  references?: PageReferences;
}) {
  const { project, issue } = props;
  const url = `/${project.path_with_namespace}/issues/${issue.iid}`;
  const open = issue.state !== 'closed';
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${issue.title} (#${issue.iid})`}
      tab="issues"
      flash={props.flash}
    >
      <div class="meta">
        <StateBadge state={issue.state} />
        <span class="muted">
          Issue #{issue.iid} opened <TimeAgo at={issue.created_at} /> by <UserAvatar user={issue.author} />{' '}
          <UserLink user={issue.author} />
        </span>
        {issue.confidential ? <span class="badge">Confidential</span> : null}
      </div>
      {props.canUpdate ? (
        <div class="row">
          <a class="btn" href={`${url}/edit`}>
            Edit
          </a>
          <StateButton
            ctx={props.ctx}
            action={url}
            field="issue[state_event]"
            value={open ? 'close' : 'reopen'}
            text={open ? 'Close issue' : 'Reopen issue'}
          />
        </div>
      ) : null}
      <h1>{issue.title}</h1>
      <Description
        ctx={props.ctx}
        text={issue.description}
        references={props.references}
        tasks={props.canUpdate ? { action: `${url}/tasks`, version: issue.updated_at } : undefined}
      />
      <VotesAndSubscription ctx={props.ctx} url={url} item={issue} awards={props.awards} />
      <Sidebar>
        <dt>Assignee</dt>
        <dd>{issue.assignee ? <UserLink user={issue.assignee} /> : 'No assignee'}</dd>
        <dt>Milestone</dt>
        <dd>{issue.milestone ? issue.milestone.title : 'None'}</dd>
        <dt>Labels</dt>
        <dd>
          {issue.labels.length === 0
            ? 'None'
            : issue.labels.map((label) => (
                <a
                  class="badge"
                  href={queryHref(`/${project.path_with_namespace}/issues`, { label_name: label })}
                >
                  {label}
                </a>
              ))}
        </dd>
      </Sidebar>
      <Discussion
        ctx={props.ctx}
        project={project}
        noteable={{ type: 'Issue', id: issue.id }}
        notes={props.notes}
        counts={props.noteCounts}
        comment={props.comment}
        references={props.references}
      />
    </ProjectFrame>
  );
}

/** The values of the issue form, as posted or as the issue has them. */
export interface IssueFormValues {
  title: string;
  description: string;
  assigneeId: string;
  milestoneId: string;
  labelIds: string[];
  confidential: boolean;
}

export function IssueFormPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  /** The issue being edited, or null for a new one. */
  issue: { iid: number; title: string } | null;
  values: IssueFormValues;
  choices: IssueChoiceLists;
  /** Assignee, milestone and labels are offered only to who may set them (reporters and up). */
  canAdmin: boolean;
  errors: string[];
}) {
  const { project, values } = props;
  const base = `/${project.path_with_namespace}/issues`;
  const action = props.issue ? `${base}/${props.issue.iid}` : base;
  const heading = props.issue ? `Edit issue #${props.issue.iid}` : 'New issue';
  return (
    <ProjectFrame ctx={props.ctx} project={project} title={heading} tab="issues">
      <h1>{heading}</h1>
      <FormErrors errors={props.errors} />
      <form class="stack" method="post" action={action}>
        <Csrf ctx={props.ctx} />
        <label>
          Title
          <input type="text" name="issue[title]" value={values.title} required maxLength={255} />
        </label>
        <label>
          Description (Markdown)
          <textarea name="issue[description]" rows={10}>
            {values.description}
          </textarea>
        </label>
        <label class="check">
          <input type="checkbox" name="issue[confidential]" value="1" checked={values.confidential} /> This
          issue is confidential and should only be visible to team members with at least Reporter access.
        </label>
        {props.canAdmin ? (
          <>
            <label>
              Assignee
              <select name="issue[assignee_id]">
                <option value="">Unassigned</option>
                {props.choices.users.map((user) => (
                  <option value={String(user.id)} selected={String(user.id) === values.assigneeId}>
                    {user.name} (@{user.username})
                  </option>
                ))}
              </select>
            </label>
            <MilestoneAndLabelFields scope="issue" choices={props.choices} values={values} />
          </>
        ) : null}
        <button type="submit" class="btn-primary">
          {props.issue ? 'Save changes' : 'Submit issue'}
        </button>
      </form>
      <p>
        <a href={props.issue ? `${base}/${props.issue.iid}` : base}>Cancel</a>
      </p>
    </ProjectFrame>
  );
}

/**
 * The milestone select and the label checkboxes of the issue and merge request forms, named
 * `<scope>[milestone_id]` and `<scope>[label_ids][]` as GitLab's forms named them.
 */
export function MilestoneAndLabelFields(props: {
  scope: 'issue' | 'merge_request';
  choices: Pick<IssueChoiceLists, 'labels' | 'milestones'>;
  values: { milestoneId: string; labelIds: string[] };
}) {
  const { scope, choices, values } = props;
  return (
    <>
      <label>
        Milestone
        <select name={`${scope}[milestone_id]`}>
          <option value="">No milestone</option>
          {choices.milestones.map((milestone) => (
            <option value={String(milestone.id)} selected={String(milestone.id) === values.milestoneId}>
              {milestone.title}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>Labels</legend>
        {/* An empty value keeps "no label ticked" apart from "labels not in the form". */}
        <input type="hidden" name={`${scope}[label_ids][]`} value="" />
        {choices.labels.length === 0 ? <p class="muted">This project has no labels yet.</p> : null}
        {choices.labels.map((label) => (
          <label class="check">
            <input
              type="checkbox"
              name={`${scope}[label_ids][]`}
              value={String(label.id)}
              checked={values.labelIds.includes(String(label.id))}
            />{' '}
            {label.title}
          </label>
        ))}
      </fieldset>
    </>
  );
}

/** What a form's submission was refused for, read out by screen readers as it appears. */
export function FormErrors(props: { errors: string[] }) {
  if (props.errors.length === 0) return null;
  return (
    <div class="flash alert" role="alert">
      <p>The form contains {props.errors.length === 1 ? 'an error' : 'errors'}:</p>
      <ul>
        {props.errors.map((error) => (
          <li>{error}</li>
        ))}
      </ul>
    </div>
  );
}
