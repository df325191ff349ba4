// The /api/v4 route table (GitLab's v4, as python-gitlab 3, gitbeaker, glab and Terraform call it), over the
// same loaders, policies, services and views as /api/v3: one line per resource module, each exporting
// register(app, deps). What v4 changes for every route lives here once:
// - every JSON answer says exactly `Content-Type: application/json` (python-gitlab parses nothing else);
// - parameters come alike from the query string and from JSON, form and multipart bodies, on every method
//   (gitbeaker sends `{}` with each DELETE and multipart when a call carries a file); a route that reads
//   its multipart parts itself (an upload) says `config: { multipartStream: true }`;
// - `page`/`per_page` are checked as v4 checks them (http/pagination.ts), a missing required parameter
//   is `{"error":"name is missing"}` (http/error-handler.ts);
// - any path or method no route matches answers GitLab's JSON 404, whatever the method (never a page),
//   and so does anything else under /api/ that no version serves;
// - the caller is resolved as in v3 (private or personal access token, `Authorization: Bearer`).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { resolveViewer } from '../../http/auth.ts';
import { installMultipartParams } from '../../http/body-parsers.ts';
import { installV4ErrorHandler } from '../../http/error-handler.ts';
import { routeNotFound } from '../../errors.ts';
import { AVATAR_MAX_BYTES } from '../../services/users/avatars.ts';
import * as emails from './emails.ts';
import * as groups from './groups.ts';
import * as keys from './keys.ts';
import * as members from './members.ts';
import * as broadcastMessages from './broadcast-messages.ts';
import * as templates from './templates.ts';
import * as accessRequests from './access-requests.ts';
import * as namespaces from './namespaces.ts';
import * as user from './user.ts';
import * as users from './users.ts';
import * as commits from './commits.ts';
import * as repository from './repository.ts';
import * as repositoryFiles from './repository-files.ts';
import * as version from './version.ts';
import * as personalAccessTokens from './personal-access-tokens.ts';
import * as projects from './projects.ts';
import * as forks from './forks.ts';
import * as stars from './stars.ts';
import * as projectArchiving from './project-archiving.ts';
import * as shares from './shares.ts';
import * as projectTransfer from './project-transfer.ts';
import * as branches from './branches.ts';
import * as protectedBranches from './protected-branches.ts';
import * as tags from './tags.ts';
import * as deployKeys from './deploy-keys.ts';
import * as projectHooks from './project-hooks.ts';
import * as systemHooks from './system-hooks.ts';
import * as events from './events.ts';
import * as application from './application.ts';
import * as deployTokens from './deploy-tokens.ts';
import * as topics from './topics.ts';
import * as avatar from './avatar.ts';
import * as pipelines from './pipelines.ts';
import * as jobs from './jobs.ts';
import * as jobToken from './job-token.ts';
import * as ciVariables from './ci-variables.ts';
import * as triggers from './triggers.ts';
import * as pipelineSchedules from './pipeline-schedules.ts';
import * as environments from './environments.ts';
import * as snippets from './snippets.ts';
import * as runners from './runners.ts';
import * as notes from './notes.ts';
import * as discussions from './discussions.ts';
import * as awardEmoji from './award-emoji.ts';
import * as todos from './todos.ts';
import * as labels from './labels.ts';
import * as boards from './boards.ts';
import * as groupLabels from './group-labels.ts';
import * as groupMilestones from './group-milestones.ts';
import * as issueLinks from './issue-links.ts';
import * as milestones from './milestones.ts';
import * as notificationSettings from './notification-settings.ts';
import * as issues from './issues.ts';
import * as mergeRequests from './merge-requests.ts';
import * as participants from './participants.ts';
import * as ciLint from './ci-lint.ts';
import * as wikis from './wikis.ts';
import * as markdown from './markdown.ts';
import * as projectUploads from './project-uploads.ts';
import * as projectHousekeeping from './project-housekeeping.ts';
import * as search from './search.ts';

const modules: { register(app: FastifyInstance, deps: Deps): void }[] = [
  version,
  user,
  users,
  keys,
  emails,
  groups,
  members,
  broadcastMessages,
  templates,
  accessRequests,
  namespaces,
  personalAccessTokens,
  repository,
  repositoryFiles,
  commits,
  projects,
  forks,
  stars,
  projectArchiving,
  shares,
  projectTransfer,
  branches,
  protectedBranches,
  tags,
  deployKeys,
  projectHooks,
  systemHooks,
  events,
  application,
  deployTokens,
  topics,
  avatar,
  pipelines,
  jobs,
  jobToken,
  ciVariables,
  triggers,
  pipelineSchedules,
  environments,
  snippets,
  runners,
  notes,
  discussions,
  awardEmoji,
  todos,
  labels,
  boards,
  milestones,
  groupLabels,
  groupMilestones,
  issueLinks,
  notificationSettings,
  issues,
  mergeRequests,
  participants,
  ciLint,
  wikis,
  markdown,
  projectUploads,
  projectHousekeeping,
  search,
];

export function registerApiV4(app: FastifyInstance, deps: Deps): void {
  app.register(
    async (api) => {
      api.decorateRequest('viewer', null);
      api.decorateRequest('sudo', false);
      api.decorateRequest('apiV4', true);
      installV4ErrorHandler(api);
      // An avatar is read whole (one byte over the limit tells it is too big) for the routes that take one.
      await installMultipartParams(api, deps.config.uploadMaxBytes, { avatar: AVATAR_MAX_BYTES });
      api.addHook('onRequest', () => deps.pushQueue.caughtUp());
      api.addHook('preHandler', async (request) => resolveViewer(deps, request));
      api.addHook('onSend', async (_request, reply, payload) => {
        const type = reply.getHeader('content-type');
        if (typeof type === 'string' && type.startsWith('application/json')) {
          reply.header('content-type', 'application/json');
        }
        return payload;
      });
      for (const module of modules) module.register(api, deps);
      // Unmatched paths of any method: the JSON 404 before the caller is asked for (GitLab's catch-all).
      api.route({
        method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        url: '/*',
        config: { public: true, anyTokenScope: true },
        handler: async () => {
          throw routeNotFound();
        },
      });
    },
    { prefix: '/api/v4' },
  );
  // /api itself and what no version serves (/api/v5/x, /api/foo): the same JSON 404, which a web page
  // route (a POST's CSRF refusal, a namespace page) would otherwise answer. /api/v3's unknown paths end
  // here too, with the body and headers they had from the not-found handler.
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/api/*',
    config: { public: true },
    handler: async () => {
      throw routeNotFound();
    },
  });
  app.get('/api', { config: { public: true } }, async () => {
    throw routeNotFound();
  });
}
