// /<ns>/<p>/edit and its forms, through the services of the API's PUT and DELETE /projects/:id and
// POST …/archive, …/unarchive. HTML forms cannot PUT or DELETE, so 8.13's `PUT /<ns>/<p>` is
// `POST /<ns>/<p>`, its `PUT …/transfer` a POST, and its `DELETE /<ns>/<p>` is `POST /<ns>/<p>/delete`.
// Transfer follows 8.13's page (owners, into a group where they may create projects), not the API's
// administrator-only route, and goes through the same transfer service.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { forbidden, notFound } from '../../../errors.ts';
import { loadTargetNamespace, type LoadedProject } from '../../../http/loaders.ts';
import { optionalString, requestParams } from '../../../http/params.ts';
import { isProjectOwner } from '../../../policies/access.ts';
import { deleteProject, FEATURE_SWITCHES, updateProject } from '../../../services/projects/projects.ts';
import { setArchived } from '../../../services/projects/project-archiving.ts';
import { transferProjectToGroup } from '../../../services/projects/project-transfer.ts';
import { branchList } from '../../../views/branch-views.ts';
import { listNamespacesPage } from '../../../views/namespace-views.ts';
import { presentNamespace } from '../../../presenters/api-v3/group.ts';
import type { Flash } from '../../../presenters/html/layout.tsx';
import {
  FEATURE_LABELS,
  GeneralSettingsPage,
  type GeneralForm,
} from '../../../presenters/html/project-settings/general.tsx';
import type { UserRow } from '../../../db/types.ts';
import { pageContext } from '../web-session.ts';
import { sendPage } from '../render.ts';
import { attempt } from '../form-errors.ts';
import { checked, loadSettingsProject, noticeOf, redirectDone, settingsHead } from './settings-project.ts';

const DONE: Record<string, string> = {
  saved: 'Project settings were saved.',
  archived: 'The project was archived.',
  unarchived: 'The project was unarchived.',
  transferred: 'The project was transferred.',
};

/** The switches the general form shows: only those are read from it. */
const SHOWN = new Set(FEATURE_LABELS.map(([name]) => name));
const FORM_SWITCHES = FEATURE_SWITCHES.filter((name) => SHOWN.has(name));

const NAMESPACE_CHOICES = { offset: 0, limit: 100 };

export function registerGeneralSettings(web: FastifyInstance, deps: Deps): void {
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    viewer: UserRow,
    options: { flash?: Flash | null; form?: GeneralForm; typedPath?: string; status?: number } = {},
  ) => {
    const owner = isProjectOwner(loaded.access);
    const [head, branches, namespaces] = await Promise.all([
      settingsHead(deps, loaded),
      branchList(deps, loaded).catch(() => []),
      owner
        ? listNamespacesPage(deps, viewer, undefined, NAMESPACE_CHOICES).then((rows) =>
            rows.map(presentNamespace),
          )
        : [],
    ]);
    const form: GeneralForm = options.form ?? {
      name: head.name,
      path: head.path,
      description: head.description ?? '',
      default_branch: head.default_branch,
      visibility_level: head.visibility_level,
      features: Object.fromEntries(
        FORM_SWITCHES.map((name) => [name, (head as Record<string, unknown>)[name] === true]),
      ),
    };
    return sendPage(
      reply,
      <GeneralSettingsPage
        ctx={pageContext(deps, request, reply)}
        flash={options.flash ?? null}
        project={head}
        form={form}
        branches={branches.map((branch) => branch.name)}
        groups={namespaces
          .filter((namespace) => namespace.kind === 'group' && namespace.id !== loaded.namespace.id)
          .map((namespace) => ({ id: namespace.id, path: namespace.path }))}
        typedPath={options.typedPath}
      />,
      options.status ?? 200,
    );
  };
  const base = (loaded: LoadedProject) => `/${loaded.namespace.path}/${loaded.project.path}`;

  web.get('/:namespace/:project/edit', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request);
    return page(request, reply, loaded, viewer, { flash: noticeOf(request, DONE) });
  });

  web.post('/:namespace/:project', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request);
    const params = requestParams(request);
    const owner = isProjectOwner(loaded.access);
    const { project } = loaded;
    const visibility = Number(
      optionalString(params, 'project[visibility_level]') ?? project.visibility_level,
    );
    // Masters see the name and visibility disabled (nothing is sent): they keep their values.
    const form: GeneralForm = {
      name: (optionalString(params, 'project[name]') ?? project.name).trim(),
      path: (optionalString(params, 'project[path]') ?? project.path).trim(),
      description: optionalString(params, 'project[description]') ?? '',
      default_branch: (optionalString(params, 'project[default_branch]') ?? '').trim(),
      visibility_level: visibility,
      features: Object.fromEntries(FORM_SWITCHES.map((name) => [name, checked(params, `project[${name}]`)])),
    };
    // The API's rule: only owners rename or change visibility.
    if ((form.name !== project.name || visibility !== project.visibility_level) && !owner) throw forbidden();
    const result = await attempt(
      () =>
        updateProject(deps, {
          record: loaded,
          attributes: {
            name: form.name,
            path: form.path,
            description: form.description,
            visibility_level: visibility,
            ...(form.default_branch !== '' ? { default_branch: form.default_branch } : {}),
            ...form.features,
          },
        }),
      (flash) => page(request, reply, loaded, viewer, { flash, form, status: 422 }),
    );
    if (!result.ok) return result.reply;
    const { namespace, project: saved } = result.value;
    return redirectDone(reply, `/${namespace.path}/${saved.path}/edit`, 'saved');
  });

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    web.post(`/:namespace/:project/${action}`, async (request, reply) => {
      const { loaded } = await loadSettingsProject(deps, request, 'owner');
      await setArchived(deps, loaded.project.id, archived);
      return redirectDone(reply, `${base(loaded)}/edit`, archived ? 'archived' : 'unarchived');
    });
  }

  web.post('/:namespace/:project/transfer', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request, 'owner');
    const given = optionalString(requestParams(request), 'new_namespace_id');
    const result = await attempt(
      async () => {
        // 8.13's TransferService: a namespace the owner may create projects in, here a group.
        const target = await loadTargetNamespace(deps, viewer, given ?? '0');
        if (target.type !== 'Group') throw notFound('Target Namespace');
        return transferProjectToGroup(deps, target.id, loaded.project.id);
      },
      (flash) => page(request, reply, loaded, viewer, { flash, status: 422 }),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `/${result.value.path}/${loaded.project.path}/edit`, 'transferred');
  });

  web.post('/:namespace/:project/delete', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request, 'owner');
    const typed = optionalString(requestParams(request), 'confirm_path') ?? '';
    if (typed.trim() !== loaded.project.path) {
      const text = `Type the project's path, ${loaded.project.path}, to confirm its removal.`;
      return page(request, reply, loaded, viewer, {
        flash: { kind: 'alert', text },
        typedPath: typed,
        status: 422,
      });
    }
    await deleteProject(deps, loaded);
    return reply.redirect('/?done=project_removed', 302);
  });
}
