// Secondary emails (the primary one lives on users.email). Lists use emails_user_id (user_id, id);
// emails_email_lower is the unique index that settles a race between two equal secondary emails.
import { sql } from 'kysely';
import type { EmailRow, Executor } from '../types.ts';

export function emailsOfUser(db: Executor, userId: number): Promise<EmailRow[]> {
  return db.selectFrom('emails').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export function findEmailOfUser(db: Executor, userId: number, id: number): Promise<EmailRow | undefined> {
  return db
    .selectFrom('emails')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The user's own secondary email with this address (case-insensitively), if any. */
export function findEmailOfUserByAddress(
  db: Executor,
  userId: number,
  email: string,
): Promise<EmailRow | undefined> {
  return db
    .selectFrom('emails')
    .selectAll()
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function insertEmail(db: Executor, userId: number, email: string, at: string): Promise<EmailRow> {
  return db
    .insertInto('emails')
    .values({ user_id: userId, email, created_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes one email of the user and returns the row as it was, or undefined when there was none. */
export function deleteEmailOfUser(db: Executor, userId: number, id: number): Promise<EmailRow | undefined> {
  return db
    .deleteFrom('emails')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteEmailsOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('emails').where('user_id', '=', userId).execute();
}
