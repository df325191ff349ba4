// Clients that send part of a request and stall: with LABRADOR_REQUEST_HEADERS_TIMEOUT_MS each such
// connection is answered 408 and closed soon after the bound (Node's defaults took 70–85 s), while
// requests sent whole are answered as ever.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/git.ts';

const BOUND_MS = 300;

/** Opens a connection, sends `text` and collects what comes back until the server closes it. */
function stall(port: number, text: string): Promise<{ reply: string; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(text);
      let reply = '';
      socket.on('data', (chunk) => (reply += chunk.toString()));
      resolve({ reply, closed: new Promise((done) => socket.on('close', () => done(reply))) });
    });
    socket.on('error', reject);
  });
}

describe('slow clients', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp({ LABRADOR_REQUEST_HEADERS_TIMEOUT_MS: String(BOUND_MS) });
    port = Number(new URL(await listen(t)).port);
  });
  after(() => t.close());

  it('closes connections that stall in their headers, and keeps answering whole requests', async () => {
    const stalled = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        stall(port, index % 2 === 0 ? 'GET /api/v3/version HTTP/1.1\r\nHost: x\r\n' : 'GET /api/v3/ver'),
      ),
    );
    const version = await fetch(`http://127.0.0.1:${port}/api/v3/version`, {
      headers: { 'private-token': t.rootToken },
    });
    assert.equal(version.status, 200);
    // Node's defaults would keep them for a minute and more; well inside that, every one is gone.
    const deadline = new Promise<never>((_, reject) => {
      const timer = setTimeout(() => reject(new Error('stalled connections still open after 15 s')), 15_000);
      timer.unref();
    });
    const replies = await Promise.race([Promise.all(stalled.map((one) => one.closed)), deadline]);
    for (const reply of replies) {
      assert.match(reply, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.match(reply, /\r\nConnection: close\r\n/);
      assert.match(reply, /\{"message":"408 Request Timeout"\}$/);
    }
  });
});
