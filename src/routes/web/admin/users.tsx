// /admin/users: list and search, a user's page, new and edit forms, block and unblock, through the same
// services as the API's POST/PUT /users and PUT /users/:id/block|unblock (same validation and messages).
// 8.13 blocked with PUT; a form without script can only POST, so block and unblock are POSTs to
// /admin/users/<username>/block|unblock, and an edit posts to /admin/users/<username>.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { unauthorized } from '../../../errors.ts';
import {
  boundedSearch,
  optionalBoolean,
  optionalString,
  presentAttributes,
  requestParams,
  type Params,
} from '../../../http/params.ts';
import {
  blockUser,
  createUser,
  modifyUser,
  unblockUser,
  type UserAttributes,
} from '../../../services/users/users.ts';
import { USER_TEXT_ATTRIBUTES } from '../../../services/users/user-validation.ts';
import {
  countUserList,
  listUsersPage,
  loadAnyUserByUsernameOr404,
  loadUserFull,
} from '../../../views/user-views.ts';
import type { Flash } from '../../../presenters/html/layout.tsx';
import { presentUserFull, presentUserList } from '../../../presenters/api-v3/user.ts';
import {
  AdminUserFormPage,
  AdminUserPage,
  AdminUsersPage,
  USER_FORM_SWITCHES,
  USER_FORM_TEXT,
  type AdminUserForm,
} from '../../../presenters/html/admin/users.tsx';
import type { UserRow } from '../../../db/types.ts';
import { pageContext } from '../web-session.ts';
import { sendPage } from '../render.ts';
import { pageNumber } from '../paging.ts';
import { attempt, doneNotice } from '../form-errors.ts';

const USERS_PER_PAGE = 20;

const DONE: Record<string, string> = {
  created: 'User was successfully created.',
  updated: 'User was successfully updated.',
  blocked: 'Successfully blocked.',
  unblocked: 'Successfully unblocked.',
};

/** Profile fields an edit may empty (the API drops blank values; a form that shows them must not). */
const CLEARABLE = ['skype', 'linkedin', 'twitter', 'website_url', 'organization', 'location', 'bio'] as const;

function userPath(username: string): string {
  return `/admin/users/${encodeURIComponent(username)}`;
}

function formOf(user: UserRow): AdminUserForm {
  return {
    name: user.name,
    username: user.username,
    email: user.email,
    projects_limit: String(user.projects_limit),
    can_create_group: user.can_create_group === 1,
    admin: user.admin === 1,
    external: user.external === 1,
    bio: user.bio ?? '',
    location: user.location ?? '',
    organization: user.organization ?? '',
    website_url: user.website_url,
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
  };
}

/** The form's fields as the API's parameter names (`user[name]` → `name`). */
function formParams(request: FastifyRequest): Params {
  const params = requestParams(request);
  const names = [...USER_TEXT_ATTRIBUTES, 'password_confirmation', ...USER_FORM_SWITCHES.map(([key]) => key)];
  return Object.fromEntries(names.map((name) => [name, params[`user[${name}]`]]));
}

/** What was typed, to show the form again after a refusal (never the password). */
function typedForm(params: Params): AdminUserForm {
  const text = (name: string) => optionalString(params, name) ?? '';
  const form = {
    bio: text('bio'),
    ...Object.fromEntries(USER_FORM_TEXT.map(([key]) => [key, text(key)])),
  } as AdminUserForm;
  // An unticked box is not sent: absent means off.
  for (const [key] of USER_FORM_SWITCHES) form[key] = optionalBoolean(params, key) === true;
  return form;
}

/** The attributes for the service, with the same NUL and blank rules as the API; plus the switches. */
function attributesOf(params: Params, switches: AdminUserForm, editing: boolean): UserAttributes {
  const attrs: UserAttributes = presentAttributes(params, USER_TEXT_ATTRIBUTES, 422);
  if (editing) {
    for (const key of CLEARABLE) if (attrs[key] === undefined && params[key] === '') attrs[key] = '';
  }
  return {
    ...attrs,
    admin: switches.admin,
    can_create_group: switches.can_create_group,
    external: switches.external,
  };
}

function passwordMismatch(params: Params): boolean {
  return (
    (optionalString(params, 'password') ?? '') !== (optionalString(params, 'password_confirmation') ?? '')
  );
}

export function registerAdminUsers(admin: FastifyInstance, deps: Deps): void {
  const viewerOf = (request: FastifyRequest): UserRow => {
    if (!request.viewer) throw unauthorized();
    return request.viewer;
  };

  admin.get('/admin/users', async (request, reply) => {
    const search = boundedSearch((optionalString(requestParams(request), 'search') ?? '').trim());
    const filter = { search: search === '' ? undefined : search };
    const page = pageNumber(request);
    const offset = (page - 1) * USERS_PER_PAGE;
    const [total, users] = await Promise.all([
      countUserList(deps, filter),
      listUsersPage(deps, viewerOf(request), filter, { offset, limit: USERS_PER_PAGE }),
    ]);
    return sendPage(
      reply,
      <AdminUsersPage
        ctx={pageContext(deps, request, reply)}
        users={presentUserList(users, deps.config.externalUrl) as ReturnType<typeof presentUserFull>[]}
        total={total}
        search={search}
        page={page}
        hasNext={offset + users.users.length < total}
      />,
    );
  });

  const formPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    form: AdminUserForm,
    editing: string | undefined,
    flash: Flash | null,
    status = 200,
  ) =>
    sendPage(
      reply,
      <AdminUserFormPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        editing={editing}
        form={form}
      />,
      status,
    );

  admin.get('/admin/users/new', async (request, reply) =>
    formPage(
      request,
      reply,
      {
        ...typedForm({}),
        projects_limit: '10',
        can_create_group: true,
      },
      undefined,
      null,
    ),
  );

  admin.post('/admin/users', async (request, reply) => {
    const params = formParams(request);
    const form = typedForm(params);
    const again = (text: string) => formPage(request, reply, form, undefined, { kind: 'alert', text }, 422);
    const missing = (
      [
        ['name', 'Name'],
        ['username', 'Username'],
        ['email', 'Email'],
        ['password', 'Password'],
      ] as const
    ).filter(([key]) => (optionalString(params, key) ?? '').trim() === '');
    if (missing.length > 0) return again(`${missing.map(([, label]) => label).join(', ')} can't be blank`);
    if (passwordMismatch(params)) return again("Password confirmation doesn't match Password");
    const result = await attempt(
      async () => {
        const attrs = attributesOf(params, form, false);
        return createUser(deps, {
          ...attrs,
          email: attrs.email!,
          password: attrs.password!,
          name: attrs.name!,
          username: attrs.username!,
        });
      },
      (flash) => again(flash.text),
    );
    if (!result.ok) return result.reply;
    return reply.redirect(`${userPath(result.value.username)}?done=created`, 302);
  });

  const usernameOf = (request: FastifyRequest) => (request.params as { username: string }).username;

  admin.get('/admin/users/:username', async (request, reply) => {
    const user = await loadAnyUserByUsernameOr404(deps, usernameOf(request));
    return sendPage(
      reply,
      <AdminUserPage
        ctx={pageContext(deps, request, reply)}
        flash={doneNotice(request, DONE)}
        user={presentUserFull(user, deps.config.externalUrl, (await loadUserFull(deps, user)).extras)}
      />,
    );
  });

  admin.get('/admin/users/:username/edit', async (request, reply) => {
    const user = await loadAnyUserByUsernameOr404(deps, usernameOf(request));
    return formPage(request, reply, formOf(user), user.username, null);
  });

  admin.post('/admin/users/:username', async (request, reply) => {
    const user = await loadAnyUserByUsernameOr404(deps, usernameOf(request));
    const params = formParams(request);
    const form = typedForm(params);
    const again = (text: string) =>
      formPage(request, reply, form, user.username, { kind: 'alert', text }, 422);
    if (passwordMismatch(params)) return again("Password confirmation doesn't match Password");
    const result = await attempt(
      () => modifyUser(deps, user.id, attributesOf(params, form, true)),
      (flash) => again(flash.text),
    );
    if (!result.ok) return result.reply;
    return reply.redirect(`${userPath(result.value.username)}?done=updated`, 302);
  });

  admin.post('/admin/users/:username/block', async (request, reply) => {
    const user = await loadAnyUserByUsernameOr404(deps, usernameOf(request));
    await blockUser(deps, user.id);
    return reply.redirect(`${userPath(user.username)}?done=blocked`, 302);
  });

  admin.post('/admin/users/:username/unblock', async (request, reply) => {
    const user = await loadAnyUserByUsernameOr404(deps, usernameOf(request));
    await unblockUser(deps, user.id);
    return reply.redirect(`${userPath(user.username)}?done=unblocked`, 302);
  });
}
