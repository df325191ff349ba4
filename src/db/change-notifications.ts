// PostgreSQL has no cheap "has anything changed?" question like SQLite's data_version, so every table tells:
// a statement-level trigger sends a notification on the `labrador_changes` channel with each committed
// change (PostgreSQL delivers notifications at commit and folds a transaction's identical ones into one).
// Each server process listens on its own connection and moves its read cache's version on every
// notification; while it is not listening (connecting, or the connection dropped) it does not cache at all.
import type pg from 'pg';
import { sql, type Kysely } from 'kysely';

const CHANGE_CHANNEL = 'labrador_changes';

/**
 * The notifying trigger on every table of the schema (tables a later migration adds get it at the next
 * start: this runs after the migrations, and adds only what is missing). Processes starting at once on
 * one database take turns (a transaction-level advisory lock): otherwise both see a trigger missing and
 * the second `create trigger` fails its start, as a concurrent `create or replace function` can.
 */
export async function ensureChangeTriggers(kysely: Kysely<never>): Promise<void> {
  await kysely.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext('labrador.change-triggers'))`.execute(tx);
    await sql`
      create or replace function labrador_notify_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify(${sql.lit(CHANGE_CHANNEL)}, '');
        return null;
      end
      $$`.execute(tx);
    await sql`
      do $$
      declare missing record;
      begin
        for missing in
          select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind = 'r'
            and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'labrador_change')
        loop
          execute format('create trigger labrador_change after insert or update or delete or truncate on %I '
            || 'for each statement execute function labrador_notify_change()', missing.relname);
        end loop;
      end
      $$`.execute(tx);
  });
}

export interface ChangeListener {
  /** True while notifications are being received (only then may results be kept). */
  readonly listening: boolean;
  close(): Promise<void>;
}

const RECONNECT_MS = 1000;

/** Listens on its own connection; `onChange` runs on every notification and whenever listening stops or starts. */
export function listenForChanges(
  client: typeof pg.Client,
  connectionString: string,
  onChange: () => void,
): ChangeListener {
  let listening = false;
  let closed = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = () => {
    const current = new client({ connectionString, application_name: 'labrador-changes' });
    listener = current;
    let down = false;
    const lost = () => {
      if (down) return;
      down = true;
      listening = false;
      onChange();
      current.end().catch(() => {});
      if (!closed) retry = setTimeout(connect, RECONNECT_MS).unref();
    };
    current.on('notification', onChange);
    current.on('error', lost);
    current.on('end', lost);
    current
      .connect()
      .then(() => current.query(`listen ${CHANGE_CHANNEL}`))
      .then(() => {
        if (down || closed) return;
        // Whatever changed before this point was not heard: start from an empty cache.
        onChange();
        listening = true;
      })
      .catch(lost);
  };
  connect();

  return {
    get listening() {
      return listening;
    },
    close: async () => {
      closed = true;
      listening = false;
      clearTimeout(retry);
      await listener?.end().catch(() => {});
    },
  };
}
