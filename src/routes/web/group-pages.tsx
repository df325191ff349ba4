// Groups at GitLab 8.13's paths: /dashboard/groups (the viewer's groups), /explore/groups (every group
// the visitor may see), /groups/new and POST /groups (the groups service: the creator becomes its owner),
// and /groups/<group>/group_members (readers see the list; owners add and remove through the members
// service, as the API's group members routes do). Deletes are `POST …/delete` (forms cannot DELETE).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { optionalString, pathId, requestParams, type Params } from '../../http/params.ts';
import { hiddenAsks, loadGroup, type LoadedGroup } from '../../http/loaders.ts';
import { forbidden, notFound } from '../../errors.ts';
import { canAdminGroup, canCreateGroup } from '../../policies/groups.ts';
import { canSeeEverything, minimumVisibilityWithoutMembership } from '../../policies/visibility.ts';
import { createGroup } from '../../services/groups/groups.ts';
import { addMember, removeMember, type MemberSource } from '../../services/groups/members.ts';
import { listGroupsPage } from '../../views/group-views.ts';
import { countMemberList, listMembersPage } from '../../views/member-views.ts';
import { countAccessRequestList, listAccessRequestsPage } from '../../views/access-request-views.ts';
import { usersWithUsername } from '../../views/user-views.ts';
import { presentMember } from '../../presenters/api-v3/member.ts';
import type { GroupListFilter } from '../../db/repositories/namespaces.ts';
import type { Flash } from '../../presenters/html/layout.tsx';
import {
  GroupListPage,
  GroupMembersPage,
  NewGroupPage,
  type GroupListTab,
  type NewGroupForm,
} from '../../presenters/html/groups.tsx';
import { pageContext } from './web-session.ts';
import { redirectToSignIn, sendPage } from './render.ts';
import { pageNumber } from './paging.ts';
import { attempt, doneNotice, errorTexts, isFormRefusal } from './form-errors.ts';
import { signedIn } from './page-params.ts';

const PER_PAGE = 20;

const MEMBER_NOTICES: Record<string, string> = {
  member: 'The member was added.',
  member_removed: 'The member was removed.',
  access_granted: 'The access request was granted.',
  access_denied: 'The access request was denied.',
};

function groupForm(params: Params): NewGroupForm {
  const visibility = Number(optionalString(params, 'group[visibility_level]') ?? '0');
  return {
    name: (optionalString(params, 'group[name]') ?? '').trim(),
    path: (optionalString(params, 'group[path]') ?? '').trim(),
    description: optionalString(params, 'group[description]') ?? '',
    visibility_level: [0, 10, 20].includes(visibility) ? visibility : 0,
  };
}

function memberSource(group: LoadedGroup['group']): MemberSource {
  return { type: 'Namespace', id: group.id, ownerId: null };
}

export function registerGroupPages(web: FastifyInstance, deps: Deps): void {
  const groupList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    tab: GroupListTab,
    filter: GroupListFilter,
  ) => {
    const search = (optionalString(requestParams(request), 'search') ?? '').trim().slice(0, 200);
    const page = pageNumber(request);
    const rows = await listGroupsPage(
      deps,
      { ...filter, search: search === '' ? undefined : search },
      { offset: (page - 1) * PER_PAGE, limit: PER_PAGE + 1 },
    );
    return sendPage(
      reply,
      <GroupListPage
        ctx={pageContext(deps, request, reply)}
        tab={tab}
        groups={rows.slice(0, PER_PAGE)}
        search={search}
        page={page}
        hasNext={rows.length > PER_PAGE}
        canCreate={request.viewer !== null && canCreateGroup(request.viewer)}
      />,
    );
  };

  web.get('/dashboard/groups', async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer) return redirectToSignIn(reply, request.url);
    return groupList(request, reply, 'mine', { memberUserId: viewer.id });
  });

  web.get('/explore/groups', async (request, reply) => {
    const viewer = request.viewer;
    return groupList(
      request,
      reply,
      'explore',
      viewer && canSeeEverything(viewer)
        ? {}
        : {
            visibleTo: {
              userId: viewer?.id ?? null,
              minimumVisibility: minimumVisibilityWithoutMembership(viewer),
            },
          },
    );
  });

  const newGroupPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    form: NewGroupForm,
    errors: string[] = [],
    status = 200,
  ) =>
    sendPage(
      reply,
      <NewGroupPage ctx={pageContext(deps, request, reply)} form={form} errors={errors} />,
      status,
    );

  web.get('/groups/new', async (request, reply) => {
    if (!request.viewer) return redirectToSignIn(reply, request.url);
    if (!canCreateGroup(request.viewer)) throw forbidden();
    return newGroupPage(request, reply, { name: '', path: '', description: '', visibility_level: 0 });
  });

  web.post('/groups', async (request, reply) => {
    const viewer = signedIn(request);
    if (!canCreateGroup(viewer)) throw forbidden();
    const form = groupForm(requestParams(request));
    try {
      const group = await createGroup(deps, viewer, {
        name: form.name,
        path: form.path,
        description: form.description,
        visibility_level: form.visibility_level,
      });
      return reply.redirect(`/groups/${encodeURIComponent(group.path)}?done=created`, 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return newGroupPage(request, reply, form, errorTexts(error), 422);
    }
  });

  const loadPageGroup = (request: FastifyRequest) =>
    hiddenAsks(request, () => loadGroup(deps, request, (request.params as { group: string }).group));

  const membersPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedGroup,
    flash: Flash | null,
    typed?: { username: string; accessLevel: number },
    status = 200,
  ) => {
    const page = pageNumber(request);
    const source = { type: 'Namespace' as const, id: loaded.group.id };
    const canManage = canAdminGroup(loaded.access);
    const [total, members, requestCount, requests] = await Promise.all([
      countMemberList(deps, source),
      listMembersPage(deps, source, undefined, { offset: (page - 1) * PER_PAGE, limit: PER_PAGE }),
      // Only who manages members sees the requests (and pays for them).
      canManage ? countAccessRequestList(deps, source) : 0,
      canManage ? listAccessRequestsPage(deps, source, { offset: 0, limit: PER_PAGE }) : [],
    ]);
    return sendPage(
      reply,
      <GroupMembersPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        group={loaded.group}
        members={members.map(({ user, member }) => presentMember(user, member, deps.config.externalUrl))}
        total={total}
        page={page}
        hasNext={page * PER_PAGE < total}
        canManage={canManage}
        requests={requests.map(({ user, request: row }) => ({
          userId: user.id,
          username: user.username,
          name: user.name,
          requestedAt: row.requested_at,
        }))}
        requestCount={requestCount}
        typed={typed}
      />,
      status,
    );
  };

  web.get('/groups/:group/group_members', async (request, reply) => {
    const loaded = await loadPageGroup(request);
    return membersPage(request, reply, loaded, doneNotice(request, MEMBER_NOTICES));
  });

  web.post('/groups/:group/group_members', async (request, reply) => {
    const viewer = signedIn(request);
    const loaded = await loadPageGroup(request);
    if (!canAdminGroup(loaded.access)) throw forbidden();
    const params = requestParams(request);
    const typed = {
      username: (optionalString(params, 'username') ?? '').trim(),
      accessLevel: Number(optionalString(params, 'access_level') ?? '-1'),
    };
    const result = await attempt(
      async () => {
        const [user] =
          typed.username === '' ? [] : (await usersWithUsername(deps, viewer, typed.username)).users;
        if (!user) throw notFound('User');
        return addMember(deps, viewer, memberSource(loaded.group), {
          userId: user.id,
          accessLevel: Number.isInteger(typed.accessLevel) ? typed.accessLevel : -1,
          expiresAt: null,
        });
      },
      (flash) => membersPage(request, reply, loaded, flash, typed, 422),
    );
    if (!result.ok) return result.reply;
    return reply.redirect(`/groups/${loaded.group.path}/group_members?done=member`, 302);
  });

  web.post('/groups/:group/group_members/:user_id/delete', async (request, reply) => {
    const viewer = signedIn(request);
    const loaded = await loadPageGroup(request);
    const userId = pathId((request.params as { user_id: string }).user_id);
    if (userId === undefined) throw notFound();
    const result = await attempt(
      () => removeMember(deps, viewer, memberSource(loaded.group), userId, canAdminGroup(loaded.access)),
      (flash) => membersPage(request, reply, loaded, flash, undefined, 422),
    );
    if (!result.ok) return result.reply;
    // A member who left may no longer see the group's members.
    return reply.redirect(
      userId === viewer.id && !canAdminGroup(loaded.access)
        ? '/dashboard/groups'
        : `/groups/${loaded.group.path}/group_members?done=member_removed`,
      302,
    );
  });
}
