// Merge requests as pages (GitLab 8.13's projects/merge_requests views): the list with its state tabs
// and pages; one merge request with its branches, state, merge status and Merge button, and its tabs
// (discussion with its comment form, commits, changes), its milestone and labels; the new and edit forms. Props are the API's
// presented shapes and the git readers' commits and diffs.
import { UserAvatar } from './avatar.tsx';
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
  ListFilterForm,
  MilestoneAndLabelFields,
  queryHref,
  type ListQuery,
  Sidebar,
  StateBadge,
  StateButton,
  StateTabs,
  VotesAndSubscription,
  type IssueChoiceLists,
} from './issues.tsx';
import { UserLink, type PageReferences, type UserBasic } from './inline.tsx';
import { Description, Discussion, type NoteCounts, type NoteItem } from './discussion.tsx';
import { BuildTable, PipelineTable, type BuildItem, type PipelineItem, type StageItem } from './ci.tsx';
import { CiStatusBadge, pipelineUrl } from './ci-status.tsx';
import { buildPath } from '../../domain/paths.ts';

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
  query: ListQuery;
  counts: Record<MergeRequestState, number>;
  choices: IssueChoiceLists;
  mergeRequests: MergeRequestItem[];
  page: number;
  hasNext: boolean;
  canCreate: boolean;
}) {
  const { project, query } = props;
  const base = `/${project.path_with_namespace}/merge_requests`;
  // Tabs and pages keep the filters (the first label as `label_name`, the filter form's one select).
  const { state: _state, label_names: _labels, ...rest } = query;
  const keep = { ...rest, sort: query.sort === 'created_desc' ? undefined : query.sort };
  const tab = (state: MergeRequestState, text: string) => ({
    state,
    text,
    count: props.counts[state],
    href: queryHref(base, { ...keep, state: state === 'opened' ? undefined : state }),
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
        current={query.state}
        cap={Number.MAX_SAFE_INTEGER}
        tabs={[tab('opened', 'Open'), tab('merged', 'Merged'), tab('closed', 'Closed'), tab('all', 'All')]}
      />
      <ListFilterForm base={base} query={query} choices={props.choices} />
      <MergeRequestList
        mergeRequests={props.mergeRequests.map((mr) => ({
          ...mr,
          project_path: project.path_with_namespace,
        }))}
        empty="No merge requests to show."
      />
      <Pager
        base={base}
        query={{ ...keep, state: query.state === 'opened' ? undefined : query.state }}
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

export type MergeRequestTab = 'discussion' | 'commits' | 'pipelines' | 'builds' | 'diffs';

const MERGE_STATUS_TEXT: Record<string, string> = {
  can_be_merged: 'Can be merged',
  cannot_be_merged: 'Cannot be merged: there are conflicts, or nothing to merge',
  unchecked: 'Not checked yet',
};

/** What the merge widget knows of CI: the head pipeline (with its jobs) and the automatic merge. */
export interface MergeRequestCi {
  /** MergeRequest#pipeline: the source branch's newest pipeline at the head, with its stages. */
  pipeline: (PipelineItem & { stages: StageItem[] }) | null;
  /** The project refuses merges whose head pipeline did not succeed (only_allow_merge_if_build_succeeds). */
  onlyIfPipelineSucceeds: boolean;
  /** Who armed "merge when the build succeeds" (null: not armed). */
  mergeUser: UserBasic | null;
  /** Whether the viewer may cancel the automatic merge (who may merge, or the author). */
  canCancelAutoMerge: boolean;
}

/** 8.13's ci_label_for_status. */
const ciLabel = (status: string) => (status === 'success' ? 'passed' : status);

/** 8.13's widget heading: `Pipeline #3 passed for 1a2b3c4d.`, then each job of the pipeline. */
function PipelineHeading(props: { project: ProjectHead; pipeline: NonNullable<MergeRequestCi['pipeline']> }) {
  const { project, pipeline } = props;
  const base = `/${project.path_with_namespace}`;
  return (
    <div class={`ci-widget ci-widget-${pipeline.status}`} aria-label="Pipeline">
      <p>
        <CiStatusBadge status={pipeline.status} /> Pipeline{' '}
        <a href={pipelineUrl(project, pipeline.id)}>#{pipeline.id}</a> {ciLabel(pipeline.status)} for{' '}
        <a class="mono" href={`${base}/commit/${pipeline.sha}`}>
          {pipeline.sha.slice(0, 8)}
        </a>
        .
      </p>
      <ul class="list" aria-label="Jobs">
        {pipeline.stages.flatMap((stage) =>
          stage.jobs.map((job) => (
            <li>
              <CiStatusBadge
                status={job.status}
                href={
                  job.type === 'build' && project.canReadBuilds
                    ? buildPath(project.path_with_namespace, job.id)
                    : undefined
                }
              />{' '}
              <span class="muted">{stage.name}:</span> {job.name}
            </li>
          )),
        )}
      </ul>
    </div>
  );
}

/**
 * The merge widget as 8.13's merge_requests/widget/_open chose its body: conflicts, work in progress, an
 * armed automatic merge, no right to merge, a failed pipeline the project will not merge past, else the
 * buttons (Merge When Build Succeeds while the head pipeline runs, Accept Merge Request).
 */
function MergeBox(props: {
  ctx: PageContext;
  project: ProjectHead;
  url: string;
  mr: MergeRequestItem;
  canMerge: boolean;
  ci: MergeRequestCi;
}) {
  const { mr, ci } = props;
  const pipeline = ci.pipeline;
  const heading = pipeline ? <PipelineHeading project={props.project} pipeline={pipeline} /> : null;
  if (mr.state === 'merged') {
    return (
      <section aria-label="Merge" class="file">
        {heading}
        <p class="flash notice" role="status">
          Merged into {mr.target_branch}
          {mr.merge_commit_sha ? ` as ${mr.merge_commit_sha.slice(0, 8)}` : ''}.
        </p>
      </section>
    );
  }
  if (mr.state === 'closed') return <p class="muted">Closed without merging.</p>;
  const active = pipeline?.status === 'pending' || pipeline?.status === 'running';
  const ciFailed = ci.onlyIfPipelineSucceeds && pipeline !== null && !active && pipeline.status !== 'success';
  let body;
  if (mr.merge_status === 'cannot_be_merged') {
    body = (
      <p>
        <strong>This merge request contains merge conflicts.</strong> Please resolve these conflicts or ask
        someone with write access to this repository to merge this request manually.
      </p>
    );
  } else if (mr.work_in_progress) {
    body = (
      <p>
        <strong>This merge request is currently a Work In Progress.</strong> Remove the WIP prefix from the
        title to allow this merge request to be merged.
      </p>
    );
  } else if (ci.mergeUser) {
    body = (
      <>
        <p>
          <strong>
            Set by <UserLink user={ci.mergeUser} /> to be merged automatically when the build succeeds.
          </strong>{' '}
          The changes will be merged into <span class="mono">{mr.target_branch}</span>.
        </p>
        {ci.canCancelAutoMerge ? (
          <form method="post" action={`${props.url}/cancel_merge_when_build_succeeds`}>
            <Csrf ctx={props.ctx} />
            <button type="submit">Cancel Automatic Merge</button>
          </form>
        ) : null}
      </>
    );
  } else if (!props.canMerge) {
    body = (
      <p>
        You may not merge into {mr.target_branch}: ask someone with write access to this repository to merge
        this request.
      </p>
    );
  } else if (ciFailed) {
    body = (
      <p>
        <strong>The build for this merge request failed.</strong> Please retry the build or push a new commit
        to fix the failure.
      </p>
    );
  } else if (mr.merge_status === 'can_be_merged') {
    body = (
      <form method="post" action={`${props.url}/merge`} class="stack">
        <Csrf ctx={props.ctx} />
        {/* The head this page showed: a push since then refuses the merge instead of merging unseen commits. */}
        <input type="hidden" name="sha" value={mr.sha ?? ''} />
        <label class="check">
          <input type="checkbox" name="should_remove_source_branch" value="1" /> Remove source branch
        </label>
        <div class="row">
          {active ? (
            <button type="submit" class="btn-primary" name="merge_when_build_succeeds" value="1">
              Merge When Build Succeeds
            </button>
          ) : null}
          {active && ci.onlyIfPipelineSucceeds ? null : (
            <button type="submit" class={active ? '' : 'btn-primary'}>
              {active ? 'Merge Immediately' : 'Merge'}
            </button>
          )}
        </div>
      </form>
    );
  } else {
    body = <p class="muted">Checking whether this merge request can be merged…</p>;
  }
  return (
    <section aria-label="Merge" class="file">
      {heading}
      <p>
        Merge status: <strong>{MERGE_STATUS_TEXT[mr.merge_status] ?? mr.merge_status}</strong>
      </p>
      {body}
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
  notes?: { items: NoteItem[]; counts: NoteCounts };
  /** The Pipelines tab: the source branch's pipelines at the MR's commits, newest first. */
  pipelines?: Array<PipelineItem & { stages: StageItem[] }>;
  /** The Builds tab: the head pipeline's builds. */
  builds?: BuildItem[];
  ci: MergeRequestCi;
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
              <UserAvatar user={mr.author} /> <UserLink user={mr.author} />
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
      <MergeBox ctx={props.ctx} project={project} url={url} mr={mr} canMerge={props.canMerge} ci={props.ci} />
      <nav aria-label="Merge request">
        <ul class="tabs">
          {tab('discussion', url, 'Discussion')}
          {tab('commits', `${url}/commits`, 'Commits')}
          {/* As 8.13: the CI tabs only where the merge request has a pipeline, Builds to who reads them. */}
          {props.ci.pipeline ? tab('pipelines', `${url}/pipelines`, 'Pipelines') : null}
          {props.ci.pipeline && project.canReadBuilds ? tab('builds', `${url}/builds`, 'Builds') : null}
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
            counts={props.notes.counts}
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
      {props.tab === 'pipelines' && props.pipelines ? (
        <PipelineTable
          project={project}
          pipelines={props.pipelines}
          empty="No pipelines for this merge request."
        />
      ) : null}
      {props.tab === 'builds' && props.builds ? (
        <BuildTable project={project} builds={props.builds} empty="No builds for this merge request." />
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
