// Labels and milestones as pages (GitLab 8.13's projects/labels and projects/milestones views): the
// label list with issue counts and the new label form; the milestone list with its state tabs, one
// milestone with its issues, and the new milestone form. Props are the API's presented shapes.
import type { ComponentChildren } from 'preact';
import { Csrf, type Flash, type PageContext } from './layout.tsx';
import { Pager } from './projects.tsx';
import { ProjectFrame, type ProjectHead } from './repository.tsx';
import { FormErrors, IssueList, StateButton, StateTabs, type IssueItem } from './issues.tsx';
import { MarkdownBlock, type PageReferences } from './inline.tsx';

export interface LabelItem {
  name: string;
  color: string;
  description: string | null;
  open_issues_count: number;
  closed_issues_count: number;
}

export interface MilestoneItem {
  id: number;
  iid: number;
  title: string;
  description: string | null;
  state: string;
  due_date: string | null;
}

const issuesWith = (project: ProjectHead, name: string, value: string) =>
  `/${project.path_with_namespace}/issues?${new URLSearchParams({ [name]: value, state: 'all' })}`;

export function LabelListPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  labels: LabelItem[];
  canAdmin: boolean;
}) {
  const { project } = props;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`Labels · ${project.path_with_namespace}`}
      tab="issues"
    >
      <div class="row">
        <h1>Labels</h1>
        {props.canAdmin ? (
          <a class="btn btn-primary" href={`/${project.path_with_namespace}/labels/new`}>
            New label
          </a>
        ) : null}
      </div>
      {props.labels.length === 0 ? (
        <p class="muted">No labels yet.</p>
      ) : (
        <ul class="list" aria-label="Labels">
          {props.labels.map((label) => (
            <li>
              <div class="row">
                <span class="badge">{label.name}</span>
                <span class="muted mono">{label.color}</span>
                <a href={issuesWith(project, 'label_name', label.name)}>
                  {/* The API counts as a signed-out visitor (8.13): only a public project's counts mean anything. */}
                  {project.visibility_level >= 20
                    ? `${label.open_issues_count} open issues, ${label.closed_issues_count} closed`
                    : 'Issues'}
                </a>
              </div>
              {label.description ? <p class="muted">{label.description}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </ProjectFrame>
  );
}

/** The new label and new milestone forms: heading, refusals, the fields, Create and Cancel. */
function NewThingPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  errors: string[];
  title: string;
  kind: 'labels' | 'milestones';
  button: string;
  children: ComponentChildren;
}) {
  const base = `/${props.project.path_with_namespace}/${props.kind}`;
  return (
    <ProjectFrame ctx={props.ctx} project={props.project} title={props.title} tab="issues">
      <h1>{props.title}</h1>
      <FormErrors errors={props.errors} />
      <form class="stack" method="post" action={base}>
        <Csrf ctx={props.ctx} />
        {props.children}
        <button type="submit" class="btn-primary">
          {props.button}
        </button>
      </form>
      <p>
        <a href={base}>Cancel</a>
      </p>
    </ProjectFrame>
  );
}

export interface LabelFormValues {
  title: string;
  color: string;
  description: string;
}

export function LabelFormPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  values: LabelFormValues;
  errors: string[];
}) {
  const { values } = props;
  return (
    <NewThingPage {...props} title="New label" kind="labels" button="Create label">
      <label>
        Title
        <input type="text" name="label[title]" value={values.title} required maxLength={255} />
      </label>
      <label>
        Description
        <input type="text" name="label[description]" value={values.description} />
      </label>
      <label>
        Background color
        <input type="color" name="label[color]" value={values.color} />
      </label>
    </NewThingPage>
  );
}

export type MilestoneState = 'opened' | 'closed' | 'all';

export function MilestoneListPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  state: MilestoneState;
  counts: Record<MilestoneState, number>;
  milestones: MilestoneItem[];
  page: number;
  hasNext: boolean;
  canAdmin: boolean;
}) {
  const { project } = props;
  const base = `/${project.path_with_namespace}/milestones`;
  const tab = (state: MilestoneState, text: string) => ({
    state,
    text,
    count: props.counts[state],
    href: state === 'opened' ? base : `${base}?state=${state}`,
  });
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`Milestones · ${project.path_with_namespace}`}
      tab="issues"
    >
      <div class="row">
        <h1>Milestones</h1>
        {props.canAdmin ? (
          <a class="btn btn-primary" href={`${base}/new`}>
            New milestone
          </a>
        ) : null}
      </div>
      <StateTabs
        label="Milestone states"
        current={props.state}
        cap={Number.MAX_SAFE_INTEGER}
        tabs={[tab('opened', 'Open'), tab('closed', 'Closed'), tab('all', 'All')]}
      />
      {props.milestones.length === 0 ? (
        <p class="muted">No milestones to show.</p>
      ) : (
        <ul class="list" aria-label="Milestones">
          {props.milestones.map((milestone) => (
            <li>
              <div class="row">
                <a href={`${base}/${milestone.iid}`}>
                  <strong>{milestone.title}</strong>
                </a>
                {milestone.state === 'closed' ? <span class="badge">Closed</span> : null}
              </div>
              {milestone.due_date ? <span class="muted">Due {milestone.due_date}</span> : null}
            </li>
          ))}
        </ul>
      )}
      <Pager
        base={base}
        query={{ state: props.state === 'opened' ? undefined : props.state }}
        page={props.page}
        hasNext={props.hasNext}
      />
    </ProjectFrame>
  );
}

export function MilestonePage(props: {
  ctx: PageContext;
  project: ProjectHead;
  milestone: MilestoneItem;
  issues: IssueItem[];
  hasMore: boolean;
  canAdmin: boolean;
  references?: PageReferences;
  flash?: Flash | null;
}) {
  const { project, milestone } = props;
  const url = `/${project.path_with_namespace}/milestones/${milestone.iid}`;
  const open = milestone.state !== 'closed';
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${milestone.title} · Milestones`}
      tab="issues"
      flash={props.flash}
    >
      <div class="row">
        <span class="badge">{open ? 'Open' : 'Closed'}</span>
        <span class="muted">Milestone %{milestone.iid}</span>
        {milestone.due_date ? <span class="muted">Due {milestone.due_date}</span> : null}
      </div>
      {props.canAdmin ? (
        <div class="row">
          <StateButton
            ctx={props.ctx}
            action={url}
            field="milestone[state_event]"
            value={open ? 'close' : 'activate'}
            text={open ? 'Close milestone' : 'Reopen milestone'}
          />
        </div>
      ) : null}
      <h1>{milestone.title}</h1>
      <MarkdownBlock text={milestone.description} references={props.references} />
      <h2>Issues</h2>
      <IssueList project={project} issues={props.issues} />
      {props.hasMore ? (
        <p>
          <a href={issuesWith(project, 'milestone_title', milestone.title)}>All issues of this milestone</a>
        </p>
      ) : null}
    </ProjectFrame>
  );
}

export interface MilestoneFormValues {
  title: string;
  description: string;
  dueDate: string;
}

export function MilestoneFormPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  values: MilestoneFormValues;
  errors: string[];
}) {
  const { values } = props;
  return (
    <NewThingPage {...props} title="New milestone" kind="milestones" button="Create milestone">
      <label>
        Title
        <input type="text" name="milestone[title]" value={values.title} required maxLength={255} />
      </label>
      <label>
        Description (Markdown)
        <textarea name="milestone[description]" rows={6}>
          {values.description}
        </textarea>
      </label>
      <label>
        Due date
        <input type="date" name="milestone[due_date]" value={values.dueDate} />
      </label>
    </NewThingPage>
  );
}
