// A data dir belongs to exactly one database. At the first start both get the same random id: the
// database in its settings (for SQLite that is the file itself, which travels with its id), the data dir
// in a `database-id` file. Every later start compares them and refuses when they disagree, before
// anything is written: a data dir shared by two databases is how one instance's repositories end up
// in another's projects.
import crypto from 'node:crypto';
import type { Db } from '../../db/connect.ts';
import { isMissingTable } from '../../db/errors.ts';
import { findSetting, insertSettingIfAbsent, lockSettings } from '../../db/repositories/settings.ts';
import { dataDirStampPath, readDataDirStamp, writeDataDirStamp } from '../../storage/data-dir.ts';

const SETTING = 'database_id';

export type IdentityCheck =
  | { state: 'matching'; id: string }
  /** Neither carries an id yet: a first start (or the first since stamps exist). */
  | { state: 'new' }
  | { state: 'mismatch'; message: string };

interface Subject {
  db: Db;
  dataDir: string;
  /** The database as shown to people: `SQLite <file>` / `PostgreSQL <url without password>`. */
  database: string;
}

async function databaseId(db: Db): Promise<string | undefined> {
  try {
    return await findSetting(db.kysely, SETTING);
  } catch (error) {
    if (isMissingTable(error)) return undefined;
    throw error;
  }
}

function compare(
  subject: Subject,
  inDatabase: string | undefined,
  inDataDir: string | undefined,
): IdentityCheck {
  const { dataDir, database } = subject;
  if (inDatabase && inDataDir) {
    if (inDatabase === inDataDir) return { state: 'matching', id: inDatabase };
    return {
      state: 'mismatch',
      message: `data dir ${dataDir} belongs to another database (database-id ${inDataDir}, while ${database} has ${inDatabase}): use the data dir and the database that were set up together`,
    };
  }
  if (inDataDir) {
    return {
      state: 'mismatch',
      message: `data dir ${dataDir} belongs to another database (database-id ${inDataDir}), not to ${database}, which is new: give each database its own LABRADOR_DATA_DIR`,
    };
  }
  if (inDatabase) {
    return {
      state: 'mismatch',
      message: `${database} belongs to the data dir stamped ${inDatabase}, but ${dataDir} has no ${dataDirStampPath(dataDir)}: set LABRADOR_DATA_DIR to that data dir`,
    };
  }
  return { state: 'new' };
}

/** Compares without writing anything (before migrations; `npm run admin -- check`). */
export async function checkDatabaseIdentity(subject: Subject): Promise<IdentityCheck> {
  return compare(subject, await databaseId(subject.db), await readDataDirStamp(subject.dataDir));
}

/**
 * After migrations: compares again under a lock and, on a first start, stamps both. Answers the
 * mismatch message, or undefined when database and data dir belong together.
 */
export async function stampDatabaseIdentity(subject: Subject): Promise<string | undefined> {
  return subject.db.kysely.transaction().execute(async (trx) => {
    await lockSettings(trx, subject.db.dialect);
    const inDatabase = await findSetting(trx, SETTING);
    const check = compare(subject, inDatabase, await readDataDirStamp(subject.dataDir));
    if (check.state === 'mismatch') return check.message;
    if (check.state === 'matching') return undefined;
    const id = await insertSettingIfAbsent(trx, SETTING, crypto.randomUUID());
    // The file is written before the row commits: a crash between leaves a stamped data dir and a
    // database without id, which the next start refuses rather than guesses about.
    const stamped = await writeDataDirStamp(subject.dataDir, id);
    const after = compare(subject, id, stamped);
    return after.state === 'mismatch' ? after.message : undefined;
  });
}
