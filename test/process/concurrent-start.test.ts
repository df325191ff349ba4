// PostgreSQL only (several processes share one database there): two processes of the built entry point
// started at the same moment on one fresh, empty database and one data dir, as a deployment behind a
// load balancer comes up. Both must come up; each migration runs once; there is one root, whose token
// (given to both) works on both.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createInstance, spawnLabrador, type Instance, type LabradorProcess } from '../helpers/process.ts';

const onPostgres = Boolean(process.env.LABRADOR_TEST_PG_URL);

describe(
  'two processes starting at once on one fresh PostgreSQL database',
  { skip: onPostgres ? false : 'PostgreSQL only: on SQLite one process owns the database' },
  () => {
    let instance: Instance;
    before(async () => {
      instance = await createInstance({ empty: true });
    });
    after(() => instance.remove());

    it('both come up; migrations run once; one root', async () => {
      const processes: LabradorProcess[] = [spawnLabrador(instance.env), spawnLabrador(instance.env)];
      try {
        await Promise.all(processes.map((labrador) => labrador.ready()));
        for (const labrador of processes) {
          const response = await fetch(`${labrador.url}/api/v3/users?per_page=100`, {
            headers: { 'private-token': instance.rootToken },
          });
          assert.equal(response.status, 200, labrador.stderr);
          const users = (await response.json()) as Array<{ username: string; is_admin: boolean }>;
          assert.deepEqual(
            users.map((user) => [user.username, user.is_admin]),
            [['root', true]],
          );
        }
        // Exactly one of the two says it created root.
        const created = processes.map((labrador) => /"rootCreated":true/.test(labrador.stdout));
        assert.deepEqual(created.filter(Boolean).length, 1, processes.map((p) => p.stdout).join('\n'));

        const client = new pg.Client({ connectionString: instance.databaseUrl });
        await client.connect();
        try {
          const { rows } = await client.query<{ name: string; runs: number }>(
            'select name, count(*)::int as runs from kysely_migration group by name order by name',
          );
          assert.ok(rows.length > 10, 'every migration is recorded');
          assert.deepEqual(
            rows.filter((row) => row.runs !== 1),
            [],
          );
          const settings = await client.query<{ n: number }>(
            "select count(*)::int as n from settings where key = 'database_id'",
          );
          assert.equal(settings.rows[0].n, 1, 'one identity for the database');
        } finally {
          await client.end();
        }
      } finally {
        for (const labrador of processes) {
          labrador.signal('SIGTERM');
          assert.equal((await labrador.exited).code, 0, labrador.stderr);
        }
      }
    });
  },
);
