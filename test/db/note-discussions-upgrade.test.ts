// Migration 084 on notes that existed before threads: each earlier note becomes a thread of its own,
// named by its row id in 40 hex digits (zero-padded), on both engines; a note made afterwards gets a
// random 40-digit id. Rows are written as the schema of 081 took them, then today's migrations run.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { createPostgresDatabase } from '../helpers/app.ts';
import { openDatabase, type Db } from '../../src/db/connect.ts';
import { migrate, migrateTo } from '../../src/db/migrations/index.ts';
import { insertNote } from '../../src/db/repositories/notes.ts';

const AT = '2026-11-21T10:00:00.000Z';

describe('migration 084 on earlier notes', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let db: Db | undefined;
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  it('gives each earlier note its own thread id and a new note a random one', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-notes-upgrade-'));
    const pgBase = process.env.LABRADOR_TEST_PG_URL;
    database = pgBase ? await createPostgresDatabase(pgBase, { empty: true }) : undefined;
    db = await openDatabase({ databaseUrl: database?.url, dataDir });
    await migrateTo(db, '081-pipeline-source');
    const old = db.kysely as unknown as Kysely<any>;
    const stamps = { created_at: AT, updated_at: AT };
    await old
      .insertInto('users')
      .values({
        id: 1,
        username: 'root',
        name: 'Root',
        email: 'root@example.com',
        encrypted_password: 'x',
        authentication_token: 'upgrade-token-0000001',
        admin: 1,
        confirmed_at: AT,
        ...stamps,
      })
      .execute();
    await old
      .insertInto('namespaces')
      .values({ id: 1, name: 'root', path: 'root', owner_id: 1, type: null, visibility_level: 20, ...stamps })
      .execute();
    await old
      .insertInto('projects')
      .values({
        id: 1,
        namespace_id: 1,
        name: 'p',
        path: 'p',
        visibility_level: 20,
        archived: 0,
        creator_id: 1,
        runners_token: 'upgrade-runners-token',
        last_activity_at: AT,
        ...stamps,
      })
      .execute();
    const note = (id: number) => ({
      id,
      project_id: 1,
      noteable_type: 'Commit',
      noteable_id: null,
      commit_id: 'a'.repeat(40),
      author_id: 1,
      note: `note ${id}`,
      system: 0 as const,
      ...stamps,
    });
    await old
      .insertInto('notes')
      .values([note(7), note(300)])
      .execute();

    await migrate(db);
    const rows = await db.kysely
      .selectFrom('notes')
      .select(['id', 'discussion_id', 'type'])
      .orderBy('id')
      .execute();
    assert.deepEqual(rows, [
      { id: 7, discussion_id: `${'0'.repeat(39)}7`, type: null },
      { id: 300, discussion_id: `${'0'.repeat(37)}12c`, type: null },
    ]);
    const fresh = await insertNote(db.kysely, {
      ...note(301),
      line_code: null,
      attachment: null,
      updated_by_id: null,
    });
    assert.match(fresh.discussion_id, /^[0-9a-f]{40}$/);
    assert.notEqual(fresh.discussion_id, `${'0'.repeat(37)}12d`);
  });
});
