// v4's pipeline list orders: order_by id, status, ref, updated_at and user_id, each asc and desc (ties by
// id in the same direction), with a filter and across pages; a bad order_by or sort is 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';
import { seedPipeline } from '../../helpers/ci.ts';

describe('API v4 pipeline list order', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let project: TestProject;
  const rows: Array<{ id: number; status: string; ref: string; updated_at: string; user_id: number }> = [];

  const list = async (query: string) => {
    const response = await t.request('GET', `/api/v4/projects/${project.id}/pipelines?${query}`, {
      token: owner.token,
    });
    assert.equal(response.status, 200, response.text);
    return response.body.map((p: { id: number }) => p.id);
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'plo_owner');
    other = await createUser(t, 'plo_other');
    project = await createProject(t, { owner, path: 'ordered' });
    const seeds = [
      { ref: 'b', status: 'success', userId: other.id, updated: '2020-01-03T00:00:00.000Z' },
      { ref: 'a', status: 'failed', userId: owner.id, updated: '2020-01-01T00:00:00.000Z' },
      { ref: 'c', status: 'success', userId: owner.id, updated: '2020-01-04T00:00:00.000Z' },
      { ref: 'a', status: 'canceled', userId: other.id, updated: '2020-01-02T00:00:00.000Z' },
    ] as const;
    for (const seed of seeds) {
      const { pipeline } = await seedPipeline(t, project, {
        sha: 'a'.repeat(40),
        ref: seed.ref,
        status: seed.status,
        userId: seed.userId,
        builds: [],
      });
      await t.server.deps.db.kysely
        .updateTable('ci_pipelines')
        .set({ updated_at: seed.updated })
        .where('id', '=', pipeline.id)
        .execute();
      rows.push({
        id: pipeline.id,
        status: seed.status,
        ref: seed.ref,
        updated_at: seed.updated,
        user_id: seed.userId,
      });
    }
  });
  after(async () => t.close());

  it('orders by every column GitLab offers, both ways', async () => {
    for (const column of ['id', 'status', 'ref', 'updated_at', 'user_id'] as const) {
      for (const sort of ['asc', 'desc'] as const) {
        const sign = sort === 'asc' ? 1 : -1;
        const expected = [...rows]
          .sort((x, y) => {
            const a = x[column];
            const b = y[column];
            if (a !== b) return (a < b ? -1 : 1) * sign;
            return (x.id - y.id) * sign;
          })
          .map((row) => row.id);
        assert.deepEqual(await list(`order_by=${column}&sort=${sort}`), expected, `${column} ${sort}`);
        // Two pages of two walk the same order.
        const pages = [
          ...(await list(`order_by=${column}&sort=${sort}&per_page=2&page=1`)),
          ...(await list(`order_by=${column}&sort=${sort}&per_page=2&page=2`)),
        ];
        assert.deepEqual(pages, expected, `${column} ${sort} in pages`);
      }
    }
  });

  it('orders a filtered list and defaults to newest first', async () => {
    const ids = rows.map((row) => row.id);
    assert.deepEqual(await list(''), [...ids].reverse());
    assert.deepEqual(await list('sort=asc'), ids);
    assert.deepEqual(await list('ref=a&order_by=status&sort=asc'), [rows[3]!.id, rows[1]!.id]);
    assert.deepEqual(await list('scope=finished&order_by=updated_at&sort=desc'), [
      rows[2]!.id,
      rows[0]!.id,
      rows[3]!.id,
      rows[1]!.id,
    ]);
    for (const query of ['order_by=sha', 'sort=up']) {
      const response = await t.request('GET', `/api/v4/projects/${project.id}/pipelines?${query}`, {
        token: owner.token,
      });
      assert.equal(response.status, 400, query);
    }
  });
});
