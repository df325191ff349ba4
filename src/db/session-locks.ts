// Locks that die with the process holding them: a live operation (a merge) holds one while it works,
// and start-up recovery in any process leaves alone what a live holder has. On PostgreSQL, where several
// processes may share one database, they are session-level advisory locks on a connection of their own:
// a process that dies (crash, SIGKILL) loses its connection and PostgreSQL lets its locks go at once.
// Within a process a set of held keys answers first (a session's advisory locks are re-entrant, so its
// own second attempt would otherwise succeed). SQLite runs one process per data dir, so the set is all.
// If the lock connection drops while a lock is held, that lock is gone: the holder must still check its
// own state before each irreversible step (a merge re-checks that its MR is locked before moving a branch).
import type pg from 'pg';

/** What a lock guards; PostgreSQL's two-key advisory locks take it as the first key. */
export enum LockScope {
  MergeRequestMerge = 1,
  MergeRequestRebase = 2,
}

export interface SessionLocks {
  /** Takes the lock of (scope, id) for this process; false when a live holder anywhere has it. */
  tryAcquire(scope: LockScope, id: number): Promise<boolean>;
  release(scope: LockScope, id: number): Promise<void>;
  close(): Promise<void>;
}

interface PostgresTarget {
  client: typeof pg.Client;
  connectionString: string;
}

export function sessionLocks(postgres?: PostgresTarget): SessionLocks {
  const held = new Set<string>();
  let connection: Promise<pg.Client> | undefined;
  const connect = (target: PostgresTarget) => {
    connection ??= (async () => {
      const client = new target.client({
        connectionString: target.connectionString,
        application_name: 'labrador-locks',
      });
      // Locks held on a dropped connection are gone; the next lock opens a new one.
      client.on('error', () => {
        connection = undefined;
      });
      client.on('end', () => {
        connection = undefined;
      });
      await client.connect();
      return client;
    })().catch((error: unknown) => {
      connection = undefined;
      throw error;
    });
    return connection;
  };
  return {
    async tryAcquire(scope, id) {
      const key = `${scope}:${id}`;
      if (held.has(key)) return false;
      held.add(key);
      if (!postgres) return true;
      try {
        const client = await connect(postgres);
        const result = await client.query<{ taken: boolean }>(
          'select pg_try_advisory_lock($1::int, $2::int) as taken',
          [scope, id],
        );
        if (result.rows[0]?.taken === true) return true;
      } catch (error) {
        held.delete(key);
        throw error;
      }
      held.delete(key);
      return false;
    },
    async release(scope, id) {
      const key = `${scope}:${id}`;
      if (!held.delete(key) || !postgres || !connection) return;
      const client = await connection.catch(() => undefined);
      await client?.query('select pg_advisory_unlock($1::int, $2::int)', [scope, id]).catch(() => undefined);
    },
    async close() {
      const client = await connection?.catch(() => undefined);
      connection = undefined;
      held.clear();
      await client?.end().catch(() => undefined);
    },
  };
}
