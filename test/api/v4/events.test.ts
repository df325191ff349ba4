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
});
