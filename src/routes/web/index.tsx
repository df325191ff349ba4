// Pages for people at GitLab 8.13's paths, in one Fastify scope: security headers on every answer, the
// session cookie read before each handler, the form token checked on every unsafe method (422 and
// nothing done without it), and errors answered as pages (a signed-out visitor of something hidden is
// sent to sign in and back; a signed-in one gets 404, as the API answers).
import { registerAvatars } from './avatars.ts';
import { installMultipartParams } from '../../http/body-parsers.ts';
import { AVATAR_MAX_BYTES } from '../../services/users/avatars.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { ErrorPage } from '../../presenters/html/layout.tsx';
import { registerAssets } from './assets.ts';
import { csrfTokenValid, pageContext, resolveWebSession } from './web-session.ts';
import { redirectToSignIn, sendPage } from './render.ts';
import { registerSignIn } from './sign-in.tsx';
import { registerDashboard } from './dashboard.tsx';
import { registerProjectPages } from './project-pages.tsx';
import { registerProjectActions } from './project-actions.tsx';
import { registerBranchPages } from './branch-pages.tsx';
import { registerFileEditorPages } from './file-editor-pages.tsx';
import { registerComparePages } from './compare-pages.tsx';
import { registerIssuePages } from './issue-pages.tsx';
import { registerMergeRequestPages } from './merge-request-pages.tsx';
import { registerNotePages } from './note-pages.ts';
import { registerCiPages } from './ci-pages.tsx';
import { registerEnvironmentPages } from './environment-pages.tsx';
import { registerSnippetPages } from './snippet-pages.tsx';
import { registerLabelMilestonePages } from './label-milestone-pages.tsx';
import { registerBoardPages } from './board-pages.tsx';
import { registerWikiPages } from './wiki-pages.tsx';
import { registerAccessRequestPages } from './access-request-pages.tsx';
import { registerProfile } from './profile.tsx';
import { registerPersonalAccessTokens } from './personal-access-tokens.tsx';
import { registerAdminArea } from './admin/admin-area.ts';
import { registerProjectSettings } from './project-settings/index.ts';
import { securityHeaders } from './security-headers.ts';
import { registerDashboardPages } from './dashboard-pages.tsx';
import { registerGroupPages } from './group-pages.tsx';
import { registerSentNotifications } from './sent-notifications.tsx';
import { registerPasswordReset } from './password-reset.tsx';
import { registerNotificationSettings } from './notification-settings.tsx';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const TITLES: Record<number, [string, string]> = {
  400: ['Bad request', 'The request could not be understood.'],
  401: [
    'Sign in required',
    'You are not signed in, or your session has ended. Nothing was changed: sign in and try again.',
  ],
  403: ['Access denied', 'You are not allowed to do this.'],
  404: ['Page not found', 'The page you were looking for does not exist, or you may not see it.'],
  422: [
    'The change you requested was rejected',
    'The form was out of date or not sent from this site. Nothing was changed; reload the page and try again.',
  ],
  429: ['Too many requests', 'Retry later.'],
};

function sendErrorPage(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  text?: string,
): FastifyReply {
  const [title, fallback] = TITLES[status] ?? [
    'Something went wrong',
    'The server could not answer this request.',
  ];
  return sendPage(
    reply,
    <ErrorPage
      ctx={pageContext(deps, request, reply)}
      status={status}
      title={title}
      text={text ?? fallback}
    />,
    status,
  );
}

/** No page at this path: the 404 page, with the visitor's session as on every page. */
export function notFoundPage(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    securityHeaders(reply);
    reply.header('cache-control', 'private, no-cache');
    await resolveWebSession(deps, request);
    return sendErrorPage(deps, request, reply, 404);
  };
}

export function registerWeb(app: FastifyInstance, deps: Deps): void {
  registerAssets(app);
  app.register(async (web) => {
    // A form with a file (the profile's `user[avatar]`) is multipart; other files are read past.
    await installMultipartParams(web, AVATAR_MAX_BYTES + 1, { 'user[avatar]': AVATAR_MAX_BYTES });
    web.decorateRequest('viewer', null);
    web.decorateRequest('sudo', false);
    web.decorateRequest('webSession', null);
    web.decorateRequest('broadcasts', null);
    web.addHook('onRequest', async (_request, reply) => {
      securityHeaders(reply);
      reply.header('cache-control', 'private, no-cache');
    });
    web.addHook('preHandler', async (request, reply) => {
      await resolveWebSession(deps, request);
      if (UNSAFE.has(request.method) && !csrfTokenValid(request)) {
        return sendErrorPage(deps, request, reply, 422);
      }
    });
    web.setErrorHandler(async (error: unknown, request, reply) => {
      if (error instanceof ApiError) {
        if (error.status === 401 && !request.viewer && request.method === 'GET') {
          return redirectToSignIn(reply, request.url);
        }
        reply.headers(error.headers);
        return sendErrorPage(deps, request, reply, error.status);
      }
      const status = (error as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return sendErrorPage(deps, request, reply, status);
      }
      request.log.error({ err: error }, 'page failed');
      return sendErrorPage(deps, request, reply, 500);
    });
    registerSignIn(web, deps);
    registerProfile(web, deps);
    registerAvatars(web, deps);
    registerPersonalAccessTokens(web, deps);
    registerDashboard(web, deps);
    registerProjectActions(web, deps);
    registerBranchPages(web, deps);
    registerFileEditorPages(web, deps);
    registerComparePages(web, deps);
    registerNotePages(web, deps, {
      Commit: registerProjectPages(web, deps),
      Issue: registerIssuePages(web, deps),
      MergeRequest: registerMergeRequestPages(web, deps),
      Snippet: registerSnippetPages(web, deps),
    });
    registerCiPages(web, deps);
    registerEnvironmentPages(web, deps);
    registerAdminArea(web, deps);
    registerProjectSettings(web, deps);
    registerLabelMilestonePages(web, deps);
    registerBoardPages(web, deps);
    registerWikiPages(web, deps);
    registerAccessRequestPages(web, deps);
    registerDashboardPages(web, deps);
    registerGroupPages(web, deps);
    registerSentNotifications(web, deps);
    registerPasswordReset(web, deps);
    registerNotificationSettings(web, deps);
  });
}
