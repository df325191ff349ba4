// Project lists: the start page (your projects, starred), explore, a user's page and a group's page.
import { AccessRequestButton } from './access-requests.tsx';
import { ExploreTabs, Layout, tabLinks, type Flash, type PageContext } from './layout.tsx';
import { renderCommentMarkdown } from './markdown.ts';
import { RawHtml } from './raw-html.tsx';

export interface ProjectSummary {
  path_with_namespace: string;
  name_with_namespace: string;
  description: string | null;
  star_count: number;
  forks_count: number;
  last_activity_at: string;
  visibility_level: number;
}

export function visibilityName(level: number): string {
  return level >= 20 ? 'Public' : level >= 10 ? 'Internal' : 'Private';
}

/** The radio buttons of `project[visibility_level]`, the project's level checked. */
export function VisibilityLevelChoice(props: { legend: string; level: number; disabled?: boolean }) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {[
        [0, 'Private'],
        [10, 'Internal'],
        [20, 'Public'],
      ].map(([level, text]) => (
        <label>
          <input
            type="radio"
            name="project[visibility_level]"
            value={String(level)}
            checked={props.level === level}
            disabled={props.disabled}
          />{' '}
          {text}
        </label>
      ))}
    </fieldset>
  );
}

export function TimeAgo(props: { at: string }) {
  return <time dateTime={props.at}>{props.at.slice(0, 16).replace('T', ' ')} UTC</time>;
}

export function ProjectList(props: { projects: ProjectSummary[]; empty: string }) {
  if (props.projects.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <ul class="list" aria-label="Projects">
      {props.projects.map((project) => (
        <li key={project.path_with_namespace}>
          <div class="row">
            <a href={`/${project.path_with_namespace}`}>
              <strong>{project.name_with_namespace}</strong>
            </a>
            <span class="muted">
              <span class="badge">{visibilityName(project.visibility_level)}</span> ★ {project.star_count} ·
              forks {project.forks_count} · updated <TimeAgo at={project.last_activity_at} />
            </span>
          </div>
          {project.description ? <p class="muted">{project.description}</p> : null}
        </li>
      ))}
    </ul>
  );
}

/** One page of the list at `base`, with the other (non-empty) query parameters; page 1 names no page. */
function pageHref(base: string, query: Record<string, string | undefined>, page: number): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  if (page > 1) search.set('page', String(page));
  const text = search.toString();
  return text ? `${base}?${text}` : base;
}

/** Previous/next links that keep the other query parameters. */
export function Pager(props: {
  base: string;
  query: Record<string, string | undefined>;
  page: number;
  hasNext: boolean;
}) {
  const href = (page: number) => pageHref(props.base, props.query, page);
  if (props.page <= 1 && !props.hasNext) return null;
  return (
    <nav class="pagination" aria-label="Pages">
      {props.page > 1 ? <a href={href(props.page - 1)}>‹ Previous</a> : null}
      <span class="muted">Page {props.page}</span>
      {props.hasNext ? <a href={href(props.page + 1)}>Next ›</a> : null}
    </nav>
  );
}

/** Newer/older links of a list shown newest first (commits, activity, pipelines, builds). */
export function NewerOlder(props: {
  base: string;
  query?: Record<string, string | undefined>;
  page: number;
  hasNext: boolean;
}) {
  const href = (page: number) => pageHref(props.base, props.query ?? {}, page);
  return (
    <nav class="pagination" aria-label="Pages">
      {props.page > 1 ? <a href={href(props.page - 1)}>‹ Newer</a> : null}
      {props.hasNext ? <a href={href(props.page + 1)}>Older ›</a> : null}
    </nav>
  );
}

export type DashboardTab = 'yours' | 'starred';

export function DashboardPage(props: {
  ctx: PageContext;
  tab: DashboardTab;
  projects: ProjectSummary[];
  page: number;
  hasNext: boolean;
}) {
  const tab = tabLinks(props.tab);
  return (
    <Layout ctx={props.ctx} title="Projects">
      <div class="row">
        <h1>Projects</h1>
        <a class="btn btn-primary" href="/projects/new">
          New project
        </a>
      </div>
      <ul class="tabs">
        {tab('yours', '/', 'Your projects')}
        {tab('starred', '/dashboard/projects/starred', 'Starred projects')}
        <li>
          <a href="/explore/projects">Explore projects</a>
        </li>
      </ul>
      <ProjectList
        projects={props.projects}
        empty={
          props.tab === 'yours'
            ? 'You are not a member of any project yet.'
            : 'You have not starred any project.'
        }
      />
      <Pager
        base={props.tab === 'yours' ? '/' : '/dashboard/projects/starred'}
        query={{}}
        page={props.page}
        hasNext={props.hasNext}
      />
    </Layout>
  );
}

export const EXPLORE_SORTS = {
  latest_activity_desc: ['last_activity_at', 'Last updated'],
  name_asc: ['name', 'Name'],
  created_desc: ['created_at', 'Last created'],
} as const;
export type ExploreSort = keyof typeof EXPLORE_SORTS;

export function ExplorePage(props: {
  ctx: PageContext;
  search: string;
  sort: ExploreSort;
  projects: ProjectSummary[];
  page: number;
  hasNext: boolean;
}) {
  return (
    <Layout ctx={props.ctx} title="Explore projects">
      <h1>Explore projects</h1>
      <ExploreTabs current="projects" />
      {props.ctx.viewer ? null : (
        <p>
          These are the public projects.{' '}
          <a href={`/users/sign_in?redirect_to=${encodeURIComponent(props.ctx.path)}`}>Sign in</a> to see
          more.
        </p>
      )}
      <form class="searchbar" method="get" action="/explore/projects" role="search">
        <label>
          Filter by name
          <input type="search" name="search" value={props.search} />
        </label>
        <label>
          Sort by
          <select name="sort">
            {Object.entries(EXPLORE_SORTS).map(([key, [, text]]) => (
              <option value={key} selected={key === props.sort}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <ProjectList projects={props.projects} empty="No projects found." />
      <Pager
        base="/explore/projects"
        query={{ search: props.search, sort: props.sort === 'latest_activity_desc' ? undefined : props.sort }}
        page={props.page}
        hasNext={props.hasNext}
      />
    </Layout>
  );
}

export function NamespacePage(props: {
  ctx: PageContext;
  title: string;
  subtitle: string;
  description?: string | null;
  /** A group's description is Markdown, a user's bio plain text (as 8.13's pages showed them). */
  markdown?: boolean;
  base: string;
  projects: ProjectSummary[];
  page: number;
  hasNext: boolean;
  /** Pages of this namespace (a group's members). */
  links?: Array<{ href: string; text: string }>;
  /** A group's Request or Withdraw Access Request button, for a signed-in non-member. */
  accessRequest?: { requested: boolean };
  flash?: Flash | null;
}) {
  return (
    <Layout ctx={props.ctx} title={props.title} flash={props.flash}>
      <h1>{props.title}</h1>
      <p class="muted">{props.subtitle}</p>
      {props.links ? (
        <nav class="actions" aria-label="Group">
          {props.links.map((link) => (
            <a class="btn" href={link.href}>
              {link.text}
            </a>
          ))}
        </nav>
      ) : null}
      {props.accessRequest ? (
        <AccessRequestButton
          ctx={props.ctx}
          base={`${props.base}/group_members`}
          requested={props.accessRequest.requested}
        />
      ) : null}
      {!props.description ? null : props.markdown ? (
        <RawHtml class="md" html={renderCommentMarkdown(props.description)} />
      ) : (
        <p>{props.description}</p>
      )}
      <h2>Projects</h2>
      <ProjectList projects={props.projects} empty="No projects to show." />
      <Pager base={props.base} query={{}} page={props.page} hasNext={props.hasNext} />
    </Layout>
  );
}
