// Threads of notes (GitLab's discussions): every note belongs to one, named by a 40-hex-digit id as
// GitLab's are. A note that nobody replied to is its own thread (`type` null, GitLab's individual note);
// a thread started as one, or a note someone replied to, is `DiscussionNote`, and on a merge request
// such a thread can be resolved (resolved_at/resolved_by_id on each of its notes). Earlier notes each
// get a thread id of their own from their row id (zero-padded hex), which never meets a random one in
// practice. A thread's notes are read by (noteable, discussion_id).
import { sql } from 'kysely';
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await db.schema.alterTable('notes').addColumn('discussion_id', 'text').execute();
  await db.schema.alterTable('notes').addColumn('type', 'text').execute();
  await db.schema.alterTable('notes').addColumn('resolved_at', 'text').execute();
  await db.schema
    .alterTable('notes')
    .addColumn('resolved_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  const padded = dialect === 'postgres' ? sql`lpad(to_hex(id), 40, '0')` : sql`printf('%040x', id)`;
  await sql`UPDATE notes SET discussion_id = ${padded} WHERE discussion_id IS NULL`.execute(db);
  await createIndex(db, 'notes_discussion', 'notes', 'noteable_type, noteable_id, discussion_id, id');
  await createIndex(db, 'notes_commit_discussion', 'notes', 'project_id, commit_id, discussion_id, id', {
    where: 'commit_id is not null',
  });
  await createIndex(db, 'notes_resolved_by', 'notes', 'resolved_by_id');
};
