// The CI pages: pipelines (list with stages as status icons, one pipeline with its stages and jobs),
// builds (list, one build with its live trace and buttons), a build's artifacts browsed, and the
// pipeline status shown on commit and branch pages. Props are the API's shapes (presenters/pipeline.ts,
// presenters/build.ts) plus what the pages add; actions are offered only when the same policies as the
// API allow them, and each is a POST form with the form token (no script needed).
import type { ComponentChildren, VNode } from 'preact';
import { ActionButton, type Flash, type PageContext } from './layout.tsx';
import { NewerOlder, TimeAgo } from './projects.tsx';
import { RawPre, type TrustedHtml } from './raw-html.tsx';
import { ProjectFrame, type ProjectHead } from './repository.tsx';
import { CiStatusBadge, pipelineUrl } from './ci-status.tsx';
import { buildPath, encodePath } from '../../domain/paths.ts';

interface UserRef {
  username: string;
  name: string;
}

export interface PipelineItem {
  id: number;
  sha: string;
  ref: string;
  status: string;
  tag: boolean;
  yaml_errors: string | null;
  user: UserRef | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration: number | null;
  commit_title: string | null;
}

export interface JobItem {
  id: number;
  name: string;
  status: string;
  type: string;
  target_url: string | null;
  allow_failure: boolean;
  manual: boolean;
}

export interface StageItem {
  name: string;
  status: string;
  jobs: JobItem[];
}

export interface BuildItem {
  id: number;
  status: string;
  stage: string | null;
  name: string;
  ref: string | null;
  tag: boolean;
  coverage: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  user: UserRef | null;
  artifacts_file: { filename: string; size: number } | null;
  commit: { id: string; short_id: string; title: string } | null;
  runner: { id: number; description: string | null } | null;
  pipeline: { id: number; sha: string; ref: string; status: string };
}

const projectBase = (project: ProjectHead) => `/${project.path_with_namespace}`;
const buildUrl = (project: ProjectHead, id: number) => buildPath(project.path_with_namespace, id);
/** Seconds as GitLab wrote them: 00:42, 1:02:03. */
function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const whole = Math.max(0, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  return h > 0 ? `${h}:${two(m)}:${two(whole % 60)}` : `${two(m)}:${two(whole % 60)}`;
}

function buildDuration(build: Pick<BuildItem, 'started_at' | 'finished_at'>): number | null {
  if (!build.started_at || !build.finished_at) return null;
  return (Date.parse(build.finished_at) - Date.parse(build.started_at)) / 1000;
}

function jobHref(project: ProjectHead, job: JobItem): string | undefined {
  if (job.type === 'build') return project.canReadBuilds ? buildUrl(project, job.id) : undefined;
  return job.target_url && /^https?:\/\//i.test(job.target_url) ? job.target_url : undefined;
}

function ScopeTabs(props: { label: string; base: string; current: string; scopes: Array<[string, string]> }) {
  return (
    <nav aria-label={props.label}>
      <ul class="tabs">
        {props.scopes.map(([scope, text]) => (
          <li>
            <a
              href={scope === '' ? props.base : `${props.base}?scope=${scope}`}
              aria-current={props.current === scope ? 'page' : undefined}
            >
              {text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Stages(props: { project: ProjectHead; stages: StageItem[] }) {
  if (props.stages.length === 0) return <span class="muted">no jobs</span>;
  return (
    <ul class="stages" aria-label="Stages">
      {props.stages.map((stage) => (
        <li>
          <CiStatusBadge status={stage.status} /> <span class="stage-name">{stage.name}</span>
        </li>
      ))}
    </ul>
  );
}

export const PIPELINE_SCOPES: Array<[string, string]> = [
  ['', 'All'],
  ['running', 'Running'],
  ['pending', 'Pending'],
  ['finished', 'Finished'],
  ['branches', 'Branches'],
  ['tags', 'Tags'],
];

/** A project's pipelines or builds: the heading, the scope tabs, the list and its pages. */
function ScopedListPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  title: 'Pipelines' | 'Builds';
  tab: 'pipelines' | 'builds';
  scopes: Array<[string, string]>;
  scope: string;
  page: number;
  hasNext: boolean;
  children: ComponentChildren;
}) {
  const { project } = props;
  const base = `${projectBase(project)}/${props.tab}`;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${props.title} · ${project.path_with_namespace}`}
      tab={props.tab}
    >
      <h1>{props.title}</h1>
      <ScopeTabs
        label={`${props.title.slice(0, -1)} scopes`}
        base={base}
        current={props.scope}
        scopes={props.scopes}
      />
      {props.children}
      <NewerOlder base={base} query={{ scope: props.scope }} page={props.page} hasNext={props.hasNext} />
    </ProjectFrame>
  );
}

/** A table of items under named columns (scrolling sideways on a phone), or a line saying it is empty. */
function ListTable<T>(props: {
  label: string;
  empty: string;
  columns: string[];
  items: T[];
  row: (item: T) => VNode;
}) {
  if (props.items.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <div class="table-wrap">
      <table aria-label={props.label}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{props.items.map(props.row)}</tbody>
      </table>
    </div>
  );
}

/** Pipelines with their stages, a row each (the pipelines page and a merge request's Pipelines tab). */
export function PipelineTable(props: {
  project: ProjectHead;
  pipelines: Array<PipelineItem & { stages: StageItem[] }>;
  empty: string;
}) {
  const { project } = props;
  return (
    <ListTable
      label="Pipelines"
      empty={props.empty}
      columns={['Status', 'Pipeline', 'Commit', 'Stages', 'Duration']}
      items={props.pipelines}
      row={(pipeline) => (
        <tr>
          <td>
            <CiStatusBadge status={pipeline.status} href={pipelineUrl(project, pipeline.id)} />
          </td>
          <td>
            <a href={pipelineUrl(project, pipeline.id)}>#{pipeline.id}</a>{' '}
            {pipeline.user ? <span class="muted">by {pipeline.user.username}</span> : null}
            {pipeline.yaml_errors ? <span class="badge">yaml invalid</span> : null}
          </td>
          <td>
            <span class="mono">{pipeline.ref}</span> ·{' '}
            <a class="mono" href={`${projectBase(project)}/commit/${pipeline.sha}`}>
              {pipeline.sha.slice(0, 8)}
            </a>{' '}
            {pipeline.commit_title ?? ''}
          </td>
          <td>
            <Stages project={project} stages={pipeline.stages} />
          </td>
          <td>
            {formatDuration(pipeline.duration)}
            {pipeline.finished_at ? (
              <>
                <br />
                <span class="muted">
                  <TimeAgo at={pipeline.finished_at} />
                </span>
              </>
            ) : null}
          </td>
        </tr>
      )}
    />
  );
}

export function PipelinesPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  scope: string;
  pipelines: Array<PipelineItem & { stages: StageItem[] }>;
  page: number;
  hasNext: boolean;
}) {
  return (
    <ScopedListPage {...props} title="Pipelines" tab="pipelines" scopes={PIPELINE_SCOPES}>
      <PipelineTable
        project={props.project}
        pipelines={props.pipelines}
        empty="No pipelines to show. A push of a commit with a .gitlab-ci.yml file starts one."
      />
    </ScopedListPage>
  );
}

export function PipelinePage(props: {
  ctx: PageContext;
  project: ProjectHead;
  pipeline: PipelineItem;
  stages: StageItem[];
  commit: { id: string; title: string; author_name: string } | null;
  actions: { retry: boolean; cancel: boolean };
  /** Whether the pipeline is still going: the open page then refreshes its content (live-region.ts). */
  live: boolean;
  flash?: Flash | null;
}) {
  const { project, pipeline } = props;
  const url = pipelineUrl(project, pipeline.id);
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`Pipeline #${pipeline.id} · ${project.path_with_namespace}`}
      tab="pipelines"
      flash={props.flash}
    >
      <div id="pipeline-live" data-live={props.live ? 'true' : 'false'}>
        <h1>
          Pipeline #{pipeline.id} <CiStatusBadge status={pipeline.status} />
        </h1>
        <p>
          Ref <span class="mono">{pipeline.ref}</span>
          {pipeline.tag ? ' (tag)' : ''}, commit{' '}
          <a class="mono" href={`${projectBase(project)}/commit/${pipeline.sha}`}>
            {pipeline.sha.slice(0, 8)}
          </a>{' '}
          {props.commit?.title ?? pipeline.commit_title ?? ''}
          {props.commit ? <span class="muted"> by {props.commit.author_name}</span> : null}
        </p>
        <p class="muted">
          {pipeline.user ? `Triggered by ${pipeline.user.username} · ` : ''}created{' '}
          <TimeAgo at={pipeline.created_at} /> · duration {formatDuration(pipeline.duration)}
        </p>
        {props.actions.retry || props.actions.cancel ? (
          <div class="actions">
            {props.actions.retry ? (
              <ActionButton ctx={props.ctx} action={`${url}/retry`} text="Retry failed" />
            ) : null}
            {props.actions.cancel ? (
              <ActionButton ctx={props.ctx} action={`${url}/cancel`} text="Cancel running" danger />
            ) : null}
          </div>
        ) : null}
        {pipeline.yaml_errors ? (
          <section class="flash alert" aria-labelledby="yaml-title">
            <h2 id="yaml-title">Found errors in your .gitlab-ci.yml</h2>
            <pre>{pipeline.yaml_errors}</pre>
          </section>
        ) : null}
        {props.stages.map((stage, index) => (
          <section class="stage" aria-labelledby={`stage-${index}`}>
            <h2 id={`stage-${index}`}>
              <CiStatusBadge status={stage.status} /> {stage.name}
            </h2>
            <ul class="list">
              {stage.jobs.map((job) => {
                const href = jobHref(project, job);
                return (
                  <li>
                    <div class="row">
                      <span>
                        <CiStatusBadge status={job.status} />{' '}
                        {href ? <a href={href}>{job.name}</a> : job.name}
                        {job.manual ? <span class="badge">manual</span> : null}
                        {job.allow_failure ? <span class="badge">allowed to fail</span> : null}
                      </span>
                      {job.type === 'build' ? <span class="muted mono">#{job.id}</span> : null}
                    </div>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    </ProjectFrame>
  );
}

export const BUILD_SCOPES: Array<[string, string]> = [
  ['', 'All'],
  ['pending', 'Pending'],
  ['running', 'Running'],
  ['finished', 'Finished'],
];

/** Builds, a row each (the builds page and a merge request's Builds tab). */
export function BuildTable(props: { project: ProjectHead; builds: BuildItem[]; empty: string }) {
  const { project } = props;
  return (
    <ListTable
      label="Builds"
      empty={props.empty}
      columns={['Status', 'Build', 'Pipeline', 'Stage', 'Name', 'Duration']}
      items={props.builds}
      row={(build) => (
        <tr>
          <td>
            <CiStatusBadge status={build.status} href={buildUrl(project, build.id)} />
          </td>
          <td>
            <a href={buildUrl(project, build.id)}>#{build.id}</a> <span class="mono">{build.ref}</span>
            {build.commit ? (
              <>
                {' · '}
                <a class="mono" href={`${projectBase(project)}/commit/${build.commit.id}`}>
                  {build.commit.short_id}
                </a>
              </>
            ) : null}
            {build.runner ? <span class="muted"> · runner #{build.runner.id}</span> : null}
          </td>
          <td>
            <a href={pipelineUrl(project, build.pipeline.id)}>#{build.pipeline.id}</a>
          </td>
          <td>{build.stage}</td>
          <td>{build.name}</td>
          <td>{formatDuration(buildDuration(build))}</td>
        </tr>
      )}
    />
  );
}

export function BuildsPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  scope: string;
  builds: BuildItem[];
  page: number;
  hasNext: boolean;
}) {
  return (
    <ScopedListPage {...props} title="Builds" tab="builds" scopes={BUILD_SCOPES}>
      <BuildTable project={props.project} builds={props.builds} empty="No builds to show." />
    </ScopedListPage>
  );
}

export interface BuildActions {
  cancel: boolean;
  retry: boolean;
  play: boolean;
  erase: boolean;
  keep: boolean;
}

export interface TraceView {
  html: TrustedHtml;
  /** Where the shown part starts (0: the whole trace is shown) and ends, in bytes. */
  start: number;
  end: number;
  /** The whole trace's length: without bytes there is no raw trace to link to (8.13's has_trace?). */
  length: number;
  state: string;
  complete: boolean;
}

function Fact(props: { term: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </>
  );
}

export function BuildPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  build: BuildItem;
  erased: boolean;
  artifactsExpireAt: string | null;
  browsable: boolean;
  trace: TraceView;
  actions: BuildActions;
  flash?: Flash | null;
}) {
  const { project, build, actions } = props;
  const url = buildUrl(project, build.id);
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${build.name} (#${build.id}) · ${project.path_with_namespace}`}
      tab="builds"
      flash={props.flash}
    >
      <h1>
        Build #{build.id} <CiStatusBadge status={build.status} />
      </h1>
      <dl class="facts">
        <Fact term="Name">{build.name}</Fact>
        <Fact term="Stage">{build.stage}</Fact>
        <Fact term="Pipeline">
          <a href={pipelineUrl(project, build.pipeline.id)}>#{build.pipeline.id}</a>
        </Fact>
        <Fact term="Ref">
          <span class="mono">{build.ref}</span>
          {build.commit ? (
            <>
              {' · '}
              <a class="mono" href={`${projectBase(project)}/commit/${build.commit.id}`}>
                {build.commit.short_id}
              </a>{' '}
              {build.commit.title}
            </>
          ) : null}
        </Fact>
        <Fact term="Runner">
          {build.runner ? `#${build.runner.id} ${build.runner.description ?? ''}` : 'none yet'}
        </Fact>
        <Fact term="Duration">{formatDuration(buildDuration(build))}</Fact>
        {build.started_at ? (
          <Fact term="Started">
            <TimeAgo at={build.started_at} />
          </Fact>
        ) : null}
        {build.coverage !== null ? <Fact term="Coverage">{build.coverage}%</Fact> : null}
        {build.user ? <Fact term="Triggered by">{build.user.username}</Fact> : null}
      </dl>
      <div class="actions">
        {actions.cancel ? (
          <ActionButton ctx={props.ctx} action={`${url}/cancel`} text="Cancel" danger />
        ) : null}
        {actions.retry ? <ActionButton ctx={props.ctx} action={`${url}/retry`} text="Retry" /> : null}
        {actions.play ? <ActionButton ctx={props.ctx} action={`${url}/play`} text="Play" /> : null}
        {actions.erase ? <ActionButton ctx={props.ctx} action={`${url}/erase`} text="Erase" danger /> : null}
      </div>
      {build.artifacts_file ? (
        <section aria-labelledby="artifacts-title">
          <h2 id="artifacts-title">Artifacts</h2>
          <p>
            <a href={`${url}/artifacts/download`}>Download {build.artifacts_file.filename}</a> (
            {build.artifacts_file.size.toLocaleString('en')} bytes)
            {props.browsable ? (
              <>
                {' · '}
                <a href={`${url}/artifacts/browse`}>Browse</a>
              </>
            ) : null}
          </p>
          {props.artifactsExpireAt ? (
            <p class="muted">
              They expire <TimeAgo at={props.artifactsExpireAt} />.
            </p>
          ) : null}
          {actions.keep ? (
            <ActionButton ctx={props.ctx} action={`${url}/artifacts/keep`} text="Keep" />
          ) : null}
        </section>
      ) : null}
      <section aria-labelledby="trace-title">
        <h2 id="trace-title">Trace</h2>
        {props.erased ? (
          <p class="muted">This build's trace and artifacts were erased.</p>
        ) : (
          <>
            <p>
              {props.trace.length > 0 ? <a href={`${url}/raw`}>Raw trace</a> : null}
              {props.trace.start > 0 ? (
                <span class="muted">
                  {' '}
                  · only the last{' '}
                  {Math.round((props.trace.end - props.trace.start) / 1024).toLocaleString('en')} KB are shown
                  here
                </span>
              ) : null}
            </p>
            <div
              id="build-trace-box"
              data-trace-url={`${url}/trace.json`}
              data-offset={String(props.trace.end)}
              data-state={props.trace.state}
              data-status={build.status}
              data-complete={props.trace.complete ? 'true' : 'false'}
            >
              <RawPre id="build-trace" class="trace" html={props.trace.html} />
            </div>
          </>
        )}
      </section>
    </ProjectFrame>
  );
}

export function ArtifactsPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  build: { id: number; name: string };
  dir: string;
  dirs: string[];
  files: Array<{ path: string; size: number }>;
}) {
  const { project, build } = props;
  const url = buildUrl(project, build.id);
  const name = (path: string) => path.slice(props.dir.length);
  const parent = props.dir.replace(/[^/]*\/$/, '');
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`Artifacts of #${build.id} · ${project.path_with_namespace}`}
      tab="builds"
    >
      <h1>
        Artifacts of <a href={url}>build #{build.id}</a>
      </h1>
      <p class="mono">/{props.dir}</p>
      <div class="table-wrap">
        <table aria-label="Artifacts">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Size</th>
            </tr>
          </thead>
          <tbody>
            {props.dir !== '' ? (
              <tr>
                <td>
                  <a href={`${url}/artifacts/browse${parent ? `/${encodePath(parent.slice(0, -1))}` : ''}`}>
                    ..
                  </a>
                </td>
                <td />
              </tr>
            ) : null}
            {props.dirs.map((dir) => (
              <tr>
                <td class="mono">
                  <a href={`${url}/artifacts/browse/${encodePath(dir.slice(0, -1))}`}>{name(dir)}</a>
                </td>
                <td />
              </tr>
            ))}
            {props.files.map((file) => (
              <tr>
                <td class="mono">
                  <a href={`${url}/artifacts/file/${encodePath(file.path)}`}>{name(file.path)}</a>
                </td>
                <td>{file.size.toLocaleString('en')} bytes</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ProjectFrame>
  );
}
