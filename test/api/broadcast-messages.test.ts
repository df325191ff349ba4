// Broadcast messages over HTTP: administrators create, change, list and delete them under v3 (8.13:
// every route is theirs) and v4 (reads are public there); bad input answers 400; a message shows on
// pages only between its start and its end, and goes when deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factory.ts';

describe('broadcast messages', () => {
  let t: TestApp;
  let user: TestUser;

  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'bcuser');
  });
  after(() => t.close());

  it('v3: administrators only; defaults, update, 400s, delete answers the message', async () => {
    assert.equal((await t.request('GET', '/api/v3/broadcast_messages')).status, 401);
    assert.equal((await t.request('GET', '/api/v3/broadcast_messages', { token: user.token })).status, 403);
    assert.equal(
      (await t.request('POST', '/api/v3/broadcast_messages', { token: user.token, body: { message: 'x' } }))
        .status,
      403,
    );
    const before = Date.now();
    const created = await t.request('POST', '/api/v3/broadcast_messages', {
      token: t.rootToken,
      body: { message: 'Maintenance **tonight**' },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body), [
      'id',
      'message',
      'starts_at',
      'ends_at',
      'color',
      'font',
      'active',
    ]);
    assert.equal(created.body.color, '#E75E40');
    assert.equal(created.body.font, '#FFFFFF');
    assert.equal(created.body.active, true);
    const span = Date.parse(created.body.ends_at) - Date.parse(created.body.starts_at);
    assert.equal(span, 3_600_000);
    assert.ok(Date.parse(created.body.starts_at) >= before - 1000);

    const missing = await t.request('POST', '/api/v3/broadcast_messages', { token: t.rootToken, body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'message is missing' });
    const badTime = await t.request('POST', '/api/v3/broadcast_messages', {
      token: t.rootToken,
      body: { message: 'm', starts_at: 'soon' },
    });
    assert.deepEqual([badTime.status, badTime.body], [400, { error: 'starts_at is invalid' }]);
    const badColor = await t.request('POST', '/api/v3/broadcast_messages', {
      token: t.rootToken,
      body: { message: 'm', color: 'red' },
    });
    assert.deepEqual(
      [badColor.status, badColor.body],
      [400, { message: { color: ['must be a valid color code'] } }],
    );

    const id = created.body.id as number;
    const changed = await t.request('PUT', `/api/v3/broadcast_messages/${id}`, {
      token: t.rootToken,
      body: { color: '#123456', ends_at: '2099-01-01T00:00:00Z' },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.color, '#123456');
    assert.equal(changed.body.message, 'Maintenance **tonight**');
    assert.equal(changed.body.ends_at, '2099-01-01T00:00:00.000Z');
    assert.equal(
      (await t.request('GET', '/api/v3/broadcast_messages/999999', { token: t.rootToken })).status,
      404,
    );
    assert.equal(
      (await t.request('GET', '/api/v3/broadcast_messages/abc', { token: t.rootToken })).status,
      400,
    );

    const list = await t.request('GET', '/api/v3/broadcast_messages', { token: t.rootToken });
    assert.equal(list.headers['x-total'], '1');
    const removed = await t.request('DELETE', `/api/v3/broadcast_messages/${id}`, { token: t.rootToken });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.id, id);
    assert.equal(
      (await t.request('GET', `/api/v3/broadcast_messages/${id}`, { token: t.rootToken })).status,
      404,
    );
  });

  it('v4: public reads, admin writes, target_path and broadcast_type', async () => {
    const created = await t.request('POST', '/api/v4/broadcast_messages', {
      token: t.rootToken,
      body: { message: 'Only on explore', target_path: '/explore/*', broadcast_type: 'notification' },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.target_path, '/explore/*');
    assert.equal(created.body.broadcast_type, 'notification');
    assert.deepEqual(created.body.target_access_levels, []);
    assert.equal(created.body.dismissable, false);
    const anonymous = await t.request('GET', `/api/v4/broadcast_messages/${created.body.id}`);
    assert.equal(anonymous.status, 200);
    assert.equal(anonymous.body.message, 'Only on explore');
    assert.equal(
      (
        await t.request('PUT', `/api/v4/broadcast_messages/${created.body.id}`, {
          token: user.token,
          body: { message: 'x' },
        })
      ).status,
      403,
    );
    const badType = await t.request('PUT', `/api/v4/broadcast_messages/${created.body.id}`, {
      token: t.rootToken,
      body: { broadcast_type: 'popup' },
    });
    assert.equal(badType.status, 400);

    const explore = await t.request('GET', '/explore/projects');
    assert.match(explore.text, /Only on explore/);
    const signIn = await t.request('GET', '/users/sign_in');
    assert.doesNotMatch(signIn.text, /Only on explore/);
    assert.equal(
      (await t.request('DELETE', `/api/v4/broadcast_messages/${created.body.id}`, { token: t.rootToken }))
        .status,
      200,
    );
    assert.doesNotMatch((await t.request('GET', '/explore/projects')).text, /Only on explore/);
  });

  it('shows a message on pages only while it runs, rendered, in its colours', async () => {
    const future = await t.request('POST', '/api/v3/broadcast_messages', {
      token: t.rootToken,
      body: { message: 'Later on', starts_at: '2098-01-01T00:00:00Z', ends_at: '2099-01-01T00:00:00Z' },
    });
    const past = await t.request('POST', '/api/v3/broadcast_messages', {
      token: t.rootToken,
      body: { message: 'Long gone', starts_at: '2001-01-01T00:00:00Z', ends_at: '2001-01-02T00:00:00Z' },
    });
    const now = await t.request('POST', '/api/v3/broadcast_messages', {
      token: t.rootToken,
      body: { message: 'Upgrade at **noon**', color: '#336699' },
    });
    assert.equal(future.body.active, false);
    assert.equal(past.body.active, false);
    const page = await t.request('GET', '/users/sign_in');
    assert.match(page.text, /<strong>noon<\/strong>/);
    assert.match(page.text, /data-broadcast-color="#336699"/);
    assert.doesNotMatch(page.text, /Later on|Long gone/);
    for (const body of [future.body, past.body, now.body]) {
      await t.request('DELETE', `/api/v3/broadcast_messages/${body.id}`, { token: t.rootToken });
    }
    assert.doesNotMatch((await t.request('GET', '/users/sign_in')).text, /noon/);
  });
});
