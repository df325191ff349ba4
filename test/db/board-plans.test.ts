// SQLite only (PostgreSQL's plans depend on the statistics of a near-empty test database): a board page
// reads each list's issues by walking an index in list order and stopping after the page, so a list
// costs the same at 100,000 issues as at 100. Every statement the board page runs is checked with
// EXPLAIN QUERY PLAN (with its own parameters): no table that grows with issues (issues, label_links,
// notes) is scanned, and no statement sorts rows with a temporary B-tree (a sort would read every issue of
// the list before the first one is shown).
import assert from 'node:assert/strict';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { signedInClient } from '../helpers/web.ts';

const onPostgres = Boolean(process.env.LABRADOR_TEST_PG_URL);
const GROWING = new Set(['issues', 'label_links', 'notes', 'll', 'bl']);

describe(
  'board page plans: index walks in list order, no scan, no sort',
  { skip: onPostgres ? 'EXPLAIN QUERY PLAN is checked on SQLite only' : false },
  () => {
    let t: TestApp;
    let owner: TestUser;
    let project: TestProject;
    const statements = new Map<string, readonly unknown[]>();

    before(async () => {
      t = await startTestApp();
      owner = await createUser(t, 'planner');
      project = await createProject(t, { owner, path: 'plans', visibility: 20 });
      const api = (method: string, url: string, body?: Record<string, unknown>) =>
        t.request(method, url, { token: owner.token, body });
      await api('POST', `/api/v3/projects/${project.id}/labels`, { name: 'Doing', color: '#123456' });
      for (const [title, labels] of [
        ['Open', ''],
        ['Busy', 'Doing'],
      ]) {
        await api('POST', `/api/v3/projects/${project.id}/issues`, { title, labels });
      }
      const closed = await api('POST', `/api/v3/projects/${project.id}/issues`, { title: 'Shut' });
      await api('PUT', `/api/v3/projects/${project.id}/issues/${closed.body.id}`, { state_event: 'close' });
      const board = await api('POST', `/api/v4/projects/${project.id}/boards`, { name: 'Development' });
      const label = (await api('GET', `/api/v4/projects/${project.id}/labels`)).body[0];
      await api('POST', `/api/v4/projects/${project.id}/boards/${board.body.id}/lists`, {
        label_id: label.id,
      });
    });
    after(async () => {
      if (t) {
        t.server.deps.db.onQuery = undefined;
        await t.close();
      }
    });

    it('reads every list of the board page by an index walk', async () => {
      const web = await signedInClient(t, owner);
      t.server.deps.db.onQuery = (sql, parameters) => {
        if (!statements.has(sql)) statements.set(sql, parameters);
      };
      const page = await web.get(`/${project.fullPath}/boards`);
      const pageTwo = await web.get(`/${project.fullPath}/boards?list_id=1&page=2`);
      t.server.deps.db.onQuery = undefined;
      assert.equal(page.status, 200);
      assert.equal(pageTwo.status, 200);
      for (const title of ['Open', 'Busy', 'Shut']) assert.match(page.text, new RegExp(`>${title}</a>`));

      const boardStatements = [...statements].filter(([sql]) => /"label_links"|"issues"/.test(sql));
      assert.ok(boardStatements.length >= 4, `only ${boardStatements.length} issue statements recorded`);
      const db = new SQLite(path.join(t.config.dataDir, 'labrador.sqlite3'), { readonly: true });
      const problems: string[] = [];
      const seen = { labelWalks: 0, stateWalks: 0 };
      try {
        for (const [sql, parameters] of boardStatements) {
          const plan = db.prepare(`explain query plan ${sql}`).all(...(parameters as unknown[])) as Array<{
            detail: string;
          }>;
          for (const { detail } of plan) {
            const scanned = /^SCAN (\S+)(?! USING (?:COVERING )?INDEX)/.exec(detail)?.[1];
            // A capped count reads its own derived table, which an index walk already bounded.
            if (scanned && GROWING.has(scanned)) problems.push(`${detail}\n    in: ${sql}`);
            // A sort of a bounded set (the page's cards' labels, by their ids) is fine; a sort before a limit is not.
            if (/TEMP B-TREE/.test(detail) && / limit /.test(sql)) problems.push(`${detail}\n    in: ${sql}`);
          }
          const walks = plan.map((row) => row.detail).join(' | ');
          if (/"ll"\."label_id" = \?/.test(sql)) seen.labelWalks += 1;
          if (/not exists \(select "bl"/.test(sql) && /order by "issues"\."id" desc/.test(sql))
            seen.stateWalks += 1;
          if (/"ll"\."label_id" = \?/.test(sql))
            assert.match(walks, /label_links_label/, `a label list walks its label's links: ${walks}`);
          if (/not exists \(select "bl"/.test(sql) && /order by "issues"\."id" desc/.test(sql))
            assert.match(
              walks,
              /issues_project_closed_id/,
              `Backlog and Done walk (project_id, closed, id): ${walks}`,
            );
        }
      } finally {
        db.close();
      }
      // The label list's page and count, and the Backlog's and Done's pages (one statement for both).
      assert.ok(seen.labelWalks >= 2 && seen.stateWalks >= 1, JSON.stringify(seen));
      assert.deepEqual(problems, [], problems.join('\n'));
    });
  },
);
