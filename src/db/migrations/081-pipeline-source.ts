// What made each pipeline (GitLab's `source`: push, web, trigger, api, schedule, merge_request_event,
// external): v4's Pipeline entity and `CI_PIPELINE_SOURCE` read it. Earlier rows were pushes, trigger
// calls (they have a trigger request) or external commit statuses (they have no .gitlab-ci.yml builds);
// the backfill tells triggers apart and leaves the rest `push`, which is what GitLab showed for them.
import { sql } from 'kysely';
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema
    .alterTable('ci_pipelines')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('push'))
    .execute();
  await sql`UPDATE ci_pipelines SET source = 'trigger'
    WHERE id IN (SELECT pipeline_id FROM ci_trigger_requests WHERE pipeline_id IS NOT NULL)`.execute(db);
};
