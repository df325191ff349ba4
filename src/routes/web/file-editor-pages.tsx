// The web file editor at GitLab 8.13's paths: GET …/new/<branch>/<dir> and POST …/create/<branch>/<dir>
// (a new file), GET …/edit/<branch>/<path> and POST …/update/<branch>/<path> (8.13's PUT). Each commit
// goes through the repository files API's service (one commit on the branch, made as a push by the
// viewer: push rules, protection, events, hooks and pipelines follow). A target branch other than the
// one being edited is first created from it (8.13's Files::BaseService did the same), and the editor
// then offers a merge request from it. Refusals are shown above the form, which keeps what was typed.
// The blob page's Delete button posts to …/blob/<branch>/<path> (8.13's DELETE there). Both editors
// offer the file templates (licences, .gitignore, .gitlab-ci.yml, Dockerfile) through a GET form.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { projectFullPath, refPath } from '../../domain/paths.ts';
import type { Deps } from '../../deps.ts';
import { optionalString, requestParams, type Params } from '../../http/params.ts';
import { apiError, notFound } from '../../errors.ts';
import { createBranch } from '../../services/repository/branch-changes.ts';
import { createFile, deleteFile, updateFile } from '../../services/repository/file-commits.ts';
import { mayPushToBranch, type Pusher } from '../../services/push/push-setup.ts';
import { atRefPath, blobView, type RefPoint } from '../../views/repository-pages.ts';
import { ErrorPage } from '../../presenters/html/layout.tsx';
import {
  FileEditorPage,
  type FileEditorValues,
  type TemplatePicker,
} from '../../presenters/html/repository-forms.tsx';
import {
  isTemplateType,
  templateFileName,
  templatePickerGroups,
  templateText,
  templateTypeForFileName,
  type TemplateType,
} from '../../services/templates/file-templates.ts';
import { loadProjectHead } from './project-head.ts';
import { loadWritableProject } from './repository-loaders.ts';
import { pageContext } from './web-session.ts';
import { sendPage } from './render.ts';
import { errorTexts, isFormRefusal } from './form-errors.ts';

/** Where the editor stands: the branch (8.13 edited branches only) and the path after it. */
interface EditorPoint {
  ref: string;
  path: string;
  branches: string[];
  /** The edited file's blob now, for the edit pages. */
  file?: { id: string; content: string };
}

const FILE_CHANGED =
  'Someone edited the file the same time you did. Please check out the file and make sure your changes will not unintentionally remove theirs.';

/** The picker's kinds in 8.13's order (Dockerfiles came in 8.15), each named by the file it becomes. */
const PICKER_TYPES: TemplateType[] = ['licenses', 'gitignores', 'gitlab_ci_ymls', 'dockerfiles'];

/**
 * The editor's template picker from `?template_type=&template=` (the kind guessed from the file name
 * when not given), and the text it puts in the editor: a licence filled with the project's name and the
 * viewer's. A template the kind lacks is as good as none chosen. A new file takes the kind's usual name
 * unless its own suits the kind; an edited file keeps its path, and is offered a picker only when its
 * name suits a kind (8.13 showed the selectors by the file's name on both pages).
 */
function pickTemplate(
  params: Params,
  pusher: Pusher,
  mode: 'new' | 'edit',
  values: FileEditorValues,
): { picker?: TemplatePicker; values: FileEditorValues } {
  const asked = optionalString(params, 'template_type');
  const guessed = templateTypeForFileName(values.fileName);
  if (mode === 'edit' && guessed === undefined) return { values };
  const type = isTemplateType(asked) ? asked : guessed;
  const picker: TemplatePicker = {
    types: PICKER_TYPES.map((value) => ({ value, label: templateFileName(value) })),
    type,
    groups: type ? templatePickerGroups(type) : [],
  };
  const key = optionalString(params, 'template');
  if (!type || !key) return { picker, values };
  const content = templateText(type, key, {
    project: pusher.project.name,
    fullname: pusher.user.name,
    year: new Date().getUTCFullYear(),
  });
  if (content === undefined) return { picker, values };
  const fileName = mode === 'edit' || guessed === type ? values.fileName : templateFileName(type);
  return { picker: { ...picker, template: key }, values: { ...values, fileName, content } };
}

function editorValues(params: Params, fallback: FileEditorValues): FileEditorValues {
  return {
    fileName: optionalString(params, 'file_name') ?? fallback.fileName,
    content: optionalString(params, 'content') ?? fallback.content,
    commitMessage: optionalString(params, 'commit_message') ?? fallback.commitMessage,
    targetBranch: (optionalString(params, 'target_branch') ?? fallback.targetBranch).trim(),
    createMergeRequest: optionalString(params, 'create_merge_request') !== undefined,
    originalBlobId: optionalString(params, 'original_blob_id') ?? fallback.originalBlobId,
  };
}

export function registerFileEditorPages(web: FastifyInstance, deps: Deps): void {
  /** The branch and path of the URL; 404 unless it names a branch (and, for edits, a text file). */
  const editorPoint = async (pusher: Pusher, request: FastifyRequest, withFile: boolean) => {
    const rest = (request.params as { '*'?: string })['*'] ?? '';
    const point = await atRefPath(deps, pusher, rest, async (at: RefPoint): Promise<EditorPoint> => {
      const found: EditorPoint = { ref: at.ref, path: at.path, branches: at.branches };
      if (!withFile || at.path === '') return found;
      const file = await blobView(at);
      return file?.kind === 'text' ? { ...found, file: { id: file.id, content: file.content } } : found;
    });
    if (!point || !point.branches.includes(point.ref) || (withFile && !point.file)) throw notFound();
    return point;
  };

  const showEditor = async (
    request: FastifyRequest,
    reply: FastifyReply,
    pusher: Pusher,
    mode: 'new' | 'edit',
    point: EditorPoint,
    values: FileEditorValues,
    errors: string[] = [],
    picker?: TemplatePicker,
  ) =>
    sendPage(
      reply,
      <FileEditorPage
        ctx={pageContext(deps, request, reply)}
        project={await loadProjectHead(deps, pusher)}
        mode={mode}
        ref={point.ref}
        path={point.path}
        values={values}
        errors={errors}
        picker={picker ?? pickTemplate({}, pusher, mode, values).picker}
      />,
      errors.length > 0 ? 422 : 200,
    );

  /**
   * Commits with `write` on the target branch, creating it from the edited branch first when it is a new
   * name; then opens the file, or the new merge request form when one was asked for.
   */
  const commit = async (
    request: FastifyRequest,
    reply: FastifyReply,
    pusher: Pusher,
    mode: 'new' | 'edit',
    point: EditorPoint,
    values: FileEditorValues,
    filePath: string,
    write: (branch: string) => Promise<string>,
  ) => {
    const target = values.targetBranch === '' ? point.ref : values.targetBranch;
    let written: string;
    try {
      if (target !== point.ref) {
        if (point.branches.includes(target)) {
          throw apiError(
            400,
            'Branch with such name already exists. You need to switch to this branch in order to make changes',
          );
        }
        // Checked before the branch is made, so a refused commit leaves no branch behind.
        if (!(await mayPushToBranch(deps, pusher, target))) {
          throw apiError(400, 'You are not allowed to push into this branch');
        }
        await createBranch(deps, pusher, target, point.ref);
      }
      written = await write(target);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showEditor(request, reply, pusher, mode, point, values, errorTexts(error));
    }
    const base = `/${projectFullPath(pusher)}`;
    if (values.createMergeRequest && target !== point.ref) {
      const query = new URLSearchParams({
        'merge_request[source_branch]': target,
        'merge_request[target_branch]': point.ref,
      });
      return reply.redirect(`${base}/merge_requests/new?${query}`, 302);
    }
    const blob = refPath(projectFullPath(pusher), 'blob', target, written);
    return reply.redirect(`${blob}?done=${mode === 'new' ? 'created' : 'committed'}`, 302);
  };

  web.get('/:namespace/:project/new/*', async (request, reply) => {
    const pusher = await loadWritableProject(deps, request);
    const point = await editorPoint(pusher, request, false);
    const params = requestParams(request);
    const typed = editorValues(params, {
      fileName: '',
      content: '',
      commitMessage: '',
      targetBranch: point.ref,
      createMergeRequest: false,
    });
    const { picker, values } = pickTemplate(params, pusher, 'new', typed);
    return showEditor(request, reply, pusher, 'new', point, values, [], picker);
  });

  web.post('/:namespace/:project/create/*', async (request, reply) => {
    const pusher = await loadWritableProject(deps, request);
    const point = await editorPoint(pusher, request, false);
    const values = editorValues(requestParams(request), {
      fileName: '',
      content: '',
      commitMessage: '',
      targetBranch: point.ref,
      createMergeRequest: false,
    });
    const name = values.fileName.trim();
    const missing = [
      name === '' ? "File name can't be blank" : undefined,
      values.commitMessage.trim() === '' ? "Commit message can't be blank" : undefined,
    ].filter((text): text is string => text !== undefined);
    if (missing.length > 0) return showEditor(request, reply, pusher, 'new', point, values, missing);
    const filePath = point.path === '' ? name : `${point.path}/${name}`;
    return commit(request, reply, pusher, 'new', point, values, filePath, (branch) =>
      createFile(deps, pusher, {
        filePath,
        branchName: branch,
        content: values.content,
        commitMessage: values.commitMessage,
      }),
    );
  });

  web.get('/:namespace/:project/edit/*', async (request, reply) => {
    const pusher = await loadWritableProject(deps, request);
    const point = await editorPoint(pusher, request, true);
    const name = point.path.slice(point.path.lastIndexOf('/') + 1);
    const { picker, values } = pickTemplate(requestParams(request), pusher, 'edit', {
      fileName: point.path,
      content: point.file!.content,
      commitMessage: `Update ${name}`,
      targetBranch: point.ref,
      createMergeRequest: false,
      originalBlobId: point.file!.id,
    });
    return showEditor(request, reply, pusher, 'edit', point, values, [], picker);
  });

  web.post('/:namespace/:project/update/*', async (request, reply) => {
    const pusher = await loadWritableProject(deps, request);
    const point = await editorPoint(pusher, request, true);
    const values = editorValues(requestParams(request), {
      fileName: point.path,
      content: '',
      commitMessage: '',
      targetBranch: point.ref,
      createMergeRequest: false,
    });
    if (values.commitMessage.trim() === '') {
      return showEditor(request, reply, pusher, 'edit', point, values, ["Commit message can't be blank"]);
    }
    // The form names the blob it was opened on; a file changed since is not overwritten (8.13's
    // FileChangedError), and the form comes back with what was typed.
    if (values.originalBlobId !== undefined && values.originalBlobId !== point.file!.id) {
      return showEditor(request, reply, pusher, 'edit', point, values, [FILE_CHANGED]);
    }
    return commit(request, reply, pusher, 'edit', point, values, point.path, (branch) =>
      updateFile(deps, pusher, {
        filePath: point.path,
        branchName: branch,
        content: values.content,
        commitMessage: values.commitMessage,
      }),
    );
  });

  // 8.13's DELETE …/blob/<branch>/<path>: one commit removing the file on its branch.
  web.post('/:namespace/:project/blob/*', async (request, reply) => {
    const pusher = await loadWritableProject(deps, request);
    const point = await editorPoint(pusher, request, false);
    if (point.path === '') throw notFound();
    const name = point.path.slice(point.path.lastIndexOf('/') + 1);
    const message =
      (optionalString(requestParams(request), 'commit_message') ?? '').trim() || `Delete ${name}`;

    try {
      await deleteFile(deps, pusher, { filePath: point.path, branchName: point.ref, commitMessage: message });
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return sendPage(
        reply,
        <ErrorPage
          ctx={pageContext(deps, request, reply)}
          status={422}
          title="The file was not deleted"
          text={errorTexts(error).join(' ')}
        />,
        422,
      );
    }
    // The branch's root, as 8.13 went back to: the file's directory may be gone with it.
    return reply.redirect(`${refPath(projectFullPath(pusher), 'tree', point.ref)}?done=deleted`, 302);
  });
}
