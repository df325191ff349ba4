import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { AccessLevel, Visibility } from '../../src/domain/types.ts';

async function events(t: TestApp, projectId: number) {
  // A push's events are recorded just after `git push` returns: wait for that.
  await t.server.deps.pushQueue.drain();
  return t.server.deps.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute();
}

async function projectRow(t: TestApp, id: number) {
  return t.server.deps.db.kysely
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('git smart HTTP', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let master: TestUser;
  let developer: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let secret: TestProject;

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'alice');
    master = await createUser(t, 'mona');
    developer = await createUser(t, 'dave');
    reporter = await createUser(t, 'rita');
    guest = await createUser(t, 'gus');
    stranger = await createUser(t, 'stan');
    secret = await createProject(t, { owner, path: 'secret' });
    await addProjectMember(t, secret.id, master.id, AccessLevel.Master);
    await addProjectMember(t, secret.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, secret.id, reporter.id, AccessLevel.Reporter);
    await addProjectMember(t, secret.id, guest.id, AccessLevel.Guest);
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('clones an empty project, then the first push sets the default branch and records events', async () => {
    const url = repoUrl(base, secret.fullPath, owner.username, owner.password);
    const clone = await client.run(['clone', url, 'empty-clone']);
    assert.equal(clone.code, 0, clone.stderr);
    assert.match(clone.stderr, /empty repository/);

    const work = await client.workTree('first', ['one', 'two', 'three']);
    await client.ok(['checkout', '-q', '-b', 'develop'], work);
    await client.ok(['push', '-q', url, 'develop', 'master'], work);

    const project = await projectRow(t, secret.id);
    assert.equal(project.default_branch, 'master');
    const head = await client.ok(['--git-dir', secret.repoPath, 'symbolic-ref', 'HEAD']);
    assert.equal(head.trim(), 'refs/heads/master');

    const rows = await events(t, secret.id);
    assert.equal(rows.length, 2);
    const byRef = new Map(rows.map((row) => [JSON.parse(row.data!).ref, JSON.parse(row.data!)]));
    const pushed = byRef.get('refs/heads/master');
    assert.equal(pushed.before, '0000000000000000000000000000000000000000');
    assert.equal(pushed.total_commits_count, 3);
    assert.deepEqual(
      pushed.commits.map((c: any) => c.message),
      ['one\n', 'two\n', 'three\n'],
    );
    assert.equal(pushed.user_name, 'alice Name');
    assert.equal(pushed.repository.name, 'secret');
    assert.equal(pushed.commits[0].author.email, 'author@example.com');
    assert.match(pushed.commits[0].timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    assert.deepEqual(pushed.commits[0].added, ['one.txt']);
    assert.equal(rows[0].action, 5);

    const full = await client.run(['clone', url, 'full-clone']);
    assert.equal(full.code, 0, full.stderr);
    const log = await client.ok(['log', '--format=%s'], `${client.home}/full-clone`);
    assert.equal(log, 'three\ntwo\none\n');
  });

  it('pushes new branches and tags as pushed-new and tag_push events', async () => {
    const url = repoUrl(base, secret.fullPath, developer.username, developer.password);
    const work = `${client.home}/dev-work`;
    await client.ok(['clone', '-q', url, work]);
    await client.ok(['checkout', '-q', '-b', 'feature/login'], work);
    const sha = await client.commit(work, 'login form');
    await client.ok(['tag', '-a', 'v1.0', '-m', 'Release 1.0'], work);
    await client.ok(['push', '-q', url, 'feature/login', 'v1.0'], work);

    const rows = (await events(t, secret.id)).map((row) => JSON.parse(row.data!));
    const branch = rows.find((data) => data.ref === 'refs/heads/feature/login');
    assert.equal(branch.object_kind, 'push');
    assert.equal(branch.after, sha);
    assert.equal(branch.total_commits_count, 1, 'only the commit master does not have');
    assert.equal(branch.commits[0].id, sha);
    assert.equal(branch.user_id, developer.id);
    const tag = rows.find((data) => data.ref === 'refs/tags/v1.0');
    assert.equal(tag.object_kind, 'tag_push');
    assert.equal(tag.checkout_sha, sha);
    assert.equal(tag.message, 'Release 1.0\n');
    assert.equal(tag.total_commits_count, 1);
  });

  it('lets anonymous callers clone public projects and asks them for credentials on private ones', async () => {
    const open = await createProject(t, { owner, path: 'open', visibility: Visibility.Public });
    const ownerUrl = repoUrl(base, open.fullPath, owner.username, owner.password);
    const work = await client.workTree('open-work', ['public commit']);
    await client.ok(['push', '-q', ownerUrl, 'master'], work);

    const anonymous = await client.run([
      'clone',
      repoUrl(base, open.fullPath, undefined, undefined, ''),
      'anon',
    ]);
    assert.equal(anonymous.code, 0, anonymous.stderr);

    const refused = await client.run(['clone', repoUrl(base, secret.fullPath), 'anon-secret']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /could not read Username|Authentication failed/);

    const response = await fetch(`${base}/${secret.fullPath}.git/info/refs?service=git-upload-pack`);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Basic realm="Labrador"');
    // An unknown project looks the same to an anonymous caller.
    const unknown = await fetch(`${base}/alice/nothing.git/info/refs?service=git-upload-pack`);
    assert.equal(unknown.status, 401);
    // Anonymous push to a public project: asked for credentials.
    const push = await fetch(`${base}/${open.fullPath}.git/info/refs?service=git-receive-pack`);
    assert.equal(push.status, 401);
  });

  it('answers the advertisement with git content types and no-cache headers', async () => {
    const auth = 'Basic ' + Buffer.from(`${owner.username}:${owner.password}`).toString('base64');
    const response = await fetch(`${base}/${secret.fullPath}/info/refs?service=git-upload-pack`, {
      headers: { authorization: auth },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/x-git-upload-pack-advertisement');
    assert.match(response.headers.get('cache-control')!, /no-cache/);
    assert.equal(response.headers.get('pragma'), 'no-cache');
    const body = await response.text();
    assert.ok(body.startsWith('001e# service=git-upload-pack\n0000'), body.slice(0, 40));
    assert.match(body, /refs\/heads\/master/);
  });

  it("answers a protocol v2 advertisement as git's own, and follows a change of the repository's config", async () => {
    const auth = 'Basic ' + Buffer.from(`${owner.username}:${owner.password}`).toString('base64');
    const advertise = async () => {
      const response = await fetch(`${base}/${secret.fullPath}.git/info/refs?service=git-upload-pack`, {
        headers: { authorization: auth, 'git-protocol': 'version=2' },
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/x-git-upload-pack-advertisement');
      return response.text();
    };
    const fromGit = () =>
      client.ok(['upload-pack', '--stateless-rpc', '--advertise-refs', secret.repoPath], client.home, {
        GIT_PROTOCOL: 'version=2',
      });
    const first = await advertise();
    assert.ok(first.startsWith('000eversion 2\n'), first.slice(0, 40));
    assert.equal(first, await advertise());
    assert.doesNotMatch(first, /filter/);
    // A repository whose config allows partial clones advertises `filter` from the next request on.
    await client.ok(['--git-dir', secret.repoPath, 'config', 'uploadpack.allowFilter', 'true']);
    try {
      const changed = await advertise();
      assert.match(changed, /fetch=.*filter/);
      assert.equal(changed, await fromGit());
    } finally {
      await client.ok(['--git-dir', secret.repoPath, 'config', '--unset', 'uploadpack.allowFilter']);
    }
    assert.equal(await advertise(), first);
    // A v2 clone and ls-remote still work end to end.
    const url = repoUrl(base, secret.fullPath, owner.username, owner.password);
    assert.match(await client.ok(['-c', 'protocol.version=2', 'ls-remote', url]), /refs\/heads\/master/);
  });

  it('clones with the private token as password, and refuses wrong credentials with 401', async () => {
    const clone = await client.run([
      'clone',
      repoUrl(base, secret.fullPath, owner.username, owner.token),
      'token-clone',
    ]);
    assert.equal(clone.code, 0, clone.stderr);
    const wrong = await client.run([
      'clone',
      repoUrl(base, secret.fullPath, owner.username, 'wrong'),
      'wrong',
    ]);
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /Authentication failed/);
    // Someone else's token with this username is no good either.
    const auth = 'Basic ' + Buffer.from(`${owner.username}:${developer.token}`).toString('base64');
    const response = await fetch(`${base}/${secret.fullPath}.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: auth },
    });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Basic realm="Labrador"');
  });

  it('hides private projects from non-members (404) and refuses guests (403) and reporters pushing (403)', async () => {
    const status = async (user: TestUser, service: string) => {
      const auth = 'Basic ' + Buffer.from(`${user.username}:${user.password}`).toString('base64');
      const response = await fetch(`${base}/${secret.fullPath}.git/info/refs?service=${service}`, {
        headers: { authorization: auth },
      });
      await response.arrayBuffer();
      return response.status;
    };
    assert.equal(await status(stranger, 'git-upload-pack'), 404);
    assert.equal(await status(guest, 'git-upload-pack'), 403);
    assert.equal(await status(reporter, 'git-upload-pack'), 200);
    assert.equal(await status(reporter, 'git-receive-pack'), 403);
    assert.equal(await status(developer, 'git-receive-pack'), 200);

    const clone = await client.run([
      'clone',
      repoUrl(base, secret.fullPath, stranger.username, stranger.password),
      'x',
    ]);
    assert.notEqual(clone.code, 0);
    assert.match(clone.stderr, /not found/i);
  });

  it('refuses blocked users', async () => {
    const blocked = await createUser(t, 'bert');
    await addProjectMember(t, secret.id, blocked.id, AccessLevel.Developer);
    await t.server.deps.db.kysely
      .updateTable('users')
      .set({ state: 'blocked' })
      .where('id', '=', blocked.id)
      .execute();
    const auth = 'Basic ' + Buffer.from(`${blocked.username}:${blocked.password}`).toString('base64');
    const response = await fetch(`${base}/${secret.fullPath}.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: auth },
    });
    assert.equal(response.status, 403);
    assert.match(await response.text(), /blocked/);
  });

  it('serves internal projects to signed-in users but not to external ones', async () => {
    const inside = await createProject(t, { owner, path: 'inside', visibility: Visibility.Internal });
    const work = await client.workTree('inside-work', ['internal commit']);
    await client.ok(
      ['push', '-q', repoUrl(base, inside.fullPath, owner.username, owner.password), 'master'],
      work,
    );
    const clone = await client.run([
      'clone',
      repoUrl(base, inside.fullPath, stranger.username, stranger.token),
      'in',
    ]);
    assert.equal(clone.code, 0, clone.stderr);

    const external = await createUser(t, 'ext', { external: true });
    const auth = 'Basic ' + Buffer.from(`${external.username}:${external.password}`).toString('base64');
    const response = await fetch(`${base}/${inside.fullPath}.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: auth },
    });
    assert.equal(response.status, 404);
    const anonymous = await fetch(`${base}/${inside.fullPath}.git/info/refs?service=git-upload-pack`);
    assert.equal(anonymous.status, 401);
  });

  it('does at most three indexed queries before git starts (one for anonymous public fetches)', async () => {
    const queries: string[] = [];
    t.server.deps.db.onQuery = (sql) => queries.push(sql);
    try {
      const auth = 'Basic ' + Buffer.from(`${owner.username}:${owner.token}`).toString('base64');
      const response = await fetch(`${base}/${secret.fullPath}.git/info/refs?service=git-upload-pack`, {
        headers: { authorization: auth },
      });
      await response.arrayBuffer();
      assert.equal(response.status, 200);
      assert.ok(queries.length <= 3, queries.join('\n'));
      queries.length = 0;
      const anonymous = await fetch(`${base}/${owner.username}/open.git/info/refs?service=git-upload-pack`);
      await anonymous.arrayBuffer();
      assert.equal(anonymous.status, 200);
      assert.equal(queries.length, 1, queries.join('\n'));
    } finally {
      t.server.deps.db.onQuery = undefined;
    }
  });

  it('streams a push larger than the client post buffer (chunked, after the probe request)', async () => {
    const url = repoUrl(base, secret.fullPath, owner.username, owner.password);
    const work = `${client.home}/big-work`;
    await client.ok(['clone', '-q', url, work]);
    fs.writeFileSync(`${work}/big.bin`, crypto.randomBytes(3 * 1024 * 1024));
    await client.ok(['add', 'big.bin'], work);
    await client.ok(['commit', '-q', '-m', 'big file'], work);
    await client.ok(['-c', 'http.postBuffer=65536', 'push', '-q', url, 'HEAD:refs/heads/big'], work);
    const sha = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    const remote = await client.ok(['--git-dir', secret.repoPath, 'rev-parse', 'refs/heads/big']);
    assert.equal(remote.trim(), sha);
    const rows = await events(t, secret.id);
    const data = JSON.parse(rows[rows.length - 1].data!);
    assert.equal(data.ref, 'refs/heads/big');
    assert.deepEqual(data.commits[0].added, ['big.bin']);
  });
});
