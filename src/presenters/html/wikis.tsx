// A project's wiki as GitLab 8.13 showed it under its Wiki tab: a sub-navigation (Home, Pages, Git
// Access), one page rendered with who edited it last and its buttons (New page, Page history, Edit,
// Delete as the viewer may), the page form (title, format, content, commit message; a new title renames),
// a page's history (its commits), the list of all pages with their last edit, and the clone
// instructions. Page titles read as 8.13's `title.capitalize` wrote them: first letter up, the rest down.
import type { ComponentChildren } from 'preact';
import { Csrf, tabLinks, type Flash, type PageContext } from './layout.tsx';
import { NewerOlder, TimeAgo } from './projects.tsx';
import { ProjectFrame, type ProjectHead } from './repository.tsx';
import { RawHtml, type TrustedHtml } from './raw-html.tsx';
import { FormErrors } from './issues.tsx';
import { wikiPagePath } from '../../domain/paths.ts';

/** Ruby's String#capitalize, as 8.13's wiki headings used it. */
function capitalized(title: string): string {
  return title.charAt(0).toUpperCase() + title.slice(1).toLowerCase();
}

const wikiBase = (project: ProjectHead) => `/${project.path_with_namespace}/wikis`;
const pagePath = (project: ProjectHead, slug: string, action = '') =>
  wikiPagePath(project.path_with_namespace, slug, action);

type WikiNavTab = 'home' | 'pages' | 'git_access' | 'none';

function WikiFrame(props: {
  ctx: PageContext;
  project: ProjectHead;
  title: string;
  nav: WikiNavTab;
  flash?: Flash | null;
  children: ComponentChildren;
}) {
  const { project } = props;
  const tab = tabLinks(props.nav);
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${props.title} · Wiki · ${project.path_with_namespace}`}
      tab="wiki"
      flash={props.flash}
    >
      <nav aria-label="Wiki">
        <ul class="tabs">
          {tab('home', pagePath(project, 'home'), 'Home')}
          {tab('pages', `${wikiBase(project)}/pages`, 'Pages')}
          {tab('git_access', `${wikiBase(project)}/git_access`, 'Git Access')}
        </ul>
      </nav>
      {props.children}
    </ProjectFrame>
  );
}

export interface WikiPageShown {
  slug: string;
  title: string;
  format: string;
  html: TrustedHtml;
  /** The version shown (a commit id) and who made it when. */
  commit: { id: string; authorName: string; authoredDate: string };
  /** An older version than master's. */
  historical: boolean;
}

export interface WikiAbilities {
  canCreate: boolean;
  canAdmin: boolean;
}

export function WikiShowPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  page: WikiPageShown;
  may: WikiAbilities;
  flash: Flash | null;
}) {
  const { project, page, may } = props;
  const title = capitalized(page.title);
  return (
    <WikiFrame
      ctx={props.ctx}
      project={project}
      title={title}
      nav={page.slug.toLowerCase() === 'home' ? 'home' : 'none'}
      flash={props.flash}
    >
      <div class="row">
        <h1>{title}</h1>
        <p class="muted">
          · last edited by {page.commit.authorName} <TimeAgo at={page.commit.authoredDate} />
        </p>
      </div>
      <p class="row">
        {may.canCreate ? (
          <>
            <a class="btn" href={`${wikiBase(project)}/new`}>
              New page
            </a>
            <a class="btn" href={pagePath(project, page.slug, 'history')}>
              Page history
            </a>
            <a class="btn" href={pagePath(project, page.slug, 'edit')}>
              Edit
            </a>
          </>
        ) : null}
        {may.canAdmin ? (
          <form method="post" action={pagePath(project, page.slug)} class="inline">
            <Csrf ctx={props.ctx} />
            <input type="hidden" name="_method" value="delete" />
            <button type="submit" class="btn-danger">
              Delete
            </button>
          </form>
        ) : null}
      </p>
      {page.historical ? (
        <p class="flash alert" role="status">
          This is an old version of this page. You can view the{' '}
          <a href={pagePath(project, page.slug)}>most recent version</a>
          {may.canCreate ? (
            <>
              {' '}
              or browse the <a href={pagePath(project, page.slug, 'history')}>history</a>
            </>
          ) : null}
          .
        </p>
      ) : null}
      <RawHtml class="md wiki" html={page.html} />
    </WikiFrame>
  );
}

export interface WikiFormValues {
  title: string;
  format: string;
  content: string;
  message: string;
  /** The page's last commit when the form was loaded (an edit only). */
  lastCommitId: string;
}

const FORMATS: Array<[string, string]> = [
  ['markdown', 'Markdown'],
  ['rdoc', 'RDoc'],
  ['asciidoc', 'AsciiDoc'],
  ['org', 'Org'],
];

/** The page form: a new page (posted to /wikis) or an edit of `slug` (posted to the page). */
export function WikiFormPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  /** The page edited; undefined for a new one. */
  slug?: string;
  values: WikiFormValues;
  errors: string[];
}) {
  const { project, values, slug } = props;
  const heading =
    slug !== undefined ? capitalized(values.title) : values.title ? capitalized(values.title) : 'New page';
  return (
    <WikiFrame
      ctx={props.ctx}
      project={project}
      title={slug !== undefined ? `Edit ${heading}` : heading}
      nav="none"
    >
      <h1>
        {slug !== undefined ? <a href={pagePath(project, slug)}>{heading}</a> : heading}
        <span class="muted"> · {slug !== undefined ? 'Edit Page' : 'Create Page'}</span>
      </h1>
      <FormErrors errors={props.errors} />
      <form
        class="stack"
        method="post"
        action={slug !== undefined ? pagePath(project, slug) : wikiBase(project)}
      >
        <Csrf ctx={props.ctx} />
        {slug !== undefined ? (
          <input type="hidden" name="wiki[last_commit_sha]" value={values.lastCommitId} />
        ) : null}
        <label>
          Title
          <input type="text" name="wiki[title]" value={values.title} required maxLength={255} />
        </label>
        <label>
          Format
          <select name="wiki[format]">
            {FORMATS.map(([value, text]) => (
              <option value={value} selected={value === values.format}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <label>
          Content
          <textarea name="wiki[content]" rows={18} placeholder="Write your content here...">
            {values.content}
          </textarea>
        </label>
        <p class="muted">
          To link to a (new) page, simply type <code>[Link Title](page-slug)</code> or{' '}
          <code>[[Page Title]]</code>.
        </p>
        <label>
          Commit message
          <input type="text" name="wiki[message]" value={values.message} />
        </label>
        <div class="row">
          <button type="submit" class="btn-primary">
            {slug !== undefined ? 'Save changes' : 'Create page'}
          </button>
          <a href={slug !== undefined ? pagePath(project, slug) : pagePath(project, 'home')}>Cancel</a>
        </div>
      </form>
    </WikiFrame>
  );
}

/** A missing page for a viewer who may not write one (8.13's `empty`). */
export function WikiEmptyPage(props: { ctx: PageContext; project: ProjectHead }) {
  return (
    <WikiFrame ctx={props.ctx} project={props.project} title="Empty page" nav="none">
      <h1>Empty page</h1>
      <p class="muted">You are not allowed to create wiki pages</p>
    </WikiFrame>
  );
}

export interface WikiVersionItem {
  id: string;
  authorName: string;
  message: string;
  authoredDate: string;
}

export function WikiHistoryPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  page: { slug: string; title: string; format: string };
  versions: WikiVersionItem[];
  /** The page of history shown; the newest version is the page's current one. */
  pageNumber: number;
  hasNext: boolean;
}) {
  const { project, page } = props;
  const title = capitalized(page.title);
  return (
    <WikiFrame ctx={props.ctx} project={project} title={`History · ${title}`} nav="none">
      <h1>
        <a href={pagePath(project, page.slug)}>{title}</a>
        <span class="muted"> · History</span>
      </h1>
      <div class="table-wrap">
        <table aria-label="Page versions">
          <thead>
            <tr>
              <th scope="col">Page version</th>
              <th scope="col">Author</th>
              <th scope="col">Commit Message</th>
              <th scope="col">Last updated</th>
            </tr>
          </thead>
          <tbody>
            {props.versions.map((version, index) => (
              <tr>
                <td>
                  <a
                    class="mono"
                    href={
                      props.pageNumber === 1 && index === 0
                        ? pagePath(project, page.slug)
                        : `${pagePath(project, page.slug)}?version_id=${version.id}`
                    }
                  >
                    {version.id.slice(0, 8)}
                  </a>
                </td>
                <td>{version.authorName}</td>
                <td>{version.message}</td>
                <td>
                  <TimeAgo at={version.authoredDate} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <NewerOlder
        base={pagePath(project, page.slug, 'history')}
        page={props.pageNumber}
        hasNext={props.hasNext}
      />
    </WikiFrame>
  );
}

export interface WikiListItem {
  slug: string;
  title: string;
  format: string;
  lastEdited: string | null;
}

export function WikiPagesPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  pages: WikiListItem[];
  total: number;
  pageNumber: number;
  hasNext: boolean;
}) {
  const { project } = props;
  return (
    <WikiFrame ctx={props.ctx} project={project} title="Pages" nav="pages">
      <h1>
        Pages <span class="badge">{props.total}</span>
      </h1>
      {props.pages.length === 0 ? (
        <p class="muted">This wiki has no pages yet.</p>
      ) : (
        <ul class="list" aria-label="Wiki pages">
          {props.pages.map((page) => (
            <li>
              <a href={pagePath(project, page.slug)}>{page.title}</a> <small>({page.format})</small>
              {page.lastEdited ? (
                <small class="muted">
                  {' '}
                  Last edited <TimeAgo at={page.lastEdited} />
                </small>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <NewerOlder base={`${wikiBase(project)}/pages`} page={props.pageNumber} hasNext={props.hasNext} />
    </WikiFrame>
  );
}

export function WikiGitAccessPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  httpUrl: string;
  sshUrl: string;
}) {
  const { project } = props;
  const dir = `${project.path_with_namespace.slice(project.path_with_namespace.lastIndexOf('/') + 1)}.wiki`;
  return (
    <WikiFrame ctx={props.ctx} project={project} title="Git Access" nav="git_access">
      <h1>
        Git access for <strong>{project.path_with_namespace}.wiki</strong>
      </h1>
      <div class="clone">
        <label for="wiki-clone-http">HTTP</label>
        <input id="wiki-clone-http" type="text" readOnly value={props.httpUrl} />
        <button type="button" data-copy="wiki-clone-http" hidden>
          Copy
        </button>
        <label for="wiki-clone-ssh">SSH</label>
        <input id="wiki-clone-ssh" type="text" readOnly value={props.sshUrl} />
        <button type="button" data-copy="wiki-clone-ssh" hidden>
          Copy
        </button>
      </div>
      <h2>Install Gollum</h2>
      <pre>gem install gollum</pre>
      <h2>Clone your wiki</h2>
      <pre>{`git clone ${props.httpUrl}\ncd ${dir}`}</pre>
      <h2>Start Gollum and edit locally</h2>
      <pre>gollum</pre>
      <p class="muted">
        Pages are files on the branch master: <code>Page-Name.md</code> for Markdown, a directory for each
        part of a slug. What you push shows here.
      </p>
    </WikiFrame>
  );
}
