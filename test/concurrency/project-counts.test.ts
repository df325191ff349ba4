// Concurrent project creates, deletes, visibility flips and archiving: the trigger-kept project counts
// lock their rows in one order, so no change fails with a deadlock (a 500), and afterwards X-Total of
// /projects/all and /projects/visible equals what a page-by-page walk finds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factory.ts';

describe('project counts under concurrent changes', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  const ids: number[] = [];
  let doomed: number;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'countsowner', { projectsLimit: 100 });
    viewer = await createUser(t, 'countsviewer');
    for (let i = 0; i < 12; i++) {
      const r = await t.request('POST', '/api/v3/projects', {
        token: owner.token,
        body: { name: `flip${i}`, visibility_level: i % 2 === 0 ? 20 : 0 },
      });
      assert.equal(r.status, 201);
      ids.push(r.body.id);
    }
    const r = await t.request('POST', '/api/v3/projects', {
      token: owner.token,
      body: { name: 'doomed', visibility_level: 20 },
    });
    doomed = r.body.id;
  });
  after(() => t.close());

  async function walkedTotal(url: string, token: string): Promise<{ total: number; walked: number }> {
    const first = await t.request('GET', `${url}?per_page=100`, { token });
    assert.equal(first.status, 200);
    return { total: Number(first.headers['x-total']), walked: first.body.length };
  }

  it('answers every change and keeps X-Total exact', async () => {
    const changes: Array<Promise<{ status: number; body: unknown }>> = [];
    for (let round = 0; round < 3; round++) {
      ids.forEach((id, i) => {
        // Half the projects go public → private while the other half go private → public, and back.
        const level = (i + round) % 2 === 0 ? 0 : 20;
        changes.push(
          t.request('PUT', `/api/v3/projects/${id}`, {
            token: owner.token,
            body: { name: `flip${i}`, visibility_level: level },
          }),
        );
      });
      changes.push(t.request('POST', `/api/v3/projects/${ids[round]}/archive`, { token: owner.token }));
      for (let k = 0; k < 3; k++) {
        changes.push(
          t.request('POST', '/api/v3/projects', {
            token: owner.token,
            body: { name: `racer${round}-${k}`, visibility_level: k * 10 },
          }),
        );
      }
    }
    // (Not one of the flipped projects: the next test races a PUT against the DELETE of its project.)
    changes.push(t.request('DELETE', `/api/v3/projects/${doomed}`, { token: owner.token }));
    const answers = await Promise.all(changes);
    for (const answer of answers) assert.ok(answer.status < 500, JSON.stringify(answer.body));

    const all = await walkedTotal('/api/v3/projects/all', t.rootToken);
    assert.equal(all.total, all.walked);
    assert.equal(all.total, 12 + 9);
    const visible = await walkedTotal('/api/v3/projects/visible', viewer.token);
    assert.equal(visible.total, visible.walked);
    const owned = await walkedTotal('/api/v3/projects/visible', owner.token);
    assert.equal(owned.total, 21);
  });

  it('a PUT racing the DELETE of its project answers 200 or 404, never 500', async () => {
    const created = await t.request('POST', '/api/v3/projects', {
      token: owner.token,
      body: { name: 'raced', visibility_level: 0 },
    });
    assert.equal(created.status, 201);
    const id = created.body.id as number;
    const [edit, removal] = await Promise.all([
      t.request('PUT', `/api/v3/projects/${id}`, {
        token: owner.token,
        body: { name: 'raced', description: 'edited while deleted' },
      }),
      t.request('DELETE', `/api/v3/projects/${id}`, { token: owner.token }),
    ]);
    // Either order is legitimate: the edit before the deletion (200), or after it (404).
    assert.ok([200, 404].includes(edit.status), `${edit.status} ${edit.text}`);
    assert.equal(removal.status, 200, removal.text);
    assert.equal((await t.request('GET', `/api/v3/projects/${id}`, { token: owner.token })).status, 404);
  });
});
