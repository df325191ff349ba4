import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';
import { recordEvent } from '../../../src/services/activity/events.ts';
import { EventAction } from '../../../src/domain/types.ts';

describe('events', () => {
  let t: TestApp;
  let author: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let privateId: number;
  let internalId: number;
  let publicId: number;

  before(async () => {
    t = await startTestApp();
    author = await createUser(t, 'author');
    viewer = await createUser(t, 'viewer');
    outsider = await createUser(t, 'outsider', { external: true });
    let r = await t.request('POST', '/api/v3/projects', { token: author.token, body: { name: 'secret' } });
    privateId = r.body.id;
    r = await t.request('POST', '/api/v3/projects', {
      token: author.token,
      body: { name: 'open', public: true },
    });
    publicId = r.body.id;
    r = await t.request('POST', '/api/v3/projects', {
      token: author.token,
      body: { name: 'inside', visibility_level: 10 },
    });
    internalId = r.body.id;
    // A push as the git area records it, through the one recording function.
    await t.server.deps.db.kysely.transaction().execute((trx) =>
      recordEvent(trx, {
        projectId: publicId,
        authorId: author.id,
        action: EventAction.Pushed,
        data: { before: '0'.repeat(40), after: 'a'.repeat(40), ref: 'refs/heads/master', commits: [] },
      }),
    );
  });
  after(() => t.close());

  it('GET /projects/:id/events: newest first, paginated, hidden projects 404', async () => {
    let r = await t.request('GET', `/api/v3/projects/${publicId}/events`, { token: viewer.token });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.map((e: { action_name: string }) => e.action_name),
      ['pushed new', 'created'],
    );
    assert.deepEqual(Object.keys(r.body[0]), [
      'title',
      'project_id',
      'action_name',
      'target_id',
      'target_type',
      'author_id',
      'data',
      'target_title',
      'created_at',
      'author',
      'author_username',
    ]);
    assert.equal(r.body[0].data.ref, 'refs/heads/master');
    assert.equal(r.headers['x-total'], '2');
    r = await t.request('GET', `/api/v3/projects/${publicId}/events?per_page=1&page=2`, {
      token: viewer.token,
    });
    assert.deepEqual(
      r.body.map((e: { action_name: string }) => e.action_name),
      ['created'],
    );
    r = await t.request('GET', `/api/v3/projects/${privateId}/events`, { token: viewer.token });
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { message: '404 Project Not Found' });
  });

  it('GET /users/:id/events shows only events of projects the caller can see', async () => {
    const projectsOfEvents = (body: Array<{ project_id: number }>) => body.map((e) => e.project_id);
    let r = await t.request('GET', `/api/v3/users/${author.id}/events`, { token: viewer.token });
    assert.equal(r.status, 200);
    assert.deepEqual(projectsOfEvents(r.body), [publicId, internalId, publicId]);
    // External users see internal projects only where they are members.
    r = await t.request('GET', `/api/v3/users/${author.id}/events`, { token: outsider.token });
    assert.deepEqual(projectsOfEvents(r.body), [publicId, publicId]);
    assert.equal(r.headers['x-total'], '2');
    r = await t.request('GET', `/api/v3/users/${author.id}/events`, { token: author.token });
    assert.equal(r.body.length, 4);
    r = await t.request('GET', `/api/v3/users/${author.id}/events`, { token: t.rootToken });
    assert.equal(r.body.length, 4);
    assert.equal(r.headers['x-total'], '4');
    r = await t.request('GET', '/api/v3/users/99999/events', { token: viewer.token });
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { message: '404 User Not Found' });
    r = await t.request('GET', '/api/v3/users/nobody/events', { token: viewer.token });
    assert.equal(r.status, 404);
    r = await t.request('GET', `/api/v3/users/${author.id}/events`);
    assert.equal(r.status, 401);
  });
});
