// The project and its repository as pages: the project page (clone URLs, README or first-push
// instructions), tree, blob, commits, commit, branches and tags. Props are the API's presented shapes
// and the git readers' values; every string is escaped by Preact except the RawHtml of Markdown and code.
import type { ComponentChildren } from 'preact';
import type { TreeEntry } from '../../git/trees.ts';
import type { Commit } from '../../git/commits.ts';
import type { FileDiff } from '../../git/diffs.ts';
import { NotificationMenu } from './notifications.tsx';
import { Csrf, Layout, tabLinks, type Flash, type PageContext } from './layout.tsx';
import { NewerOlder, TimeAgo, visibilityName } from './projects.tsx';
import { RawHtml, RawRows, type TrustedHtml } from './raw-html.tsx';
import { PipelineStatusLink } from './ci-status.tsx';
import { counted, MarkdownBlock } from './inline.tsx';
import { Discussion, type NoteCounts, type NoteItem } from './discussion.tsx';
import { refPath } from '../../domain/paths.ts';
import { AccessRequestButton } from './access-requests.tsx';

export interface ProjectHead {
  id: number;
  name: string;
  name_with_namespace: string;
  path_with_namespace: string;
  description: string | null;
  visibility_level: number;
  star_count: number;
  forks_count: number;
  last_activity_at: string;
  http_url_to_repo: string;
  ssh_url_to_repo: string;
  default_branch: string;
  issues_enabled: boolean;
  merge_requests_enabled: boolean;
  wiki_enabled: boolean;
  snippets_enabled: boolean;
  forked_from_project?: { name_with_namespace: string; path_with_namespace: string };
  /** Whether the viewer may open the project's settings (the route asks the policy). */
  settings?: boolean;
  /** Whether the viewer may push: branch, file editor and delete buttons. */
  canPush?: boolean;
  /** Whether the viewer may open merge requests here. */
  canOpenMergeRequest?: boolean;
  /** Which CI tabs the viewer may read (8.13 showed a tab only to who could follow it). */
  canReadPipelines?: boolean;
  canReadBuilds?: boolean;
  canReadEnvironments?: boolean;
}

export type ProjectTab =
  | 'files'
  | 'commits'
  | 'branches'
  | 'tags'
  | 'issues'
  | 'merge_requests'
  | 'labels'
  | 'milestones'
  | 'pipelines'
  | 'builds'
  | 'environments'
  | 'wiki'
  | 'snippets'
  | 'settings';

/** `/<ns>/<p>/<kind>/<ref>/<path>` with each part encoded. */
export function refUrl(
  project: Pick<ProjectHead, 'path_with_namespace'>,
  kind: string,
  ref: string,
  path = '',
): string {
  return refPath(project.path_with_namespace, kind, ref, path);
}

function shortId(id: string): string {
  return id.slice(0, 8);
}

function commitTitle(message: string): string {
  return message.split('\n', 1)[0];
}

export function ProjectFrame(props: {
  ctx: PageContext;
  project: ProjectHead;
  title: string;
  tab: ProjectTab;
  flash?: Flash | null;
  children: ComponentChildren;
}) {
  const { project } = props;
  const base = `/${project.path_with_namespace}`;
  const tab = tabLinks(props.tab);
  return (
    <Layout ctx={props.ctx} title={props.title} flash={props.flash}>
      <p class="muted">
        <a href={base}>{project.name_with_namespace}</a>
      </p>
      <nav aria-label="Project">
        <ul class="tabs">
          {tab('files', base, 'Project')}
          {tab('commits', refUrl(project, 'commits', project.default_branch), 'Commits')}
          {tab('branches', `${base}/branches`, 'Branches')}
          {tab('tags', `${base}/tags`, 'Tags')}
          {project.issues_enabled ? tab('issues', `${base}/issues`, 'Issues') : null}
          {project.merge_requests_enabled
            ? tab('merge_requests', `${base}/merge_requests`, 'Merge Requests')
            : null}
          {project.canReadPipelines ? tab('pipelines', `${base}/pipelines`, 'Pipelines') : null}
          {project.canReadBuilds ? tab('builds', `${base}/builds`, 'Builds') : null}
          {project.canReadEnvironments ? tab('environments', `${base}/environments`, 'Environments') : null}
          {project.wiki_enabled ? tab('wiki', `${base}/wikis/home`, 'Wiki') : null}
          {project.snippets_enabled ? tab('snippets', `${base}/snippets`, 'Snippets') : null}
          {project.settings ? tab('settings', `${base}/edit`, 'Settings') : null}
        </ul>
      </nav>
      {props.children}
    </Layout>
  );
}

/**
 * Branches and tags in a GET form: works without script (a Switch button), submits on change with it.
 * An empty repository has nothing to switch to, so no form (it would send no ref).
 */
function RefSwitcher(props: {
  project: ProjectHead;
  current: string;
  branches: string[];
  tags: string[];
  destination: 'tree' | 'blob' | 'commits';
  path: string;
}) {
  if (props.branches.length === 0 && props.tags.length === 0) return null;
  return (
    <form class="searchbar" method="get" action={`/${props.project.path_with_namespace}/refs/switch`}>
      <input type="hidden" name="destination" value={props.destination} />
      <input type="hidden" name="path" value={props.path} />
      <label>
        Branch or tag
        <select name="ref" data-autosubmit="">
          <optgroup label="Branches">
            {props.branches.map((name) => (
              <option value={name} selected={name === props.current}>
                {name}
              </option>
            ))}
          </optgroup>
          {props.tags.length > 0 ? (
            <optgroup label="Tags">
              {props.tags.map((name) => (
                <option value={name} selected={name === props.current}>
                  {name}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      </label>
      <button type="submit">Switch</button>
    </form>
  );
}

function CloneUrls(props: { project: ProjectHead }) {
  return (
    <div class="clone">
      <label for="clone-http">HTTP</label>
      <input id="clone-http" type="text" readOnly value={props.project.http_url_to_repo} />
      <button type="button" data-copy="clone-http" hidden>
        Copy HTTP URL
      </button>
      <label for="clone-ssh">SSH</label>
      <input id="clone-ssh" type="text" readOnly value={props.project.ssh_url_to_repo} />
      <button type="button" data-copy="clone-ssh" hidden>
        Copy SSH URL
      </button>
    </div>
  );
}

/** Path crumbs: project root, then each directory of the path. */
function Crumbs(props: { project: ProjectHead; ref: string; path: string }) {
  const segments = props.path === '' ? [] : props.path.split('/');
  return (
    <nav aria-label="Path" class="mono">
      <a href={refUrl(props.project, 'tree', props.ref)}>{props.project.name}</a>
      {segments.map((segment, i) => (
        <>
          {' / '}
          {i === segments.length - 1 ? (
            <span>{segment}</span>
          ) : (
            <a href={refUrl(props.project, 'tree', props.ref, segments.slice(0, i + 1).join('/'))}>
              {segment}
            </a>
          )}
        </>
      ))}
    </nav>
  );
}

function LastCommit(props: { project: ProjectHead; commit: Commit | undefined }) {
  if (!props.commit) return null;
  const c = props.commit;
  return (
    <p class="muted">
      Last commit: <a href={`/${props.project.path_with_namespace}/commit/${c.id}`}>{shortId(c.id)}</a>{' '}
      {commitTitle(c.message)} · {c.authorName} · <TimeAgo at={new Date(c.authoredDate).toISOString()} />
    </p>
  );
}

function TreeTable(props: { project: ProjectHead; ref: string; dir: string; entries: TreeEntry[] }) {
  const full = (name: string) => (props.dir === '' ? name : `${props.dir}/${name}`);
  return (
    <div class="table-wrap">
      <table aria-label="Files">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
          </tr>
        </thead>
        <tbody>
          {props.dir !== '' ? (
            <tr>
              <td>
                <a
                  href={refUrl(props.project, 'tree', props.ref, props.dir.split('/').slice(0, -1).join('/'))}
                >
                  ..
                </a>
              </td>
              <td />
            </tr>
          ) : null}
          {props.entries.map((entry) => (
            <tr>
              <td class="mono">
                {entry.type === 'commit' ? (
                  <span>
                    {entry.path} @ {shortId(entry.id)}
                  </span>
                ) : (
                  <a
                    href={refUrl(
                      props.project,
                      entry.type === 'tree' ? 'tree' : 'blob',
                      props.ref,
                      full(entry.path),
                    )}
                  >
                    {entry.type === 'tree' ? `${entry.path}/` : entry.path}
                  </a>
                )}
              </td>
              <td class="muted">
                {entry.type === 'tree' ? 'directory' : entry.type === 'commit' ? 'submodule' : 'file'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface RefListing {
  ref: string;
  branches: string[];
  tags: string[];
}

/** The file editor edits branches only (GitLab's "You can only create or edit files when you are on a branch"). */
function onBranch(project: ProjectHead, refs: RefListing): boolean {
  return project.canPush === true && refs.branches.includes(refs.ref);
}

function NewFileLink(props: { project: ProjectHead; refs: RefListing; dir: string }) {
  if (!onBranch(props.project, props.refs)) return null;
  return (
    <p>
      <a class="btn" href={refUrl(props.project, 'new', props.refs.ref, props.dir)}>
        + New file
      </a>
    </p>
  );
}

/** The star and fork buttons of the project page (a signed-out visitor has the counts line only). */
function StarAndFork(props: {
  ctx: PageContext;
  project: ProjectHead;
  viewer?: { starred: boolean; canFork: boolean };
}) {
  const { project, viewer } = props;
  const base = `/${project.path_with_namespace}`;
  if (!viewer) return null;
  return (
    <div class="actions" role="group" aria-label="Star and fork">
      <form class="inline" method="post" action={`${base}/toggle_star`}>
        <Csrf ctx={props.ctx} />
        <button type="submit" aria-pressed={viewer.starred ? 'true' : 'false'}>
          {viewer.starred ? '★ Unstar' : '☆ Star'}
        </button>{' '}
        <span class="badge" aria-label="Stars">
          {project.star_count}
        </span>
      </form>
      {viewer.canFork ? (
        <a class="btn" href={`${base}/forks/new`}>
          Fork
        </a>
      ) : (
        <span class="btn" aria-disabled="true">
          Fork
        </span>
      )}
      <span class="badge" aria-label="Forks">
        {project.forks_count}
      </span>
    </div>
  );
}

export function ProjectPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  tree?: { refs: RefListing; entries: TreeEntry[]; lastCommit: Commit | undefined };
  readme?: Readme | undefined;
  /**
   * The signed-in viewer's star, whether they may fork, their notification level here, and (for a
   * non-member of a project that takes requests) whether they asked to join.
   */
  viewer?: {
    starred: boolean;
    canFork: boolean;
    notificationLevel: string;
    accessRequest?: { requested: boolean };
  };
  flash?: Flash | null;
}) {
  const { project } = props;
  const source = project.forked_from_project;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={project.name_with_namespace}
      tab="files"
      flash={props.flash}
    >
      <h1>{project.name}</h1>
      {source ? (
        <p>
          Forked from <a href={`/${source.path_with_namespace}`}>{source.name_with_namespace}</a>
        </p>
      ) : null}
      {/* Markdown, as 8.13's home panel rendered it (markdown_field). */}
      <MarkdownBlock text={project.description} />
      <p class="muted">
        <span class="badge">{visibilityName(project.visibility_level)}</span> ★ {project.star_count} stars ·{' '}
        {project.forks_count} forks · last activity <TimeAgo at={project.last_activity_at} /> ·{' '}
        <a href={`/${project.path_with_namespace}/activity`}>Activity</a>
      </p>
      <StarAndFork ctx={props.ctx} project={project} viewer={props.viewer} />
      {props.viewer?.accessRequest ? (
        <AccessRequestButton
          ctx={props.ctx}
          base={`/${project.path_with_namespace}/project_members`}
          requested={props.viewer.accessRequest.requested}
        />
      ) : null}
      {props.viewer ? (
        <NotificationMenu
          ctx={props.ctx}
          source={{ type: 'project', id: project.id }}
          level={props.viewer.notificationLevel}
          returnTo={`/${project.path_with_namespace}`}
        />
      ) : null}
      <CloneUrls project={project} />
      {props.tree ? (
        <>
          <RefSwitcher
            project={project}
            current={props.tree.refs.ref}
            branches={props.tree.refs.branches}
            tags={props.tree.refs.tags}
            destination="tree"
            path=""
          />
          <NewFileLink project={project} refs={props.tree.refs} dir="" />
          <LastCommit project={project} commit={props.tree.lastCommit} />
          <TreeTable project={project} ref={props.tree.refs.ref} dir="" entries={props.tree.entries} />
          {props.readme ? <ReadmeSection readme={props.readme} /> : null}
        </>
      ) : (
        <section aria-labelledby="empty-title">
          <h2 id="empty-title">The repository for this project is empty</h2>
          <p>Push a first commit from an existing directory:</p>
          <pre>
            {[
              'git init',
              `git remote add origin ${project.http_url_to_repo}`,
              'git add .',
              'git commit -m "Initial commit"',
              'git push -u origin master',
            ].join('\n')}
          </pre>
        </section>
      )}
    </ProjectFrame>
  );
}

type Readme = { name: string; html: TrustedHtml | null };

/** A directory's README below its listing (the project page's and every tree page's). */
function ReadmeSection(props: { readme: Readme }) {
  return (
    <section class="file" aria-labelledby="readme-title">
      <div class="file-head">
        <h2 id="readme-title">{props.readme.name}</h2>
      </div>
      {props.readme.html ? (
        <RawHtml class="md" html={props.readme.html} />
      ) : (
        <p class="muted">The README is too large to show here.</p>
      )}
    </section>
  );
}

export function TreePage(props: {
  ctx: PageContext;
  project: ProjectHead;
  refs: RefListing;
  path: string;
  entries: TreeEntry[];
  lastCommit: Commit | undefined;
  readme?: Readme | undefined;
  flash?: Flash | null;
}) {
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={props.project}
      title={`${props.path || '/'} · ${props.project.path_with_namespace}`}
      tab="files"
      flash={props.flash}
    >
      <h1>Files</h1>
      <RefSwitcher
        project={props.project}
        current={props.refs.ref}
        branches={props.refs.branches}
        tags={props.refs.tags}
        destination="tree"
        path={props.path}
      />
      <Crumbs project={props.project} ref={props.refs.ref} path={props.path} />
      <NewFileLink project={props.project} refs={props.refs} dir={props.path} />
      <LastCommit project={props.project} commit={props.lastCommit} />
      <TreeTable project={props.project} ref={props.refs.ref} dir={props.path} entries={props.entries} />
      <p>
        <a href={refUrl(props.project, 'commits', props.refs.ref, props.path)}>History of this directory</a>
      </p>
      {props.readme ? <ReadmeSection readme={props.readme} /> : null}
    </ProjectFrame>
  );
}

export type BlobBody =
  | { kind: 'code'; rows: TrustedHtml }
  | { kind: 'markdown'; html: TrustedHtml }
  | { kind: 'image' }
  | { kind: 'binary' | 'too-large' };

export function BlobPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  refs: RefListing;
  path: string;
  size: number;
  body: BlobBody;
  flash?: Flash | null;
}) {
  const { project, refs, path, body } = props;
  const raw = refUrl(project, 'raw', refs.ref, path);
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${path} · ${project.path_with_namespace}`}
      tab="files"
      flash={props.flash}
    >
      <h1>{name}</h1>
      <RefSwitcher
        project={project}
        current={refs.ref}
        branches={refs.branches}
        tags={refs.tags}
        destination="blob"
        path={path}
      />
      <Crumbs project={project} ref={refs.ref} path={path} />
      <section class="file" aria-label={name}>
        <div class="file-head">
          <span class="muted">{props.size.toLocaleString('en')} bytes</span>
          <span>
            {onBranch(project, refs) && (body.kind === 'code' || body.kind === 'markdown') ? (
              <>
                <a href={refUrl(project, 'edit', refs.ref, path)}>Edit</a> ·{' '}
              </>
            ) : null}
            <a href={raw}>Raw</a> · <a href={refUrl(project, 'commits', refs.ref, path)}>History</a>
          </span>
        </div>
        {onBranch(project, refs) ? (
          <details class="file-delete">
            <summary>Delete this file</summary>
            <form class="stack" method="post" action={refUrl(project, 'blob', refs.ref, path)}>
              <Csrf ctx={props.ctx} />
              <label>
                Commit message
                <input type="text" name="commit_message" value={`Delete ${name}`} required />
              </label>
              <button type="submit" class="btn-danger">
                Delete file
              </button>
            </form>
          </details>
        ) : null}
        {body.kind === 'code' ? (
          <div class="code">
            <table>
              <RawRows html={body.rows} />
            </table>
          </div>
        ) : body.kind === 'markdown' ? (
          <RawHtml class="md" html={body.html} />
        ) : body.kind === 'image' ? (
          <div class="blob-image">
            <img src={raw} alt={name} />
          </div>
        ) : (
          <p>
            {body.kind === 'binary' ? 'This file is binary.' : 'This file is too large to show (over 1 MB).'}{' '}
            <a href={raw} download={name}>
              Download it
            </a>
            .
          </p>
        )}
      </section>
    </ProjectFrame>
  );
}

export function CommitRow(props: { project: ProjectHead; commit: Commit }) {
  const c = props.commit;
  return (
    <li>
      <div class="row">
        <a href={`/${props.project.path_with_namespace}/commit/${c.id}`}>
          <strong>{commitTitle(c.message)}</strong>
        </a>
        <span class="mono">{shortId(c.id)}</span>
      </div>
      <span class="muted">
        {c.authorName} authored <TimeAgo at={new Date(c.authoredDate).toISOString()} />
      </span>
    </li>
  );
}

export function CommitsPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  refs: RefListing;
  path: string;
  commits: Commit[];
  page: number;
  hasNext: boolean;
}) {
  const base = refUrl(props.project, 'commits', props.refs.ref, props.path);
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={props.project}
      title={`Commits · ${props.project.path_with_namespace}`}
      tab="commits"
    >
      <h1>Commits{props.path ? ` of ${props.path}` : ''}</h1>
      <RefSwitcher
        project={props.project}
        current={props.refs.ref}
        branches={props.refs.branches}
        tags={props.refs.tags}
        destination="commits"
        path={props.path}
      />
      {props.commits.length === 0 ? (
        <p class="muted">No commits.</p>
      ) : (
        <ul class="list" aria-label="Commits">
          {props.commits.map((commit) => (
            <CommitRow project={props.project} commit={commit} />
          ))}
        </ul>
      )}
      <NewerOlder base={base} page={props.page} hasNext={props.hasNext} />
    </ProjectFrame>
  );
}

export interface DiffFile extends FileDiff {
  additions: number;
  deletions: number;
}

function DiffLines(props: { patch: string }) {
  // The patch from its `---` line: file headers dropped, hunks numbered as git numbers them.
  const rows: ComponentChildren[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const line of props.patch.split('\n')) {
    if (line.startsWith('--- ') || line.startsWith('+++ ') || line === '') continue;
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      rows.push(
        <tr class="hunk">
          <td class="ln" />
          <td class="ln" />
          <td class="c">{line}</td>
        </tr>,
      );
    } else if (line.startsWith('+')) {
      rows.push(
        <tr class="add">
          <td class="ln" />
          <td class="ln">{newLine++}</td>
          <td class="c">{line}</td>
        </tr>,
      );
    } else if (line.startsWith('-')) {
      rows.push(
        <tr class="del">
          <td class="ln">{oldLine++}</td>
          <td class="ln" />
          <td class="c">{line}</td>
        </tr>,
      );
    } else {
      rows.push(
        <tr>
          <td class="ln">{oldLine++}</td>
          <td class="ln">{newLine++}</td>
          <td class="c">{line}</td>
        </tr>,
      );
    }
  }
  return (
    <div class="code diff">
      <table>
        <tbody>{rows}</tbody>
      </table>
    </div>
  );
}

/** A diff as the commit page shows it (also a merge request's changes): totals, file list, each file. */
export function DiffFiles(props: { diffs: DiffFile[]; overflow: boolean; rawBase?: string }) {
  const added = props.diffs.reduce((sum, d) => sum + d.additions, 0);
  const removed = props.diffs.reduce((sum, d) => sum + d.deletions, 0);
  return (
    <>
      <h2>
        {counted(props.diffs.length, 'changed file')} with {counted(added, 'addition')} and{' '}
        {counted(removed, 'deletion')}
      </h2>
      {props.overflow ? (
        <p class="flash alert" role="status">
          This diff is too large to show whole; some files are left out or shown without their changes.
          {props.rawBase ? (
            <>
              {' '}
              See the <a href={`${props.rawBase}.diff`}>raw diff</a> or the{' '}
              <a href={`${props.rawBase}.patch`}>email patch</a>.
            </>
          ) : null}
        </p>
      ) : null}
      <ul class="list" aria-label="Changed files">
        {props.diffs.map((diff, i) => (
          <li>
            <a href={`#diff-${i}`}>{diff.newPath}</a>{' '}
            <span class="muted">
              +{diff.additions} −{diff.deletions}
            </span>
          </li>
        ))}
      </ul>
      {props.diffs.map((diff, i) => (
        <section class="file" id={`diff-${i}`} aria-label={diff.newPath}>
          <div class="file-head">
            <strong class="mono">
              {diff.renamedFile ? `${diff.oldPath} → ${diff.newPath}` : diff.newPath}
              {diff.newFile ? ' (new file)' : diff.deletedFile ? ' (deleted)' : ''}
            </strong>
            <span class="muted">
              +{diff.additions} −{diff.deletions}
            </span>
          </div>
          {diff.tooLarge ? (
            <p class="muted">This file's changes are too large to show.</p>
          ) : diff.diff.startsWith('Binary files') ? (
            <p class="muted">Binary file changed.</p>
          ) : (
            <DiffLines patch={diff.diff} />
          )}
        </section>
      ))}
    </>
  );
}

export function CommitPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  commit: Commit;
  diffs: DiffFile[];
  overflow: boolean;
  /** The commit's newest pipeline, when it has one. */
  pipeline?: { id: number; status: string } | null;
  /** Comments on the commit (the first of them), below its diff with the comment form. */
  notes: NoteItem[];
  noteCounts: NoteCounts;
  comment?: string;
  flash?: Flash;
}) {
  const { project, commit } = props;
  const base = `/${project.path_with_namespace}/commit/${commit.id}`;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${commitTitle(commit.message)} · ${shortId(commit.id)}`}
      tab="commits"
      flash={props.flash}
    >
      <h1>{commitTitle(commit.message)}</h1>
      <p class="mono">
        Commit {commit.id}
        {commit.parentIds.length > 0 ? ' · parents ' : ''}
        {commit.parentIds.map((id, i) => (
          <>
            {i > 0 ? ' ' : ''}
            <a href={`/${project.path_with_namespace}/commit/${id}`}>{shortId(id)}</a>
          </>
        ))}
      </p>
      <p class="muted">
        {commit.authorName} &lt;{commit.authorEmail}&gt; authored{' '}
        <TimeAgo at={new Date(commit.authoredDate).toISOString()} />
      </p>
      {props.pipeline ? (
        <p>
          <PipelineStatusLink project={project} pipeline={props.pipeline} />
        </p>
      ) : null}
      {commit.message.includes('\n') && commit.message.trim().includes('\n') ? (
        <pre>{commit.message.trim()}</pre>
      ) : null}
      <p>
        <a href={refUrl(project, 'tree', commit.id)}>Browse files</a> · <a href={`${base}.diff`}>Raw diff</a>{' '}
        · <a href={`${base}.patch`}>Email patch</a>
      </p>
      <DiffFiles diffs={props.diffs} overflow={props.overflow} rawBase={base} />
      <section aria-label="Discussion" id="discussion">
        <Discussion
          ctx={props.ctx}
          project={project}
          noteable={{ type: 'Commit', id: commit.id }}
          notes={props.notes}
          counts={props.noteCounts}
          comment={props.comment}
        />
      </section>
    </ProjectFrame>
  );
}

export function RefsPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  kind: 'branches' | 'tags';
  refs: Array<{
    name: string;
    protected?: boolean;
    commit: { id: string; message: string; authored_date: string };
  }>;
  /** The newest pipeline of each ref that has one, by name. */
  pipelines?: Map<string, { id: number; status: string }>;
  flash?: Flash | null;
}) {
  const { project } = props;
  const base = `/${project.path_with_namespace}`;
  const title = props.kind === 'branches' ? 'Branches' : 'Tags';
  const branches = props.kind === 'branches';
  /** What a branch other than the default one offers: a merge request, and deletion unless protected. */
  const branchActions = (ref: { name: string; protected?: boolean }) => {
    if (!branches || ref.name === project.default_branch) return null;
    return (
      <span class="actions">
        {project.canOpenMergeRequest ? (
          <a
            class="btn"
            href={`${base}/merge_requests/new?${new URLSearchParams({ 'merge_request[source_branch]': ref.name })}`}
          >
            Merge request
          </a>
        ) : null}
        <a
          class="btn"
          href={`${base}/compare/${encodeURIComponent(project.default_branch)}...${encodeURIComponent(ref.name)}`}
        >
          Compare
        </a>
        {project.canPush && !ref.protected ? (
          <form class="inline" method="post" action={`${base}/branches/delete`}>
            <Csrf ctx={props.ctx} />
            <input type="hidden" name="id" value={ref.name} />
            <button type="submit" class="btn-danger" aria-label={`Delete branch ${ref.name}`}>
              Delete
            </button>
          </form>
        ) : null}
      </span>
    );
  };
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${title} · ${project.path_with_namespace}`}
      tab={props.kind}
      flash={props.flash}
    >
      <div class="row">
        <h1>{title}</h1>
        {branches && project.canPush ? (
          <a class="btn btn-primary" href={`${base}/branches/new`}>
            New branch
          </a>
        ) : null}
      </div>
      {props.refs.length === 0 ? (
        <p class="muted">No {props.kind} yet.</p>
      ) : (
        <ul class="list" aria-label={title}>
          {props.refs.map((ref) => (
            <li>
              <div class="row">
                <span>
                  <a href={refUrl(project, 'tree', ref.name)}>
                    <strong>{ref.name}</strong>
                  </a>
                  {branches && ref.name === project.default_branch ? (
                    <>
                      {' '}
                      <span class="badge">default</span>
                    </>
                  ) : null}
                  {branches && ref.protected ? (
                    <>
                      {' '}
                      <span class="badge">protected</span>
                    </>
                  ) : null}
                </span>
                {branchActions(ref)}
              </div>
              <span class="muted">
                <a href={`/${project.path_with_namespace}/commit/${ref.commit.id}`}>
                  {shortId(ref.commit.id)}
                </a>{' '}
                {commitTitle(ref.commit.message)} ·{' '}
                <TimeAgo at={new Date(ref.commit.authored_date).toISOString()} />
              </span>
              {props.pipelines?.has(ref.name) ? (
                <>
                  {' '}
                  <PipelineStatusLink project={project} pipeline={props.pipelines.get(ref.name)!} />
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </ProjectFrame>
  );
}
