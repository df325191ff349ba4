// Secondary emails (the primary one lives on users.email). Lists use emails_user_id (user_id, id);
// emails_email_lower is the unique index that settles a race between two equal secondary emails.
import type { Insertable, Selectable } from 'kysely';
import type { EmailsTable } from '../schema.ts';
import type { Executor } from './users.ts';

export type EmailRow = Selectable<EmailsTable>;

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

export function insertEmail(db: Executor, values: Insertable<EmailsTable>): Promise<EmailRow> {
  return db.insertInto('emails').values(values).returningAll().executeTakeFirstOrThrow();
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
