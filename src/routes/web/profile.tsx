// /profile… and /projects/new for the signed-in user, through the same services as the API's
// PUT /users/:id, POST/DELETE /user/keys and /user/emails, and POST /projects (same validation, same
// messages). A service's refusal is shown on the form (422) with what was typed; success redirects.
import { bufferedFile } from '../../http/body-parsers.ts';
import { checkAvatar, removeAvatarOf, setAvatar } from '../../services/users/avatars.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { ApiError, unauthorized } from '../../errors.ts';
import { optionalString, pathId, requestParams } from '../../http/params.ts';
import { modifyUser } from '../../services/users/users.ts';
import { createKey, destroyKey } from '../../services/users/keys.ts';
import { createEmail, destroyEmail } from '../../services/users/emails.ts';
import { regeneratePrivateToken } from '../../services/users/account-recovery.ts';
import { checkPassword } from '../../services/users/session.ts';
import { SignInBanned } from '../../services/users/sign-in-limiter.ts';
import { endOtherWebSessions } from '../../services/users/web-sessions.ts';
import { createProject } from '../../services/projects/projects.ts';
import { userKeys } from '../../views/key-views.ts';
import { userEmails } from '../../views/email-views.ts';
import { listNamespacesPage } from '../../views/namespace-views.ts';
import { presentNamespace } from '../../presenters/api-v3/group.ts';
import type { Flash } from '../../presenters/html/layout.tsx';
import {
  AccountPage,
  EmailsPage,
  KeysPage,
  NewProjectPage,
  PasswordPage,
  ProfilePage,
  type NewProjectForm,
} from '../../presenters/html/profile.tsx';
import type { UserRow } from '../../db/types.ts';
import { pageContext } from './web-session.ts';
import { attempt, doneNotice, errorText } from './form-errors.ts';
import { sendPage } from './render.ts';

const DONE: Record<string, string> = {
  profile: 'Profile was successfully updated.',
  avatar_removed: 'The avatar was removed.',
  key: 'The SSH key was added.',
  key_removed: 'The SSH key was removed.',
  email: 'The email address was added.',
  email_removed: 'The email address was removed.',
  password: 'Password was successfully updated.',
  token: 'Your private token was reset.',
};

function noticeOf(request: FastifyRequest): Flash | null {
  return doneNotice(request, DONE);
}

function viewerOf(request: FastifyRequest): UserRow {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
}

export function registerProfile(web: FastifyInstance, deps: Deps): void {
  web.get('/profile', async (request, reply) => {
    const user = viewerOf(request);
    return sendPage(
      reply,
      <ProfilePage ctx={pageContext(deps, request, reply)} flash={noticeOf(request)} user={user} />,
    );
  });
  web.post('/profile', async (request, reply) => {
    const user = viewerOf(request);
    const params = requestParams(request);
    const typed = {
      id: user.id,
      avatar: user.avatar,
      name: optionalString(params, 'user[name]') ?? user.name,
      email: optionalString(params, 'user[email]') ?? user.email,
      bio: optionalString(params, 'user[bio]') ?? user.bio,
    };
    const file = bufferedFile(request, 'user[avatar]');
    const result = await attempt(
      async () => {
        // The avatar is checked before anything changes, and stored once the rest is saved.
        if (file) checkAvatar(file);
        await modifyUser(deps, user.id, { name: typed.name, email: typed.email, bio: typed.bio ?? '' });
        if (file) await setAvatar(deps, 'user', user.id, file);
      },
      (flash) =>
        sendPage(
          reply,
          <ProfilePage ctx={pageContext(deps, request, reply)} flash={flash} user={typed} />,
          422,
        ),
    );
    return result.ok ? reply.redirect('/profile?done=profile', 302) : result.reply;
  });
  // 8.13's DELETE /profile/avatar ("Remove avatar"): the row forgets it, then its file goes.
  web.post('/profile/avatar/delete', async (request, reply) => {
    const user = viewerOf(request);
    await removeAvatarOf(deps, 'user', user.id);
    return reply.redirect('/profile?done=avatar_removed', 302);
  });

  web.get('/profile/account', async (request, reply) => {
    const user = viewerOf(request);
    return sendPage(
      reply,
      <AccountPage
        ctx={pageContext(deps, request, reply)}
        flash={noticeOf(request)}
        token={user.authentication_token}
      />,
    );
  });
  web.post('/profile/reset_private_token', async (request, reply) => {
    await regeneratePrivateToken(deps, viewerOf(request));
    return reply.redirect('/profile/account?done=token', 302);
  });

  const emailsPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    flash: Flash | null,
    typed?: string,
    status = 200,
  ) => {
    const user = viewerOf(request);
    const emails = await userEmails(deps, user.id);
    return sendPage(
      reply,
      <EmailsPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        primary={user.email}
        emails={emails}
        typed={typed}
      />,
      status,
    );
  };
  web.get('/profile/emails', async (request, reply) => emailsPage(request, reply, noticeOf(request)));
  web.post('/profile/emails', async (request, reply) => {
    const user = viewerOf(request);
    const typed = optionalString(requestParams(request), 'email[email]') ?? '';
    try {
      await createEmail(deps, user.id, typed);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return emailsPage(request, reply, { kind: 'alert', text: errorText(error) }, typed, 422);
    }
    return reply.redirect('/profile/emails?done=email', 302);
  });
  web.post('/profile/emails/:id/delete', async (request, reply) => {
    const user = viewerOf(request);
    const id = pathId((request.params as { id: string }).id);
    if (id !== undefined) await destroyEmail(deps, user.id, id);
    return reply.redirect('/profile/emails?done=email_removed', 302);
  });

  web.get('/profile/password/edit', async (request, reply) => {
    viewerOf(request);
    return sendPage(
      reply,
      <PasswordPage ctx={pageContext(deps, request, reply)} flash={noticeOf(request)} />,
    );
  });
  web.post('/profile/password', async (request, reply) => {
    const user = viewerOf(request);
    const params = requestParams(request);
    const current = optionalString(params, 'user[current_password]') ?? '';
    const password = optionalString(params, 'user[password]') ?? '';
    const confirmation = optionalString(params, 'user[password_confirmation]') ?? '';
    const again = (text: string, status: number) =>
      sendPage(
        reply,
        <PasswordPage ctx={pageContext(deps, request, reply)} flash={{ kind: 'alert', text }} />,
        status,
      );
    // The current password is a password check like any other: behind the limiter.
    let checked;
    try {
      checked = await checkPassword(deps, request.ip, user.username, current);
    } catch (error) {
      if (!(error instanceof SignInBanned)) throw error;
      reply.header('retry-after', String(error.retryAfterSeconds));
      return again('Too many failed password checks from your address. Retry in a few minutes.', 429);
    }
    if (typeof checked === 'string') return again('You must provide a valid current password.', 422);
    if (password !== confirmation) return again("Password confirmation doesn't match Password.", 422);
    const result = await attempt(
      () => modifyUser(deps, user.id, { password }),
      (flash) => again(flash.text, 422),
    );
    if (!result.ok) return result.reply;
    await endOtherWebSessions(deps, user.id, request.webSession!.id);
    return reply.redirect('/profile/password/edit?done=password', 302);
  });

  const keysPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    flash: Flash | null,
    typed?: { title: string; key: string },
    status = 200,
  ) => {
    const user = viewerOf(request);
    const keys = await userKeys(deps, user.id);
    return sendPage(
      reply,
      <KeysPage ctx={pageContext(deps, request, reply)} flash={flash} keys={keys} typed={typed} />,
      status,
    );
  };
  web.get('/profile/keys', async (request, reply) => keysPage(request, reply, noticeOf(request)));
  web.post('/profile/keys', async (request, reply) => {
    const user = viewerOf(request);
    const params = requestParams(request);
    const typed = {
      title: optionalString(params, 'key[title]') ?? '',
      key: optionalString(params, 'key[key]') ?? '',
    };
    try {
      await createKey(deps, user.id, typed);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return keysPage(request, reply, { kind: 'alert', text: errorText(error) }, typed, 422);
    }
    return reply.redirect('/profile/keys?done=key', 302);
  });
  web.post('/profile/keys/:id/delete', async (request, reply) => {
    const user = viewerOf(request);
    const id = pathId((request.params as { id: string }).id);
    if (id !== undefined) await destroyKey(deps, user.id, id);
    return reply.redirect('/profile/keys?done=key_removed', 302);
  });

  const newProjectPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    form: NewProjectForm,
    flash: Flash | null,
    status = 200,
  ) => {
    const user = viewerOf(request);
    const namespaces = (await listNamespacesPage(deps, user, undefined, { offset: 0, limit: 100 })).map(
      presentNamespace,
    );
    return sendPage(
      reply,
      <NewProjectPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        namespaces={namespaces}
        form={form}
      />,
      status,
    );
  };
  web.get('/projects/new', async (request, reply) => {
    const user = viewerOf(request);
    const personal = (await listNamespacesPage(deps, user, user.username, { offset: 0, limit: 100 }))
      .map(presentNamespace)
      .find((namespace) => namespace.kind === 'user' && namespace.path === user.username);
    return newProjectPage(
      request,
      reply,
      { name: '', path: '', description: '', visibility: 0, namespaceId: personal?.id ?? 0 },
      null,
    );
  });
  web.post('/projects', async (request, reply) => {
    const user = viewerOf(request);
    const params = requestParams(request);
    const namespaceId = pathId(optionalString(params, 'project[namespace_id]'));
    const visibility = Number(optionalString(params, 'project[visibility_level]') ?? '0');
    const form: NewProjectForm = {
      name: (optionalString(params, 'project[name]') ?? '').trim(),
      path: (optionalString(params, 'project[path]') ?? '').trim(),
      description: optionalString(params, 'project[description]') ?? '',
      visibility: [0, 10, 20].includes(visibility) ? visibility : 0,
      namespaceId: namespaceId ?? 0,
    };
    if (form.name === '') {
      return newProjectPage(request, reply, form, { kind: 'alert', text: "Name can't be blank" }, 422);
    }
    try {
      const record = await createProject(deps, {
        actor: user,
        creator: user,
        attributes: {
          name: form.name,
          ...(form.path !== '' ? { path: form.path } : {}),
          description: form.description,
          visibility_level: form.visibility,
          ...(namespaceId !== undefined ? { namespace_id: namespaceId } : {}),
        },
        limitStyle: 'forbidden',
      });
      return reply.redirect(`/${record.namespace.path}/${record.project.path}?done=created`, 302);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return newProjectPage(request, reply, form, { kind: 'alert', text: errorText(error) }, 422);
    }
  });
}
