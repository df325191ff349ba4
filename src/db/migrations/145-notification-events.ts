// The `custom` notification level's switches (GitLab's NotificationSetting events: new_note, new_issue …,
// failed_pipeline, success_pipeline), one JSON object of booleans per setting row; null for every other
// level, and read as all off.
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema.alterTable('notification_settings').addColumn('events', 'text').execute();
};
