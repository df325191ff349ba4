// PostgreSQL only (several server processes share one database there): start-up recovery of locked merge
// requests must not undo a merge another live process is performing. A merge holds its MR's session
// lock while it works; a second server starting on the same database leaves that MR locked, and once the
// holder lets go (or dies, which drops its connection and with it the lock) recovery undoes the merge.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { LockScope } from '../../src/db/session-locks.ts';

const onPostgres = Boolean(process.env.LABRADOR_TEST_PG_URL);

describe(
  'merge recovery next to a live merge',
  { skip: onPostgres ? false : 'PostgreSQL only: on SQLite one process owns the database' },
  () => {
    let t: TestApp;
    let owner: TestUser;
    let project: TestProject;

    const call = (method: string, url: string, body: Record<string, unknown> = {}) =>
      t.request(method, url, { token: owner.token, body });

    /** An open MR from a new branch with one new file. */
    async function openMergeRequest(branch: string): Promise<{ id: number }> {
      const made = await call('POST', `/api/v3/projects/${project.id}/repository/branches`, {
        branch_name: branch,
        ref: 'master',
      });
      assert.equal(made.status, 201, made.text);
      const file = await call('POST', `/api/v3/projects/${project.id}/repository/files`, {
        file_path: `${branch}.txt`,
        branch_name: branch,
        content: `${branch}\n`,
        commit_message: `Add ${branch}`,
      });
      assert.equal(file.status, 201, file.text);
      const mr = await call('POST', `/api/v3/projects/${project.id}/merge_requests`, {
        source_branch: branch,
        target_branch: 'master',
        title: `Merge ${branch}`,
      });
      assert.equal(mr.status, 201, mr.text);
      return mr.body;
    }

    /** The MR as lock_mr leaves it when a merge is under way (its merge commit not yet on master). */
    async function lockAsMerging(id: number): Promise<void> {
      const locked = await t.server.deps.db.kysely
        .updateTable('merge_requests')
        .set({ state: 'locked', locked_at: new Date().toISOString() })
        .where('id', '=', id)
        .executeTakeFirst();
      assert.equal(Number(locked.numUpdatedRows), 1);
    }

    async function stateOf(id: number): Promise<{ state: string }> {
      const read = await call('GET', `/api/v3/projects/${project.id}/merge_requests/${id}`);
      assert.equal(read.status, 200, read.text);
      return read.body;
    }

    /** A second server on the same database and data dir: its start-up runs the recovery. */
    async function recoverInAnotherServer(): Promise<void> {
      const sibling = await t.sibling();
      await sibling.close();
    }

    before(async () => {
      t = await startTestApp();
      owner = await createUser(t, 'mrlockowner');
      project = await createProject(t, { owner, path: 'mrlocks', commit: true });
    });
    after(() => t.close());

    it('leaves a merge held by a live server alone, and undoes it once released', async () => {
      const mr = await openMergeRequest('held');
      // This server is the live merger: it holds the lock as mergeMergeRequest does, then locks the MR.
      const locks = t.server.deps.db.locks;
      assert.equal(await locks.tryAcquire(LockScope.MergeRequestMerge, mr.id), true);
      // Another merge of it, here or in any process, is refused while the lock is held.
      assert.equal(await locks.tryAcquire(LockScope.MergeRequestMerge, mr.id), false);
      await lockAsMerging(mr.id);

      await recoverInAnotherServer();
      assert.equal((await stateOf(mr.id)).state, 'locked', 'a live merge is not undone');

      await locks.release(LockScope.MergeRequestMerge, mr.id);
      await recoverInAnotherServer();
      const undone = await stateOf(mr.id);
      assert.equal(undone.state, 'reopened');
      const merged = await call('PUT', `/api/v3/projects/${project.id}/merge_requests/${mr.id}/merge`);
      assert.equal(merged.status, 200, merged.text);
      assert.equal(merged.body.state, 'merged');
    });

    it('undoes a merge whose process died, since its lock died with its connection', async () => {
      const mr = await openMergeRequest('died');
      const merger = new pg.Client({ connectionString: t.config.databaseUrl });
      await merger.connect();
      try {
        const taken = await merger.query('select pg_try_advisory_lock($1::int, $2::int) as taken', [
          LockScope.MergeRequestMerge,
          mr.id,
        ]);
        assert.equal(taken.rows[0].taken, true);
        await lockAsMerging(mr.id);
        await recoverInAnotherServer();
        assert.equal((await stateOf(mr.id)).state, 'locked', 'held by the other process');
        // Meanwhile this server may not merge it either (405, as for any locked MR).
        const refused = await call('PUT', `/api/v3/projects/${project.id}/merge_requests/${mr.id}/merge`);
        assert.equal(refused.status, 405, refused.text);
      } finally {
        await merger.end();
      }
      await recoverInAnotherServer();
      assert.equal((await stateOf(mr.id)).state, 'reopened');
    });

    it('refuses to merge an open MR whose lock another process holds', async () => {
      const mr = await openMergeRequest('racing');
      const other = new pg.Client({ connectionString: t.config.databaseUrl });
      await other.connect();
      try {
        await other.query('select pg_advisory_lock($1::int, $2::int)', [LockScope.MergeRequestMerge, mr.id]);
        const refused = await call('PUT', `/api/v3/projects/${project.id}/merge_requests/${mr.id}/merge`);
        assert.equal(refused.status, 405, refused.text);
        assert.equal((await stateOf(mr.id)).state, 'opened');
      } finally {
        await other.end();
      }
      const merged = await call('PUT', `/api/v3/projects/${project.id}/merge_requests/${mr.id}/merge`);
      assert.equal(merged.status, 200, merged.text);
      assert.equal(merged.body.state, 'merged');
    });
  },
);
