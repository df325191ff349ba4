// v4's CI variables: each one's type (env_var or file), whether only protected refs get it, whether job
// logs hide it, and the environments it applies to; and variables of a group (every project under it)
// and of the whole instance (group_id null), in one table of their own. Keys are unique per owner.
import { sql } from 'kysely';
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  const columns = [
    ['variable_type', 'text', "'env_var'"],
    ['protected', 'integer', '0'],
    ['masked', 'integer', '0'],
    ['environment_scope', 'text', "'*'"],
  ] as const;
  for (const [name, type, fallback] of columns) {
    await db.schema
      .alterTable('ci_variables')
      .addColumn(name, type, (c) => c.notNull().defaultTo(sql.raw(fallback)))
      .execute();
  }
  await withId(db.schema.createTable('ci_shared_variables'), dialect)
    .addColumn('group_id', 'integer', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text')
    .addColumn('variable_type', 'text', (c) => c.notNull().defaultTo('env_var'))
    .addColumn('protected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('masked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('environment_scope', 'text', (c) => c.notNull().defaultTo('*'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // A level's list and a job's read (group_id = ? or is null, by id), and a group's deletion.
  await createIndex(db, 'ci_shared_variables_group', 'ci_shared_variables', 'group_id, id');
  await createIndex(db, 'ci_shared_variables_group_key', 'ci_shared_variables', 'group_id, key', {
    unique: true,
    where: 'group_id is not null',
  });
  await createIndex(db, 'ci_shared_variables_instance_key', 'ci_shared_variables', 'key', {
    unique: true,
    where: 'group_id is null',
  });
};
