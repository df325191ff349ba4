// The delivery worker against real receivers on loopback: retries, back-off bound, isolation of a dead
// receiver, restart without loss, the SSL switch, and two workers on one PostgreSQL database.
// A test whose point is a request held open runs where the hook timeout cannot end it first (HELD_OPEN);
// it waits for the receiver to hold the requests, and releases them itself.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { until } from '../helpers/wait.ts';

const FAST_RETRIES = {
  LABRADOR_HOOK_POLL_MS: '20',
  LABRADOR_HOOK_RETRY_BASE_MS: '20',
  LABRADOR_HOOK_MAX_ATTEMPTS: '3',
  LABRADOR_HOOK_TIMEOUT_MS: '1000',
  // Fewer slots than the dead receiver's backlog below, so only the per-hook bound keeps others moving.
  LABRADOR_HOOK_CONCURRENCY: '4',
  LABRADOR_HOOK_PER_HOOK_CONCURRENCY: '2',
};

/** A timeout no test reaches: a request held open stays open until the test releases it. */
const HELD_OPEN = { ...FAST_RETRIES, LABRADOR_HOOK_TIMEOUT_MS: '600000' };

async function addSystemHook(t: TestApp, url: string): Promise<number> {
  const response = await t.request('POST', '/api/v3/hooks', { token: t.rootToken, body: { url } });
  assert.equal(response.status, 201);
  return response.body.id;
}

async function deliveries(t: TestApp, hookId: number) {
  const response = await t.request('GET', `/api/v3/hooks/${hookId}/deliveries?per_page=100`, {
    token: t.rootToken,
  });
  assert.equal(response.status, 200);
  return response.body as any[];
}

async function removeHook(t: TestApp, hookId: number) {
  assert.equal((await t.request('DELETE', `/api/v3/hooks/${hookId}`, { token: t.rootToken })).status, 200);
}

describe('hook delivery worker', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(FAST_RETRIES);
  });
  after(() => t.close());

  it('retries after a 500 and records both attempts', async () => {
    const receiver = await startReceiver();
    try {
      receiver.answers.push(500);
      const hook = await addSystemHook(t, receiver.url);
      await t.request('GET', `/api/v3/hooks/${hook}`, { token: t.rootToken });
      await t.server.hookWorker.drain({ retries: true });
      assert.equal(receiver.received.length, 2);
      assert.deepEqual(receiver.received[0].body, receiver.received[1].body);
      const [delivery] = await deliveries(t, hook);
      assert.equal(delivery.status, 'delivered');
      assert.equal(delivery.attempts_count, 2);
      assert.deepEqual(
        delivery.attempts.map((attempt: any) => attempt.status_code),
        [500, 200],
      );
      const gap =
        Date.parse(delivery.attempts[1].attempted_at) - Date.parse(delivery.attempts[0].attempted_at);
      assert.ok(gap >= 20, `the retry waited for its back-off (${gap} ms)`);
      await removeHook(t, hook);
    } finally {
      await receiver.close();
    }
  });

  it('gives up after the bound on attempts, and does not retry a 4xx refusal', async () => {
    const receiver = await startReceiver();
    try {
      receiver.answers.push(502, 502, 502, 502);
      const hook = await addSystemHook(t, receiver.url);
      await t.request('GET', `/api/v3/hooks/${hook}`, { token: t.rootToken });
      await t.server.hookWorker.drain({ retries: true });
      assert.equal(receiver.received.length, 3, 'LABRADOR_HOOK_MAX_ATTEMPTS=3');
      let [delivery] = await deliveries(t, hook);
      assert.equal(delivery.status, 'failed');
      assert.deepEqual(
        delivery.attempts.map((attempt: any) => attempt.status_code),
        [502, 502, 502],
      );
      const gaps = [1, 2].map(
        (i) =>
          Date.parse(delivery.attempts[i].attempted_at) - Date.parse(delivery.attempts[i - 1].attempted_at),
      );
      assert.ok(gaps[1] >= 40, `back-off grows: ${gaps.join(', ')} ms`);

      receiver.answers.splice(0, receiver.answers.length, 404);
      await t.request('GET', `/api/v3/hooks/${hook}`, { token: t.rootToken });
      await t.server.hookWorker.drain({ retries: true });
      [delivery] = await deliveries(t, hook);
      assert.equal(delivery.status, 'failed');
      assert.deepEqual(
        delivery.attempts.map((attempt: any) => attempt.status_code),
        [404],
      );
      await removeHook(t, hook);
    } finally {
      await receiver.close();
    }
  });

  it('records network errors and timeouts, and retries a timed-out delivery', async () => {
    const dead = await startReceiver();
    dead.hang = true;
    const refused = await startReceiver();
    const refusedUrl = refused.url;
    await refused.close();
    try {
      const deadHook = await addSystemHook(t, dead.url);
      const refusedHook = await addSystemHook(t, refusedUrl);
      for (let i = 0; i < 2; i++) await t.request('GET', `/api/v3/hooks/${deadHook}`, { token: t.rootToken });
      await t.request('GET', `/api/v3/hooks/${refusedHook}`, { token: t.rootToken });
      await until('the hung receiver to hold both requests', () => dead.hanging === 2);
      // The receiver answers again: the held requests time out (1 s) and go through on a retry.
      dead.hang = false;
      await t.server.hookWorker.drain({ retries: true });
      const deadDeliveries = await deliveries(t, deadHook);
      assert.equal(deadDeliveries.length, 2);
      let timedOut = 0;
      for (const delivery of deadDeliveries) {
        assert.equal(delivery.status, 'delivered');
        assert.equal(delivery.attempts.at(-1).status_code, 200);
        for (const attempt of delivery.attempts.slice(0, -1)) {
          timedOut++;
          assert.equal(attempt.status_code, null);
          assert.equal(attempt.error, 'timeout');
          // The timeout's own lower bound (1 s), not a speed.
          assert.ok(attempt.duration_ms >= 900, `${attempt.duration_ms} ms`);
        }
      }
      assert.ok(timedOut >= 2, 'the two requests that were held open timed out');
      const [refusedDelivery] = await deliveries(t, refusedHook);
      assert.equal(refusedDelivery.status, 'failed');
      assert.match(refusedDelivery.attempts[0].error, /ECONNREFUSED/);
      for (const hook of [deadHook, refusedHook]) await removeHook(t, hook);
    } finally {
      await dead.close();
    }
  });

  it('sends userinfo from the hook URL as Basic auth', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await addSystemHook(t, receiver.url.replace('http://', 'http://us%40er:p%3Ass@'));
      await t.request('GET', `/api/v3/hooks/${hook}`, { token: t.rootToken });
      await t.server.hookWorker.drain();
      const [delivery] = await receiver.waitFor(1);
      assert.equal(delivery.headers.authorization, `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
      assert.equal(delivery.headers.host, `127.0.0.1:${receiver.port}`);
      await removeHook(t, hook);
    } finally {
      await receiver.close();
    }
  });
});

describe('hook delivery across a restart', () => {
  let t: TestApp;
  before(async () => {
    // Enough attempts, spaced out enough, that the retries cannot run out while the server restarts.
    t = await startTestApp({
      ...FAST_RETRIES,
      LABRADOR_HOOK_RETRY_BASE_MS: '100',
      LABRADOR_HOOK_MAX_ATTEMPTS: '10',
    });
  });
  after(() => t.close());

  it('delivers to a receiver that was down while Labrador restarted', async () => {
    const down = await startReceiver();
    const port = down.port;
    await down.close();
    const hook = await addSystemHook(t, `http://127.0.0.1:${port}/hook`);
    await t.request('GET', `/api/v3/hooks/${hook}`, { token: t.rootToken });
    await t.server.hookWorker.drain();
    const [first] = await deliveries(t, hook);
    assert.equal(first.status, 'pending');
    assert.match(first.attempts[0].error, /ECONNREFUSED/);

    await t.restart();
    const up = await startReceiver({ port });
    try {
      await t.server.hookWorker.drain({ retries: true });
      const [delivered] = await up.waitFor(1);
      assert.equal(delivered.body.event_name, 'project_create');
      const [after] = await deliveries(t, hook);
      assert.equal(after.id, first.id);
      assert.equal(after.status, 'delivered');
      const last = after.attempts.at(-1);
      assert.equal(last.status_code, 200);
      assert.notEqual(last.worker, first.attempts[0].worker, 'the new process delivered it');
      for (const attempt of after.attempts.slice(0, -1)) assert.match(attempt.error, /ECONNREFUSED/);
      assert.equal(up.received.length, 1);
      await removeHook(t, hook);
    } finally {
      await up.close();
    }
  });
});

describe('hook delivery with requests held open', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(HELD_OPEN);
  });
  after(() => t.close());

  it('a dead receiver holds only its own slots: another hook is delivered meanwhile', async () => {
    const dead = await startReceiver();
    dead.hang = true;
    const fast = await startReceiver();
    try {
      const deadHook = await addSystemHook(t, dead.url);
      const fastHook = await addSystemHook(t, fast.url);
      // Each test event goes to one hook: a backlog for the dead one first, more than all four slots.
      for (let i = 0; i < 6; i++) await t.request('GET', `/api/v3/hooks/${deadHook}`, { token: t.rootToken });
      await until('the dead receiver to hold two requests (its per-hook bound)', () => dead.hanging === 2);
      await t.request('GET', `/api/v3/hooks/${fastHook}`, { token: t.rootToken });
      await fast.waitFor(1);
      assert.equal(dead.hanging, 2, 'the dead hook still holds its two requests, and no more');
      assert.ok((await deliveries(t, deadHook)).every((delivery) => delivery.attempts.length === 0));

      // The receiver answers again: every delivery of the backlog goes through, once each.
      dead.hang = false;
      dead.release();
      await t.server.hookWorker.drain({ retries: true });
      const deadDeliveries = await deliveries(t, deadHook);
      assert.equal(deadDeliveries.length, 6);
      for (const delivery of deadDeliveries) {
        assert.equal(delivery.status, 'delivered');
        assert.deepEqual(
          delivery.attempts.map((attempt: any) => attempt.status_code),
          [200],
        );
      }
      assert.equal(dead.received.length, 6);
      for (const hook of [deadHook, fastHook]) await removeHook(t, hook);
    } finally {
      await dead.close();
      await fast.close();
    }
  });

  it('prunes finished deliveries after the retention, never pending ones', async () => {
    const receiver = await startReceiver();
    const dead = await startReceiver();
    dead.hang = true;
    try {
      const hook = await addSystemHook(t, receiver.url);
      const deadHook = await addSystemHook(t, dead.url);
      await t.request('GET', `/api/v3/hooks/${hook}`, { token: t.rootToken });
      await t.server.hookWorker.drain();
      receiver.answers.push(404);
      await t.request('GET', `/api/v3/hooks/${hook}`, { token: t.rootToken });
      await t.server.hookWorker.drain();
      assert.deepEqual(
        (await deliveries(t, hook)).map((delivery) => delivery.status),
        ['failed', 'delivered'],
      );
      // A delivery still pending (its request held open by the receiver) is never pruned.
      await t.request('GET', `/api/v3/hooks/${deadHook}`, { token: t.rootToken });
      await until('the hung receiver to hold the request', () => dead.hanging === 1);
      assert.equal(await t.server.hookWorker.prune(), 0, 'nothing is old yet');
      const later = new Date(Date.now() + 31 * 24 * 60 * 60 * 1000);
      assert.equal(await t.server.hookWorker.prune(later), 2);
      assert.deepEqual(await deliveries(t, hook), []);
      assert.deepEqual(
        (await deliveries(t, deadHook)).map((delivery) => delivery.status),
        ['pending'],
      );
      await removeHook(t, hook);
      await removeHook(t, deadHook);
    } finally {
      await receiver.close();
      await dead.close();
    }
  });

  it('gives claims back when stopped in the middle of a request', async () => {
    const slow = await startReceiver();
    slow.hang = true;
    const hook = await addSystemHook(t, slow.url);
    try {
      await t.request('GET', `/api/v3/hooks/${hook}`, { token: t.rootToken });
      // Once the worker has the request open at the receiver, restart under it.
      await until('the worker to have the request open', () => slow.hanging === 1);
      await t.restart();
      slow.hang = false;
      await t.server.hookWorker.drain({ retries: true });
      const [delivery] = await deliveries(t, hook);
      assert.equal(delivery.status, 'delivered');
      assert.equal(delivery.attempts.length, 1, 'the aborted request is not counted as an attempt');
      assert.equal(slow.received.length, 1);
      await removeHook(t, hook);
    } finally {
      await slow.close();
    }
  });

  it('shares the work of two servers on one PostgreSQL database without sending anything twice', async (context) => {
    if (t.server.deps.db.dialect !== 'postgres') {
      context.skip('several processes share one database only on PostgreSQL; SQLite has a single writer');
      return;
    }
    const receiver = await startReceiver();
    receiver.hang = true;
    const sibling = await t.sibling();
    try {
      const hook = await addSystemHook(t, receiver.url);
      const count = 100;
      for (let i = 0; i < count; i++) await t.request('GET', `/api/v3/hooks/${hook}`, { token: t.rootToken });
      // Each process holds at most two requests of one hook: four open at once means both took a share.
      await until('both servers to hold requests', () => receiver.hanging === 4);
      receiver.hang = false;
      receiver.release();
      await Promise.all([
        t.server.hookWorker.drain({ retries: true }),
        sibling.hookWorker.drain({ retries: true }),
      ]);
      await receiver.waitFor(count);
      const ids = receiver.received.map((delivery) => delivery.headers['x-labrador-delivery']);
      assert.equal(ids.length, count);
      assert.equal(new Set(ids).size, count, 'no delivery arrived twice');
      const all = [
        ...(await deliveries(t, hook)),
        ...(
          await t.request('GET', `/api/v3/hooks/${hook}/deliveries?per_page=100&page=2`, {
            token: t.rootToken,
          })
        ).body,
      ];
      assert.equal(all.length, count);
      const workers = new Set<string>();
      for (const delivery of all) {
        assert.equal(delivery.status, 'delivered');
        assert.equal(delivery.attempts.length, 1);
        workers.add(delivery.attempts[0].worker);
      }
      assert.deepEqual(workers, new Set([t.server.hookWorker.workerId, sibling.hookWorker.workerId]));
      await removeHook(t, hook);
    } finally {
      await sibling.close();
      await receiver.close();
    }
  });
});
