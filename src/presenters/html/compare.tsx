// The compare pages (8.13's /compare and /compare/<from>...<to>): a form naming two refs, then the
// commits `to` has that `from` lacks and the diff, drawn by the commit page's diff component, with a
// "Create merge request" button when both are branches.
import type { Commit } from '../../git/commits.ts';
import type { PageContext } from './layout.tsx';
import { CommitRow, DiffFiles, ProjectFrame, type DiffFile, type ProjectHead } from './repository.tsx';

function CompareForm(props: { project: ProjectHead; from: string; to: string }) {
  return (
    <form class="searchbar" method="get" action={`/${props.project.path_with_namespace}/compare`}>
      <label>
        Source (branch, tag or commit)
        <input type="text" name="from" value={props.from} required />
      </label>
      <span aria-hidden="true">...</span>
      <label>
        Target (branch, tag or commit)
        <input type="text" name="to" value={props.to} required />
      </label>
      <button type="submit">Compare</button>
    </form>
  );
}

export function CompareIndexPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  from: string;
  to: string;
}) {
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={props.project}
      title={`Compare · ${props.project.path_with_namespace}`}
      tab="commits"
    >
      <h1>Compare Git revisions</h1>
      <p class="muted">Choose a branch, tag or commit on each side to see what changed between them.</p>
      <CompareForm project={props.project} from={props.from} to={props.to} />
    </ProjectFrame>
  );
}

export function ComparePage(props: {
  ctx: PageContext;
  project: ProjectHead;
  from: string;
  to: string;
  /** Undefined when a side names no commit. */
  comparison?: { commits: Commit[]; moreCommits: boolean; diffs: DiffFile[]; overflow: boolean };
  /** The new merge request form for these branches, when the viewer may open one. */
  mergeRequestUrl?: string;
}) {
  const { project, comparison } = props;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${props.from}...${props.to} · ${project.path_with_namespace}`}
      tab="commits"
    >
      <h1>Compare Git revisions</h1>
      <CompareForm project={project} from={props.from} to={props.to} />
      {!comparison ? (
        <p class="flash alert" role="alert">
          There is no commit named {props.from} or {props.to} in this repository.
        </p>
      ) : comparison.commits.length === 0 ? (
        <p class="muted">
          There isn't anything to compare: {props.to} has no commits that {props.from} lacks.
        </p>
      ) : (
        <>
          {props.mergeRequestUrl ? (
            <p>
              <a class="btn btn-primary" href={props.mergeRequestUrl}>
                Create merge request
              </a>
            </p>
          ) : null}
          <h2>
            {comparison.commits.length}
            {comparison.moreCommits ? '+' : ''} {comparison.commits.length === 1 ? 'commit' : 'commits'}
          </h2>
          <ul class="list" aria-label="Commits">
            {comparison.commits.map((commit) => (
              <CommitRow project={project} commit={commit} />
            ))}
          </ul>
          <DiffFiles diffs={comparison.diffs} overflow={comparison.overflow} />
        </>
      )}
    </ProjectFrame>
  );
}
