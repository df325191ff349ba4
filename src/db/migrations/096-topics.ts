// Topics (GitLab's Projects::Topic) and which projects carry them. A topic's name is unique without
// regard to case (the lower(name) index also serves the list's search prefix and the lookups by name);
// project_topics is unique per (project, topic) and indexed (topic, project) for GET /projects?topic=
// and a topic's project count. projects.topic_list keeps each project's names in order (a JSON array),
// so a project's entity shows its topics without another read per page.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('topics'), dialect)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'topics_name_lower', 'topics', 'lower(name)', { unique: true });
  await withId(db.schema.createTable('project_topics'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .execute();
  await createIndex(db, 'project_topics_project_topic', 'project_topics', 'project_id, topic_id', {
    unique: true,
  });
  await createIndex(db, 'project_topics_topic_project', 'project_topics', 'topic_id, project_id');
  await db.schema
    .alterTable('projects')
    .addColumn('topic_list', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
};
