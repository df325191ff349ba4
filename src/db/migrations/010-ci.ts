// CI: runners (shared, or assigned to projects), triggers, pipelines, builds and external commit
// statuses, secret variables, and the projects' build settings.
//
// Builds and external commit statuses share ci_builds (column `type`), as GitLab's commit_statuses did:
// a pipeline's status is computed over both in one query, and "only the newest row per name counts"
// (a retry adds a row, the old one stays) is one rule for both.
//
// user_id, runner_id, erased_by_id and trigger_request_id carry no foreign key: a deleted user or runner
// leaves the build's history as it was (ids are never reused), and deleting a user does not have to
// visit every build row.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await db.schema
    .alterTable('projects')
    .addColumn('build_timeout', 'integer', (c) => c.notNull().defaultTo(3600))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('build_allow_git_fetch', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('projects').addColumn('build_coverage_regex', 'text').execute();

  await withId(db.schema.createTable('ci_runners'), dialect)
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_shared', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_untagged', 'integer', (c) => c.notNull().defaultTo(1))
    // JSON array of tag names
    .addColumn('tag_list', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('name', 'text')
    .addColumn('version', 'text')
    .addColumn('revision', 'text')
    .addColumn('platform', 'text')
    .addColumn('architecture', 'text')
    .addColumn('contacted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'ci_runners_token', 'ci_runners', 'token', { unique: true });
  await createIndex(db, 'ci_runners_shared', 'ci_runners', 'is_shared, id');

  await withId(db.schema.createTable('ci_runner_projects'), dialect)
    .addColumn('runner_id', 'integer', (c) => c.notNull().references('ci_runners.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'ci_runner_projects_runner_project', 'ci_runner_projects', 'runner_id, project_id', {
    unique: true,
  });
  await createIndex(db, 'ci_runner_projects_project', 'ci_runner_projects', 'project_id, runner_id');

  await withId(db.schema.createTable('ci_triggers'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'ci_triggers_token', 'ci_triggers', 'token', { unique: true });
  await createIndex(db, 'ci_triggers_project', 'ci_triggers', 'project_id, id');

  await withId(db.schema.createTable('ci_pipelines'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('before_sha', 'text')
    .addColumn('tag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('created'))
    .addColumn('yaml_errors', 'text')
    .addColumn('user_id', 'integer')
    // The commit as it was read at creation, so hook payloads never need git inside a transaction.
    .addColumn('commit_message', 'text')
    .addColumn('commit_author_name', 'text')
    .addColumn('commit_author_email', 'text')
    .addColumn('commit_committed_date', 'text')
    .addColumn('committed_at', 'text')
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('duration', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'ci_pipelines_project', 'ci_pipelines', 'project_id, id');
  await createIndex(db, 'ci_pipelines_project_status', 'ci_pipelines', 'project_id, status, id');
  await createIndex(db, 'ci_pipelines_project_ref', 'ci_pipelines', 'project_id, ref, id');
  await createIndex(db, 'ci_pipelines_project_ref_status', 'ci_pipelines', 'project_id, ref, status, id');
  await createIndex(db, 'ci_pipelines_project_sha', 'ci_pipelines', 'project_id, sha, id');

  await withId(db.schema.createTable('ci_trigger_requests'), dialect)
    .addColumn('trigger_id', 'integer', (c) => c.notNull().references('ci_triggers.id').onDelete('cascade'))
    .addColumn('pipeline_id', 'integer', (c) => c.references('ci_pipelines.id').onDelete('cascade'))
    // JSON object {KEY: value} of the trigger's variables
    .addColumn('variables', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'ci_trigger_requests_trigger', 'ci_trigger_requests', 'trigger_id, id');
  await createIndex(db, 'ci_trigger_requests_pipeline', 'ci_trigger_requests', 'pipeline_id');

  await withId(db.schema.createTable('ci_builds'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('pipeline_id', 'integer', (c) => c.notNull().references('ci_pipelines.id').onDelete('cascade'))
    // 'build' (run by a runner) or 'external' (a commit status reported by another CI)
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('build'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('stage', 'text')
    .addColumn('stage_idx', 'integer')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('created'))
    .addColumn('ref', 'text')
    .addColumn('tag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('commands', 'text')
    // JSON: the job's options (image, services, artifacts, cache, dependencies, after_script, environment)
    .addColumn('options', 'text')
    // JSON: [{key, value, public}] from the file's global and job variables
    .addColumn('yaml_variables', 'text')
    // JSON array: the runner tags this build needs
    .addColumn('tag_list', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('allow_failure', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('when', 'text', (c) => c.notNull().defaultTo('on_success'))
    .addColumn('environment', 'text')
    .addColumn('coverage', 'double precision')
    .addColumn('token', 'text')
    .addColumn('runner_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('trigger_request_id', 'integer')
    .addColumn('erased_by_id', 'integer')
    .addColumn('erased_at', 'text')
    .addColumn('artifacts_file', 'text')
    .addColumn('artifacts_size', 'integer')
    .addColumn('artifacts_metadata', 'text')
    .addColumn('artifacts_expire_at', 'text')
    // external commit statuses
    .addColumn('description', 'text')
    .addColumn('target_url', 'text')
    .addColumn('queued_at', 'text')
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // A pipeline's rows (stage gating, statuses, the newest row per name, payloads).
  await createIndex(db, 'ci_builds_pipeline', 'ci_builds', 'pipeline_id, id');
  // GET /projects/:id/builds newest first, and with ?scope[]=status.
  await createIndex(db, 'ci_builds_project_type', 'ci_builds', 'project_id, type, id');
  await createIndex(db, 'ci_builds_project_type_status', 'ci_builds', 'project_id, type, status, id');
  // The queue (pending builds of every project), running counts per project, the stuck-build sweep.
  await createIndex(db, 'ci_builds_status_project', 'ci_builds', 'status, project_id, id');
  // gitlab-ci-token over git HTTP names a build by its token alone.
  await createIndex(db, 'ci_builds_token', 'ci_builds', 'token', { unique: true });
  // The expired-artifacts sweep walks this in expiry order.
  await createIndex(db, 'ci_builds_artifacts_expire_at', 'ci_builds', 'artifacts_expire_at', {
    where: 'artifacts_expire_at is not null',
  });

  await withId(db.schema.createTable('ci_variables'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'ci_variables_project_key', 'ci_variables', 'project_id, key', { unique: true });
};
