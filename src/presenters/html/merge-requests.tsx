// Merge requests as pages (GitLab 8.13's projects/merge_requests views): the list with its state tabs
// and pages; one merge request with its branches, state, merge status and Merge button, and its tabs
// (discussion with its comment form, commits, changes), its milestone and labels; the new and edit forms. Props are the API's
// presented shapes and the git readers' commits and diffs.
import type { Commit } from '../../git/commits.ts';
import { Csrf, tabLinks, type Flash, type PageContext } from './layout.tsx';
import { Pager, TimeAgo } from './projects.tsx';
import {
  CommitRow,
  DiffFiles,
  ProjectFrame,
  refUrl,
  type DiffFile,
  type ProjectHead,
} from './repository.tsx';
import {
  FormErrors,
  MilestoneAndLabelFields,
  Sidebar,
  StateBadge,
  StateButton,
  StateTabs,
  VotesAndSubscription,
  type IssueChoiceLists,
} from './issues.tsx';
import { UserLink, type PageReferences, type UserBasic } from './inline.tsx';
import { Description, Discussion, type NoteItem } from './discussion.tsx';

export interface MergeRequestItem {
  id: number;
  iid: number;
  title: string;
  description: string | null;
  state: string;
  created_at: string;
  updated_at: string;
  source_branch: string;
  target_branch: string;
  author: UserBasic | null;
  assignee: UserBasic | null;
  merge_status: string;
  upvotes: number;
  downvotes: number;
  subscribed: boolean;
  work_in_progress: boolean;
  sha: string | null;
  merge_commit_sha: string | null;
  source_project_id: number | null;
  target_project_id: number;
  /** Label titles, A→Z. */
  labels: string[];
  milestone: { id: number; title: string } | null;
}

function LabelChips(props: { labels: string[] }) {
  return (
    <>
      {props.labels.map((label) => (
        <span class="badge">{label}</span>
      ))}
    </>
  );
}

export type MergeRequestState = 'opened' | 'merged' | 'closed' | 'all';

export function MergeRequestListPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  state: MergeRequestState;
  counts: Record<MergeRequestState, number>;
  mergeRequests: MergeRequestItem[];
  page: number;
  hasNext: boolean;
  canCreate: boolean;
}) {
  const { project } = props;
  const base = `/${project.path_with_namespace}/merge_requests`;
  const href = (state: MergeRequestState) => (state === 'opened' ? base : `${base}?state=${state}`);
  const tab = (state: MergeRequestState, text: string) => ({
    state,
    text,
    count: props.counts[state],
    href: href(state),
  });
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`Merge Requests · ${project.path_with_namespace}`}
      tab="merge_requests"
    >
      <div class="row">
        <h1>Merge Requests</h1>
        {props.canCreate ? (
          <a class="btn btn-primary" href={`${base}/new`}>
            New merge request
          </a>
        ) : null}
      </div>
      <StateTabs
        label="Merge request states"
        current={props.state}
        cap={Number.MAX_SAFE_INTEGER}
        tabs={[tab('opened', 'Open'), tab('merged', 'Merged'), tab('closed', 'Closed'), tab('all', 'All')]}
      />
      <MergeRequestList
        mergeRequests={props.mergeRequests.map((mr) => ({
          ...mr,
          project_path: project.path_with_namespace,
        }))}
        empty="No merge requests to show."
      />
      <Pager
        base={base}
        query={{ state: props.state === 'opened' ? undefined : props.state }}
        page={props.page}
        hasNext={props.hasNext}
      />
    </ProjectFrame>
  );
}

/**
 * Merge requests as list rows, each linked in its target project; `showProject` names the project too
 * (lists across projects).
 */
export function MergeRequestList(props: {
  mergeRequests: Array<MergeRequestItem & { project_path: string }>;
  empty: string;
  showProject?: boolean;
}) {
  if (props.mergeRequests.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <ul class="list" aria-label="Merge requests">
      {props.mergeRequests.map((mr) => (
        <li>
          <div class="row">
            <a href={`/${mr.project_path}/merge_requests/${mr.iid}`}>
              <strong>{mr.title}</strong>
            </a>
            <span class="badges">
              <LabelChips labels={mr.labels} />
              {mr.state === 'opened' || mr.state === 'reopened' ? null : <StateBadge state={mr.state} />}
            </span>
          </div>
          <span class="muted">
            {props.showProject ? `${mr.project_path}!${mr.iid}` : `!${mr.iid}`} opened{' '}
            <TimeAgo at={mr.created_at} />
            {mr.author ? (
              <>
                {' by '}
                <UserLink user={mr.author} />
              </>
            ) : null}{' '}
            · {mr.source_branch} → {mr.target_branch}
            {mr.milestone ? ` · milestone ${mr.milestone.title}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

export type MergeRequestTab = 'discussion' | 'commits' | 'diffs';

const MERGE_STATUS_TEXT: Record<string, string> = {
  can_be_merged: 'Can be merged',
  cannot_be_merged: 'Cannot be merged: there are conflicts, or nothing to merge',
  unchecked: 'Not checked yet',
};

/** The merge widget: state, merge status, and the Merge button for who may push to the target branch. */
function MergeBox(props: { ctx: PageContext; url: string; mr: MergeRequestItem; canMerge: boolean }) {
  const { mr } = props;
  if (mr.state === 'merged') {
    return (
      <p class="flash notice" role="status">
        Merged into {mr.target_branch}
        {mr.merge_commit_sha ? ` as ${mr.merge_commit_sha.slice(0, 8)}` : ''}.
      </p>
    );
  }
  if (mr.state === 'closed') return <p class="muted">Closed without merging.</p>;
  return (
    <section aria-label="Merge" class="file">
      <p>
        Merge status: <strong>{MERGE_STATUS_TEXT[mr.merge_status] ?? mr.merge_status}</strong>
        {mr.work_in_progress ? ' · Work in progress: remove the WIP prefix from the title to merge.' : ''}
      </p>
      {!props.canMerge ? (
        <p class="muted">You may not merge into {mr.target_branch}.</p>
      ) : mr.merge_status !== 'can_be_merged' || mr.work_in_progress ? null : (
        <form method="post" action={`${props.url}/merge`} class="stack">
          <Csrf ctx={props.ctx} />
          {/* The head this page showed: a push since then refuses the merge instead of merging unseen commits. */}
          <input type="hidden" name="sha" value={mr.sha ?? ''} />
          <label class="check">
            <input type="checkbox" name="should_remove_source_branch" value="1" /> Remove source branch
          </label>
          <button type="submit" class="btn-primary">
            Merge
          </button>
        </form>
      )}
    </section>
  );
}

export function MergeRequestPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  mr: MergeRequestItem;
  tab: MergeRequestTab;
  commits?: Commit[];
  diff?: { diffs: DiffFile[]; overflow: boolean };
  /** The discussion tab's notes, oldest first, and how many there are in all. */
  notes?: { items: NoteItem[]; total: number };
  canUpdate: boolean;
  canMerge: boolean;
  /** The viewer's award emoji on the merge request, and whether they may vote on it. */
  awards: { given: string[]; canVote: boolean };
  flash?: Flash | null;
  /** The comment being written, kept when it was refused. */
  comment?: string;
  /** The description's and notes' references, resolved for the viewer. */
  references?: PageReferences;
}) {
  const { project, mr } = props;
  const url = `/${project.path_with_namespace}/merge_requests/${mr.iid}`;
  const open = mr.state === 'opened' || mr.state === 'reopened';
  const tab = tabLinks(props.tab);
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${mr.title} (!${mr.iid})`}
      tab="merge_requests"
      flash={props.flash}
    >
      <div class="meta">
        <StateBadge state={mr.state} />
        <span class="muted">
          Merge request !{mr.iid} opened <TimeAgo at={mr.created_at} />
          {mr.author ? (
            <>
              {' by '}
              <UserLink user={mr.author} />
            </>
          ) : null}
        </span>
      </div>
      {props.canUpdate ? (
        <div class="row">
          <a class="btn" href={`${url}/edit`}>
            Edit
          </a>
          {mr.state !== 'merged' && mr.state !== 'locked' ? (
            <StateButton
              ctx={props.ctx}
              action={url}
              field="merge_request[state_event]"
              value={open ? 'close' : 'reopen'}
              text={open ? 'Close merge request' : 'Reopen merge request'}
            />
          ) : null}
        </div>
      ) : null}
      <h1>{mr.title}</h1>
      <p>
        Request to merge{' '}
        {mr.source_project_id === mr.target_project_id ? (
          <a class="mono" href={refUrl(project, 'tree', mr.source_branch)}>
            {mr.source_branch}
          </a>
        ) : (
          // A fork's branch lives in the fork, which this page does not name.
          <span class="mono">{mr.source_branch} (from a fork)</span>
        )}{' '}
        into{' '}
        <a class="mono" href={refUrl(project, 'tree', mr.target_branch)}>
          {mr.target_branch}
        </a>
        {mr.assignee ? (
          <>
            {' · assigned to '}
            <UserLink user={mr.assignee} />
          </>
        ) : null}
      </p>
      <Description
        ctx={props.ctx}
        text={mr.description}
        references={props.references}
        tasks={props.canUpdate ? { action: `${url}/tasks`, version: mr.updated_at } : undefined}
      />
      <VotesAndSubscription ctx={props.ctx} url={url} item={mr} awards={props.awards} />
      <Sidebar>
        <dt>Milestone</dt>
        <dd>{mr.milestone ? mr.milestone.title : 'None'}</dd>
        <dt>Labels</dt>
        <dd>{mr.labels.length === 0 ? 'None' : <LabelChips labels={mr.labels} />}</dd>
      </Sidebar>
      <MergeBox ctx={props.ctx} url={url} mr={mr} canMerge={props.canMerge} />
      <nav aria-label="Merge request">
        <ul class="tabs">
          {tab('discussion', url, 'Discussion')}
          {tab('commits', `${url}/commits`, 'Commits')}
          {tab('diffs', `${url}/diffs`, 'Changes')}
        </ul>
      </nav>
      {props.tab === 'discussion' && props.notes ? (
        <section aria-label="Discussion" id="discussion">
          <Discussion
            ctx={props.ctx}
            project={project}
            noteable={{ type: 'MergeRequest', id: mr.id }}
            notes={props.notes.items}
            total={props.notes.total}
            comment={props.comment}
            references={props.references}
          />
        </section>
      ) : null}
      {props.tab === 'commits' && props.commits ? (
        props.commits.length === 0 ? (
          <p class="muted">No commits to merge.</p>
        ) : (
          <ul class="list" aria-label="Commits">
            {props.commits.map((commit) => (
              <CommitRow project={project} commit={commit} />
            ))}
          </ul>
        )
      ) : null}
      {props.tab === 'diffs' && props.diff ? (
        <DiffFiles diffs={props.diff.diffs} overflow={props.diff.overflow} />
      ) : null}
    </ProjectFrame>
  );
}

export interface MergeRequestFormValues {
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description: string;
  milestoneId: string;
  labelIds: string[];
}

/**
 * The new merge request form, or with `editing` the edit form of its title, description, milestone and
 * labels; milestone and labels are offered only to who may set them (`choices`, developers and up).
 */
export function MergeRequestFormPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  branches: string[];
  values: MergeRequestFormValues;
  choices: Pick<IssueChoiceLists, 'labels' | 'milestones'> | null;
  errors: string[];
  editing?: { iid: number };
}) {
  const { project, values, editing } = props;
  const base = `/${project.path_with_namespace}/merge_requests`;
  const heading = editing ? `Edit merge request !${editing.iid}` : 'New merge request';
  const branchSelect = (name: string, label: string, selected: string) => (
    <label>
      {label}
      <select name={name} required>
        <option value="">Select a branch</option>
        {props.branches.map((branch) => (
          <option value={branch} selected={branch === selected}>
            {branch}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <ProjectFrame ctx={props.ctx} project={project} title={heading} tab="merge_requests">
      <h1>{heading}</h1>
      <FormErrors errors={props.errors} />
      {!editing && props.branches.length < 2 ? (
        <p class="muted">A merge request needs two branches; push another branch first.</p>
      ) : null}
      <form class="stack" method="post" action={editing ? `${base}/${editing.iid}` : base}>
        <Csrf ctx={props.ctx} />
        {editing ? null : (
          <>
            {branchSelect('merge_request[source_branch]', 'Source branch', values.sourceBranch)}
            {branchSelect('merge_request[target_branch]', 'Target branch', values.targetBranch)}
          </>
        )}
        <label>
          Title
          <input type="text" name="merge_request[title]" value={values.title} required maxLength={255} />
        </label>
        <label>
          Description (Markdown)
          <textarea name="merge_request[description]" rows={10}>
            {values.description}
          </textarea>
        </label>
        {props.choices ? (
          <MilestoneAndLabelFields scope="merge_request" choices={props.choices} values={values} />
        ) : null}
        <button type="submit" class="btn-primary">
          {editing ? 'Save changes' : 'Submit merge request'}
        </button>
      </form>
      <p>
        <a href={editing ? `${base}/${editing.iid}` : base}>Cancel</a>
      </p>
    </ProjectFrame>
  );
}
