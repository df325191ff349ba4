// A project's activity (8.13's /<ns>/<p>/activity): its events newest first, as the events API presents
// them: who did what (pushed to a branch with its newest commits, opened or closed an issue, commented,
// joined), and when.
import type { PageContext } from './layout.tsx';
import { NewerOlder, TimeAgo } from './projects.tsx';
import { ProjectFrame, refUrl, type ProjectHead } from './repository.tsx';

/** The fields of the Event entity the lists show, with the path of the event's project. */
export interface ActivityEvent {
  action_name: string;
  target_type: string | null;
  target_title: string | null;
  created_at: string;
  author_username: string | null;
  author?: { name: string; username: string };
  data: Record<string, unknown> | null;
  project_path: string | null;
}

interface PushData {
  ref?: unknown;
  total_commits_count?: unknown;
  commits?: unknown;
}

const TARGET_NAMES: Record<string, string> = {
  Issue: 'issue',
  MergeRequest: 'merge request',
  Milestone: 'milestone',
  Note: 'a comment on',
};

function PushSummary(props: { projectPath: string; data: PushData }) {
  const project = { path_with_namespace: props.projectPath };
  const ref = typeof props.data.ref === 'string' ? props.data.ref : '';
  const branch = ref.replace(/^refs\/(heads|tags)\//, '');
  const commits = Array.isArray(props.data.commits)
    ? (props.data.commits as Array<{ id?: unknown; message?: unknown }>).slice(0, 3)
    : [];
  const total = typeof props.data.total_commits_count === 'number' ? props.data.total_commits_count : 0;
  return (
    <>
      {ref.startsWith('refs/tags/') ? ' tag ' : ' branch '}
      {branch !== '' ? <a href={refUrl(project, 'commits', branch)}>{branch}</a> : null}
      {commits.length > 0 ? (
        <ul>
          {commits.map((commit) => {
            const id = String(commit.id ?? '');
            return (
              <li>
                <a class="mono" href={`/${props.projectPath}/commit/${id}`}>
                  {id.slice(0, 8)}
                </a>{' '}
                {String(commit.message ?? '').split('\n', 1)[0]}
              </li>
            );
          })}
          {total > commits.length ? <li class="muted">… and {total - commits.length} more</li> : null}
        </ul>
      ) : null}
    </>
  );
}

/**
 * Events newest first: who did what (pushed to a branch with its newest commits, opened or closed an issue,
 * commented, joined), where (with `showProject`, the project's path) and when.
 */
export function EventList(props: { events: ActivityEvent[]; empty: string; showProject?: boolean }) {
  if (props.events.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <ul class="list" aria-label="Events">
      {props.events.map((event) => {
        const path = event.project_path;
        const isPush = event.data !== null && event.target_type === null && 'ref' in event.data;
        return (
          <li>
            <div class="row">
              <span>
                {event.author ? (
                  <a href={`/${event.author.username}`}>{event.author.name}</a>
                ) : (
                  <span class="muted">{event.author_username ?? 'A removed user'}</span>
                )}{' '}
                {event.action_name}
                {isPush && path !== null ? (
                  <PushSummary projectPath={path} data={event.data as PushData} />
                ) : event.target_type ? (
                  <>
                    {' '}
                    {TARGET_NAMES[event.target_type] ?? event.target_type}
                    {event.target_title ? (
                      <>
                        {' '}
                        <strong>{event.target_title}</strong>
                      </>
                    ) : null}
                  </>
                ) : (event.action_name === 'created' || event.action_name === 'imported') &&
                  !props.showProject ? (
                  ' this project'
                ) : null}
                {props.showProject && path !== null ? (
                  <>
                    {/* "created project x", "joined project x"; else "… at x". */}
                    {event.target_type === null && !isPush ? ' project ' : ' at '}
                    <a href={`/${path}`}>{path}</a>
                  </>
                ) : null}
              </span>
              <span class="muted">
                <TimeAgo at={event.created_at} />
              </span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function ActivityPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  events: ActivityEvent[];
  page: number;
  hasNext: boolean;
}) {
  const { project } = props;
  const base = `/${project.path_with_namespace}/activity`;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`Activity · ${project.path_with_namespace}`}
      tab="files"
    >
      <h1>Activity</h1>
      <EventList events={props.events} empty="No activity yet." />
      <NewerOlder base={base} page={props.page} hasNext={props.hasNext} />
    </ProjectFrame>
  );
}
