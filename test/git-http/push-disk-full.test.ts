// A git push while the disk under the data dir is full (a small tmpfs the test mounts and fills): the
// client is told the server's reason every time and soon (never a cut connection or a hang), nothing is
// corrupted (the branch stays where it was, git fsck is clean), and pushes work again once space is freed.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { emptyWriteAheadLog, mountSmallDisk, type SmallDisk } from '../helpers/small-disk.ts';

const disk = mountSmallDisk(48);
const skip = typeof disk === 'string' && process.env.CI !== 'true' ? disk : false;

describe('a push on a full disk', { skip }, () => {
  let small: SmallDisk;
  let t: TestApp;
  let client: GitClient;
  let owner: TestUser;
  let project: TestProject;
  let work: string;
  before(async () => {
    if (typeof disk === 'string') throw new Error(disk);
    small = disk;
    t = await startTestApp({ LABRADOR_DATA_DIR: path.join(small.dir, 'data'), LABRADOR_PACK_CACHE_MB: '0' });
    const base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'fullpusher');
    project = await createProject(t, { owner, path: 'full-push' });
    work = await client.workTree('work', ['first']);
    await client.ok(
      ['remote', 'add', 'origin', repoUrl(base, project.fullPath, owner.username, owner.password)],
      work,
    );
    await client.ok(['push', '-q', 'origin', 'master'], work);
  });
  after(async () => {
    await t?.close();
    client?.close();
    small?.unmount();
  });

  const tip = async () =>
    (await client.ok(['ls-remote', 'origin', 'refs/heads/master'], work)).split('\t')[0];

  it('tells the client why, every time, and corrupts nothing', async () => {
    const before = await tip();
    const failures: string[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      fs.writeFileSync(path.join(work, `blob-${attempt}.bin`), crypto.randomBytes(256 * 1024));
      await client.ok(['add', '-A'], work);
      await client.ok(['commit', '-q', '-m', `attempt ${attempt}`], work);
      // Half the attempts with an empty write-ahead log, so the push's own record needs new space too.
      if (attempt % 2 === 0 && !t.config.databaseUrl) {
        small.free();
        emptyWriteAheadLog(t.config.dataDir);
      }
      small.fill();
      const push = await client.run(['push', 'origin', 'master'], work, {
        GIT_HTTP_LOW_SPEED_LIMIT: '1',
        GIT_HTTP_LOW_SPEED_TIME: '30',
      });
      const said = push.stderr;
      if (push.code === 0) failures.push(`attempt ${attempt}: accepted on a full disk`);
      else if (
        !/unpack error|remote rejected|No space left on device|Insufficient Storage|disk is full/i.test(said)
      ) {
        failures.push(`attempt ${attempt}: ${said.trim()}`);
      }
    }
    small.free();
    assert.deepEqual(failures, []);
    assert.equal(await tip(), before);
    const fsck = await client.run(['fsck', '--no-dangling'], project.repoPath);
    assert.equal(fsck.code, 0, fsck.stderr);
    await client.ok(['push', '-q', 'origin', 'master'], work);
    assert.equal(await tip(), (await client.ok(['rev-parse', 'HEAD'], work)).trim());
  });
});
