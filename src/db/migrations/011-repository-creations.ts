// Repository creations in progress: a create records its token and target directory (committed) before
// it makes the directory, and deletes the row in the transaction that commits the project. A directory
// whose marker names a row still here is provably the leftover of a create that never committed, the only
// kind of existing directory a create may replace.
import { withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('repository_creations'), dialect)
    .addColumn('token', 'text', (c) => c.notNull().unique())
    // relative to the data dir, e.g. repositories/root/hello.git
    .addColumn('disk_path', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
};
