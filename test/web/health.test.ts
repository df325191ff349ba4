// GET /-/health as a load balancer sees it: no token, 200 while the database answers and the data dir
// takes writes, 503 when either fails.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import pg from 'pg';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('GET /-/health', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('200 {"status":"ok"} without a token, never cached; HEAD too', async () => {
    const response = await t.request('GET', '/-/health');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { status: 'ok', database: 'ok', data_dir: 'ok' });
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal((await t.request('HEAD', '/-/health')).status, 200);
  });

  it('503 while the data dir cannot be written, 200 again when it can', async () => {
    const aside = `${t.config.dataDir}.aside`;
    fs.renameSync(t.config.dataDir, aside);
    fs.writeFileSync(t.config.dataDir, 'a file where the data dir should be\n');
    try {
      const response = await t.request('GET', '/-/health');
      assert.equal(response.status, 503);
      assert.deepEqual(response.body, { status: 'failing', database: 'ok', data_dir: 'failing' });
    } finally {
      fs.rmSync(t.config.dataDir);
      fs.renameSync(aside, t.config.dataDir);
    }
    assert.equal((await t.request('GET', '/-/health')).status, 200);
  });

  it('503 with the database gone', async () => {
    if (t.config.databaseUrl) {
      // The database is dropped under the running server (its connections terminated).
      const name = new URL(t.config.databaseUrl).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.LABRADOR_TEST_PG_URL });
      await admin.connect();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    } else {
      await t.server.deps.db.close();
    }
    const response = await t.request('GET', '/-/health');
    assert.equal(response.status, 503);
    assert.deepEqual(response.body, { status: 'failing', database: 'failing', data_dir: 'ok' });
  });
});
