// Keys' SHA-256 fingerprints (what ssh-keygen prints today, and what GET /keys?fingerprint=SHA256:…
// looks up), indexed; existing keys are filled in from their text, a batch of ids at a time.
import { sha256Fingerprint } from '../../lib/ssh-key-fingerprint.ts';
import { createIndex, type MigrationFn } from './helpers.ts';

const BATCH = 500;

export const up: MigrationFn = async (db) => {
  await db.schema.alterTable('keys').addColumn('fingerprint_sha256', 'text').execute();
  for (let after = 0; ;) {
    const rows: Array<{ id: number; key: string }> = await db
      .selectFrom('keys')
      .select(['id', 'key'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      await db
        .updateTable('keys')
        .set({ fingerprint_sha256: sha256Fingerprint(row.key) })
        .where('id', '=', row.id)
        .execute();
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  await createIndex(db, 'keys_fingerprint_sha256', 'keys', 'fingerprint_sha256');
};
