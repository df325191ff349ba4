// A push is on record before git can apply it (src/git/pkt-line.ts, RefUpdateReader): git receives the
// pack while the pending push is being committed, all but its last bytes, so it unpacks meanwhile but
// cannot move a ref until the record is in. Shown by holding the pushes table locked from outside.
//
// PostgreSQL only: there the lock stops just that INSERT. On SQLite another connection's write lock
// would make the server's synchronous driver wait in its busy handler, and the server's own open
// transaction would queue every statement of the push (its rules too), so the gate could not be told
// apart from a server that had not started the push at all.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { until } from '../helpers/wait.ts';
import { repositoryPath } from '../../src/git/repository.ts';

const onPostgres = Boolean(process.env.LABRADOR_TEST_PG_URL);

describe('a push waits for its record', { skip: onPostgres ? false : 'PostgreSQL only (see above)' }, () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'gated');
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('moves no ref while the push cannot be recorded, and completes once it can', async () => {
    const project = await createProject(t, { owner, path: 'gated' });
    const repoPath = repositoryPath(t.config.dataDir, owner.username, 'gated');
    const work = await client.workTree('gated', ['first', 'second']);
    const url = repoUrl(base, `${owner.username}/gated`, owner.username, owner.password);
    const head = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    // Where receive-pack unpacks a push before any ref may move (its quarantine, one per push).
    const unpacked = () =>
      fs
        .readdirSync(path.join(repoPath, 'objects'))
        .filter((name) => name.startsWith('tmp_objdir-incoming-'))
        .some((name) => fs.existsSync(path.join(repoPath, 'objects', name, head.slice(0, 2), head.slice(2))));

    const locker = new pg.Client({ connectionString: t.config.databaseUrl });
    await locker.connect();
    let pushing: ReturnType<GitClient['run']> | undefined;
    try {
      await locker.query('BEGIN');
      // Blocks INSERTs into pushes (reads go on): the pending push cannot be committed.
      await locker.query('LOCK TABLE pushes IN SHARE ROW EXCLUSIVE MODE');
      pushing = client.run(['push', '-q', url, 'master'], work);
      await until('the push record to wait for the lock', async () => {
        const { rows } = await locker.query<{ count: string }>(
          `SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
           WHERE c.relname = 'pushes' AND NOT l.granted`,
        );
        return Number(rows[0].count) > 0;
      });
      // git has the pack meanwhile: it unpacks the pushed commit (the pack's first object) while the
      // record waits. That is as far as it can get without the last bytes; the ref must not have moved.
      await until('receive-pack to unpack the pushed commit', unpacked);
      const during = await client.run([
        '--git-dir',
        repoPath,
        'rev-parse',
        '--verify',
        '-q',
        'refs/heads/master',
      ]);
      assert.notEqual(during.code, 0, 'master moved before the push was recorded');
    } finally {
      await locker.query('COMMIT').catch(() => {});
      await locker.end();
    }

    const pushed = await pushing!;
    assert.equal(pushed.code, 0, pushed.stderr);
    await t.server.deps.pushQueue.drain();
    const branch = await t.request('GET', `/api/v3/projects/${project.id}/repository/branches/master`, {
      token: owner.token,
    });
    assert.equal(branch.status, 200, branch.text);
    assert.equal(branch.body.commit.id, head);
    const events = await t.request('GET', `/api/v3/projects/${project.id}/events`, { token: owner.token });
    assert.equal(events.body[0].action_name, 'pushed new');
  });
});
