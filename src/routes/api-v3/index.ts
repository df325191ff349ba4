// The /api/v3 route table: one line per resource module, each exporting register(app, deps).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import * as version from './version.ts';
import * as user from './user.ts';
import * as users from './users.ts';
import * as session from './session.ts';
import * as groups from './groups.ts';
import * as namespaces from './namespaces.ts';
import * as members from './members.ts';
import * as broadcastMessages from './broadcast-messages.ts';
import * as templates from './templates.ts';
import * as applicationSettings from './application-settings.ts';
import * as accessRequests from './access-requests.ts';
import * as forks from './forks.ts';
import * as stars from './stars.ts';
import * as projectArchiving from './project-archiving.ts';
import * as uploads from './uploads.ts';
import * as shares from './shares.ts';
import * as keys from './keys.ts';
import * as deployKeys from './deploy-keys.ts';
import * as emails from './emails.ts';
import * as branches from './branches.ts';
import * as projects from './projects.ts';
import * as events from './events.ts';
import * as systemHooks from './system-hooks.ts';
import * as projectHooks from './project-hooks.ts';
import * as repository from './repository.ts';
import * as commits from './commits.ts';
import * as commitComments from './commit-comments.ts';
import * as repositoryFiles from './repository-files.ts';
import * as tags from './tags.ts';
import * as branchChanges from './branch-changes.ts';
import * as mergeRequests from './merge-requests.ts';
import * as projectSnippets from './project-snippets.ts';
import * as mergeRequestComments from './merge-request-comments.ts';
import * as projectTransfer from './project-transfer.ts';
import * as builds from './builds.ts';
import * as pipelines from './pipelines.ts';
import * as variables from './variables.ts';
import * as triggers from './triggers.ts';
import * as environments from './environments.ts';
import * as commitStatuses from './commit-statuses.ts';
import * as runners from './runners.ts';
import * as issues from './issues.ts';
import * as labels from './labels.ts';
import * as boards from './boards.ts';
import * as milestones from './milestones.ts';
import * as notes from './notes.ts';
import * as awardEmoji from './award-emoji.ts';
import * as subscriptions from './subscriptions.ts';
import * as todos from './todos.ts';
import * as ciLint from './ci-lint.ts';

const modules = [
  version,
  user,
  users,
  session,
  groups,
  namespaces,
  members,
  broadcastMessages,
  templates,
  applicationSettings,
  accessRequests,
  forks,
  stars,
  projectArchiving,
  uploads,
  shares,
  keys,
  deployKeys,
  emails,
  branches,
  projects,
  events,
  systemHooks,
  projectHooks,
  repository,
  commits,
  commitComments,
  repositoryFiles,
  tags,
  branchChanges,
  mergeRequests,
  projectSnippets,
  mergeRequestComments,
  projectTransfer,
  builds,
  pipelines,
  variables,
  triggers,
  environments,
  commitStatuses,
  runners,
  issues,
  labels,
  boards,
  milestones,
  notes,
  awardEmoji,
  subscriptions,
  todos,
  ciLint,
];

export function registerApiV3(app: FastifyInstance, deps: Deps): void {
  for (const module of modules) module.register(app, deps);
}
