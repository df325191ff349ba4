// receive-pack started ahead (src/git-http/receive-pack-prestart.ts): the process started after a push's
// ref advertisement serves the POST that follows on the same connection only when it is still the same
// repository; a project deleted and made again under the same path in between gets the push itself.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, pkt } from '../helpers/git.ts';

const ZERO = '0'.repeat(40);

describe('receive-pack started ahead of the pack', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  // One connection for the whole conversation, as git's HTTP client keeps it.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'early');
  });
  after(async () => {
    agent.destroy();
    client.close();
    await t.close();
  });

  function request(method: string, path: string, body?: Buffer) {
    const auth = Buffer.from(`${owner.username}:${owner.password}`).toString('base64');
    return new Promise<{ status: number; body: Buffer; socket: unknown }>((resolve, reject) => {
      const outgoing = http.request(
        `${base}${path}`,
        {
          method,
          agent,
          headers: {
            authorization: `Basic ${auth}`,
            ...(body ? { 'content-type': 'application/x-git-receive-pack-request' } : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode!, body: Buffer.concat(chunks), socket: outgoing.socket }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  async function newProject(): Promise<{ id: number; path: string }> {
    const created = await t.request('POST', '/api/v3/projects', {
      token: owner.token,
      body: { name: 'again' },
    });
    assert.equal(created.status, 201, created.text);
    return { id: created.body.id, path: created.body.path_with_namespace };
  }

  it('a project made again under the same path between advertisement and pack gets the push', async () => {
    const work = await client.workTree('early', ['first commit']);
    const sha = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    const pack = execFileSync('git', ['pack-objects', '--revs', '--stdout', '-q'], {
      cwd: work,
      input: `${sha}\n`,
    });
    const body = Buffer.concat([
      Buffer.from(`${pkt(`${ZERO} ${sha} refs/heads/master\0report-status\n`)}0000`),
      pack,
    ]);

    const first = await newProject();
    const advertised = await request('GET', `/${first.path}.git/info/refs?service=git-receive-pack`);
    assert.equal(advertised.status, 200);

    // Deleted and made again: a new, empty repository directory at the same place.
    assert.equal(
      (await t.request('DELETE', `/api/v3/projects/${first.id}`, { token: owner.token })).status,
      200,
    );
    const second = await newProject();
    assert.equal(second.path, first.path);

    const pushed = await request('POST', `/${second.path}.git/git-receive-pack`, body);
    assert.equal(pushed.socket, advertised.socket, 'the pack came on the advertisement’s connection');
    assert.equal(pushed.status, 200);
    assert.match(pushed.body.toString('latin1'), /ok refs\/heads\/master/);
    await t.server.deps.pushQueue.drain();

    const branch = await t.request('GET', `/api/v3/projects/${second.id}/repository/branches/master`, {
      token: owner.token,
    });
    assert.equal(branch.status, 200, branch.text);
    assert.equal(branch.body.commit.id, sha);
  });
});
