// /admin/projects: every project, archived ones too, searched and filtered by visibility; each links to
// the project's page.
import type { VisibilityName } from '../../../domain/types.ts';
import type { PageContext } from '../layout.tsx';
import { Pager, ProjectList, type ProjectSummary } from '../projects.tsx';
import { AdminFrame } from './frame.tsx';

const VISIBILITIES: VisibilityName[] = ['private', 'internal', 'public'];

export function AdminProjectsPage(props: {
  ctx: PageContext;
  search: string;
  visibility: VisibilityName | undefined;
  projects: ProjectSummary[];
  page: number;
  hasNext: boolean;
}) {
  return (
    <AdminFrame ctx={props.ctx} tab="projects" title="Projects">
      <form class="searchbar" method="get" action="/admin/projects" role="search">
        <label>
          Filter by name
          <input type="search" name="search" value={props.search} />
        </label>
        <label>
          Visibility
          <select name="visibility">
            <option value="" selected={props.visibility === undefined}>
              Any
            </option>
            {VISIBILITIES.map((name) => (
              <option value={name} selected={props.visibility === name}>
                {name[0]!.toUpperCase() + name.slice(1)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <ProjectList projects={props.projects} empty="No projects found." />
      <Pager
        base="/admin/projects"
        query={{ search: props.search, visibility: props.visibility }}
        page={props.page}
        hasNext={props.hasNext}
      />
    </AdminFrame>
  );
}
