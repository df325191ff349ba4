// The mail outbox and notification levels. A mail event is written in the same transaction as the change
// it tells about; the worker (src/workers/mail-delivery.ts) expands it into one mail row per recipient
// and sends those; (event_key, user_id) is
// unique, so one event can never queue the same person twice. Claims work as in hook_deliveries: a
// claimed row stays 'pending' with next_attempt_at pushed to the end of its lease.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  // What a request writes: one row per event (a new issue, a note …), whatever the number of recipients,
  // so a change costs its request the same with 50 watchers as with none. The worker expands it into
  // `mails` rows (one per recipient, unique per event) and marks it expanded, in one transaction.
  await withId(db.schema.createTable('mail_events'), dialect)
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'mail_events_due', 'mail_events', 'status, next_attempt_at');

  await withId(db.schema.createTable('mails'), dialect)
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    // 8.13's SentNotification: the random key of the mail's unsubscribe link and what it unsubscribes from.
    .addColumn('reply_key', 'text', (c) => c.notNull())
    .addColumn('project_id', 'integer')
    .addColumn('noteable_type', 'text')
    .addColumn('noteable_id', 'integer')
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    /** JSON object of extra headers (Message-ID, In-Reply-To, References, List-Id …). */
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'mails_event_user', 'mails', 'event_key, user_id', { unique: true });
  await createIndex(db, 'mails_reply_key', 'mails', 'reply_key', { unique: true });
  await createIndex(db, 'mails_due', 'mails', 'status, next_attempt_at');

  // GitLab 8.13's NotificationSetting: one row per user and source ('Global' with source_id 0, 'Project',
  // 'Namespace' for groups); no row means `global` (and globally `participating`).
  await withId(db.schema.createTable('notification_settings'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(
    db,
    'notification_settings_user_source',
    'notification_settings',
    'user_id, source_type, source_id',
    {
      unique: true,
    },
  );
  // Watchers of a project or group: one range scan.
  await createIndex(
    db,
    'notification_settings_source_level',
    'notification_settings',
    'source_type, source_id, level',
  );
};
