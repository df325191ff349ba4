// Fetching over SSH with the real ssh and git clients, in both protocol versions: a protocol v2 clone is
// answered from the stored upload-pack answers HTTP also uses (no git process for a repeated clone),
// never with a stale one, and incremental fetches negotiate as with git itself.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gitSpawns } from '../../src/git/exec.ts';
import type { StartedSsh } from '../../src/ssh/server.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { gitSshCommand, makeKey, startTestSsh, type TestKey } from '../helpers/ssh.ts';

describe('fetching over SSH', () => {
  let t: TestApp;
  let ssh: StartedSsh;
  let client: GitClient;
  let owner: TestUser;
  let project: TestProject;
  let key: TestKey;
  let sshUrl: string;
  let httpUrl: string;

  /** git over SSH in protocol `version` (the client's GIT_PROTOCOL follows protocol.version). */
  function git(version: 0 | 2, args: string[], cwd?: string, env: Record<string, string> = {}) {
    return client.run(['-c', `protocol.version=${version}`, ...args], cwd, {
      GIT_SSH_COMMAND: gitSshCommand(key, ssh.port),
      ...env,
    });
  }

  async function ok(version: 0 | 2, args: string[], cwd?: string): Promise<string> {
    const result = await git(version, args, cwd);
    assert.equal(result.code, 0, `git ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  }

  /** The git processes the server starts while `action` runs. */
  async function spawnsDuring(action: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    gitSpawns.observe = (args) => seen.push(args.join(' '));
    try {
      await action();
    } finally {
      gitSpawns.observe = undefined;
    }
    return seen;
  }

  async function tip(gitDir: string): Promise<string> {
    return (await client.ok(['--git-dir', gitDir, 'rev-parse', 'master'])).trim();
  }

  /** A new commit on master, pushed over SSH; resolves with its id once the push is processed. */
  async function pushCommit(message: string): Promise<string> {
    const work = path.join(client.home, 'pusher');
    await ok(2, ['-C', work, 'pull', '-q', '--ff-only', 'origin', 'master']);
    const commit = await client.commit(work, message);
    await ok(2, ['-C', work, 'push', '-q', 'origin', 'HEAD:master']);
    await t.server.deps.pushQueue.drain();
    return commit;
  }

  before(async () => {
    t = await startTestApp();
    ssh = await startTestSsh(t);
    const base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'fetcher');
    project = await createProject(t, { owner, path: 'fetched', commit: true });
    key = makeKey(client.home, 'fetcher');
    const added = await t.request('POST', '/api/v3/user/keys', {
      token: owner.token,
      body: { title: 'fetcher', key: key.publicKey },
    });
    assert.equal(added.status, 201);
    sshUrl = `ssh://git@127.0.0.1:${ssh.port}/${project.fullPath}.git`;
    httpUrl = repoUrl(base, project.fullPath, owner.username, owner.password);
    await ok(2, ['clone', '-q', sshUrl, 'pusher']);
  });
  after(async () => {
    await ssh.server.stop();
    await t.close();
    client.close();
  });

  it('answers a repeated v2 clone from the stored answer, without starting git', async () => {
    const trace = await git(2, ['clone', '-q', '--bare', sshUrl, 'first.git'], undefined, {
      GIT_TRACE_PACKET: '1',
    });
    assert.equal(trace.code, 0, trace.stderr);
    assert.match(trace.stderr, /clone< version 2/);
    await t.server.deps.packCache.settled();

    const hits = t.server.deps.packCache.hits;
    const spawned = await spawnsDuring(() => ok(2, ['clone', '-q', '--bare', sshUrl, 'second.git']));
    assert.deepEqual(spawned, [], 'no git process for the repeated clone');
    assert.equal(t.server.deps.packCache.hits, hits + 1);
    const second = path.join(client.home, 'second.git');
    await client.ok(['--git-dir', second, 'fsck', '--strict']);
    assert.equal(await tip(second), await tip(path.join(client.home, 'first.git')));
  });

  it('shares stored answers with smart HTTP for the same request', async () => {
    await ok(2, ['clone', '-q', '--bare', sshUrl, 'warm.git']);
    await t.server.deps.packCache.settled();
    const hits = t.server.deps.packCache.hits;
    const cloned = await client.run(['clone', '-q', '--bare', httpUrl, 'over-http.git']);
    assert.equal(cloned.code, 0, cloned.stderr);
    assert.equal(t.server.deps.packCache.hits, hits + 1, 'the HTTP clone was answered from the store');
  });

  it('never answers a clone after a push with the pack from before it', async () => {
    await ok(2, ['clone', '-q', '--bare', sshUrl, 'before-push.git']);
    await t.server.deps.packCache.settled();
    const pushed = await pushCommit('after the stored clone');
    await ok(2, ['clone', '-q', '--bare', sshUrl, 'after-push.git']);
    assert.equal(await tip(path.join(client.home, 'after-push.git')), pushed);
  });

  for (const version of [0, 2] as const) {
    it(`clones and fetches incrementally in protocol v${version}`, async () => {
      const dir = `incremental-v${version}`;
      const trace = await git(version, ['clone', '-q', sshUrl, dir], undefined, { GIT_TRACE_PACKET: '1' });
      assert.equal(trace.code, 0, trace.stderr);
      if (version === 2) assert.match(trace.stderr, /< version 2/);
      else assert.doesNotMatch(trace.stderr, /< version 2/);
      const work = path.join(client.home, dir);

      const pushed = await pushCommit(`new for v${version}`);
      const fetched = await git(version, ['-C', work, 'fetch', 'origin'], undefined, {
        GIT_TRACE_PACKET: '1',
      });
      assert.equal(fetched.code, 0, fetched.stderr);
      assert.match(fetched.stderr, /> have [0-9a-f]{40}/, 'the fetch told the server what it has');
      assert.equal((await client.ok(['-C', work, 'rev-parse', 'origin/master'])).trim(), pushed);
      await client.ok(['-C', work, 'fsck', '--strict']);
    });
  }

  it('clones a pack many times larger than what the server sends ahead of OpenSSH', async () => {
    const work = path.join(client.home, 'pusher');
    // Incompressible, so the pack is as large as the file: 2 MiB against 256 KiB sent ahead.
    fs.writeFileSync(path.join(work, 'large.bin'), crypto.randomBytes(2 * 1024 * 1024));
    await client.ok(['add', 'large.bin'], work);
    await client.ok(['commit', '-q', '-m', 'large'], work);
    await ok(2, ['-C', work, 'push', '-q', 'origin', 'HEAD:master']);
    await t.server.deps.pushQueue.drain();
    const pushed = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    for (const version of [0, 2] as const) {
      const target = path.join(client.home, `large-v${version}.git`);
      await ok(version, ['clone', '-q', '--bare', sshUrl, target]);
      await client.ok(['--git-dir', target, 'fsck', '--strict']);
      assert.equal(await tip(target), pushed);
    }
  });

  it('fails a v2 fetch of an object the server does not have, with git’s message', async () => {
    const work = path.join(client.home, 'incremental-v2');
    const missing = 'f'.repeat(40);
    const result = await git(2, ['-C', work, 'fetch', 'origin', missing]);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /not our ref|upload-pack/);
  });
});
