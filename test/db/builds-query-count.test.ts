// No N+1 in the builds and pipelines lists: a page costs the same number of queries whatever its length
// and however many users, runners and pipelines its builds name.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factory.ts';
import { seedPipeline } from '../helpers/ci.ts';
import { git } from '../../src/git/exec.ts';

describe('query count of the builds and pipelines lists', () => {
  let t: TestApp;
  let projectId: number;
  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    const owner = await createUser(t, 'bqcowner');
    const project = await createProject(t, { owner, path: 'bqc', commit: true });
    projectId = project.id;
    const sha = (await git(['rev-parse', 'master'], { cwd: project.repoPath })).trim();
    const users = [owner, await createUser(t, 'bqcother')];
    for (let i = 0; i < 12; i++) {
      await seedPipeline(t, project, {
        sha,
        userId: users[i % 2]!.id,
        builds: [
          { name: 'a', status: 'success' },
          { name: 'b', status: 'failed' },
        ],
      });
    }
  });
  after(() => t.close());

  async function queriesFor(url: string): Promise<{ count: number; length: number }> {
    let count = 0;
    t.server.deps.db.onQuery = () => {
      count += 1;
    };
    try {
      const response = await t.request('GET', url, { token: t.rootToken });
      assert.equal(response.status, 200, response.text);
      return { count, length: response.body.length };
    } finally {
      t.server.deps.db.onQuery = undefined;
    }
  }

  it('is the same for a page of 2 and a page of 20', async () => {
    await t.request('GET', '/api/v3/user', { token: t.rootToken });
    for (const list of [
      'builds',
      'builds?scope[]=success&scope[]=failed',
      'pipelines',
      'pipelines?status=success',
    ]) {
      const join = list.includes('?') ? '&' : '?';
      const small = await queriesFor(`/api/v3/projects/${projectId}/${list}${join}per_page=2`);
      const large = await queriesFor(`/api/v3/projects/${projectId}/${list}${join}per_page=20`);
      assert.equal(small.length, 2, list);
      assert.ok(large.length >= 12, list);
      assert.equal(small.count, large.count, list);
      // token, project, access, count, page, then users, runners and pipelines of the page
      assert.ok(large.count <= 8, `${list}: ${large.count} queries`);
    }
  });
});
