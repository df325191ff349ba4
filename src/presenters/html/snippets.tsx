// The snippet pages as GitLab 8.13 had them: a project's snippets (list, one, new and edit forms) under
// its Snippets tab, and personal snippets outside any project (yours, the public ones on Explore, one,
// the forms). One snippet is shown as the blob page shows a file: its lines highlighted by the file
// name's language, numbered, with a Raw link; a project snippet has its discussion below.
import type { ComponentChildren } from 'preact';
import {
  ActionButton,
  Csrf,
  ExploreTabs,
  Layout,
  tabLinks,
  type Flash,
  type PageContext,
} from './layout.tsx';
import { ProjectFrame, type ProjectHead } from './repository.tsx';
import { NewerOlder, TimeAgo, visibilityName } from './projects.tsx';
import { RawRows, type TrustedHtml } from './raw-html.tsx';
import { UserLink, type UserBasic } from './inline.tsx';
import { Discussion } from './discussion.tsx';
import { AwardButtons } from './issues.tsx';

export interface SnippetItem {
  id: number;
  title: string;
  file_name: string;
  description: string | null;
  visibility_level: number;
  created_at: string;
  updated_at: string;
  author: UserBasic | null;
  /** The snippet's page. */
  url: string;
}

/** Discussion's props but the ones the snippet page fills in itself. */
export type SnippetDiscussion = Omit<Parameters<typeof Discussion>[0], 'ctx' | 'project' | 'noteable'>;

export interface SnippetFormValues {
  title: string;
  file_name: string;
  content: string;
  description: string;
  visibility_level: number;
}

/** A project's snippets base (`/<ns>/<p>/snippets`), or the personal one (`/snippets`). */
const snippetsBase = (project: ProjectHead | null) =>
  project ? `/${project.path_with_namespace}/snippets` : '/snippets';

function SnippetRows(props: { snippets: SnippetItem[]; empty: string }) {
  if (props.snippets.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <ul class="list" aria-label="Snippets">
      {props.snippets.map((snippet) => (
        <li key={snippet.id}>
          <div class="row">
            <span>
              <a href={snippet.url}>
                <strong>{snippet.title}</strong>
              </a>{' '}
              <span class="mono muted">{snippet.file_name}</span>
            </span>
            <span class="muted">
              <span class="badge">{visibilityName(snippet.visibility_level)}</span> ${snippet.id}
              {snippet.author ? (
                <>
                  {' '}
                  · by <UserLink user={snippet.author} />
                </>
              ) : null}{' '}
              · <TimeAgo at={snippet.created_at} />
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** A project's snippets, newest first. */
export function ProjectSnippetsPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  snippets: SnippetItem[];
  page: number;
  hasNext: boolean;
  canCreate: boolean;
  flash?: Flash | null;
}) {
  const base = snippetsBase(props.project);
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={props.project}
      title={`Snippets · ${props.project.path_with_namespace}`}
      tab="snippets"
      flash={props.flash}
    >
      <h1>Snippets</h1>
      {props.canCreate ? (
        <p>
          <a class="btn-primary" href={`${base}/new`}>
            New snippet
          </a>
        </p>
      ) : null}
      <SnippetRows snippets={props.snippets} empty="There are no snippets to show." />
      <NewerOlder base={base} page={props.page} hasNext={props.hasNext} />
    </ProjectFrame>
  );
}

export type PersonalSnippetsTab = 'yours' | 'explore';

/** The personal snippets outside projects: the viewer's own (`/dashboard/snippets`) or the public ones. */
export function PersonalSnippetsPage(props: {
  ctx: PageContext;
  tab: PersonalSnippetsTab;
  snippets: SnippetItem[];
  page: number;
  hasNext: boolean;
}) {
  const tab = tabLinks(props.tab);
  const base = props.tab === 'yours' ? '/dashboard/snippets' : '/explore/snippets';
  return (
    <Layout ctx={props.ctx} title={props.tab === 'yours' ? 'Your snippets' : 'Explore snippets'}>
      <h1>Snippets</h1>
      {props.tab === 'explore' ? <ExploreTabs current="snippets" /> : null}
      <nav aria-label="Snippet lists">
        <ul class="tabs">
          {props.ctx.viewer ? tab('yours', '/dashboard/snippets', 'Your snippets') : null}
          {tab('explore', '/explore/snippets', 'Explore snippets')}
        </ul>
      </nav>
      {props.ctx.viewer ? (
        <p>
          <a class="btn-primary" href="/snippets/new">
            New snippet
          </a>
        </p>
      ) : null}
      <SnippetRows
        snippets={props.snippets}
        empty={
          props.tab === 'yours' ? "You haven't created any snippets yet." : 'There are no public snippets.'
        }
      />
      <NewerOlder base={base} page={props.page} hasNext={props.hasNext} />
    </Layout>
  );
}

/** A project's page frame for a project snippet, a plain one for a personal snippet. */
function SnippetFrame(props: {
  ctx: PageContext;
  project: ProjectHead | null;
  title: string;
  flash?: Flash | null;
  children: ComponentChildren;
}) {
  if (props.project) {
    return (
      <ProjectFrame
        ctx={props.ctx}
        project={props.project}
        title={`${props.title} · ${props.project.path_with_namespace}`}
        tab="snippets"
        flash={props.flash}
      >
        {props.children}
      </ProjectFrame>
    );
  }
  return (
    <Layout ctx={props.ctx} title={props.title} flash={props.flash}>
      <p class="muted">
        <a href={props.ctx.viewer ? '/dashboard/snippets' : '/explore/snippets'}>Snippets</a>
      </p>
      {props.children}
    </Layout>
  );
}

/** One snippet: title, who and when, its file highlighted with a Raw link, and (a project's) the notes. */
export function SnippetPage(props: {
  ctx: PageContext;
  project: ProjectHead | null;
  snippet: SnippetItem;
  rows: TrustedHtml;
  size: number;
  canUpdate: boolean;
  /** The thread as the issue page's Discussion takes it (notes, their count, references, a kept comment). */
  discussion?: SnippetDiscussion;
  /** A project snippet's thumbs: the counts, the viewer's own, whether they may vote (not on their own). */
  awards?: { upvotes: number; downvotes: number; given: string[]; canVote: boolean };
  flash?: Flash | null;
}) {
  const { snippet } = props;
  return (
    <SnippetFrame ctx={props.ctx} project={props.project} title={snippet.title} flash={props.flash}>
      <h1>{snippet.title}</h1>
      <p class="muted">
        ${snippet.id} · {visibilityName(snippet.visibility_level)} ·{' '}
        {snippet.author ? (
          <>
            by <UserLink user={snippet.author} />{' '}
          </>
        ) : null}
        <TimeAgo at={snippet.created_at} />
      </p>
      {snippet.description ? <p>{snippet.description}</p> : null}
      {props.canUpdate ? (
        <p>
          <a href={`${snippet.url}/edit`}>Edit</a>{' '}
          <ActionButton ctx={props.ctx} action={`${snippet.url}/delete`} text="Delete" danger />
        </p>
      ) : null}
      <section class="file" aria-label={snippet.file_name || snippet.title}>
        <div class="file-head">
          <span class="mono">{snippet.file_name}</span>
          <span>
            <span class="muted">{props.size.toLocaleString('en')} bytes</span> ·{' '}
            <a href={`${snippet.url}/raw`}>Raw</a>
          </span>
        </div>
        <div class="code">
          <table>
            <RawRows html={props.rows} />
          </table>
        </div>
      </section>
      {props.awards ? (
        <AwardButtons ctx={props.ctx} action={`${snippet.url}/toggle_award_emoji`} {...props.awards} />
      ) : null}
      {props.project && props.discussion ? (
        <Discussion
          ctx={props.ctx}
          project={props.project}
          noteable={{ type: 'Snippet', id: snippet.id }}
          {...props.discussion}
        />
      ) : null}
    </SnippetFrame>
  );
}

/** The new and edit forms (8.13's `project_snippet[…]` and `personal_snippet[…]` fields). */
export function SnippetFormPage(props: {
  ctx: PageContext;
  project: ProjectHead | null;
  /** The snippet edited; null for a new one. */
  snippet: SnippetItem | null;
  values: SnippetFormValues;
  errors: string[];
}) {
  const scope = props.project ? 'project_snippet' : 'personal_snippet';
  const action = props.snippet ? props.snippet.url : snippetsBase(props.project);
  const heading = props.snippet ? `Edit snippet $${props.snippet.id}` : 'New snippet';
  return (
    <SnippetFrame ctx={props.ctx} project={props.project} title={heading}>
      <h1>{heading}</h1>
      {props.errors.length > 0 ? (
        <div class="flash flash-alert" role="alert">
          <ul>
            {props.errors.map((text) => (
              <li>{text}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <form class="stack" method="post" action={action}>
        <Csrf ctx={props.ctx} />
        <label>
          Title
          <input type="text" name={`${scope}[title]`} value={props.values.title} required maxLength={255} />
        </label>
        <label>
          Description (optional)
          <input type="text" name={`${scope}[description]`} value={props.values.description} />
        </label>
        <fieldset>
          <legend>Visibility</legend>
          {[
            [0, 'Private'],
            [10, 'Internal'],
            [20, 'Public'],
          ].map(([level, text]) => (
            <label>
              <input
                type="radio"
                name={`${scope}[visibility_level]`}
                value={String(level)}
                checked={props.values.visibility_level === level}
              />{' '}
              {text}
            </label>
          ))}
        </fieldset>
        <label>
          File name
          <input type="text" name={`${scope}[file_name]`} value={props.values.file_name} maxLength={255} />
        </label>
        <label>
          Content
          <textarea name={`${scope}[content]`} rows={16} class="mono" required>
            {props.values.content}
          </textarea>
        </label>
        <button type="submit" class="btn-primary">
          {props.snippet ? 'Save changes' : 'Create snippet'}
        </button>
      </form>
    </SnippetFrame>
  );
}
