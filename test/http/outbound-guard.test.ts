import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { createProject, createUser, type TestUser } from '../helpers/factory.ts';

/** Every spelling of a local target the guard must see through, with the reason it names. */
const REFUSED: Array<[string, RegExp]> = [
  ['http://127.0.0.1/hook', /localhost/],
  ['http://localhost:8080/hook', /localhost/],
  ['http://LOCALHOST./hook', /localhost/],
  ['http://2130706433/', /localhost/],
  ['http://0177.0.0.1/', /localhost/],
  ['http://0x7f.0.0.1/', /localhost/],
  ['http://0x7f000001/', /localhost/],
  ['http://127.1/', /localhost/],
  ['http://127.0.0.1./', /localhost/],
  ['http://evil.example.com@127.0.0.1/', /localhost/],
  ['http://user:pass@127.0.0.1:5432/', /localhost/],
  ['https://10.1.2.3/', /local network/],
  ['http://172.16.0.1/', /local network/],
  ['http://172.31.255.254/', /local network/],
  ['http://192.168.1.1/', /local network/],
  ['http://0xc0.0xa8.1.1/', /local network/],
  ['http://100.64.0.1/', /local network/],
  ['http://169.254.169.254/latest/meta-data/', /link local/],
  ['http://2852039166/', /link local/],
  ['http://0.0.0.0/', /unspecified/],
  ['http://0/', /unspecified/],
  ['http://[::1]/', /localhost/],
  ['http://[0:0:0:0:0:0:0:1]/', /localhost/],
  ['http://[::]/', /unspecified/],
  ['http://[fc00::1]/', /local network/],
  ['http://[fd12:3456::1]/', /local network/],
  ['http://[fe80::1]/', /link local/],
  ['http://[::ffff:127.0.0.1]/', /localhost/],
  ['http://[::ffff:7f00:1]/', /localhost/],
  ['http://[::ffff:169.254.169.254]/', /link local/],
  ['http://[::ffff:10.0.0.1]/', /local network/],
  ['http://224.0.0.1/', /multicast/],
];

/** Public addresses next to the refused ranges, and a name that does not resolve (judged at send). */
const ALLOWED = [
  'http://8.8.8.8/hook',
  'http://172.32.0.1/',
  'http://100.128.0.1/',
  'http://[2001:4860:4860::8888]/',
  'http://hooks.example.invalid/',
];

describe('outbound guard', () => {
  let t: TestApp;
  let owner: TestUser;
  let receiver: Receiver;

  before(async () => {
    // No allowlist: what an instance gets by default.
    t = await startTestApp({ LABRADOR_OUTBOUND_ALLOWLIST: '' });
    owner = await createUser(t, 'guarded');
    receiver = await startReceiver();
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  for (const version of ['v3', 'v4']) {
    it(`refuses every local spelling when a project hook is created or edited (${version})`, async () => {
      const project = await createProject(t, { owner, path: `guarded-${version}` });
      const base = `/api/${version}/projects/${project.id}/hooks`;
      const kept = await t.request('POST', base, { token: owner.token, body: { url: ALLOWED[0] } });
      assert.equal(kept.status, 201, kept.text);
      for (const [url, reason] of REFUSED) {
        const created = await t.request('POST', base, { token: owner.token, body: { url } });
        assert.equal(created.status, 422, `${url}: ${created.text}`);
        assert.match(created.body.message.url[0], /^is blocked: Requests to /);
        assert.match(created.body.message.url[0], reason, url);
        const edited = await t.request('PUT', `${base}/${kept.body.id}`, {
          token: owner.token,
          body: { url },
        });
        assert.equal(edited.status, 422, `${url}: ${edited.text}`);
        assert.match(edited.body.message.url[0], reason, url);
      }
      // Nothing refused was stored: the one hook still has its first URL.
      const list = await t.request('GET', base, { token: owner.token });
      assert.deepEqual(
        list.body.map((hook: { url: string }) => hook.url),
        [ALLOWED[0]],
      );
      for (const url of ALLOWED) {
        const created = await t.request('POST', base, { token: owner.token, body: { url } });
        assert.equal(created.status, 201, `${url}: ${created.text}`);
        const edited = await t.request('PUT', `${base}/${kept.body.id}`, {
          token: owner.token,
          body: { url },
        });
        assert.equal(edited.status, 200, `${url}: ${edited.text}`);
      }
    });

    it(`refuses every local spelling for a system hook (${version})`, async () => {
      for (const [url, reason] of REFUSED) {
        const created = await t.request('POST', `/api/${version}/hooks`, {
          token: t.rootToken,
          body: { url },
        });
        assert.equal(created.status, 422, `${url}: ${created.text}`);
        assert.match(created.body.message.url[0], reason, url);
      }
      const created = await t.request('POST', `/api/${version}/hooks`, {
        token: t.rootToken,
        body: { url: ALLOWED[1] },
      });
      assert.equal(created.status, 201);
      const listed = await t.request('GET', `/api/${version}/hooks`, { token: t.rootToken });
      assert.ok(
        listed.body.every((hook: { url: string }) => !/127\.|\[|169\.254|^http:\/\/0/.test(hook.url)),
      );
    });
  }

  it('refuses a project import from a local address (v3 and v4, 400 as project validation)', async () => {
    for (const version of ['v3', 'v4']) {
      for (const url of ['http://169.254.169.254/repo.git', 'git://[::1]/repo.git', 'https://0x7f.1/x.git']) {
        const created = await t.request('POST', `/api/${version}/projects`, {
          token: owner.token,
          body: { name: `imported-${version}`, import_url: url },
        });
        // A project's validation errors answer 400, as every other one of POST /projects does.
        assert.equal(created.status, 400, `${url}: ${created.text}`);
        assert.match(created.body.message.import_url[0], /^is blocked: Requests to /);
      }
    }
  });

  it('fails the delivery of a stored hook whose target is refused, sending nothing', async () => {
    const created = await t.request('POST', '/api/v3/hooks', {
      token: t.rootToken,
      body: { url: ALLOWED[2] },
    });
    assert.equal(created.status, 201);
    // A hook saved before the guard existed (or by another route): only the database knows it.
    for (const url of [
      receiver.url,
      `http://localhost:${receiver.port}/hook`,
      `http://2130706433:${receiver.port}/`,
    ]) {
      await t.server.deps.db.kysely
        .updateTable('system_hooks')
        .set({ url })
        .where('id', '=', created.body.id)
        .execute();
      const test = await t.request('GET', `/api/v3/hooks/${created.body.id}`, { token: t.rootToken });
      assert.equal(test.status, 200);
    }
    await t.server.hookWorker.drain();
    const log = await t.request('GET', `/api/v3/hooks/${created.body.id}/deliveries`, { token: t.rootToken });
    assert.equal(log.status, 200);
    assert.equal(log.body.length, 3);
    for (const delivery of log.body) {
      // Final at once: a refused target is not retried.
      assert.equal(delivery.status, 'failed', JSON.stringify(delivery));
      assert.equal(delivery.attempts.length, 1);
      assert.equal(delivery.attempts[0].status_code, null);
      assert.equal(delivery.attempts[0].error, 'refused: Requests to localhost are not allowed');
    }
    assert.equal(receiver.received.length, 0);
  });

  it('lets local targets through while the administrator allows local requests, per kind of hook', async () => {
    const settings = (body: Record<string, boolean>) =>
      t.request('PUT', '/api/v4/application/settings', { token: t.rootToken, body });
    const project = await createProject(t, { owner, path: 'switched' });
    const hooks = `/api/v4/projects/${project.id}/hooks`;
    const local = `http://127.0.0.1:${receiver.port}/switched`;
    assert.equal((await t.request('POST', hooks, { token: owner.token, body: { url: local } })).status, 422);
    assert.equal((await settings({ allow_local_requests_from_web_hooks_and_services: true })).status, 200);
    try {
      const created = await t.request('POST', hooks, {
        token: owner.token,
        body: { url: local, push_events: true },
      });
      assert.equal(created.status, 201, created.text);
      // The web-hook switch is not the system-hook one.
      const system = await t.request('POST', '/api/v4/hooks', { token: t.rootToken, body: { url: local } });
      assert.equal(system.status, 422, system.text);
      const pushed = await t.request('POST', `/api/v4/projects/${project.id}/repository/files/a.txt`, {
        token: owner.token,
        body: { branch: 'main', content: 'a\n', commit_message: 'First' },
      });
      assert.equal(pushed.status, 201, pushed.text);
      await t.server.hookWorker.drain();
      assert.ok(
        receiver.received.some((request) => request.url === '/switched'),
        'the local receiver got the hook',
      );
    } finally {
      assert.equal((await settings({ allow_local_requests_from_web_hooks_and_services: false })).status, 200);
    }
    const again = await t.request('POST', hooks, { token: owner.token, body: { url: local } });
    assert.equal(again.status, 422, 'refused again once the switch is off');
  });

  it('lets an allowlisted local receiver get its hooks (address, range and host name)', async () => {
    for (const [allowlist, host] of [
      ['127.0.0.1', '127.0.0.1'],
      ['10.0.0.0/8, 127.0.0.0/8', '127.0.0.1'],
      ['localhost', 'localhost'],
    ]) {
      const allowed = await startTestApp({ LABRADOR_OUTBOUND_ALLOWLIST: allowlist });
      try {
        const url = `http://${host}:${receiver.port}/allowed`;
        const created = await allowed.request('POST', '/api/v4/hooks', {
          token: allowed.rootToken,
          body: { url },
        });
        assert.equal(created.status, 201, `${allowlist}: ${created.text}`);
        const before = receiver.received.length;
        await allowed.request('POST', `/api/v4/hooks/${created.body.id}`, { token: allowed.rootToken });
        await allowed.server.hookWorker.drain();
        assert.equal(receiver.received.length, before + 1, allowlist);
        assert.equal(receiver.received.at(-1)!.url, '/allowed');
        // Other local targets stay refused.
        const other = await allowed.request('POST', '/api/v4/hooks', {
          token: allowed.rootToken,
          body: { url: 'http://192.168.0.1/' },
        });
        assert.equal(other.status, 422);
      } finally {
        await allowed.close();
      }
    }
  });

  it('refuses a misspelt allowlist at start, naming the entry', async () => {
    await assert.rejects(
      startTestApp({ LABRADOR_OUTBOUND_ALLOWLIST: '127.0.0.1,10.0.0.0/33' }),
      (error: Error) =>
        error.message.includes(
          'LABRADOR_OUTBOUND_ALLOWLIST must list host names, IP addresses or CIDR ranges, got "10.0.0.0/33"',
        ),
    );
  });
});
