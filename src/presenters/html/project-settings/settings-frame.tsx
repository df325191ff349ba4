// The frame of every project settings page: the project's tabs (Settings current), the page's heading and
// the settings sub-navigation (CI pages only while the project has builds on, as 8.13's admin_build).
import type { ComponentChildren } from 'preact';
import { tabLinks, type Flash, type PageContext } from '../layout.tsx';
import { ProjectFrame, type ProjectHead } from '../repository.tsx';

export type SettingsSection =
  | 'general'
  | 'members'
  | 'protected_branches'
  | 'hooks'
  | 'deploy_keys'
  | 'pipelines'
  | 'variables'
  | 'triggers'
  | 'runners';

/** What the settings pages know of the project and of what the viewer may do there. */
export interface SettingsProject extends ProjectHead {
  id: number;
  path: string;
  /** Owners: rename, visibility, archive, transfer, remove. */
  owner: boolean;
  /** admin_build: variables, triggers, pipelines settings. */
  builds: boolean;
}

export const ACCESS_LEVELS: Array<[number, string]> = [
  [10, 'Guest'],
  [20, 'Reporter'],
  [30, 'Developer'],
  [40, 'Master'],
];

export function accessLevelName(level: number): string {
  return level >= 50 ? 'Owner' : (ACCESS_LEVELS.find(([value]) => value === level)?.[1] ?? String(level));
}

/** `/<namespace>/<project>` followed by `tail`. */
export function settingsUrl(project: { path_with_namespace: string }, tail = ''): string {
  return `/${project.path_with_namespace}${tail}`;
}

export function SettingsFrame(props: {
  ctx: PageContext;
  project: SettingsProject;
  section: SettingsSection;
  title: string;
  flash?: Flash | null;
  children: ComponentChildren;
}) {
  const { project } = props;
  const tab = tabLinks(props.section);
  const link = (section: SettingsSection, tail: string, text: string) =>
    tab(section, settingsUrl(project, tail), text);
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${props.title} · ${project.name_with_namespace}`}
      tab="settings"
      flash={props.flash}
    >
      <h1>{props.title}</h1>
      <nav aria-label="Settings">
        <ul class="tabs">
          {link('general', '/edit', 'General')}
          {link('members', '/project_members', 'Members')}
          {link('protected_branches', '/protected_branches', 'Protected branches')}
          {link('hooks', '/hooks', 'Webhooks')}
          {link('deploy_keys', '/deploy_keys', 'Deploy keys')}
          {link('runners', '/runners', 'Runners')}
          {project.builds ? (
            <>
              {link('pipelines', '/pipelines/settings', 'CI/CD pipelines')}
              {link('variables', '/variables', 'Variables')}
              {link('triggers', '/triggers', 'Triggers')}
            </>
          ) : null}
        </ul>
      </nav>
      {props.children}
    </ProjectFrame>
  );
}

/** A checkbox that posts "1" when checked (an unchecked box sends nothing, read as false). */
export function Checkbox(props: { name: string; checked: boolean; text: string; disabled?: boolean }) {
  return (
    <label class="check">
      <input type="checkbox" name={props.name} value="1" checked={props.checked} disabled={props.disabled} />{' '}
      {props.text}
    </label>
  );
}
