// The hot reads (token → user, the project loader, GET /user's extras) run outside Kysely's connection:
// on SQLite on a read-only connection, on PostgreSQL on a pooled one. While another request's transaction
// is open they must neither see its writes nor wait for it to end; once it commits they see them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestResponse } from '../helpers/app.ts';
import { createProject, createUser, type TestUser } from '../helpers/factory.ts';
import { insertProject, NEW_PROJECT_SWITCHES } from '../../src/db/repositories/projects.ts';
import { now } from '../../src/lib/clock.ts';

/** The response, or 'blocked' when it did not come within the deadline (a read waiting for the writer). */
async function within(ms: number, response: Promise<TestResponse>): Promise<TestResponse | 'blocked'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'blocked'>((resolve) => {
    timer = setTimeout(() => resolve('blocked'), ms);
  });
  try {
    return await Promise.race([response, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const statusOf = (result: TestResponse | 'blocked') => (result === 'blocked' ? 'blocked' : result.status);

describe('hot reads and open transactions', () => {
  let t: TestApp;
  let user: TestUser;
  let namespaceId: number;
  before(async () => {
    t = await startTestApp();
    user = await createUser(t);
    namespaceId = (await createProject(t, { owner: user, path: 'existing' })).namespace_id;
    // A first sign-in stamps the user (a write); these requests are reads only from then on.
    await t.request('GET', '/api/v3/user', { token: user.token });
    await t.request('GET', '/api/v3/user', { token: t.rootToken });
  });
  after(() => t.close());

  /** Inside an open transaction: change the user's token and add a project; what do requests see? */
  async function duringTransaction(newToken: string, outcome: 'commit' | 'rollback') {
    const seen: Record<string, number | 'blocked'> = {};
    let projectId = 0;
    const work = t.server.deps.db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ authentication_token: newToken })
        .where('id', '=', user.id)
        .execute();
      const at = now();
      const project = await insertProject(trx, {
        namespace_id: namespaceId,
        creator_id: user.id,
        name: `open-${newToken}`,
        path: `open-${newToken}`,
        description: '',
        default_branch: null,
        visibility_level: 20,
        ...NEW_PROJECT_SWITCHES,
        star_count: 0,
        import_url: null,
        avatar: null,
        runners_token: `runners-${newToken}`,
        last_activity_at: at,
        created_at: at,
        updated_at: at,
      });
      projectId = project.id;
      // Generous: the machine may be loaded; a read that waits for this transaction never answers.
      seen.newToken = statusOf(await within(15_000, t.request('GET', '/api/v3/user', { token: newToken })));
      seen.oldToken = statusOf(await within(15_000, t.request('GET', '/api/v3/user', { token: user.token })));
      seen.project = statusOf(
        await within(15_000, t.request('GET', `/api/v3/projects/${projectId}`, { token: t.rootToken })),
      );
      if (outcome === 'rollback') throw new Error('roll back');
    });
    if (outcome === 'rollback') await assert.rejects(work, /roll back/);
    else await work;
    return { seen, projectId };
  }

  it('a read during a transaction sees the last committed state, without waiting', async () => {
    const { seen, projectId } = await duringTransaction('uncommitted-token-1', 'rollback');
    assert.deepEqual(seen, { newToken: 401, oldToken: 200, project: 404 });
    // Rolled back: nothing of it ever shows.
    assert.equal((await t.request('GET', '/api/v3/user', { token: 'uncommitted-token-1' })).status, 401);
    assert.equal((await t.request('GET', '/api/v3/user', { token: user.token })).status, 200);
    const project = await t.request('GET', `/api/v3/projects/${projectId}`, { token: t.rootToken });
    assert.equal(project.status, 404);
  });

  it('a read after the commit sees it at once', async () => {
    const newToken = 'committed-token-2';
    const { seen, projectId } = await duringTransaction(newToken, 'commit');
    assert.deepEqual(seen, { newToken: 401, oldToken: 200, project: 404 });
    const me = await t.request('GET', '/api/v3/user', { token: newToken });
    assert.equal(me.status, 200);
    assert.equal(me.body.username, user.username);
    assert.equal((await t.request('GET', '/api/v3/user', { token: user.token })).status, 401);
    const project = await t.request('GET', `/api/v3/projects/${projectId}`, { token: t.rootToken });
    assert.equal(project.status, 200);
    assert.equal(project.body.id, projectId);
  });
});
