// Members and group shares, protected branches, webhooks and deploy keys, through the services and
// policies of the API's members, share, branches, project hooks, hook deliveries and deploy keys routes.
// Updates are POSTs to the thing's path and deletes `POST …/delete` (HTML forms cannot PUT or DELETE);
// the hook test is a POST too (8.13's GET sent a request, which a link from another site could trigger).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { forbidden, notFound, paramInvalid } from '../../../errors.ts';
import { loadGroup, type LoadedProject } from '../../../http/loaders.ts';
import { isCalendarDay, optionalString, pathId, requestParams, type Params } from '../../../http/params.ts';
import {
  addMember,
  changeMember,
  removeMember,
  type MemberSource,
} from '../../../services/groups/members.ts';
import { shareProject } from '../../../services/projects/shares.ts';
import { protectBranch, unprotectBranch } from '../../../services/repository/protected-branches.ts';
import {
  createProjectHook,
  destroyProjectHook,
  testProjectHook,
  updateProjectHook,
} from '../../../services/hooks/project-hooks.ts';
import { resendDelivery } from '../../../services/hooks/hook-deliveries.ts';
import { addDeployKey, disableDeployKey } from '../../../services/projects/deploy-keys.ts';
import { listMembersPage } from '../../../views/member-views.ts';
import { countAccessRequestList, listAccessRequestsPage } from '../../../views/access-request-views.ts';
import { usersWithUsername } from '../../../views/user-views.ts';
import { branchList } from '../../../views/branch-views.ts';
import {
  listHookDeliveriesPage,
  listProjectHooksPage,
  loadProjectHookOr404,
} from '../../../views/hook-views.ts';
import { projectDeployKeys } from '../../../views/deploy-key-views.ts';
import { presentProjectHook } from '../../../presenters/api-v3/hooks.ts';
import { presentMember } from '../../../presenters/api-v3/member.ts';
import type { Flash } from '../../../presenters/html/layout.tsx';
import {
  DeployKeysPage,
  HOOK_EVENTS,
  HookEditPage,
  HooksPage,
  MembersPage,
  ProtectedBranchesPage,
  type HookForm,
} from '../../../presenters/html/project-settings/repository-settings.tsx';
import { pageContext } from '../web-session.ts';
import { sendPage } from '../render.ts';
import { attempt } from '../form-errors.ts';
import { checked, loadSettingsProject, noticeOf, redirectDone, settingsHead } from './settings-project.ts';

const DONE: Record<string, string> = {
  member: 'The member was saved.',
  member_removed: 'The member was removed.',
  access_granted: 'The access request was granted.',
  access_denied: 'The access request was denied.',
  shared: 'The project was shared with the group.',
  protected: 'The branch protection was saved.',
  unprotected: 'The branch is no longer protected.',
  hook: 'The webhook was saved.',
  hook_removed: 'The webhook was removed.',
  hook_tested: 'A test push was queued for the webhook; the delivery log shows its answer.',
  resent: 'The delivery was queued again.',
  key: 'The deploy key was enabled.',
  key_removed: 'The deploy key was removed from this project.',
};

const LIST_WINDOW = { offset: 0, limit: 100 };
const DELIVERIES_WINDOW = { offset: 0, limit: 20 };

const base = (loaded: LoadedProject) => `/${loaded.namespace.path}/${loaded.project.path}`;

/** A date field: blank is none; anything but YYYY-MM-DD of a real day is refused (400). */
function dateField(params: Params, name: string): string | null {
  const text = (optionalString(params, name) ?? '').trim();
  if (text === '') return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !isCalendarDay(text)) throw paramInvalid(name);
  return text;
}

function levelField(params: Params, name: string): number {
  const text = (optionalString(params, name) ?? '').trim();
  return /^\d{1,4}$/.test(text) ? Number(text) : -1;
}

function memberSource(loaded: LoadedProject): MemberSource {
  return {
    type: 'Project',
    id: loaded.project.id,
    ownerId: loaded.namespace.type === 'Group' ? null : loaded.namespace.owner_id,
  };
}

function hookForm(params: Params): HookForm {
  const form: HookForm = { url: (optionalString(params, 'hook[url]') ?? '').trim() };
  for (const [name] of HOOK_EVENTS) form[name] = checked(params, `hook[${name}]`);
  form.enable_ssl_verification = checked(params, 'hook[enable_ssl_verification]');
  return form;
}

const NEW_HOOK: HookForm = { url: '', push_events: true, enable_ssl_verification: true };

export function registerRepositorySettings(web: FastifyInstance, deps: Deps): void {
  // Members and group shares.
  const membersPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    flash: Flash | null,
    typed: { member?: { username: string; accessLevel: number; expiresAt: string } } & {
      share?: { group: string; accessLevel: number; expiresAt: string };
    } = {},
    status = 200,
  ) => {
    const holder = { type: 'Project' as const, id: loaded.project.id };
    const [project, members, requestCount, requests] = await Promise.all([
      settingsHead(deps, loaded),
      listMembersPage(deps, holder, undefined, LIST_WINDOW),
      countAccessRequestList(deps, holder),
      listAccessRequestsPage(deps, holder, LIST_WINDOW),
    ]);
    return sendPage(
      reply,
      <MembersPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        project={project}
        members={members.map(({ user, member }) => presentMember(user, member, deps.config.externalUrl))}
        requests={requests.map(({ user, request: row }) => ({
          userId: user.id,
          username: user.username,
          name: user.name,
          requestedAt: row.requested_at,
        }))}
        requestCount={requestCount}
        typed={typed.member}
        typedShare={typed.share}
      />,
      status,
    );
  };
  web.get('/:namespace/:project/project_members', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    return membersPage(request, reply, loaded, noticeOf(request, DONE));
  });
  web.post('/:namespace/:project/project_members', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request);
    const params = requestParams(request);
    const typed = {
      username: (optionalString(params, 'username') ?? '').trim(),
      accessLevel: levelField(params, 'access_level'),
      expiresAt: (optionalString(params, 'expires_at') ?? '').trim(),
    };
    const result = await attempt(
      async () => {
        const [user] =
          typed.username === '' ? [] : (await usersWithUsername(deps, viewer, typed.username)).users;
        if (!user) throw notFound('User');
        return addMember(deps, viewer, memberSource(loaded), {
          userId: user.id,
          accessLevel: typed.accessLevel,
          expiresAt: dateField(params, 'expires_at'),
        });
      },
      (flash) => membersPage(request, reply, loaded, flash, { member: typed }, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/project_members`, 'member');
  });
  web.post('/:namespace/:project/project_members/:user_id', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    const params = requestParams(request);
    const userId = pathId((request.params as { user_id: string }).user_id);
    if (userId === undefined) throw notFound();
    const result = await attempt(
      () =>
        changeMember(deps, memberSource(loaded), userId, {
          accessLevel: levelField(params, 'access_level'),
          expiresAt: dateField(params, 'expires_at'),
        }),
      (flash) => membersPage(request, reply, loaded, flash, {}, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/project_members`, 'member');
  });
  web.post('/:namespace/:project/project_members/:user_id/delete', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request);
    const userId = pathId((request.params as { user_id: string }).user_id);
    if (userId === undefined) throw notFound();
    const result = await attempt(
      () => removeMember(deps, viewer, memberSource(loaded), userId, true),
      (flash) => membersPage(request, reply, loaded, flash, {}, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/project_members`, 'member_removed');
  });
  web.post('/:namespace/:project/group_links', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    const params = requestParams(request);
    const typed = {
      group: (optionalString(params, 'link_group') ?? '').trim(),
      accessLevel: levelField(params, 'link_group_access'),
      expiresAt: (optionalString(params, 'expires_at') ?? '').trim(),
    };
    const result = await attempt(
      async () => {
        const { group } = await loadGroup(deps, request, typed.group);
        return shareProject(deps, loaded, group, {
          groupAccess: typed.accessLevel,
          expiresAt: dateField(params, 'expires_at'),
        });
      },
      (flash) => membersPage(request, reply, loaded, flash, { share: typed }, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/project_members`, 'shared');
  });

  // Protected branches.
  const branchesPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    flash: Flash | null,
    status = 200,
  ) => {
    const [project, branches] = await Promise.all([settingsHead(deps, loaded), branchList(deps, loaded)]);
    return sendPage(
      reply,
      <ProtectedBranchesPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        project={project}
        branches={branches}
      />,
      status,
    );
  };
  web.get('/:namespace/:project/protected_branches', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    return branchesPage(request, reply, loaded, noticeOf(request, DONE));
  });
  web.post('/:namespace/:project/protected_branches', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    const params = requestParams(request);
    const result = await attempt(
      () =>
        protectBranch(deps, loaded, optionalString(params, 'name') ?? '', {
          developersCanPush: checked(params, 'developers_can_push'),
          developersCanMerge: checked(params, 'developers_can_merge'),
        }),
      (flash) => branchesPage(request, reply, loaded, flash, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/protected_branches`, 'protected');
  });
  web.post('/:namespace/:project/protected_branches/unprotect', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    const result = await attempt(
      () => unprotectBranch(deps, loaded, optionalString(requestParams(request), 'name') ?? ''),
      (flash) => branchesPage(request, reply, loaded, flash, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/protected_branches`, 'unprotected');
  });

  // Webhooks.
  const hooksPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    flash: Flash | null,
    form = NEW_HOOK,
    status = 200,
  ) => {
    const [project, hooks] = await Promise.all([
      settingsHead(deps, loaded),
      listProjectHooksPage(deps, loaded.project.id, LIST_WINDOW).then((rows) => rows.map(presentProjectHook)),
    ]);
    return sendPage(
      reply,
      <HooksPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        project={project}
        hooks={hooks}
        form={form}
      />,
      status,
    );
  };
  const hookOf = (request: FastifyRequest, loaded: LoadedProject) =>
    loadProjectHookOr404(deps, loaded.project.id, pathId((request.params as { hook_id: string }).hook_id));
  const hookEditPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    hookId: number,
    form: HookForm,
    flash: Flash | null,
    status = 200,
  ) => {
    // The delivery log is the administrators', as the API's …/deliveries.
    const admin = request.viewer?.admin === 1;
    const [project, deliveries] = await Promise.all([
      settingsHead(deps, loaded),
      admin ? listHookDeliveriesPage(deps, 'project', hookId, DELIVERIES_WINDOW) : undefined,
    ]);
    return sendPage(
      reply,
      <HookEditPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        project={project}
        hookId={hookId}
        form={form}
        deliveries={deliveries}
      />,
      status,
    );
  };
  web.get('/:namespace/:project/hooks', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    return hooksPage(request, reply, loaded, noticeOf(request, DONE));
  });
  web.post('/:namespace/:project/hooks', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    const form = hookForm(requestParams(request));
    const result = await attempt(
      () => createProjectHook(deps, loaded.project.id, form.url, form),
      (flash) => hooksPage(request, reply, loaded, flash, form, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/hooks`, 'hook');
  });
  web.get('/:namespace/:project/hooks/:hook_id/edit', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    const hook = await hookOf(request, loaded);
    return hookEditPage(request, reply, loaded, hook.id, presentProjectHook(hook), noticeOf(request, DONE));
  });
  web.post('/:namespace/:project/hooks/:hook_id', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    const hook = await hookOf(request, loaded);
    const form = hookForm(requestParams(request));
    const result = await attempt(
      () => updateProjectHook(deps, hook, form.url, form),
      (flash) => hookEditPage(request, reply, loaded, hook.id, form, flash, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/hooks/${hook.id}/edit`, 'hook');
  });
  web.post('/:namespace/:project/hooks/:hook_id/test', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request);
    const hook = await hookOf(request, loaded);
    const result = await attempt(
      () => testProjectHook(deps, loaded, hook, viewer),
      (flash) => hooksPage(request, reply, loaded, flash, NEW_HOOK, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/hooks/${hook.id}/edit`, 'hook_tested');
  });
  web.post('/:namespace/:project/hooks/:hook_id/delete', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    await destroyProjectHook(
      deps,
      loaded.project.id,
      pathId((request.params as { hook_id: string }).hook_id),
    );
    return redirectDone(reply, `${base(loaded)}/hooks`, 'hook_removed');
  });
  web.post('/:namespace/:project/hooks/:hook_id/deliveries/:delivery_id/resend', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request);
    if (viewer.admin !== 1) throw forbidden();
    const hook = await hookOf(request, loaded);
    const deliveryId = pathId((request.params as { delivery_id: string }).delivery_id);
    if (deliveryId === undefined) throw notFound('Hook delivery');
    await resendDelivery(deps, 'project', hook.id, deliveryId);
    return redirectDone(reply, `${base(loaded)}/hooks/${hook.id}/edit`, 'resent');
  });

  // Deploy keys.
  const keysPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    flash: Flash | null,
    typed?: { title: string; key: string },
    status = 200,
  ) => {
    const [project, keys] = await Promise.all([
      settingsHead(deps, loaded),
      projectDeployKeys(deps, loaded.project.id),
    ]);
    return sendPage(
      reply,
      <DeployKeysPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        project={project}
        keys={keys}
        typed={typed}
      />,
      status,
    );
  };
  web.get('/:namespace/:project/deploy_keys', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    return keysPage(request, reply, loaded, noticeOf(request, DONE));
  });
  web.post('/:namespace/:project/deploy_keys', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request);
    const params = requestParams(request);
    const typed = {
      title: optionalString(params, 'deploy_key[title]') ?? '',
      key: optionalString(params, 'deploy_key[key]') ?? '',
    };
    const result = await attempt(
      () => addDeployKey(deps, viewer, loaded.project.id, typed),
      (flash) => keysPage(request, reply, loaded, flash, typed, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/deploy_keys`, 'key');
  });
  web.post('/:namespace/:project/deploy_keys/:key_id/disable', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    const keyId = pathId((request.params as { key_id: string }).key_id);
    const key = keyId === undefined ? undefined : await disableDeployKey(deps, loaded.project.id, keyId);
    if (!key) throw notFound('Deploy Key');
    return redirectDone(reply, `${base(loaded)}/deploy_keys`, 'key_removed');
  });
}
