// Every list costs a fixed number of statements whatever its page size: a page of 1, of 20 and of 100 read
// the same statements, and that number is pinned, so a statement added per row (an N+1) or per page fails
// here. The rows are made so that even a page of one has everything a longer page may embed: the newest
// project is a fork shared with a group, every issue and merge request has an assignee, labels and a
// milestone, builds and pipelines have a user, notes have authors. The labels list has no pages: one label
// costs what 103 do. The pages for people (explore, the dashboards, labels, milestones) show 20 rows at a
// time: a full page and the last, shorter one read the same statements.
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
import { insertMergeRequest } from '../../src/db/repositories/merge-requests.ts';
import { setLabelLinks } from '../../src/db/repositories/issues.ts';
import { insertNote } from '../../src/db/repositories/notes.ts';
import { insertMilestone } from '../../src/db/repositories/milestones.ts';
import { insertSnippet } from '../../src/db/repositories/snippets.ts';
import { WebClient } from '../helpers/web.ts';
import { EventAction } from '../../src/domain/types.ts';

/** More rows than the largest page asked for, in each list. */
const ROWS = 102;
const PAGE_SIZES = [1, 20, 100];

describe('statements of each list at per_page 1, 20 and 100', () => {
  let t: TestApp;
  let owner: TestUser;
  let listed: TestProject;
  let oneLabel: TestProject;
  let forkId: number;
  let issueIid: number;
  let issueId: number;
  let mergeRequestId: number;
  let web: WebClient;

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
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
    // A public project with a single label (the labels list has no pages: its size is the project's;
    // the labels' issue and merge request counts are read for public projects only).
    oneLabel = await createProject(t, { owner, path: 'one-label', visibility: 20 });
    const label = await t.request('POST', `/api/v3/projects/${oneLabel.id}/labels`, {
      token: owner.token,
      body: { name: 'only', color: '#00ff00' },
    });
    assert.equal(label.status, 201, label.text);
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
          // bug and area0…area101: the project has ROWS + 1 labels.
          labels: `bug,area${i}`,
          milestone_id: (milestone.body as { id: number }).id,
          assignee_id: owner.id,
        },
      });
      assert.equal(issue.status, 201, issue.text);
      issueIid ??= (issue.body as { iid: number }).iid;
    }
    await t.server.deps.db.kysely.transaction().execute(async (trx) => {
      const at = new Date().toISOString();
      for (let i = 1; i < ROWS; i++) {
        await insertMilestone(trx, {
          project_id: listed.id,
          iid: i + 1,
          title: `v${i + 1}`,
          description: null,
          due_date: null,
          state: 'active',
          created_at: at,
          updated_at: at,
        });
      }
    });
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
        mergeRequestId ??= mr.id;
      }
    });
    // Notes on the first issue and the first merge request, by several authors.
    const issueRow = await t.server.deps.db.kysely
      .selectFrom('issues')
      .select('id')
      .where('project_id', '=', listed.id)
      .where('iid', '=', issueIid)
      .executeTakeFirstOrThrow();
    issueId = issueRow.id;
    await t.server.deps.db.kysely.transaction().execute(async (trx) => {
      const at = new Date().toISOString();
      for (const [noteableType, noteableId] of [
        ['Issue', issueRow.id],
        ['MergeRequest', mergeRequestId],
      ] as const) {
        for (let i = 0; i < ROWS; i++) {
          await insertNote(trx, {
            project_id: listed.id,
            noteable_type: noteableType,
            noteable_id: noteableId,
            commit_id: null,
            author_id: (i % 2 === 0 ? owner : others[i % 7]!).id,
            note: `Note ${i}`,
            system: 0,
            attachment: null,
            line_code: null,
            updated_by_id: null,
            created_at: at,
            updated_at: at,
          });
        }
      }
    });

    // ROWS snippets of the listed project and ROWS public personal ones of the owner, by several authors.
    await t.server.deps.db.kysely.transaction().execute(async (trx) => {
      const at = new Date().toISOString();
      for (let i = 0; i < ROWS; i++) {
        for (const projectId of [listed.id, null]) {
          await insertSnippet(trx, {
            title: `Snippet ${i}`,
            content: `line ${i}\n`,
            description: null,
            author_id: (projectId === null || i % 2 === 0 ? owner : others[i % 7]!).id,
            project_id: projectId,
            file_name: 'a.txt',
            type: projectId === null ? 'PersonalSnippet' : 'ProjectSnippet',
            visibility_level: projectId === null ? 20 : (i % 3) * 10,
            created_at: at,
            updated_at: at,
          });
        }
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
    web = new WebClient(t);
    assert.equal((await web.signIn(owner.username, owner.password)).status, 302);
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

  it('GET the notes of an issue and of a merge request: the project, the noteable, the count, the page, its authors', async () => {
    await assertFixedCount(`projects/${listed.id}/issues/${issueId}/notes`, 6);
    await assertFixedCount(`projects/${listed.id}/merge_requests/${mergeRequestId}/notes`, 6);
  });

  it('GET /projects/:id/snippets: the project, the count, the page, its authors', async () => {
    await assertFixedCount(`projects/${listed.id}/snippets`, 5);
  });

  it('GET /projects/:id/milestones: the project, the count, the page', async () => {
    await assertFixedCount(`projects/${listed.id}/milestones`, 4);
  });

  it('GET /projects/:id/labels (no pages): one label costs what 103 do', async () => {
    const one = await statementsFor(`/api/v3/projects/${oneLabel.id}/labels`, 1);
    const many = await statementsFor(`/api/v3/projects/${listed.id}/labels`, ROWS + 1);
    assert.deepEqual(many.map(shape).sort(), one.map(shape).sort());
    assert.equal(one.length, 6, one.join('\n'));
  });

  /** The rows of a page's list (`aria-label` names it) and the statements the page read, as shapes. */
  async function pageCost(url: string, list: string): Promise<{ rows: number; statements: string[] }> {
    const statements: string[] = [];
    t.server.deps.db.onQuery = (sql) => statements.push(shape(sql));
    try {
      const page = await web.get(url);
      assert.equal(page.status, 200, `${url}: ${page.text.slice(0, 300)}`);
      const start = page.text.indexOf(`aria-label="${list}"`);
      const rows =
        start < 0
          ? 0
          : (page.text.slice(start, page.text.indexOf('</ul>', start)).match(/<li>\s*<div class="row">/g)
              ?.length ?? 0);
      return { rows, statements: statements.sort() };
    } finally {
      t.server.deps.db.onQuery = undefined;
    }
  }

  /**
   * Pins the statements of a paged list page twice: its first, full page (20 rows, the newest, which embed
   * the most: a fork, a share, an issue) and its last, shorter one (found by bisection on the rows shown). A
   * statement per row would add 19 to the first. A short page may read fewer: what its rows do not embed
   * is not asked for. Every page's count includes the broadcast banner's read (a cached one counts too).
   */
  async function assertPagesCost(path: string, list: string, expected: { full: number; last: number }) {
    const url = (page: number) => `${path}${path.includes('?') ? '&' : '?'}page=${page}`;
    const brief = (statements: string[]) => statements.map((sql) => `  ${sql.slice(0, 160)}`).join('\n');
    const first = await pageCost(url(1), list);
    assert.equal(first.rows, 20, `${path}: page 1 shows ${first.rows} rows`);
    let shown = 1; // a page known to show rows
    let empty = 64; // a page known to show none
    assert.equal((await pageCost(url(empty), list)).rows, 0, `${path}: page ${empty} is not past the end`);
    while (empty - shown > 1) {
      const middle = Math.floor((shown + empty) / 2);
      if ((await pageCost(url(middle), list)).rows > 0) shown = middle;
      else empty = middle;
    }
    const last = await pageCost(url(shown), list);
    assert.ok(last.rows > 0 && last.rows < 20, `${path}: the last page (${shown}) shows ${last.rows} rows`);
    assert.deepEqual(
      { full: first.statements.length, last: last.statements.length },
      expected,
      `${path} page 1:\n${brief(first.statements)}\npage ${shown} (${last.rows} rows):\n${brief(last.statements)}`,
    );
  }

  it('the project list pages (explore, your projects, starred): a full page and the last cost a pinned number', async () => {
    await assertPagesCost('/explore/projects', 'Projects', { full: 7, last: 4 });
    await assertPagesCost('/dashboard/projects', 'Projects', { full: 7, last: 4 });
    await assertPagesCost('/dashboard/projects/starred', 'Projects', { full: 7, last: 4 });
  });

  it('the activity dashboard and the milestones page: a full page and the last cost a pinned number', async () => {
    await assertPagesCost('/dashboard/activity', 'Events', { full: 8, last: 6 });
    await assertPagesCost(`/${owner.username}/listed0/milestones`, 'Milestones', { full: 8, last: 8 });
  });

  it('the snippet list pages (a project’s, yours, explore): a full page and the last cost a pinned number', async () => {
    // The session, the broadcasts, the page and its authors; a project's two more for the project.
    await assertPagesCost(`/${owner.username}/listed0/snippets`, 'Snippets', { full: 6, last: 6 });
    // Yours hold the owner's project snippets too: one more for their projects.
    await assertPagesCost('/dashboard/snippets', 'Snippets', { full: 5, last: 5 });
    await assertPagesCost('/explore/snippets', 'Snippets', { full: 4, last: 4 });
  });

  it('the labels page (no pages): one label costs what 103 do', async () => {
    const one = await pageCost(`/${owner.username}/one-label/labels`, 'Labels');
    const many = await pageCost(`/${owner.username}/listed0/labels`, 'Labels');
    assert.equal(one.rows, 1);
    assert.equal(many.rows, ROWS + 1);
    assert.deepEqual(many.statements, one.statements);
    assert.equal(one.statements.length, 8, one.statements.join('\n'));
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
