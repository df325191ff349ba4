import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { createUser } from '../../helpers/factory.ts';

describe('system hooks API', () => {
  let t: TestApp;
  let receiver: Receiver;
  let userToken: string;
  before(async () => {
    t = await startTestApp({ LABRADOR_HOOK_POLL_MS: '50' });
    receiver = await startReceiver();
    userToken = (await createUser(t, 'plain')).token;
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('is for administrators only', async () => {
    for (const [method, url] of [
      ['GET', '/api/v3/hooks'],
      ['POST', '/api/v3/hooks'],
      ['GET', '/api/v3/hooks/1'],
      ['DELETE', '/api/v3/hooks/1'],
      ['GET', '/api/v3/hooks/1/deliveries'],
    ]) {
      const response = await t.request(method, url, { token: userToken, body: { url: receiver.url } });
      assert.equal(response.status, 403, `${method} ${url}`);
      assert.deepEqual(response.body, { message: '403 Forbidden' });
    }
    assert.equal((await t.request('GET', '/api/v3/hooks')).status, 401);
  });

  it('creates, lists, tests and deletes a hook', async () => {
    const created = await t.request('POST', '/api/v3/hooks', {
      token: t.rootToken,
      body: { url: receiver.url },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), ['id', 'url', 'created_at']);
    assert.equal(created.body.url, receiver.url);
    assert.match(created.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const list = await t.request('GET', '/api/v3/hooks', { token: t.rootToken });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, [created.body]);

    const sample = {
      event_name: 'project_create',
      name: 'Ruby',
      path: 'ruby',
      project_id: 1,
      owner_name: 'Someone',
      owner_email: 'example@gitlabhq.com',
    };
    const before = receiver.received.length;
    const test = await t.request('GET', `/api/v3/hooks/${created.body.id}`, { token: t.rootToken });
    assert.equal(test.status, 200);
    assert.deepEqual(test.body, sample);
    await t.server.hookWorker.drain();
    const [delivery] = (await receiver.waitFor(before + 1)).slice(before);
    assert.equal(delivery.method, 'POST');
    assert.equal(delivery.url, '/hook');
    assert.equal(delivery.headers['content-type'], 'application/json');
    assert.equal(delivery.headers['x-gitlab-event'], 'System Hook');
    assert.deepEqual(delivery.body, sample);

    const deleted = await t.request('DELETE', `/api/v3/hooks/${created.body.id}`, { token: t.rootToken });
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, {
      id: created.body.id,
      url: receiver.url,
      project_id: null,
      service_id: null,
      created_at: created.body.created_at,
      updated_at: created.body.created_at,
      push_events: true,
      tag_push_events: false,
      issues_events: false,
      merge_requests_events: false,
      note_events: false,
      enable_ssl_verification: true,
    });
    const again = await t.request('DELETE', `/api/v3/hooks/${created.body.id}`, { token: t.rootToken });
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { message: '404 System hook Not Found' });
    assert.deepEqual((await t.request('GET', '/api/v3/hooks', { token: t.rootToken })).body, []);
  });

  it('answers GitLab errors for bad input', async () => {
    const missing = await t.request('POST', '/api/v3/hooks', { token: t.rootToken, body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'url is missing' });
    for (const url of ['not a url', 'ftp://example.com/x', 'http://', 'javascript:alert(1)']) {
      const invalid = await t.request('POST', '/api/v3/hooks', { token: t.rootToken, body: { url } });
      assert.equal(invalid.status, 404, url);
      assert.deepEqual(invalid.body, { message: '404 Not Found' });
    }
    const unknown = await t.request('GET', '/api/v3/hooks/999999', { token: t.rootToken });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: '404 Not found' });
    for (const method of ['GET', 'DELETE']) {
      const bad = await t.request(method, '/api/v3/hooks/abc', { token: t.rootToken });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { error: 'id is invalid' });
    }
  });

  it('refuses a URL over 2,000 characters or holding a NUL byte as an invalid URL, and stores nothing', async () => {
    const longest = `http://example.com/${'a'.repeat(2000 - 'http://example.com/'.length)}`;
    const kept = await t.request('POST', '/api/v3/hooks', { token: t.rootToken, body: { url: longest } });
    assert.equal(kept.status, 201);
    assert.equal(kept.body.url, longest);
    const refused = [
      `${longest}b`,
      `http://example.com/${'a'.repeat(1024 * 1024)}`,
      'http://example.com/\u0000x',
    ];
    for (const url of refused) {
      const invalid = await t.request('POST', '/api/v3/hooks', { token: t.rootToken, body: { url } });
      assert.equal(invalid.status, 404, `${url.length} characters`);
      assert.deepEqual(invalid.body, { message: '404 Not Found' });
    }
    const hooks = await t.request('GET', '/api/v3/hooks', { token: t.rootToken });
    assert.deepEqual(
      hooks.body.map((hook: { url: string }) => hook.url),
      [longest],
    );
    await t.request('DELETE', `/api/v3/hooks/${kept.body.id}`, { token: t.rootToken });
  });

  it('lists the deliveries of a hook with their attempts and re-sends one', async () => {
    const hook = (
      await t.request('POST', '/api/v3/hooks', { token: t.rootToken, body: { url: receiver.url } })
    ).body;
    receiver.answers.push(503);
    await t.request('GET', `/api/v3/hooks/${hook.id}`, { token: t.rootToken });
    await t.server.hookWorker.drain();

    const list = await t.request('GET', `/api/v3/hooks/${hook.id}/deliveries`, { token: t.rootToken });
    assert.equal(list.status, 200);
    assert.equal(list.headers['x-total'], '1');
    assert.equal(list.body.length, 1);
    const [delivery] = list.body;
    assert.deepEqual(Object.keys(delivery), [
      'id',
      'hook_id',
      'event',
      'status',
      'attempts_count',
      'next_attempt_at',
      'created_at',
      'updated_at',
      'payload',
      'attempts',
    ]);
    assert.equal(delivery.hook_id, hook.id);
    assert.equal(delivery.event, 'System Hook');
    assert.equal(delivery.status, 'pending', '503 is retried later');
    assert.equal(delivery.attempts_count, 1);
    assert.equal(delivery.payload.event_name, 'project_create');
    assert.equal(delivery.attempts.length, 1);
    assert.equal(delivery.attempts[0].status_code, 503);
    assert.equal(delivery.attempts[0].error, null);
    assert.equal(typeof delivery.attempts[0].duration_ms, 'number');

    const before = receiver.received.length;
    const resent = await t.request('POST', `/api/v3/hooks/${hook.id}/deliveries/${delivery.id}/resend`, {
      token: t.rootToken,
    });
    assert.equal(resent.status, 201);
    assert.notEqual(resent.body.id, delivery.id);
    assert.equal(resent.body.status, 'pending');
    assert.deepEqual(resent.body.payload, delivery.payload);
    await t.server.hookWorker.drain();
    assert.deepEqual(receiver.received[before].body, delivery.payload);

    const after = await t.request('GET', `/api/v3/hooks/${hook.id}/deliveries?per_page=1`, {
      token: t.rootToken,
    });
    assert.equal(after.headers['x-total'], '2');
    assert.equal(after.body[0].id, resent.body.id, 'newest first');
    assert.equal(after.body[0].status, 'delivered');
    assert.equal(after.body[0].attempts[0].status_code, 200);

    const unknown = await t.request('POST', `/api/v3/hooks/${hook.id}/deliveries/999999/resend`, {
      token: t.rootToken,
    });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: '404 Hook delivery Not Found' });
    const noHook = await t.request('GET', '/api/v3/hooks/999999/deliveries', { token: t.rootToken });
    assert.equal(noHook.status, 404);
    assert.deepEqual(noHook.body, { message: '404 System hook Not Found' });
  });
});
