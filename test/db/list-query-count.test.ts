// Every list costs a fixed number of statements whatever its page size: a page of 1, of 20 and of 100 read
// the same statements, and that number is pinned, so a statement added per row (an N+1) or per page fails
// here. The rows are made so that even a page of one has everything a longer page may embed: the newest
// project is a fork shared with a group, every issue and merge request has an assignee, labels and a
// milestone, builds and pipelines have a user.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
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
import { insertMergeRequest } from '../../src/db/repositories/merge-requests.ts';
import { setLabelLinks } from '../../src/db/repositories/issues.ts';
import { EventAction } from '../../src/domain/types.ts';

/** More rows than the largest page asked for, in each list. */
const ROWS = 102;
const PAGE_SIZES = [1, 20, 100];

describe('statements of each list at per_page 1, 20 and 100', () => {
  let t: TestApp;
  let owner: TestUser;
  let listed: TestProject;
  let forkId: number;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'lister', { projectsLimit: 1000 });
    const others: TestUser[] = [];
    for (let i = 0; i < ROWS; i++) others.push(await createUser(t, `listed_user${i}`));
    const groupIds: number[] = [];
    for (let i = 0; i < ROWS; i++) {
      const groupId = await createGroup(t, `listed-group${i}`);
      groupIds.push(groupId);
      await addGroupMember(t, groupId, owner.id, 30);
    }
    // The fork's source is older than every listed project, so no page of 100 holds it (or its owner).
    const source = await createProject(t, { owner: others[0]!, path: 'source', visibility: 20 });
    listed = await createProject(t, { owner, path: 'listed0', visibility: 20 });
    for (let i = 1; i < ROWS; i++)
      await createProject(t, { owner, path: `listed${i}`, visibility: (i % 3) * 10 });
    // The newest project, first on every page: a fork of another user's project, shared with a group.
    const forked = await t.request('POST', `/api/v3/projects/fork/${source.id}`, { token: owner.token });
    assert.equal(forked.status, 201, forked.text);
    forkId = (forked.body as { id: number }).id;
    await shareWithGroup(t, forkId, groupIds[1]!, 30);

    const starred = await t.request('POST', `/api/v3/projects/${forkId}/star`, { token: owner.token });
    assert.equal(starred.status, 201, starred.text);
    for (let id = listed.id; id < listed.id + ROWS; id++) {
      const star = await t.request('POST', `/api/v3/projects/${id}/star`, { token: owner.token });
      assert.equal(star.status, 201, star.text);
    }

    await t.server.deps.db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < ROWS; i++) {
        await recordEvent(trx, {
          projectId: listed.id,
          authorId: (i % 2 === 0 ? owner : others[i % 7]!).id,
          action: EventAction.Pushed,
          data: { before: '0'.repeat(40), after: 'a'.repeat(40), ref: 'refs/heads/master', commits: [] },
        });
      }
    });

    const milestone = await t.request('POST', `/api/v3/projects/${listed.id}/milestones`, {
      token: owner.token,
      body: { title: 'v1' },
    });
    assert.equal(milestone.status, 201, milestone.text);
    for (let i = 0; i < ROWS; i++) {
      const issue = await t.request('POST', `/api/v3/projects/${listed.id}/issues`, {
        token: owner.token,
        body: {
          title: `Issue ${i}`,
          labels: `bug,area${i % 5}`,
          milestone_id: (milestone.body as { id: number }).id,
          assignee_id: owner.id,
        },
      });
      assert.equal(issue.status, 201, issue.text);
    }
    // Merge requests written straight to the tables (their lists read no git): each with an assignee,
    // the issues' labels (so bug and area<n> exist) and the milestone.
    const labels = await t.server.deps.db.kysely
      .selectFrom('labels')
      .select(['id', 'title'])
      .where('project_id', '=', listed.id)
      .execute();
    const bug = labels.find((label) => label.title === 'bug')!.id;
    const areas = labels.filter((label) => label.title !== 'bug').map((label) => label.id);
    await t.server.deps.db.kysely.transaction().execute(async (trx) => {
      const at = new Date().toISOString();
      for (let i = 0; i < ROWS; i++) {
        const mr = await insertMergeRequest(trx, {
          target_project_id: listed.id,
          target_branch: 'master',
          source_project_id: listed.id,
          source_branch: `topic${i}`,
          author_id: (i % 2 === 0 ? owner : others[i % 7]!).id,
          assignee_id: owner.id,
          milestone_id: (milestone.body as { id: number }).id,
          title: `Merge request ${i}`,
          description: null,
          state: 'opened',
          merge_status: 'unchecked',
          head_sha: null,
          created_at: at,
          updated_at: at,
        });
        await setLabelLinks(trx, 'MergeRequest', mr.id, [bug, areas[i % areas.length]!], at);
      }
    });

    // One pipeline of ROWS builds, and ROWS pipelines of one build each.
    const builds = Array.from({ length: ROWS }, (_, i) => ({ name: `job${i}`, status: 'success' as const }));
    await seedPipeline(t, listed, { sha: 'a'.repeat(40), userId: owner.id, builds });
    for (let i = 1; i < ROWS; i++) {
      const userId = (i % 2 === 0 ? owner : others[i % 7]!).id;
      await seedPipeline(t, listed, {
        sha: 'b'.repeat(40),
        userId,
        builds: [{ name: 'one', status: 'failed' }],
      });
    }
    await t.request('GET', '/api/v3/user', { token: owner.token }); // the first sign-in stamp is a write
  });
  after(() => t.close());

  /** The statements of one GET, checking that it answered a page of `perPage` rows. */
  async function statementsFor(url: string, perPage: number): Promise<string[]> {
    const statements: string[] = [];
    t.server.deps.db.onQuery = (sql) => statements.push(sql);
    try {
      const response = await t.request('GET', url, { token: owner.token });
      assert.equal(response.status, 200, `${url}: ${response.text}`);
      assert.equal((response.body as unknown[]).length, perPage, url);
      return statements;
    } finally {
      t.server.deps.db.onQuery = undefined;
    }
  }

  /** A statement's shape: placeholders written `?`, a list of them (`in (?, ?, ?)`) as one. */
  function shape(sql: string): string {
    return sql.replace(/\$\d+/g, '?').replace(/\(\?(, \?)*\)/g, '(?)');
  }

  /** Asserts the same statements at each page size, and their number. */
  async function assertFixedCount(list: string, expected: number) {
    const join = list.includes('?') ? '&' : '?';
    const pages: string[][] = [];
    for (const perPage of PAGE_SIZES) {
      const statements = await statementsFor(`/api/v3/${list}${join}per_page=${perPage}`, perPage);
      // Sorted: statements that run side by side may start in either order.
      pages.push(statements.map(shape).sort());
    }
    const [first, ...rest] = pages;
    const brief = (statements: string[]) => statements.map((sql) => `  ${sql.slice(0, 160)}`).join('\n');
    for (const [index, statements] of rest.entries()) {
      assert.ok(
        statements.join('\n') === first!.join('\n'),
        `${list} per_page=${PAGE_SIZES[0]}:\n${brief(first!)}\nper_page=${PAGE_SIZES[index + 1]}:\n${brief(statements)}`,
      );
    }
    assert.equal(first!.length, expected, `${list}: ${first!.length} statements\n${brief(first!)}`);
  }

  // Each count below starts with the caller (by token); the rest is named per list.
  it('GET /projects: the count, the ids, the page with access, links and owners, shares, source, its owner', async () => {
    await assertFixedCount('projects', 7);
  });

  it('GET /projects/visible: open-project counters and the caller’s others, then as /projects', async () => {
    await assertFixedCount('projects/visible', 8);
  });

  it('GET /projects/owned and /projects/starred: as /projects', async () => {
    await assertFixedCount('projects/owned', 7);
    await assertFixedCount('projects/starred', 7);
  });

  it('GET /projects/:id/events: the project, the count, the page, its authors, its issues', async () => {
    await assertFixedCount(`projects/${listed.id}/events`, 6);
  });

  it('GET /projects/:id/builds and /pipelines: the project, the kept counts, the page, what it embeds', async () => {
    // builds: the page's pipelines and users with it; pipelines: their users.
    await assertFixedCount(`projects/${listed.id}/builds`, 6);
    await assertFixedCount(`projects/${listed.id}/pipelines`, 5);
  });

  it('GET /projects/:id/issues: the project, the count, the page, then one statement per embedded kind', async () => {
    // users, milestones, labels, award counts, note counts, the caller's subscriptions, notes and awards
    await assertFixedCount(`projects/${listed.id}/issues`, 12);
  });

  it('GET /projects/:id/merge_requests: the project, the count, the ids and rows, then one per embedded kind', async () => {
    // the ids and the rows; users, milestones, labels, award counts, note counts, the caller's
    // subscriptions, and the caller's awards and notes (participation)
    await assertFixedCount(`projects/${listed.id}/merge_requests`, 13);
  });

  it('the merge request list page: the same statements for a full page and a last page of two', async () => {
    const statementsOfPage = async (page: number, rows: number) => {
      const statements: string[] = [];
      t.server.deps.db.onQuery = (sql) => statements.push(shape(sql));
      try {
        const response = await t.request('GET', `/${owner.username}/listed0/merge_requests?page=${page}`);
        assert.equal(response.status, 200, response.text);
        assert.equal(response.text.match(/>Merge request \d+</g)?.length, rows);
        // Every row shows its labels as chips.
        assert.equal(response.text.match(/<span class="badge">bug<\/span>/g)?.length, rows);
      } finally {
        t.server.deps.db.onQuery = undefined;
      }
      return statements.sort();
    };
    // 102 open MRs at 20 a page: page 1 has 20, page 6 has 2.
    const full = await statementsOfPage(1, 20);
    const last = await statementsOfPage(6, 2);
    assert.deepEqual(last, full);
  });

  it('GET /users and GET /groups: the count and the page', async () => {
    await assertFixedCount('users', 3);
    await assertFixedCount('groups', 3);
  });

  it('the fork heads the project lists, so a page of one embeds a share and a fork source', async () => {
    for (const list of ['projects', 'projects/visible', 'projects/owned', 'projects/starred']) {
      const response = await t.request('GET', `/api/v3/${list}?per_page=1`, { token: owner.token });
      const [first] = response.body as {
        id: number;
        forked_from_project?: unknown;
        shared_with_groups: [];
      }[];
      assert.equal(first!.id, forkId, list);
      assert.ok(first!.forked_from_project, list);
      assert.equal(first!.shared_with_groups.length, 1, list);
    }
  });
});
