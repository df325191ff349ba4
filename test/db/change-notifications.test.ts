// PostgreSQL only: the read cache keeps answers only while its change-notification connection listens.
// When that connection's backend is ended (a database restart, pg_terminate_backend), a change made
// before it is back is never announced to it; the process must not go on serving what it had cached.
// The test ends the listening backends, removes a membership through another server while they are
// down, and asks: the removed member is refused, the listener comes back, and the next change is seen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startTestApp, type TestApp, type TestResponse } from '../helpers/app.ts';
import { createProject, createUser, type TestUser } from '../helpers/factory.ts';
import { until } from '../helpers/wait.ts';
import type { Kysely } from 'kysely';
import type { Server } from '../../src/server.ts';
import { ensureChangeTriggers } from '../../src/db/change-notifications.ts';

const onPostgres = Boolean(process.env.LABRADOR_TEST_PG_URL);

describe(
  'change notifications after their connection is lost',
  { skip: onPostgres ? false : 'PostgreSQL only: SQLite asks the file for its version on every cached read' },
  () => {
    let t: TestApp;
    let other: Server;
    let admin: pg.Client;
    let owner: TestUser;
    let member: TestUser;
    let projectId: number;

    before(async () => {
      t = await startTestApp();
      other = await t.sibling();
      admin = new pg.Client({ connectionString: t.config.databaseUrl });
      await admin.connect();
      owner = await createUser(t, 'listenowner');
      member = await createUser(t, 'listenmember');
      projectId = (await createProject(t, { owner, path: 'listened', visibility: 0 })).id;
    });
    after(async () => {
      await admin.end();
      await other.close();
      await t.close();
    });

    /** A write through the other server (another process's worth), as the owner. */
    async function onOther(method: string, url: string, body?: Record<string, unknown>) {
      const response = await other.app.inject({
        method: method as 'GET',
        url,
        headers: { 'private-token': owner.token },
        ...(body ? { payload: body } : {}),
      });
      assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
    }

    const read = (): Promise<TestResponse> =>
      t.request('GET', `/api/v3/projects/${projectId}`, { token: member.token });

    /** The listening backends of both servers on this database. */
    async function listeners(): Promise<Array<{ pid: number; started: Date; query: string }>> {
      const { rows } = await admin.query(
        `select pid, backend_start as started, query from pg_stat_activity
         where datname = current_database() and application_name = 'labrador-changes'`,
      );
      return rows;
    }

    it('serves nothing stale after its listener is cut, and hears the next change once it is back', async () => {
      await onOther('POST', `/api/v3/projects/${projectId}/members`, {
        user_id: member.id,
        access_level: 30,
      });
      await until('the member to be let in', async () => (await read()).status === 200);
      // Read again: the answer may now come from the cache.
      assert.equal((await read()).status, 200);

      // The membership is removed while the listening connections are down: its notification is lost.
      // Until they are back (a second later) nothing is cached; once back the cache starts empty.
      let removedAt: Date | undefined;
      for (let round = 1; ; round++) {
        assert.ok(round <= 5, 'the change landed while the listeners were down in one of five rounds');
        const cut = await listeners();
        assert.equal(cut.length, 2, 'each server listens on a connection of its own');
        await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [
          cut.map((listener) => listener.pid),
        ]);
        await onOther('DELETE', `/api/v3/projects/${projectId}/members/${member.id}`);
        removedAt = (await admin.query('select clock_timestamp() as now')).rows[0].now as Date;
        await until('the member to be refused', async () => (await read()).status === 404);
        const back = await until('both listeners to be back', async () => {
          const now = await listeners();
          const fresh = now.every((listener) => !cut.some((old) => old.pid === listener.pid));
          const listening = now.every((listener) => listener.query === 'listen labrador_changes');
          return now.length === 2 && fresh && listening && now;
        });
        // Was this round's change made while they were down? Then it tested the gap; else try again.
        if (back.every((listener) => listener.started > removedAt!)) break;
        await onOther('POST', `/api/v3/projects/${projectId}/members`, {
          user_id: member.id,
          access_level: 30,
        });
        await until('the member to be let in again', async () => (await read()).status === 200);
      }
      // Listening again: the refusal stays (no stale answer was kept from before the cut)...
      for (let i = 0; i < 3; i++) assert.equal((await read()).status, 404);
      // ...and the next change, announced on the new connection, is seen.
      await onOther('POST', `/api/v3/projects/${projectId}/members`, {
        user_id: member.id,
        access_level: 30,
      });
      await until('the member to be let in after the reconnect', async () => (await read()).status === 200);
      assert.equal((await read()).status, 200);
      await onOther('DELETE', `/api/v3/projects/${projectId}/members/${member.id}`);
      await until('the member to be refused after the reconnect', async () => (await read()).status === 404);
    });

    it('adds each missing trigger once when two processes start at once', async () => {
      const kyselies = [t.server.deps.db.kysely, other.deps.db.kysely] as unknown as Array<Kysely<never>>;
      const triggers = async () =>
        (
          await admin.query(
            `select count(*)::int as count from pg_trigger where tgname = 'labrador_change'
             and tgrelid in (select oid from pg_class where relnamespace = current_schema()::regnamespace)`,
          )
        ).rows[0].count as number;
      const tables = (
        await admin.query(
          `select count(*)::int as count from pg_class
           where relnamespace = current_schema()::regnamespace and relkind = 'r'`,
        )
      ).rows[0].count as number;
      // A fresh database's start, ten times over: every trigger missing, both processes adding them.
      for (let round = 0; round < 10; round++) {
        await admin.query(
          `drop trigger if exists labrador_change on users; drop trigger if exists labrador_change on projects`,
        );
        assert.equal(await triggers(), tables - 2);
        await Promise.all(kyselies.map((kysely) => ensureChangeTriggers(kysely)));
        assert.equal(await triggers(), tables);
      }
    });
  },
);
