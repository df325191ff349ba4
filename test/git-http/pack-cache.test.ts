// Stored upload-pack answers (src/storage/pack-cache.ts): a repeated clone is answered from the store,
// and never with an answer that git would not give for the repository as it is now.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, repoUrl, pkt } from '../helpers/git.ts';

/**
 * A protocol v0 fetch of `want` with no haves. v0 is where git refuses a want that no ref reaches ("not
 * our ref"); git 2.39's v2 fetch serves any object the repository has, and so does the store then.
 */
function fetchRequest(want: string): string {
  return [pkt(`want ${want} ofs-delta no-progress\n`), '0000', pkt('done\n')].join('');
}

async function storedAnswers(t: TestApp): Promise<string[]> {
  await t.server.deps.packCache.settled();
  const root = path.join(t.server.deps.config.dataDir, 'cache', 'upload-pack');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).flatMap((dir) => fs.readdirSync(path.join(root, dir)));
}

describe('stored upload-pack answers', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let project: TestProject;
  let url: string;

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'packer');
    project = await createProject(t, { owner, path: 'cached' });
    url = repoUrl(base, project.fullPath, owner.username, owner.password);
    const work = await client.workTree('seed', ['one', 'two']);
    await client.ok(['push', '-q', url, 'HEAD:master'], work);
  });
  after(async () => {
    client.close();
    await t.close();
  });

  async function post(body: string) {
    const auth = Buffer.from(`${owner.username}:${owner.password}`).toString('base64');
    const response = await fetch(`${base}/${project.fullPath}.git/git-upload-pack`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${auth}`,
        'content-type': 'application/x-git-upload-pack-request',
      },
      body,
    });
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
  }

  it('answers a repeated clone from the store, and a clone after a push with the new commits', async () => {
    const first = await client.run(['clone', '-q', '--bare', url, 'first.git']);
    assert.equal(first.code, 0, first.stderr);
    const stored = await storedAnswers(t);
    assert.equal(stored.length, 1, `one answer stored: ${stored.join(', ')}`);

    const hits = t.server.deps.packCache.hits;
    const second = await client.run(['clone', '-q', '--bare', url, 'second.git']);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(t.server.deps.packCache.hits, hits + 1, 'the second clone was answered from the store');
    assert.deepEqual(await storedAnswers(t), stored);
    await client.ok(['--git-dir', path.join(client.home, 'second.git'), 'fsck', '--strict']);

    // Any ref change makes a new key: the next clone has the pushed commit.
    const work = await client.workTree('more', ['one', 'two']);
    await client.ok(['fetch', '-q', url, 'master'], work);
    await client.ok(['reset', '-q', '--hard', 'FETCH_HEAD'], work);
    const pushed = await client.commit(work, 'three');
    await client.ok(['push', '-q', url, 'HEAD:master'], work);
    await t.server.deps.pushQueue.drain();
    const third = await client.run(['clone', '-q', '--bare', url, 'third.git']);
    assert.equal(third.code, 0, third.stderr);
    const tip = await client.ok(['--git-dir', path.join(client.home, 'third.git'), 'rev-parse', 'master']);
    assert.equal(tip.trim(), pushed);
  });

  it('never serves a stored pack for a commit that is no longer reachable from a ref', async () => {
    const work = await client.workTree('secret', ['base']);
    await client.ok(['fetch', '-q', url, 'master'], work);
    await client.ok(['reset', '-q', '--hard', 'FETCH_HEAD'], work);
    const leaked = await client.commit(work, 'a password, committed by mistake');
    await client.ok(['push', '-q', url, 'HEAD:refs/heads/leak'], work);
    await t.server.deps.pushQueue.drain();

    const request = fetchRequest(leaked);
    const served = await post(request);
    assert.equal(served.status, 200);
    assert.ok(served.body.includes('PACK'), 'the tip is fetched while a branch holds it');
    await storedAnswers(t);
    const hits = t.server.deps.packCache.hits;
    assert.equal((await post(request)).body.includes('PACK'), true);
    assert.equal(t.server.deps.packCache.hits, hits + 1, 'the same request again is answered from the store');

    // The branch is deleted: the same request bytes must now be refused, as git refuses them.
    await client.ok(['push', '-q', url, ':refs/heads/leak'], work);
    await t.server.deps.pushQueue.drain();
    const refused = await post(request);
    assert.equal(refused.body.includes('PACK'), false, refused.body.toString('latin1').slice(0, 200));
    assert.match(refused.body.toString('latin1'), /not our ref/);
  });
});

describe('stored upload-pack answers switched off', () => {
  it('keeps nothing with LABRADOR_PACK_CACHE_MB=0 and still clones', async () => {
    const t = await startTestApp({ LABRADOR_PACK_CACHE_MB: '0' });
    const client = new GitClient();
    try {
      const base = await listen(t);
      const owner = await createUser(t, 'nocache');
      const project = await createProject(t, { owner, path: 'plain' });
      const url = repoUrl(base, project.fullPath, owner.username, owner.password);
      const work = await client.workTree('seed', ['one']);
      await client.ok(['push', '-q', url, 'HEAD:master'], work);
      for (const name of ['a.git', 'b.git']) {
        const clone = await client.run(['clone', '-q', '--bare', url, name]);
        assert.equal(clone.code, 0, clone.stderr);
      }
      assert.deepEqual(await storedAnswers(t), []);
      assert.equal(t.server.deps.packCache.hits, 0);
    } finally {
      client.close();
      await t.close();
    }
  });
});
