// Hostile input at the boundary: NUL bytes, text that is not UTF-8, ids past 32 bits, and requests
// node's parser refuses. Each answers a clear 4xx with a JSON body, and nothing is left behind.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';

describe('the input boundary', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: TestProject;
  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'nul-owner');
    project = await createProject(t, { owner, path: 'nul-project', commit: true });
  });
  after(() => t.close());

  it('refuses a NUL byte in a branch name in the path with 400, not 500', async () => {
    for (const suffix of ['', '/protect', '/unprotect']) {
      const method = suffix === '' ? 'GET' : 'PUT';
      const url = `/api/v3/projects/${project.id}/repository/branches/mas%00ter${suffix}`;
      const response = await t.request(method, url, { token: owner.token });
      assert.equal(response.status, 400, `${method} ${url}`);
      assert.deepEqual(response.body, { error: 'path is invalid' });
    }
  });

  it('refuses a NUL byte in a body field, and stores nothing', async () => {
    const edit = await t.request('PUT', `/api/v3/projects/${project.id}`, {
      token: owner.token,
      body: { name: 'nul-project', default_branch: 'mas\u0000ter' },
    });
    assert.equal(edit.status, 400);
    assert.deepEqual(edit.body, { error: 'default_branch is invalid' });

    const user = await t.request('POST', '/api/v3/users', {
      token: t.rootToken,
      body: { email: 'a\u0000b@example.com', password: 'password1234', username: 'nulmail', name: 'Nul' },
    });
    assert.equal(user.status, 400);
    const lookup = await t.request('GET', '/api/v3/users?username=nulmail', { token: t.rootToken });
    assert.deepEqual(lookup.body, []);
  });

  it('leaves no repository behind when a create for a user is refused', async () => {
    const response = await t.request('POST', `/api/v3/projects/user/${owner.id}`, {
      token: t.rootToken,
      form: { name: 'orphan', default_branch: 'x\u0000y' },
    });
    assert.equal(response.status, 400);
    const repo = path.join(t.config.dataDir, 'repositories', owner.username, 'orphan.git');
    assert.equal(fs.existsSync(repo), false);
  });

  it('refuses a NUL byte in a query parameter', async () => {
    const query = await t.request('GET', '/api/v3/projects?search=a%00b', { token: owner.token });
    assert.equal(query.status, 400);
    assert.deepEqual(query.body, { error: 'search is invalid' });
  });

  it('answers a NUL byte in a key or email with the validation hash those routes use', async () => {
    const email = await t.request('POST', '/api/v3/user/emails', {
      token: owner.token,
      body: { email: 'a\u0000b@example.com' },
    });
    assert.equal(email.status, 400);
    assert.deepEqual(email.body, { message: { email: ['is invalid'] } });
  });

  it('refuses a JSON body that is not valid UTF-8 instead of storing replacement characters', async () => {
    const response = await t.server.app.inject({
      method: 'PUT',
      url: `/api/v3/projects/${project.id}`,
      headers: { 'private-token': owner.token, 'content-type': 'application/json' },
      payload: Buffer.concat([
        Buffer.from('{"name":"nul-project","description":"bad '),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]),
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(JSON.parse(response.body), { error: 'Body is not valid UTF-8' });
    const form = await t.server.app.inject({
      method: 'PUT',
      url: `/api/v3/projects/${project.id}`,
      headers: { 'private-token': owner.token, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=nul-project&description=bad%FF%FE',
    });
    assert.equal(form.statusCode, 400);
    const shown = await t.request('GET', `/api/v3/projects/${project.id}`, { token: owner.token });
    assert.equal(shown.body.description, 'About nul-project');
  });

  it('answers a path that is not valid percent-encoding with a plain 400, not echoing it', async () => {
    for (const url of ['/api/v3/projects/%ff', '/api/v3/projects/%zz/hooks']) {
      const response = await t.request('GET', url, { token: owner.token });
      assert.equal(response.status, 400, url);
      assert.deepEqual(response.body, { message: '400 Bad Request' });
    }
  });

  it('takes any 32-bit id as an id (404 when absent) and refuses what is not a number', async () => {
    for (const id of ['2147483000', '2147483647', '2147483648', '99999999999999999999']) {
      const response = await t.request('GET', `/api/v3/hooks/${id}`, { token: t.rootToken });
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { message: '404 Not found' });
    }
    const word = await t.request('GET', '/api/v3/hooks/abc', { token: t.rootToken });
    assert.equal(word.status, 400);
    assert.deepEqual(word.body, { error: 'id is invalid' });
  });

  it('says Connection: close when it refuses a malformed request line or an over-long URL', async () => {
    const address = await t.server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const exchange = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const malformed = await exchange('GET /api/v3/version HTTP/1.1 extra\r\nHost: x\r\n\r\n');
    assert.match(malformed, /^HTTP\/1\.1 400 /);
    assert.match(malformed, /\r\nConnection: close\r\n/i);
    assert.match(malformed, /\{"message":"400 Bad Request"\}$/);
    const long = await exchange(`GET /api/v3/version?q=${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.match(long, /^HTTP\/1\.1 431 /);
    assert.match(long, /\r\nConnection: close\r\n/i);
  });
});
