// No N+1: a page costs the same number of statements whatever its size; the hot single-entity reads cost
// a fixed few.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addGroupMember,
  createGroup,
  createProject,
  createUser,
  shareWithGroup,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { seedPipeline } from '../helpers/ci.ts';
import { recordEvent } from '../../src/services/activity/events.ts';
import { EventAction } from '../../src/domain/types.ts';

describe('query count of GET /users', () => {
  let t: TestApp;
  let bulkToken: string;
  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    // A few users through the API, with identities; the rest from the test factory.
    for (let i = 0; i < 5; i++) {
      const response = await t.request('POST', '/api/v3/users', {
        token: t.rootToken,
        body: {
          email: `api${i}@example.com`,
          password: 'password123',
          name: `Api ${i}`,
          username: `api${i}`,
          provider: 'ldapmain',
          extern_uid: `uid=api${i}`,
        },
      });
      assert.equal(response.status, 201);
    }
    for (let i = 0; i < 55; i++) {
      const user = await createUser(t, `bulk${i}`, {
        identity: { provider: 'github', externUid: String(i) },
      });
      if (i === 0) bulkToken = user.token;
    }
  });
  after(() => t.close());

  async function queriesFor(url: string, token: string): Promise<{ count: number; length: number }> {
    let count = 0;
    t.server.deps.db.onQuery = () => {
      count += 1;
    };
    try {
      const response = await t.request('GET', url, { token });
      assert.equal(response.status, 200);
      return { count, length: response.body.length };
    } finally {
      t.server.deps.db.onQuery = undefined;
    }
  }

  it('is the same for per_page=5 and per_page=50, for administrators and normal users', async () => {
    await t.request('GET', '/api/v3/user', { token: t.rootToken }); // the first sign-in stamp is a write
    await t.request('GET', '/api/v3/user', { token: bulkToken });
    for (const token of [t.rootToken, bulkToken]) {
      const small = await queriesFor('/api/v3/users?per_page=5', token);
      const large = await queriesFor('/api/v3/users?per_page=50', token);
      assert.equal(small.length, 5);
      assert.equal(large.length, 50);
      assert.equal(small.count, large.count);
      // token, count, page, identities, personal project counts (can_create_project)
      assert.ok(large.count <= 5, `${large.count} queries`);
      const searched = await queriesFor('/api/v3/users?search=bulk&per_page=50', token);
      assert.equal(searched.count, large.count);
    }
  });
});

// The hot read paths: a fixed, small number of statements per request (token → user is one of them).
describe('statements per request on the hot read paths', () => {
  let t: TestApp;
  let owner: TestUser;
  let plain: TestProject;
  let shared: TestProject;
  let fork: TestProject;
  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    owner = await createUser(t, 'counted', { identity: { provider: 'github', externUid: '7' } });
    plain = await createProject(t, { owner, path: 'plain' });
    const groupId = await createGroup(t, 'counters');
    await addGroupMember(t, groupId, owner.id, 40);
    shared = await createProject(t, { owner, path: 'shared' });
    await shareWithGroup(t, shared.id, groupId, 20);
    const forked = await t.request('POST', `/api/v3/projects/fork/${plain.id}`, {
      token: owner.token,
      body: { namespace: 'counters' },
    });
    assert.equal(forked.status, 201, forked.text);
    fork = { ...plain, id: (forked.body as { id: number }).id };
    for (let i = 0; i < 30; i++) await createProject(t, { owner, path: `listed${i}` });
    await t.request('GET', '/api/v3/user', { token: owner.token }); // the first sign-in stamp is a write
  });
  after(() => t.close());

  async function statementsFor(url: string): Promise<string[]> {
    const statements: string[] = [];
    t.server.deps.db.onQuery = (sql) => statements.push(sql);
    try {
      const response = await t.request('GET', url, { token: owner.token });
      assert.equal(response.status, 200, `${url}: ${response.status}`);
      return statements;
    } finally {
      t.server.deps.db.onQuery = undefined;
    }
  }

  function assertCount(statements: string[], expected: number, what: string) {
    assert.equal(statements.length, expected, `${what}:\n${statements.join('\n')}`);
  }

  it('GET /user: the caller, then its identities with its personal project count', async () => {
    assertCount(await statementsFor('/api/v3/user'), 2, 'GET /user');
  });

  it('GET /projects/:id: the caller, the project with the caller’s access, its extras', async () => {
    assertCount(await statementsFor(`/api/v3/projects/${plain.id}`), 3, 'plain project');
    assertCount(await statementsFor(`/api/v3/projects/${encodeURIComponent(plain.fullPath)}`), 3, 'by path');
    // Shares and fork sources are read only when there are any.
    assertCount(await statementsFor(`/api/v3/projects/${shared.id}`), 4, 'shared project');
    assertCount(await statementsFor(`/api/v3/projects/${fork.id}`), 5, 'fork');
  });

  it('GET /projects: the same count for per_page=5 and per_page=30', async () => {
    const small = await statementsFor('/api/v3/projects?per_page=5');
    const large = await statementsFor('/api/v3/projects?per_page=30');
    assert.equal(
      small.length,
      large.length,
      `per_page=5:\n${small.join('\n')}\nper_page=30:\n${large.join('\n')}`,
    );
    // The caller, the count, the page's ids, then one statement for their records, the caller's access,
    // their links (fork source, forks, shared?) and their owners.
    assertCount(large, 4, 'GET /projects');
    // A page with a shared project and a fork adds the shares and the fork source (its owner is known).
    assertCount(await statementsFor('/api/v3/projects?per_page=100'), 6, 'GET /projects with a fork');
  });

  /** The same statements for pages of 5 and of 30, and for a later page; returns that count. */
  async function samePerPage(url: string): Promise<number> {
    const join = url.includes('?') ? '&' : '?';
    const small = await statementsFor(`${url}${join}per_page=5`);
    const large = await statementsFor(`${url}${join}per_page=30`);
    const later = await statementsFor(`${url}${join}per_page=5&page=3`);
    for (const [name, other] of [
      ['per_page=30', large],
      ['page=3', later],
    ] as const) {
      assert.equal(
        other.length,
        small.length,
        `${url} per_page=5:\n${small.join('\n')}\n${name}:\n${other.join('\n')}`,
      );
    }
    return large.length;
  }

  it('GET /projects/visible, owned, starred, search: a fixed count at any page size', async () => {
    // The caller, the counters of open projects, the caller's own below them, the page's ids, the page.
    assert.equal(await samePerPage('/api/v3/projects/visible'), 5);
    assert.equal(await samePerPage('/api/v3/projects/visible?simple=true'), 5);
    // The caller, the count, the ids, the page (shares and the fork source come with the fork's page).
    assert.equal(await samePerPage('/api/v3/projects/owned?order_by=id'), 4);
    assert.equal(await samePerPage('/api/v3/projects/search/listed'), 4);
    assert.equal(await samePerPage('/api/v3/projects?archived=false&order_by=updated_at'), 4);
  });

  it('GET /projects/:id/events: the caller, the project, the count, the page, its authors', async () => {
    const authors = [owner, await createUser(t, 'eventer1'), await createUser(t, 'eventer2')];
    await t.server.deps.db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < 40; i++) {
        await recordEvent(trx, {
          projectId: plain.id,
          authorId: authors[i % 3]!.id,
          action: EventAction.Pushed,
          data: { before: '0'.repeat(40), after: 'a'.repeat(40), ref: 'refs/heads/master', commits: [] },
        });
      }
    });
    assert.equal(await samePerPage(`/api/v3/projects/${plain.id}/events`), 5);
  });

  it('GET /projects/:id/builds: the same count for per_page=5 and per_page=30', async () => {
    await seedPipeline(t, plain, {
      sha: 'a'.repeat(40),
      userId: owner.id,
      builds: Array.from({ length: 30 }, (_, i) => ({ name: `job${i}`, status: 'success' as const })),
    });
    const small = await statementsFor(`/api/v3/projects/${plain.id}/builds?per_page=5`);
    const large = await statementsFor(`/api/v3/projects/${plain.id}/builds?per_page=30`);
    assert.equal(
      small.length,
      large.length,
      `per_page=5:\n${small.join('\n')}\nper_page=30:\n${large.join('\n')}`,
    );
    assertCount(large, 6, 'GET /projects/:id/builds');
    assert.equal(await samePerPage(`/api/v3/projects/${plain.id}/builds`), large.length);
  });
});
