// The forms that write to a repository or make a project from one: a new branch, the web file editor
// (new and edit: a plain textarea, a commit message and the branch to commit to) and the fork form that
// picks a namespace. Refusals from the services are shown above the form, which keeps what was typed.
import { Csrf, type Flash, type PageContext } from './layout.tsx';
import { FormErrors } from './issues.tsx';
import { ProjectFrame, refUrl, type ProjectHead } from './repository.tsx';

export interface NewBranchValues {
  branchName: string;
  ref: string;
}

export function NewBranchPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  values: NewBranchValues;
  errors: string[];
}) {
  const { project, values } = props;
  const base = `/${project.path_with_namespace}/branches`;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`New branch · ${project.path_with_namespace}`}
      tab="branches"
    >
      <h1>New branch</h1>
      <FormErrors errors={props.errors} />
      <form class="stack" method="post" action={base}>
        <Csrf ctx={props.ctx} />
        <label>
          Name for new branch
          <input type="text" name="branch_name" value={values.branchName} required autofocus />
        </label>
        <label>
          Create from
          <input type="text" name="ref" value={values.ref} required />
          <span class="muted">An existing branch name, tag, or commit SHA</span>
        </label>
        <button type="submit" class="btn-primary">
          Create branch
        </button>
      </form>
      <p>
        <a href={base}>Cancel</a>
      </p>
    </ProjectFrame>
  );
}

export interface FileEditorValues {
  /** The file's path: for a new file, relative to `dir`. */
  fileName: string;
  content: string;
  commitMessage: string;
  targetBranch: string;
  createMergeRequest: boolean;
  /** The blob the edit started from, to refuse overwriting someone else's change. */
  originalBlobId?: string;
}

/**
 * The editor's template picker (GitLab 8.13's, without script): a GET form that reloads the page with
 * `template_type` and then `template`, the chosen template's text filling the editor. With the pages'
 * script each select submits on change.
 */
export interface TemplatePicker {
  /** The kinds, as the file each becomes (`.gitignore`, `LICENSE` …). */
  types: { value: string; label: string }[];
  /** The chosen or guessed kind, with its templates under their headings. */
  type?: string;
  groups: { label: string; entries: { key: string; name: string }[] }[];
  template?: string;
}

function TemplatePickerForm(props: { action: string; picker: TemplatePicker; fileName: string }) {
  const { picker } = props;
  return (
    <form class="template-picker" method="get" action={props.action} aria-label="File templates">
      {props.fileName !== '' ? <input type="hidden" name="file_name" value={props.fileName} /> : null}
      <label>
        Template type{' '}
        <select name="template_type" data-autosubmit>
          <option value="" selected={picker.type === undefined}>
            Choose type
          </option>
          {picker.types.map((type) => (
            <option value={type.value} selected={type.value === picker.type}>
              {type.label}
            </option>
          ))}
        </select>
      </label>{' '}
      {picker.type !== undefined ? (
        <label>
          Template{' '}
          <select name="template" data-autosubmit>
            <option value="" selected={picker.template === undefined}>
              Choose a template
            </option>
            {picker.groups.map((group) => (
              <optgroup label={group.label}>
                {group.entries.map((entry) => (
                  <option value={entry.key} selected={entry.key === picker.template}>
                    {entry.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
      ) : null}{' '}
      <button type="submit">{picker.type === undefined ? 'Choose type' : 'Apply template'}</button>
    </form>
  );
}

/** New file (`/new/<ref>/<dir>`, posting to `/create/…`) or edit (`/edit/<ref>/<path>`, to `/update/…`). */
export function FileEditorPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  mode: 'new' | 'edit';
  ref: string;
  /** The directory a new file goes in, or the edited file's path. */
  path: string;
  values: FileEditorValues;
  errors: string[];
  /** For new files, and edited ones whose name suits a kind of template. */
  picker?: TemplatePicker;
}) {
  const { project, mode, ref, path, values } = props;
  const action = refUrl(project, mode === 'new' ? 'create' : 'update', ref, path);
  const cancel = mode === 'new' ? refUrl(project, 'tree', ref, path) : refUrl(project, 'blob', ref, path);
  const heading = mode === 'new' ? 'New file' : `Edit ${path}`;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`${heading} · ${project.path_with_namespace}`}
      tab="files"
    >
      <h1>{heading}</h1>
      <p class="muted">
        On branch <span class="mono">{ref}</span>
        {mode === 'new' && path !== '' ? (
          <>
            {' '}
            in <span class="mono">{path}/</span>
          </>
        ) : null}
      </p>
      <FormErrors errors={props.errors} />
      {props.picker ? (
        <TemplatePickerForm
          action={refUrl(project, mode, ref, path)}
          picker={props.picker}
          fileName={mode === 'new' ? values.fileName : ''}
        />
      ) : null}
      <form class="stack wide" method="post" action={action}>
        <Csrf ctx={props.ctx} />
        {values.originalBlobId ? (
          <input type="hidden" name="original_blob_id" value={values.originalBlobId} />
        ) : null}
        {mode === 'new' ? (
          <label>
            File name
            <input type="text" name="file_name" value={values.fileName} required autofocus />
          </label>
        ) : null}
        <label>
          Content
          <textarea name="content" rows={24} spellcheck={false} class="editor">
            {values.content}
          </textarea>
        </label>
        <label>
          Commit message
          <textarea name="commit_message" rows={3} required>
            {values.commitMessage}
          </textarea>
        </label>
        <label>
          Target branch
          <input type="text" name="target_branch" value={values.targetBranch} required />
          <span class="muted">A new branch name creates that branch from {ref}.</span>
        </label>
        <label class="check">
          <input type="checkbox" name="create_merge_request" value="1" checked={values.createMergeRequest} />{' '}
          Start a new merge request with these changes (when committing to a new branch)
        </label>
        <button type="submit" class="btn-primary">
          Commit changes
        </button>
      </form>
      <p>
        <a href={cancel}>Cancel</a>
      </p>
    </ProjectFrame>
  );
}

/** A namespace a fork may go to. */
export interface ForkTarget {
  id: number;
  path: string;
  kind: string;
}

export function ForkPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  targets: ForkTarget[];
  flash?: Flash | null;
}) {
  const { project } = props;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`Fork project · ${project.path_with_namespace}`}
      tab="files"
      flash={props.flash}
    >
      <h1>Fork project</h1>
      <p>
        A fork is a copy of a project. Forking a repository allows you to make changes without affecting the
        original project.
      </p>
      {props.targets.length === 0 ? (
        <p class="muted">There is no namespace you may fork this project to.</p>
      ) : (
        <>
          <p>Click to fork the project to a user or group:</p>
          <ul class="list" aria-label="Namespaces">
            {props.targets.map((target) => (
              <li>
                <div class="row">
                  <strong>
                    {target.path}
                    {target.kind === 'group' ? ' (group)' : ''}
                  </strong>
                  <form class="inline" method="post" action={`/${project.path_with_namespace}/forks`}>
                    <Csrf ctx={props.ctx} />
                    <input type="hidden" name="namespace_key" value={String(target.id)} />
                    <button type="submit" class="btn-primary">
                      Fork to {target.path}
                    </button>
                  </form>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </ProjectFrame>
  );
}
