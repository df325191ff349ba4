// Project hooks, system hooks, and the delivery outbox: a delivery row is written in the same transaction
// as the action it announces and sent later by the worker (src/workers/hook-delivery.ts).
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  // Deleting a project deletes its hooks; their leftover outbox rows are dropped by the worker.
  await withId(db.schema.createTable('project_hooks'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('push_events', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('issues_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confidential_issues_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('merge_requests_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tag_push_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('build_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pipeline_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('wiki_page_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enable_ssl_verification', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'project_hooks_project_id', 'project_hooks', 'project_id, id');

  await withId(db.schema.createTable('system_hooks'), dialect)
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('push_events', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('tag_push_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enable_ssl_verification', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // The outbox. A claimed row keeps status 'pending' and has next_attempt_at pushed to the end of its lease
  // (= locked_until), so "due" is one range scan on (status, next_attempt_at) and a crashed worker's claims
  // simply become due again.
  await withId(db.schema.createTable('hook_deliveries'), dialect)
    .addColumn('hook_kind', 'text', (c) => c.notNull())
    .addColumn('hook_id', 'integer', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'hook_deliveries_due', 'hook_deliveries', 'status, next_attempt_at');
  await createIndex(db, 'hook_deliveries_hook', 'hook_deliveries', 'hook_kind, hook_id, id');

  await withId(db.schema.createTable('hook_delivery_attempts'), dialect)
    .addColumn('delivery_id', 'integer', (c) =>
      c.notNull().references('hook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('worker', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'hook_delivery_attempts_delivery', 'hook_delivery_attempts', 'delivery_id, id');
};
