// Merges without a work tree, against real repositories: the merged tree and a two-parent commit where
// git itself would merge cleanly, the conflicting paths (and nothing referenced) where it would not, and
// 8.13's default message.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GitClient } from '../helpers/git.ts';
import { canBeMerged, defaultMergeMessage, mergeTree, writeMergeCommit } from '../../src/git/merges.ts';

describe('git merges without a work tree', () => {
  let client: GitClient;
  let work: string;
  let bare: string;
  const rev = async (name: string) => (await client.ok(['rev-parse', name], work)).trim();
  const write = (name: string, content: string) => fs.writeFileSync(path.join(work, name), content);
  const commit = async (message: string) => {
    await client.ok(['add', '-A'], work);
    await client.ok(['commit', '-q', '-m', message], work);
    return rev('HEAD');
  };

  before(async () => {
    client = new GitClient();
    work = await client.workTree('merges');
    write('shared.txt', 'one\ntwo\nthree\n');
    await commit('base');
    await client.ok(['checkout', '-q', '-b', 'clean'], work);
    write('clean.txt', 'clean\n');
    await commit('clean side');
    await client.ok(['checkout', '-q', '-b', 'clash', 'master'], work);
    write('shared.txt', 'one\nTWO from clash\nthree\n');
    await commit('clash side');
    await client.ok(['checkout', '-q', 'master'], work);
    write('shared.txt', 'one\nTWO from master\nthree\n');
    await commit('master side');
    bare = path.join(client.home, 'merges.git');
    await client.ok(['clone', '-q', '--bare', work, bare]);
  });
  after(() => client.close());

  it('merges cleanly into a commit with parents [target, source] and the tree git merge makes', async () => {
    const [target, source] = [await rev('master'), await rev('clean')];
    assert.equal(await canBeMerged(bare, target, source), true);
    const id = await writeMergeCommit(bare, {
      target,
      source,
      message: 'Merge it',
      author: { name: 'Merger', email: 'merger@example.com' },
      time: 1_700_000_000,
    });
    assert.ok(id);
    const parents = (
      await client.ok(['--git-dir', bare, 'log', '-1', '--format=%P%n%an <%ae>%n%B', id])
    ).split('\n');
    assert.deepEqual(parents.slice(0, 3), [`${target} ${source}`, 'Merger <merger@example.com>', 'Merge it']);
    // The same tree as `git merge --no-ff` in a work tree.
    await client.ok(['merge', '-q', '--no-ff', '-m', 'reference', 'clean'], work);
    assert.equal(
      await rev('HEAD^{tree}'),
      (await client.ok(['--git-dir', bare, 'rev-parse', `${id}^{tree}`])).trim(),
    );
    await client.ok(['reset', '-q', '--hard', target], work);
  });

  it('reports the conflicting paths and writes no commit', async () => {
    const [target, source] = [await rev('master'), await rev('clash')];
    assert.deepEqual(await mergeTree(bare, target, source), { clean: false, conflicts: ['shared.txt'] });
    assert.equal(await canBeMerged(bare, target, source), false);
    const id = await writeMergeCommit(bare, {
      target,
      source,
      message: 'never',
      author: { name: 'M', email: 'm@example.com' },
    });
    assert.equal(id, null);
  });

  it('throws for a commit the repository does not have', async () => {
    await assert.rejects(mergeTree(bare, await rev('master'), '1'.repeat(40)));
  });

  it('writes 8.13’s default message, with the description only when there is one', () => {
    const mr = { sourceBranch: 'feature', targetBranch: 'master', title: 'Add x', iid: 7 };
    assert.equal(
      defaultMergeMessage({ ...mr, description: 'Because.' }),
      "Merge branch 'feature' into 'master'\n\nAdd x\n\nBecause.\n\nSee merge request !7",
    );
    assert.equal(
      defaultMergeMessage({ ...mr, description: null }),
      "Merge branch 'feature' into 'master'\n\nAdd x\n\nSee merge request !7",
    );
  });
});
