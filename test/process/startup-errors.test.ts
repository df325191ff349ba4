// A start that cannot work says so in one line (what is wrong, where, what to do), exits non-zero, shows
// no stack trace unless LABRADOR_LOG_LEVEL=debug, and writes nothing when a setting is bad.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createInstance, runLabrador, spawnLabrador, type Instance } from '../helpers/process.ts';

function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`);
  assert.match(lines[0], /^labrador: /);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  return lines[0];
}

describe('start-up failures: one line, non-zero exit', () => {
  let instance: Instance;
  let scratch: string;
  before(async () => {
    instance = await createInstance();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-bad-'));
  });
  after(async () => {
    await instance.remove();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('each bad setting: exit 2, one line naming the variable, nothing written', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ LABRADOR_PORT: '99999' }, /LABRADOR_PORT must be a port number 1–65535.*"99999"/],
      [{ LABRADOR_PORT: 'http' }, /LABRADOR_PORT must be a port number/],
      [{ LABRADOR_DATABASE_URL: 'mysql://u:hunter22@db/x' }, /LABRADOR_DATABASE_URL must be a postgres:\/\//],
      [
        { LABRADOR_EXTERNAL_URL: 'gitlab.example.com' },
        /LABRADOR_EXTERNAL_URL must be an http:\/\/ or https:\/\/ URL/,
      ],
      [{ LABRADOR_LOG_LEVEL: 'loud' }, /LABRADOR_LOG_LEVEL must be one of fatal, error, warn, info, debug/],
      [{ LABRADOR_UPLOAD_MAX_BYTES: '-5' }, /LABRADOR_UPLOAD_MAX_BYTES must be an integer ≥ 1/],
      [{ LABRADOR_ROOT_PASSWORD: 'short' }, /LABRADOR_ROOT_PASSWORD must be at least 8 characters/],
      [{ LABRADOR_HOOK_MAX_ATTEMPTS: '0' }, /LABRADOR_HOOK_MAX_ATTEMPTS must be an integer ≥ 1/],
      [{ LABRADOR_STOP_TIMEOUT_MS: '5s' }, /LABRADOR_STOP_TIMEOUT_MS must be an integer ≥ 1/],
      [
        { LABRADOR_REQUEST_HEADERS_TIMEOUT_MS: '0' },
        /LABRADOR_REQUEST_HEADERS_TIMEOUT_MS must be an integer ≥ 1/,
      ],
      [{ LABRADOR_LOG_REQUESTS: 'maybe' }, /LABRADOR_LOG_REQUESTS must be true or false/],
      [
        { LABRADOR_TRUSTED_PROXIES: '10.0.0.1, proxy.lan' },
        /LABRADOR_TRUSTED_PROXIES must list IP addresses/,
      ],
      [{ LABRADOR_RUNNER: 'docker' }, /LABRADOR_RUNNER must be builtin .* or none, got "docker"/],
    ];
    const results = await Promise.all(
      cases.map(([env], index) =>
        runLabrador({ LABRADOR_DATA_DIR: path.join(scratch, `bad-${index}`), ...env }),
      ),
    );
    results.forEach((result, index) => {
      assert.equal(result.code, 2, `${JSON.stringify(cases[index][0])}: ${result.stderr}`);
      assert.match(oneLine(result.stderr), cases[index][1]);
      assert.equal(result.stdout, '');
      assert.equal(fs.existsSync(path.join(scratch, `bad-${index}`)), false, 'nothing written');
    });
    assert.doesNotMatch(results[2].stderr, /hunter22/, 'the password is never shown');
  });

  it('a port in use: exit 1, one line, and no data dir or root created', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const dataDir = path.join(scratch, 'busy');
      const result = await runLabrador({ LABRADOR_DATA_DIR: dataDir, LABRADOR_PORT: String(port) });
      assert.equal(result.code, 1);
      assert.equal(
        oneLine(result.stderr),
        `labrador: port ${port} on 127.0.0.1 is already in use: stop whatever listens there or set LABRADOR_PORT`,
      );
      assert.equal(fs.existsSync(dataDir), false);
      assert.doesNotMatch(result.stdout, /password|token/i);
    } finally {
      holder.close();
    }
  });

  it('a data dir that cannot be written: the path in one line', async () => {
    const blocker = path.join(scratch, 'a-file');
    fs.writeFileSync(blocker, 'not a directory\n');
    const result = await runLabrador({ LABRADOR_DATA_DIR: path.join(blocker, 'data') });
    assert.equal(result.code, 1);
    assert.match(
      oneLine(result.stderr),
      new RegExp(`data dir ${blocker}/data is not a directory .*LABRADOR_DATA_DIR`),
    );
  });

  it('an unreachable PostgreSQL: the URL without its password', async () => {
    const result = await runLabrador({
      LABRADOR_DATA_DIR: path.join(scratch, 'unreachable'),
      LABRADOR_DATABASE_URL: 'postgres://labrador:s3cret-pw@127.0.0.1:1/labrador',
    });
    assert.equal(result.code, 1);
    assert.equal(
      oneLine(result.stderr),
      'labrador: cannot connect to PostgreSQL postgres://labrador@127.0.0.1:1/labrador: connection refused; is PostgreSQL running on 127.0.0.1:1? (LABRADOR_DATABASE_URL)',
    );
    assert.doesNotMatch(result.stderr, /s3cret-pw/);
  });

  it(
    'a PostgreSQL database that does not exist: how to create it',
    { skip: !process.env.LABRADOR_TEST_PG_URL },
    async () => {
      const url = new URL(process.env.LABRADOR_TEST_PG_URL!);
      url.pathname = '/labrador_no_such_database';
      const result = await runLabrador({
        LABRADOR_DATA_DIR: path.join(scratch, 'missing-db'),
        LABRADOR_DATABASE_URL: url.toString(),
      });
      assert.equal(result.code, 1);
      assert.match(
        oneLine(result.stderr),
        /database "labrador_no_such_database" does not exist on .*: create it \(createdb labrador_no_such_database\)/,
      );
    },
  );

  it('with LABRADOR_LOG_LEVEL=debug the stack trace follows the line', async () => {
    const result = await runLabrador({
      LABRADOR_DATA_DIR: path.join(scratch, 'debug'),
      LABRADOR_DATABASE_URL: 'postgres://labrador@127.0.0.1:1/labrador',
      LABRADOR_LOG_LEVEL: 'debug',
    });
    assert.equal(result.code, 1);
    const [first, ...rest] = result.stderr.trimEnd().split('\n');
    assert.match(first, /^labrador: cannot connect to PostgreSQL/);
    assert.ok(
      rest.some((line) => /^\s+at /.test(line)),
      result.stderr,
    );
  });

  it('a data dir started with another database, or a database with another data dir: refused in one line', async () => {
    const start = async (env: Record<string, string>) => {
      const labrador = spawnLabrador(env);
      await labrador.ready();
      labrador.signal('SIGTERM');
      assert.equal((await labrador.exited).code, 0, labrador.stderr);
    };
    await start(instance.env);
    const other = await createInstance();
    const sqliteFile = (dataDir: string) => path.join(dataDir, 'labrador.sqlite3');
    try {
      await start(other.env);
      let result;
      if (instance.databaseUrl) {
        // The README's old trap: the same data dir, a new PostgreSQL database.
        result = await runLabrador({ ...instance.env, LABRADOR_DATABASE_URL: other.databaseUrl! });
      } else {
        // Another instance's SQLite file copied into this data dir.
        fs.renameSync(sqliteFile(instance.dataDir), `${sqliteFile(instance.dataDir)}.mine`);
        fs.copyFileSync(sqliteFile(other.dataDir), sqliteFile(instance.dataDir));
        result = await runLabrador(instance.env);
        fs.renameSync(`${sqliteFile(instance.dataDir)}.mine`, sqliteFile(instance.dataDir));
      }
      assert.equal(result.code, 1);
      assert.match(oneLine(result.stderr), /^labrador: data dir .* belongs to another database/);

      // This database with a data dir that is not its own.
      const fresh = path.join(scratch, 'fresh-data-dir');
      fs.mkdirSync(fresh);
      if (!instance.databaseUrl) fs.copyFileSync(sqliteFile(instance.dataDir), sqliteFile(fresh));
      result = await runLabrador({ ...instance.env, LABRADOR_DATA_DIR: fresh });
      assert.equal(result.code, 1);
      assert.match(
        oneLine(result.stderr),
        /belongs to the data dir stamped .*: set LABRADOR_DATA_DIR to that data dir/,
      );

      // Together again, they start.
      await start(instance.env);
    } finally {
      await other.remove();
    }
  });
});
