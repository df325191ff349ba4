// v4's events: the Event entity (id, target_iid, push_data, author_username, imported), the caller's
// own (/events), a project's and a user's, paginated; hidden projects 404, anonymous 401.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';
import { recordEvent } from '../../../src/services/activity/events.ts';
import { EventAction } from '../../../src/domain/types.ts';

const EVENT_KEYS = [
  'id',
  'project_id',
  'action_name',
  'target_id',
  'target_iid',
  'target_type',
  'author_id',
  'target_title',
  'created_at',
  'author',
  'push_data',
  'author_username',
  'imported',
  'imported_from',
];

describe('API v4 events', () => {
  let t: TestApp;
  let author: TestUser;
  let viewer: TestUser;
  let privateId: number;
  let publicId: number;
  const after40 = 'a'.repeat(40);

  before(async () => {
    t = await startTestApp();
    author = await createUser(t, 'author');
    viewer = await createUser(t, 'viewer');
    let r = await t.request('POST', '/api/v3/projects', { token: author.token, body: { name: 'secret' } });
    privateId = r.body.id;
    r = await t.request('POST', '/api/v3/projects', {
      token: author.token,
      body: { name: 'open', public: true },
    });
    publicId = r.body.id;
    await t.server.deps.db.kysely.transaction().execute((trx) =>
      recordEvent(trx, {
        projectId: publicId,
        authorId: author.id,
        action: EventAction.Pushed,
        data: {
          before: '0'.repeat(40),
          after: after40,
          ref: 'refs/heads/feature',
          total_commits_count: 2,
          commits: [{ message: 'older' }, { message: 'Newest change\n\nbody' }],
        },
      }),
    );
    const issue = await t.request('POST', `/api/v3/projects/${publicId}/issues`, {
      token: author.token,
      body: { title: 'Broken thing' },
    });
    assert.equal(issue.status, 201);
  });
  after(() => t.close());

  it('GET /projects/:id/events: the v4 Event entity, newest first, paginated', async () => {
    const r = await t.request('GET', `/api/v4/projects/${publicId}/events?per_page=2`, {
      token: viewer.token,
    });
    assert.equal(r.status, 200);
    assert.equal(r.headers['x-total'], '3');
    const [opened, pushed] = r.body;
    assert.equal(opened.action_name, 'opened');
    assert.equal(opened.target_type, 'Issue');
    assert.equal(opened.target_iid, 1);
    assert.equal(opened.target_title, 'Broken thing');
    assert.equal('push_data' in opened, false);
    assert.deepEqual(Object.keys(pushed), EVENT_KEYS);
    assert.equal(typeof pushed.id, 'number');
    assert.equal(pushed.project_id, publicId);
    assert.equal(pushed.action_name, 'pushed new');
    assert.equal(pushed.target_iid, null);
    assert.equal(pushed.author_id, author.id);
    assert.equal(pushed.author.username, 'author');
    assert.equal(pushed.author_username, 'author');
    assert.deepEqual(pushed.push_data, {
      commit_count: 2,
      action: 'created',
      ref_type: 'branch',
      commit_from: null,
      commit_to: after40,
      ref: 'feature',
      commit_title: 'Newest change',
      ref_count: null,
    });
    assert.equal(pushed.imported, false);
    assert.equal(pushed.imported_from, 'none');
    const page2 = await t.request('GET', `/api/v4/projects/${publicId}/events?per_page=2&page=2`, {
      token: viewer.token,
    });
    assert.deepEqual(
      page2.body.map((e: any) => e.action_name),
      ['created'],
    );
  });

  it('GET /users/:id/events shows only what the caller can see; /events is the caller`s own', async () => {
    const seen = await t.request('GET', `/api/v4/users/${author.id}/events`, { token: viewer.token });
    assert.equal(seen.status, 200);
    assert.ok(seen.body.every((e: any) => e.project_id === publicId));
    const own = await t.request('GET', '/api/v4/events', { token: author.token });
    assert.equal(own.status, 200);
    assert.ok(own.body.some((e: any) => e.project_id === privateId));
    assert.equal(own.headers['x-total'], String(own.body.length));
    const none = await t.request('GET', '/api/v4/events', { token: viewer.token });
    assert.deepEqual(none.body, []);
  });

  it('refuses hidden projects (404), unknown users (404) and anonymous callers (401)', async () => {
    const hidden = await t.request('GET', `/api/v4/projects/${privateId}/events`, { token: viewer.token });
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    const nobody = await t.request('GET', '/api/v4/users/999999/events', { token: viewer.token });
    assert.equal(nobody.status, 404);
    assert.deepEqual(nobody.body, { message: '404 User Not Found' });
    assert.equal((await t.request('GET', '/api/v4/events')).status, 401);
  });

  describe('filters (action, target_type, before, after, sort)', () => {
    let projectId: number;
    const ids: Record<string, number> = {};

    before(async () => {
      const r = await t.request('POST', '/api/v3/projects', {
        token: author.token,
        body: { name: 'filtered', public: true },
      });
      projectId = r.body.id;
      const record = (name: string, action: EventAction, at: string, targetType?: string) =>
        t.server.deps.db.kysely.transaction().execute(async (trx) => {
          const row = await recordEvent(trx, {
            projectId,
            authorId: author.id,
            action,
            at,
            ...(targetType ? { targetType, targetId: 999_999 } : {}),
          });
          ids[name] = row.id;
        });
      await record('pushed', EventAction.Pushed, '2026-01-10T12:00:00.000Z');
      await record('milestone', EventAction.Closed, '2026-01-11T00:00:00.000Z', 'Milestone');
      await record('lateClose', EventAction.Closed, '2026-01-11T23:59:59.999Z', 'Note');
      await record('merged', EventAction.Merged, '2026-01-12T00:00:00.000Z', 'MergeRequest');
    });

    const list = async (query: string, path = `/projects/${projectId}/events`) => {
      const r = await t.request('GET', `/api/v4${path}?${query}`, { token: viewer.token });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.headers['x-total'], String(r.body.length));
      return r.body.map((e: any) => e.id);
    };

    it('action keeps one action, by its GitLab word', async () => {
      assert.deepEqual(await list('action=closed'), [ids.lateClose, ids.milestone]);
      assert.deepEqual(await list('action=merged'), [ids.merged]);
      assert.deepEqual(await list('action=expired'), []);
    });

    it('target_type keeps one target type, case-insensitively', async () => {
      assert.deepEqual(await list('target_type=milestone'), [ids.milestone]);
      assert.deepEqual(await list('target_type=Merge_Request'), [ids.merged]);
      assert.deepEqual(await list('target_type=NOTE'), [ids.lateClose]);
      assert.deepEqual(await list('target_type=snippet'), []);
    });

    it('before and after exclude the day itself', async () => {
      assert.deepEqual(await list('before=2026-01-11'), [ids.pushed]);
      assert.deepEqual(await list('before=2026-01-12'), [ids.lateClose, ids.milestone, ids.pushed]);
      assert.deepEqual(await list('after=2026-01-10&before=2026-01-12'), [ids.lateClose, ids.milestone]);
      // The project's own "created" event (made now, id before these) and the merge.
      const later = await list('after=2026-01-11');
      assert.equal(later.length, 2);
      assert.equal(later[0], ids.merged);
      assert.ok(later[1] < ids.pushed);
    });

    it('sort orders by id, newest first unless asc', async () => {
      assert.deepEqual(await list('before=2026-02-01&sort=asc'), [
        ids.pushed,
        ids.milestone,
        ids.lateClose,
        ids.merged,
      ]);
      assert.deepEqual(await list('before=2026-02-01&sort=desc'), [
        ids.merged,
        ids.lateClose,
        ids.milestone,
        ids.pushed,
      ]);
    });

    it('combines filters, paginates the filtered list, and filters user lists too', async () => {
      assert.deepEqual(await list('action=closed&target_type=note&after=2026-01-09&sort=asc'), [
        ids.lateClose,
      ]);
      const page = await t.request(
        'GET',
        `/api/v4/projects/${projectId}/events?action=closed&sort=asc&per_page=1&page=2`,
        { token: viewer.token },
      );
      assert.equal(page.headers['x-total'], '2');
      assert.deepEqual(
        page.body.map((e: any) => e.id),
        [ids.lateClose],
      );
      assert.deepEqual(await list('action=closed&sort=asc', `/users/${author.id}/events`), [
        ids.milestone,
        ids.lateClose,
      ]);
      const own = await t.request('GET', '/api/v4/events?action=merged', { token: author.token });
      assert.deepEqual(
        own.body.map((e: any) => e.id),
        [ids.merged],
      );
    });

    it('refuses bad values with 400 in Grape`s words; v3 ignores them', async () => {
      const cases: [string, string][] = [
        ['action=opened', 'action does not have a valid value'],
        ['target_type=commit', 'target_type does not have a valid value'],
        ['before=2026-13-01', 'before is invalid'],
        ['after=yesterday', 'after is invalid'],
        ['sort=up', 'sort does not have a valid value'],
        ['action=x&sort=up', 'action does not have a valid value, sort does not have a valid value'],
      ];
      for (const [query, error] of cases) {
        for (const path of [`/projects/${projectId}/events`, `/users/${author.id}/events`, '/events']) {
          const r = await t.request('GET', `/api/v4${path}?${query}`, { token: viewer.token });
          assert.equal(r.status, 400, `${path}?${query}`);
          assert.deepEqual(r.body, { error });
        }
      }
      const hidden = await t.request('GET', `/api/v4/projects/${privateId}/events?sort=up`, {
        token: viewer.token,
      });
      assert.equal(hidden.status, 400);
      const v3 = await t.request('GET', `/api/v3/projects/${projectId}/events?action=x&sort=asc`, {
        token: viewer.token,
      });
      assert.equal(v3.status, 200);
      assert.equal(v3.headers['x-total'], '5');
      assert.equal(v3.body[0].target_type, 'MergeRequest');
    });
  });
});
