// Stopping under a supervisor: SIGTERM or SIGINT to the entry point (and to `npm start`) while a clone
// and an API write are in flight. Within LABRADOR_STOP_TIMEOUT_MS the process stops accepting, lets them
// finish and exits 0; past the bound it cuts them, and then the clone fails cleanly and the write is
// neither acknowledged nor committed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GitClient } from '../helpers/git.ts';
import {
  createInstance,
  LabradorProcess,
  refusesConnections,
  spawnLabrador,
  type Instance,
} from '../helpers/process.ts';

/**
 * A TCP proxy in front of the server that lets the head of a matching request through and holds its
 * body until release(): the request is then in flight in the server, waiting, for as long as we like.
 */
class HoldingProxy {
  private readonly server: net.Server;
  private readonly releases: Array<() => void> = [];
  private heldOnce!: () => void;
  readonly held = new Promise<void>((resolve) => (this.heldOnce = resolve));
  port = 0;

  constructor(upstreamPort: number, shouldHold: (head: string) => boolean) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(upstreamPort, '127.0.0.1');
      upstream.pipe(client);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.on('end', () => upstream.end());
      let pending = Buffer.alloc(0);
      let holding: Buffer[] | undefined;
      client.on('data', (chunk: Buffer) => {
        if (holding) {
          holding.push(chunk);
          return;
        }
        pending = Buffer.concat([pending, chunk]);
        // Only data that starts a request is looked at; anything else (bodies) flows through.
        if (!/^[A-Z]+ \S+ HTTP\/1\.1\r\n/.test(pending.subarray(0, 300).toString('latin1'))) {
          upstream.write(pending);
          pending = Buffer.alloc(0);
          return;
        }
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end + 4);
        if (!shouldHold(head.toString('latin1'))) {
          upstream.write(pending);
          pending = Buffer.alloc(0);
          return;
        }
        upstream.write(head);
        const held: Buffer[] = [pending.subarray(end + 4)];
        holding = held;
        pending = Buffer.alloc(0);
        this.releases.push(() => {
          holding = undefined;
          for (const part of held) upstream.write(part);
        });
        this.heldOnce();
      });
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  release(): void {
    for (const release of this.releases.splice(0)) release();
  }

  close(): void {
    this.server.close();
  }
}

/** An API write whose head the server has taken (it answered 100 Continue) and whose body waits. */
class PendingPost {
  private readonly socket: net.Socket;
  private received = '';
  readonly closed: Promise<void>;

  private constructor(
    port: number,
    private readonly body: string,
    head: string,
  ) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (chunk) => (this.received += chunk.toString('latin1')));
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
    this.socket.write(head);
  }

  static async start(port: number, token: string, attributes: Record<string, unknown>): Promise<PendingPost> {
    const body = JSON.stringify(attributes);
    const head =
      'POST /api/v3/projects HTTP/1.1\r\nHost: labrador\r\n' +
      `PRIVATE-TOKEN: ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      'Expect: 100-continue\r\nConnection: close\r\n\r\n';
    const post = new PendingPost(port, body, head);
    await post.until(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    return post;
  }

  sendBody(): void {
    this.socket.write(this.body);
  }

  async until(pattern: RegExp, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.received)) {
      if (Date.now() > deadline) throw new Error(`no ${pattern} in ${JSON.stringify(this.received)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** The final answer's status line (after any 100 Continue), if one came. */
  status(): number | undefined {
    const finals = [...this.received.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((match) => Number(match[1]));
    return finals.find((code) => code !== 100);
  }
}

async function api(
  labrador: LabradorProcess,
  instance: Instance,
  method: string,
  url: string,
  body?: unknown,
) {
  const response = await fetch(`${labrador.url}${url}`, {
    method,
    headers: { 'private-token': instance.rootToken, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

const portOf = (labrador: LabradorProcess) => Number(new URL(labrador.url).port);

describe('stopping on SIGTERM / SIGINT with work in flight', () => {
  let instance: Instance;
  let git: GitClient;
  let pushed: string;

  before(async () => {
    instance = await createInstance();
    git = new GitClient();
    const labrador = await spawnLabrador(instance.env).ready();
    try {
      assert.equal((await api(labrador, instance, 'POST', '/api/v3/projects', { name: 'busy' })).status, 201);
      const work = await git.workTree('busy', ['first', 'second']);
      await git.ok(['push', '-q', `${repoUrl(labrador.url, instance)}`, 'master'], work);
      pushed = (await git.ok(['rev-parse', 'HEAD'], work)).trim();
    } finally {
      labrador.signal('SIGTERM');
      await labrador.exited;
    }
  });
  after(async () => {
    git.close();
    await instance.remove();
  });

  /**
   * A server with a clone whose fetch request waits in it (body held by the proxy) and a POST /projects
   * whose body it waits for: both in flight when the test signals.
   */
  async function startWorkInFlight(stopTimeoutMs: string, projectName: string) {
    const labrador = await spawnLabrador({
      ...instance.env,
      LABRADOR_STOP_TIMEOUT_MS: stopTimeoutMs,
    }).ready();
    const proxy = await new HoldingProxy(portOf(labrador), (head) =>
      /^POST \S+\/git-upload-pack /.test(head),
    ).listen();
    const target = path.join(git.home, `clone-${projectName}`);
    const url = repoUrl(`http://127.0.0.1:${proxy.port}`, instance);
    // Protocol v0: one upload-pack POST carries the whole fetch.
    const clone = git.run(['-c', 'protocol.version=0', 'clone', '-q', url, target]);
    await proxy.held;
    const post = await PendingPost.start(portOf(labrador), instance.rootToken, { name: projectName });
    return { labrador, proxy, clone, target, post };
  }

  /** The project as a fresh start of the same instance sees it. */
  async function statusAfterRestart(fullPath: string): Promise<number> {
    const again = await spawnLabrador(instance.env).ready();
    try {
      return (await api(again, instance, 'GET', `/api/v3/projects/${encodeURIComponent(fullPath)}`)).status;
    } finally {
      again.signal('SIGTERM');
      await again.exited;
    }
  }

  function repoUrl(base: string, target: Instance): string {
    const url = new URL(`${base}/root/busy.git`);
    url.username = 'root';
    url.password = target.rootToken;
    return url.toString();
  }

  it('SIGTERM: stops accepting, lets the clone and the POST finish, exits 0 without cutting anything', async () => {
    const { labrador, proxy, clone, target, post } = await startWorkInFlight(
      '15000',
      'written-while-stopping',
    );
    try {
      labrador.signal('SIGTERM');
      await labrador.waitForOutput(/SIGTERM: stopping/);
      await refusesConnections(portOf(labrador));
      assert.equal(labrador.child.exitCode, null, 'still running while work is in flight');

      proxy.release();
      post.sendBody();
      const cloned = await clone;
      assert.equal(cloned.code, 0, cloned.stderr);
      assert.equal((await git.ok(['rev-parse', 'HEAD'], target)).trim(), pushed);
      await post.closed;
      assert.equal(post.status(), 201, 'the POST was answered');

      const exited = await labrador.exited;
      assert.deepEqual(exited, { code: 0, signal: null }, labrador.stderr);
      // It stopped because the work was done, not because the 15 s bound ran out.
      assert.match(labrador.stdout, /"msg":"stopped in \d+ ms"/);
      assert.doesNotMatch(labrador.stdout, /still busy after/);
    } finally {
      proxy.close();
      await labrador.kill();
    }

    // Acknowledged means committed.
    assert.equal(await statusAfterRestart('root/written-while-stopping'), 200);
  });

  it('SIGINT past the bound: connections are cut, the clone fails cleanly, the POST is neither answered nor stored', async () => {
    const { labrador, proxy, clone, target, post } = await startWorkInFlight('500', 'never-sent');
    try {
      labrador.signal('SIGINT');
      const exited = await labrador.exited;
      assert.deepEqual(exited, { code: 0, signal: null }, labrador.stderr);
      // The bound, not the work, ended it: it says so, and the work in flight was cut (below).
      assert.match(labrador.stdout, /still busy after 500 ms: closing the connections that are left/);

      await post.closed;
      assert.equal(post.status(), undefined, 'no answer to the POST');
      proxy.release();
      const cloned = await clone;
      assert.notEqual(cloned.code, 0);
      assert.match(cloned.stderr, /fatal|error/i);
      assert.equal(fs.existsSync(target), false, 'git removed the half-made clone');
    } finally {
      proxy.close();
      await labrador.kill();
    }

    assert.equal(await statusAfterRestart('root/never-sent'), 404);
  });
});
