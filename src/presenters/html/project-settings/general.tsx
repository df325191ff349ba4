// /<ns>/<p>/edit: the project's name, path, description, visibility, default branch and feature switches;
// then, for owners, archive or unarchive, transfer to a group, and removal confirmed by typing the path.
import { ActionButton, Csrf, type Flash, type PageContext } from '../layout.tsx';
import { Checkbox, SettingsFrame, settingsUrl, type SettingsProject } from './settings-frame.tsx';
import { VisibilityLevelChoice } from '../projects.tsx';

/** The switches this form shows (public builds live on the pipelines settings page). */
export const FEATURE_LABELS: Array<[string, string]> = [
  ['issues_enabled', 'Issues'],
  ['merge_requests_enabled', 'Merge requests'],
  ['only_allow_merge_if_build_succeeds', 'Only allow merge requests to be merged if the build succeeds'],
  ['wiki_enabled', 'Wiki'],
  ['snippets_enabled', 'Snippets'],
  ['builds_enabled', 'Builds'],
  ['shared_runners_enabled', 'Shared runners'],
  ['container_registry_enabled', 'Container registry'],
  ['lfs_enabled', 'Git Large File Storage'],
  ['request_access_enabled', 'Allow users to request access'],
];

export interface GeneralForm {
  name: string;
  path: string;
  description: string;
  default_branch: string;
  visibility_level: number;
  features: Record<string, boolean>;
}

export function GeneralSettingsPage(props: {
  ctx: PageContext;
  flash?: Flash | null;
  project: SettingsProject & { archived: boolean };
  form: GeneralForm;
  branches: string[];
  /** Groups the owner may move the project to. */
  groups: Array<{ id: number; path: string }>;
  /** What was typed in the removal confirmation, when it did not match. */
  typedPath?: string;
}) {
  const { project, form } = props;
  const owner = project.owner;
  return (
    <SettingsFrame
      ctx={props.ctx}
      project={project}
      section="general"
      title="General settings"
      flash={props.flash}
    >
      <form class="stack" method="post" action={settingsUrl(project)}>
        <Csrf ctx={props.ctx} />
        <label>
          Project name
          <input type="text" name="project[name]" value={form.name} required disabled={!owner} />
        </label>
        <label>
          Path
          <input type="text" name="project[path]" value={form.path} required />
        </label>
        <label>
          Description
          <textarea name="project[description]">{form.description}</textarea>
        </label>
        <label>
          Default branch
          {props.branches.length > 0 ? (
            <select name="project[default_branch]">
              {props.branches.map((name) => (
                <option value={name} selected={name === form.default_branch}>
                  {name}
                </option>
              ))}
            </select>
          ) : (
            <input type="text" name="project[default_branch]" value={form.default_branch} />
          )}
        </label>
        <VisibilityLevelChoice
          legend={`Visibility level${owner ? '' : ' (owners may change it)'}`}
          level={form.visibility_level}
          disabled={!owner}
        />
        <fieldset>
          <legend>Features</legend>
          {FEATURE_LABELS.map(([name, text]) => (
            <Checkbox name={`project[${name}]`} checked={form.features[name] === true} text={text} />
          ))}
        </fieldset>
        <div>
          <button type="submit" class="primary">
            Save changes
          </button>
        </div>
      </form>
      {owner ? (
        <>
          <h2>{project.archived ? 'Unarchive project' : 'Archive project'}</h2>
          <p>
            {project.archived
              ? 'Unarchiving makes the project fully writable again.'
              : 'An archived project stays readable but refuses pushes, and is hidden from active project lists.'}
          </p>
          <ActionButton
            ctx={props.ctx}
            action={settingsUrl(project, project.archived ? '/unarchive' : '/archive')}
            text={project.archived ? 'Unarchive project' : 'Archive project'}
            danger={!project.archived}
          />
          <h2>Transfer project</h2>
          {props.groups.length === 0 ? (
            <p class="muted">There is no group you may move this project to.</p>
          ) : (
            <form class="stack" method="post" action={settingsUrl(project, '/transfer')}>
              <Csrf ctx={props.ctx} />
              <label>
                New namespace
                <select name="new_namespace_id">
                  {props.groups.map((group) => (
                    <option value={String(group.id)}>{group.path}</option>
                  ))}
                </select>
              </label>
              <div>
                <button type="submit" class="btn-danger">
                  Transfer project
                </button>
              </div>
            </form>
          )}
          <h2>Remove project</h2>
          <p>Removing the project deletes its repository, builds, issues and everything else, for good.</p>
          <form class="stack" method="post" action={settingsUrl(project, '/delete')}>
            <Csrf ctx={props.ctx} />
            <label>
              Type the project's path, {project.path}, to confirm
              <input
                type="text"
                name="confirm_path"
                value={props.typedPath ?? ''}
                required
                autocomplete="off"
              />
            </label>
            <div>
              <button type="submit" class="btn-danger">
                Remove project
              </button>
            </div>
          </form>
        </>
      ) : null}
    </SettingsFrame>
  );
}
