// A project's activity (8.13's /<ns>/<p>/activity): its events newest first, as the events API presents
// them: who did what (pushed to a branch with its newest commits, opened or closed an issue, commented,
// joined), and when.
import type { PageContext } from './layout.tsx';
import { TimeAgo } from './projects.tsx';
import { ProjectFrame, refUrl, type ProjectHead } from './repository.tsx';

/** The fields of the Event entity the page shows. */
export interface ActivityEvent {
  action_name: string;
  target_type: string | null;
  target_title: string | null;
  created_at: string;
  author_username: string | null;
  author?: { name: string; username: string };
  data: Record<string, unknown> | null;
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

function PushSummary(props: { project: ProjectHead; data: PushData }) {
  const ref = typeof props.data.ref === 'string' ? props.data.ref : '';
  const branch = ref.replace(/^refs\/(heads|tags)\//, '');
  const commits = Array.isArray(props.data.commits)
    ? (props.data.commits as Array<{ id?: unknown; message?: unknown }>).slice(0, 3)
    : [];
  const total = typeof props.data.total_commits_count === 'number' ? props.data.total_commits_count : 0;
  return (
    <>
      {ref.startsWith('refs/tags/') ? ' tag ' : ' branch '}
      {branch !== '' ? <a href={refUrl(props.project, 'commits', branch)}>{branch}</a> : null}
      {commits.length > 0 ? (
        <ul>
          {commits.map((commit) => {
            const id = String(commit.id ?? '');
            return (
              <li>
                <a class="mono" href={`/${props.project.path_with_namespace}/commit/${id}`}>
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
      {props.events.length === 0 ? (
        <p class="muted">No activity yet.</p>
      ) : (
        <ul class="list" aria-label="Events">
          {props.events.map((event) => (
            <li>
              <div class="row">
                <span>
                  {event.author ? (
                    <a href={`/${event.author.username}`}>{event.author.name}</a>
                  ) : (
                    <span class="muted">{event.author_username ?? 'A removed user'}</span>
                  )}{' '}
                  {event.action_name}
                  {event.data && event.target_type === null && 'ref' in event.data ? (
                    <PushSummary project={project} data={event.data as PushData} />
                  ) : event.target_type ? (
                    <>
                      {' '}
                      {TARGET_NAMES[event.target_type] ?? event.target_type}
                      {event.target_title ? <strong> {event.target_title}</strong> : null}
                    </>
                  ) : event.action_name === 'created' || event.action_name === 'imported' ? (
                    ' this project'
                  ) : null}
                </span>
                <span class="muted">
                  <TimeAgo at={event.created_at} />
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <nav class="pagination" aria-label="Pages">
        {props.page > 1 ? (
          <a href={props.page === 2 ? base : `${base}?page=${props.page - 1}`}>‹ Newer</a>
        ) : null}
        {props.hasNext ? <a href={`${base}?page=${props.page + 1}`}>Older ›</a> : null}
      </nav>
    </ProjectFrame>
  );
}
