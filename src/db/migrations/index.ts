// Every migration, in order. A new area adds one file and one line here; names never change once merged.
import { Migrator, type Kysely, type Migration } from 'kysely';
import { ensureChangeTriggers } from '../change-notifications.ts';
import type { Db } from '../connect.ts';
import type { MigrationFn } from './helpers.ts';
import { up as users } from './001-users.ts';
import { up as projects } from './002-projects.ts';
import { up as git } from './003-git.ts';
import { up as usersIndexes } from './003-users-indexes.ts';
import { up as gitForeignKeys } from './004-git-foreign-keys.ts';
import { up as hooks } from './004-hooks.ts';
import { up as usersFkIndexes } from './004-users-fk-indexes.ts';
import { up as groups } from './005-groups.ts';
import { up as ci } from './010-ci.ts';
import { up as repositoryCreations } from './011-repository-creations.ts';
import { up as repositoryApi } from './012-repository-api.ts';
import { up as stuckBuilds } from './013-stuck-builds.ts';
import { up as ciListCounts } from './014-ci-list-counts.ts';
import { up as deployKeys } from './016-deploy-keys.ts';
import { up as projectListOrder } from './017-project-list-order.ts';
import { up as projectCounts } from './018-project-counts.ts';
import { up as projectListWalks } from './019-project-list-walks.ts';
import { up as issues } from './020-issues.ts';
import { up as webSessions } from './025-web-sessions.ts';
import { up as mergeRequests } from './040-merge-requests.ts';
import { up as mergeRequestAutoMerges } from './045-merge-request-auto-merges.ts';
import { up as mergeRequestDiffs } from './046-merge-request-diffs.ts';
import { up as mergeRequestMilestones } from './047-merge-request-milestones.ts';
import { up as commitNotes } from './048-commit-notes.ts';
import { up as projectListVacuum } from './075-project-list-vacuum.ts';
import { up as personalAccessTokens } from './080-personal-access-tokens.ts';
import { up as pipelineSource } from './081-pipeline-source.ts';
import { up as eventsTarget } from './082-events-target.ts';
import { up as mergeRequestsSourceBranch } from './083-merge-requests-source-branch.ts';
import { up as noteDiscussions } from './084-note-discussions.ts';
import { up as labelPriorities } from './085-label-priorities.ts';
import { up as milestoneStartDates } from './086-milestone-start-dates.ts';
import { up as pipelineListFilters } from './087-pipeline-list-filters.ts';
import { up as ciVariableAttributes } from './088-ci-variable-attributes.ts';
import { up as triggerOwners } from './089-trigger-owners.ts';
import { up as topics } from './096-topics.ts';
import { up as deployTokens } from './097-deploy-tokens.ts';
import { up as mail } from './100-mail.ts';
import { up as passwordResets } from './101-password-resets.ts';
import { up as pipelineSchedules } from './104-pipeline-schedules.ts';
import { up as boards } from './110-boards.ts';
import { up as snippets } from './114-snippets.ts';
import { up as mergeRequestSquash } from './115-merge-request-squash.ts';
import { up as mergeRequestCounts } from './116-merge-request-counts.ts';
import { up as pushCiSkip } from './117-push-ci-skip.ts';
import { up as jobArtifacts } from './118-job-artifacts.ts';
import { up as jobArtifactExpiry } from './119-job-artifact-expiry.ts';
import { up as environments } from './122-environments.ts';
import { up as avatars } from './123-avatars.ts';
import { up as accessRequests } from './126-access-requests.ts';
import { up as broadcastMessages } from './127-broadcast-messages.ts';
import { up as groupLabelsMilestones } from './134-group-labels-milestones.ts';
import { up as issueLinks } from './135-issue-links.ts';
import { up as pipelineVariables } from './136-pipeline-variables.ts';
import { up as pipelineListOrder } from './137-pipeline-list-order.ts';
import { up as runnerJobs } from './138-runner-jobs.ts';
import { up as mergeRequestPipelines } from './140-merge-request-pipelines.ts';
import { up as buildFailures } from './141-build-failures.ts';
import { up as notificationEvents } from './145-notification-events.ts';
import { up as keySha256Fingerprints } from './146-key-sha256-fingerprints.ts';

const migrations: Array<[string, MigrationFn]> = [
  ['001-users', users],
  ['002-projects', projects],
  ['003-git', git],
  ['003-users-indexes', usersIndexes],
  ['004-git-foreign-keys', gitForeignKeys],
  ['004-hooks', hooks],
  ['004-users-fk-indexes', usersFkIndexes],
  ['005-groups', groups],
  ['010-ci', ci],
  ['011-repository-creations', repositoryCreations],
  ['012-repository-api', repositoryApi],
  ['013-stuck-builds', stuckBuilds],
  ['014-ci-list-counts', ciListCounts],
  ['016-deploy-keys', deployKeys],
  ['017-project-list-order', projectListOrder],
  ['018-project-counts', projectCounts],
  ['019-project-list-walks', projectListWalks],
  ['020-issues', issues],
  ['025-web-sessions', webSessions],
  ['040-merge-requests', mergeRequests],
  ['045-merge-request-auto-merges', mergeRequestAutoMerges],
  ['046-merge-request-diffs', mergeRequestDiffs],
  ['047-merge-request-milestones', mergeRequestMilestones],
  ['048-commit-notes', commitNotes],
  ['075-project-list-vacuum', projectListVacuum],
  ['080-personal-access-tokens', personalAccessTokens],
  ['081-pipeline-source', pipelineSource],
  ['082-events-target', eventsTarget],
  ['083-merge-requests-source-branch', mergeRequestsSourceBranch],
  ['084-note-discussions', noteDiscussions],
  ['085-label-priorities', labelPriorities],
  ['086-milestone-start-dates', milestoneStartDates],
  ['087-pipeline-list-filters', pipelineListFilters],
  ['088-ci-variable-attributes', ciVariableAttributes],
  ['089-trigger-owners', triggerOwners],
  ['096-topics', topics],
  ['097-deploy-tokens', deployTokens],
  ['100-mail', mail],
  ['101-password-resets', passwordResets],
  ['104-pipeline-schedules', pipelineSchedules],
  ['110-boards', boards],
  ['114-snippets', snippets],
  ['115-merge-request-squash', mergeRequestSquash],
  ['116-merge-request-counts', mergeRequestCounts],
  ['117-push-ci-skip', pushCiSkip],
  ['118-job-artifacts', jobArtifacts],
  ['119-job-artifact-expiry', jobArtifactExpiry],
  ['122-environments', environments],
  ['123-avatars', avatars],
  ['126-access-requests', accessRequests],
  ['127-broadcast-messages', broadcastMessages],
  ['134-group-labels-milestones', groupLabelsMilestones],
  ['135-issue-links', issueLinks],
  ['136-pipeline-variables', pipelineVariables],
  ['137-pipeline-list-order', pipelineListOrder],
  ['138-runner-jobs', runnerJobs],
  ['140-merge-request-pipelines', mergeRequestPipelines],
  ['141-build-failures', buildFailures],
  ['145-notification-events', notificationEvents],
  ['146-key-sha256-fingerprints', keySha256Fingerprints],
];

/** The migrations' names in the order they were added (kept in name order from here on: a test checks). */
export function migrationNames(): string[] {
  return migrations.map(([name]) => name);
}

function migrator(db: Db, only?: Set<string>): Migrator {
  const provided: Record<string, Migration> = {};
  for (const [name, up] of migrations) {
    if (!only || only.has(name)) provided[name] = { up: (kysely) => up(kysely, db.dialect) };
  }
  // Areas land in any order; a data dir migrated before a lower-numbered file arrived still takes it.
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => provided },
    allowUnorderedMigrations: true,
  });
}

export async function migrate(db: Db): Promise<void> {
  const { error } = await migrator(db).migrateToLatest();
  if (error) throw error;
  if (db.dialect === 'postgres') await ensureChangeTriggers(db.kysely as unknown as Kysely<never>);
}

/**
 * Runs the migrations up to and including `name` (in the migrator's order), nothing after it: a database
 * as an older release left it, for the upgrade tests.
 */
export async function migrateTo(db: Db, name: string): Promise<void> {
  if (!migrations.some(([known]) => known === name)) throw new Error(`no migration named ${name}`);
  const { error } = await migrator(db).migrateTo(name);
  if (error) throw error;
}

/**
 * Runs exactly the named migrations (a restore makes the schema a backup's rows were dumped from, loads
 * them, then migrates the rest); answers the names this code does not know (an archive from a newer
 * release), running nothing then.
 */
export async function migrateOnly(db: Db, names: string[]): Promise<string[]> {
  const unknown = names.filter((name) => !migrations.some(([known]) => known === name));
  if (unknown.length > 0) return unknown;
  const { error } = await migrator(db, new Set(names)).migrateToLatest();
  if (error) throw error;
  return [];
}

/** Names of the migrations not yet run on this database (reads only). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const all = await migrator(db).getMigrations();
  return all.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
