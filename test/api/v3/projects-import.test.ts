import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';

// A real remote: a bare repository served over git's "dumb" HTTP protocol by a static file server.
function serveDirectory(root: string, host = '127.0.0.1'): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const file = path.join(root, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, host, () => resolve(server)));
}

/** A server on 127.0.0.1 that redirects every request to the same path on `target`. */
function redirectTo(target: string): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    response.writeHead(302, { location: `${target}${request.url}` }).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('POST /projects with import_url', () => {
  let t: TestApp;
  let user: TestUser;
  let server: http.Server;
  let remote: string;
  let head: string;
  let work: string;

  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'importer');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-import-'));
    const src = path.join(work, 'src');
    const git = (args: string[], cwd = work) =>
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd })
        .toString()
        .trim();
    git(['init', '--quiet', '-b', 'master', src]);
    fs.writeFileSync(path.join(src, 'README.md'), 'hello\n');
    git(['add', 'README.md'], src);
    git(['commit', '--quiet', '-m', 'first'], src);
    head = git(['rev-parse', 'HEAD'], src);
    git(['clone', '--bare', '--quiet', src, path.join(work, 'served', 'repo.git')]);
    git(['update-server-info'], path.join(work, 'served', 'repo.git'));
    server = await serveDirectory(path.join(work, 'served'));
    remote = `http://127.0.0.1:${(server.address() as AddressInfo).port}/repo.git`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('clones the remote repository and records an "imported" event', async () => {
    const r = await t.request('POST', '/api/v3/projects', {
      token: user.token,
      body: { name: 'copied', import_url: remote },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const dir = path.join(t.config.dataDir, 'repositories', 'importer', 'copied.git');
    const sha = execFileSync('git', ['rev-parse', 'refs/heads/master'], { cwd: dir }).toString().trim();
    assert.equal(sha, head);
    const events = await t.request('GET', `/api/v3/projects/${r.body.id}/events`, { token: user.token });
    assert.equal(events.body[0].action_name, 'imported');
  });

  it('follows no redirect: one to a refused address (127.0.0.2, not allowed) imports nothing', async () => {
    const refused = await serveDirectory(path.join(work, 'served'), '127.0.0.2');
    const redirector = await redirectTo(`http://127.0.0.2:${(refused.address() as AddressInfo).port}`);
    try {
      // The refused server itself is refused when named directly...
      const direct = await t.request('POST', '/api/v3/projects', {
        token: user.token,
        body: {
          name: 'direct',
          import_url: `http://127.0.0.2:${(refused.address() as AddressInfo).port}/repo.git`,
        },
      });
      assert.equal(direct.status, 400);
      assert.match(direct.body.message.import_url[0], /^is blocked: Requests to localhost are not allowed/);
      // ...and a redirect from an allowed one does not reach it.
      const r = await t.request('POST', '/api/v3/projects', {
        token: user.token,
        body: {
          name: 'redirected',
          import_url: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/repo.git`,
        },
      });
      assert.equal(r.status, 422, r.text);
      assert.match(r.body.message.import_url[0], /^could not be imported: /);
      assert.ok(!fs.existsSync(path.join(t.config.dataDir, 'repositories', 'importer', 'redirected.git')));
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
      await new Promise((resolve) => refused.close(resolve));
    }
  });

  it('answers a failed import with a 4xx and leaves no project or directory behind', async () => {
    const missing = remote.replace('repo.git', 'missing.git');
    let r = await t.request('POST', '/api/v3/projects', {
      token: user.token,
      body: { name: 'broken', import_url: missing },
    });
    assert.equal(r.status, 422);
    assert.match(r.body.message.import_url[0], /^could not be imported: /);
    const rows = await t.server.deps.db.kysely
      .selectFrom('projects')
      .select('id')
      .where('path', '=', 'broken')
      .execute();
    assert.equal(rows.length, 0);
    assert.ok(!fs.existsSync(path.join(t.config.dataDir, 'repositories', 'importer', 'broken.git')));
    assert.deepEqual(fs.readdirSync(path.join(t.config.dataDir, 'tmp')), []);

    r = await t.request('POST', '/api/v3/projects', {
      token: user.token,
      body: { name: 'local', import_url: '/etc/passwd' },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: { import_url: ['must be a valid URL'] } });
    r = await t.request('POST', '/api/v3/projects', {
      token: user.token,
      body: { name: 'local', import_url: 'file:///tmp/x.git' },
    });
    assert.equal(r.status, 400);
  });
});
