// A full disk under the data dir (a small tmpfs the test mounts and fills): writes answer 507 with
// GitLab's body and one log line naming the cause, leave nothing half-written (no repository without
// its row, no row without its repository), reads go on, and everything works again once space is freed.
// PostgreSQL's own full disk (53100) is raised by the server itself through a trigger.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startServer, type Server } from '../../src/server.ts';
import { createPostgresDatabase } from '../helpers/app.ts';
import { emptyWriteAheadLog, mountSmallDisk, type SmallDisk } from '../helpers/small-disk.ts';

const ROOT_TOKEN = 'disk-full-root-token';
const disk = mountSmallDisk(48);
const skip = typeof disk === 'string' && process.env.CI !== 'true' ? disk : false;

describe('a full disk', { skip }, () => {
  let small: SmallDisk;
  let server: Server;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  const lines: Array<{ level: number; msg: string }> = [];

  async function call(method: 'GET' | 'POST', url: string, body?: Record<string, unknown>) {
    const response = await server.app.inject({
      method,
      url,
      headers: { 'private-token': ROOT_TOKEN },
      ...(body ? { payload: body } : {}),
    });
    return { status: response.statusCode, body: response.body === '' ? null : response.json() };
  }

  before(async () => {
    if (typeof disk === 'string') throw new Error(disk);
    small = disk;
    const pgBase = process.env.LABRADOR_TEST_PG_URL;
    database = pgBase ? await createPostgresDatabase(pgBase) : undefined;
    const config = loadConfig({
      LABRADOR_DATA_DIR: path.join(small.dir, 'data'),
      LABRADOR_ROOT_TOKEN: ROOT_TOKEN,
      LABRADOR_ROOT_PASSWORD: 'root-password-1234',
      LABRADOR_PASSWORD_HASH_COST: '4',
      LABRADOR_SSH_PORT: '0',
      LABRADOR_PACK_CACHE_MB: '0',
      ...(database ? { LABRADOR_DATABASE_URL: database.url } : {}),
    });
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    server = await startServer(config, log);
  });
  after(async () => {
    await server?.close();
    await database?.drop();
    small?.unmount();
  });

  it('answers writes 507, leaves nothing half-written, and recovers when space is freed', async () => {
    const existing = await call('POST', '/api/v3/projects', { name: 'before-full' });
    assert.equal(existing.status, 201);
    const repositories = path.join(small.dir, 'data', 'repositories', 'root');
    if (!database) {
      // An empty write-ahead log: the next write must take new space instead of reusing the old log's.
      emptyWriteAheadLog(path.join(small.dir, 'data'));
    }
    lines.length = 0;
    small.fill();

    const project = await call('POST', '/api/v3/projects', { name: 'while-full' });
    assert.equal(project.status, 507);
    assert.deepEqual(project.body, { message: '507 Insufficient Storage' });
    const writes = [project];
    if (!database) {
      const user = await call('POST', '/api/v3/users', {
        email: 'full@example.com',
        password: 'password1234',
        username: 'full',
        name: 'Full',
      });
      const hook = await call('POST', `/api/v3/projects/${existing.body.id}/hooks`, {
        url: 'http://hooks.example.com/full',
      });
      for (const response of [user, hook]) {
        assert.equal(response.status, 507);
        assert.deepEqual(response.body, { message: '507 Insufficient Storage' });
      }
      writes.push(user, hook);
    }
    // Reads go on; the health check says what is wrong.
    const read = await call('GET', `/api/v3/projects/${existing.body.id}`);
    assert.equal(read.status, 200);
    const health = await call('GET', '/-/health');
    assert.equal(health.status, 503);
    assert.equal(health.body.data_dir, 'failing');

    // Exactly one error line per refused write, naming the cause; no stack of a second failure.
    const errors = lines.filter((line) => line.level >= 50 && !line.msg.startsWith('health'));
    assert.equal(errors.length, writes.length, JSON.stringify(errors));
    for (const line of errors) {
      assert.match(line.msg, /^storage full: .*(no space left on device|disk is full)/i);
    }

    small.free();
    // Nothing half-written: no directory without its row, no row without its directory.
    const listed = await call('GET', '/api/v3/projects?search=while-full');
    assert.deepEqual(listed.body, []);
    assert.equal(fs.existsSync(path.join(repositories, 'while-full.git')), false);
    const users = await call('GET', '/api/v3/users?username=full');
    assert.deepEqual(users.body, []);
    const hooks = await call('GET', `/api/v3/projects/${existing.body.id}/hooks`);
    assert.deepEqual(hooks.body, []);

    const again = await call('POST', '/api/v3/projects', { name: 'while-full' });
    assert.equal(again.status, 201);
    assert.equal(fs.existsSync(path.join(repositories, 'while-full.git', 'HEAD')), true);
    const user = await call('POST', '/api/v3/users', {
      email: 'full@example.com',
      password: 'password1234',
      username: 'full',
      name: 'Full',
    });
    assert.equal(user.status, 201);
    assert.equal((await call('GET', '/-/health')).status, 200);
  });

  it(
    'answers 507 when PostgreSQL itself is out of disk (53100)',
    { skip: !process.env.LABRADOR_TEST_PG_URL },
    async () => {
      const client = new pg.Client({ connectionString: database!.url });
      await client.connect();
      try {
        await client.query(`create function labrador_test_disk_full() returns trigger language plpgsql as
        $$ begin raise exception 'could not extend file: No space left' using errcode = '53100'; end $$`);
        await client.query(`create trigger labrador_test_disk_full before insert on users
        for each row execute function labrador_test_disk_full()`);
        lines.length = 0;
        const user = await call('POST', '/api/v3/users', {
          email: 'pgfull@example.com',
          password: 'password1234',
          username: 'pgfull',
          name: 'PG Full',
        });
        assert.equal(user.status, 507);
        assert.deepEqual(user.body, { message: '507 Insufficient Storage' });
        const errors = lines.filter((line) => line.level >= 50);
        assert.equal(errors.length, 1, JSON.stringify(errors));
        assert.match(errors[0]!.msg, /^storage full: PostgreSQL: disk full \(53100\)/);
      } finally {
        await client.query('drop trigger if exists labrador_test_disk_full on users');
        await client.query('drop function if exists labrador_test_disk_full()');
        await client.end();
      }
      const users = await call('GET', '/api/v3/users?username=pgfull');
      assert.deepEqual(users.body, []);
    },
  );
});
