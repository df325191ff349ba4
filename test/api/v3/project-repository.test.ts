// The repository a project create makes is exactly what `git init --bare` makes on this machine (the same
// folders, files, bytes and modes) less the sample hooks git never runs, with HEAD on the project's
// default branch; whatever made it leaves nothing behind in the repositories' scratch space.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { git } from '../../../src/git/exec.ts';
import { repositoriesScratch, repositoryPath } from '../../../src/git/repository.ts';

/** Every entry under `dir`: its relative path, kind, permission bits and, for files, content. */
function describeTree(dir: string): string[] {
  const lines: string[] = [];
  const walk = (relative: string) => {
    for (const name of fs.readdirSync(path.join(dir, relative)).sort()) {
      const entry = path.join(relative, name);
      const stat = fs.statSync(path.join(dir, entry));
      const mode = (stat.mode & 0o777).toString(8);
      if (stat.isDirectory()) {
        lines.push(`dir ${entry} ${mode}`);
        walk(entry);
      } else {
        const content = fs.readFileSync(path.join(dir, entry)).toString('base64');
        lines.push(`file ${entry} ${mode} ${content}`);
      }
    }
  };
  walk('');
  return lines;
}

describe('the repository of a new project', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  /** What git itself makes for a new project with HEAD on `branch`, less its `*.sample` hooks. */
  async function madeByGit(branch: string): Promise<string[]> {
    const dir = fs.mkdtempSync(path.join(t.config.dataDir, 'by-git-'));
    const repo = path.join(dir, 'expected.git');
    await git(['init', '--bare', '--quiet', repo]);
    await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], { cwd: repo });
    const tree = describeTree(repo);
    fs.rmSync(dir, { recursive: true });
    assert.ok(tree.some((line) => /^file hooks\/\S+\.sample /.test(line)));
    return tree.filter((line) => !/^file hooks\/\S+\.sample /.test(line));
  }

  it('is what git init --bare makes less the sample hooks, for each of several creates', async () => {
    const expected = await madeByGit('master');
    assert.ok(expected.some((line) => line.startsWith('file HEAD ')));
    for (const name of ['first', 'second', 'third']) {
      const created = await t.request('POST', '/api/v3/projects', { token: t.rootToken, body: { name } });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(describeTree(repositoryPath(t.config.dataDir, 'root', name)), expected, name);
    }
  });

  it('has HEAD on the default branch the create names (POST /projects/user/:user_id)', async () => {
    const user = await t.request('GET', '/api/v3/user', { token: t.rootToken });
    const created = await t.request('POST', `/api/v3/projects/user/${(user.body as { id: number }).id}`, {
      token: t.rootToken,
      body: { name: 'developing', default_branch: 'develop' },
    });
    assert.equal(created.status, 201, created.text);
    const repo = repositoryPath(t.config.dataDir, 'root', 'developing');
    assert.deepEqual(describeTree(repo), await madeByGit('develop'));
    assert.equal((await git(['symbolic-ref', 'HEAD'], { cwd: repo })).trim(), 'refs/heads/develop');
  });

  it('leaves nothing in the scratch space', async () => {
    const created = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'tidy' },
    });
    assert.equal(created.status, 201, created.text);
    const scratch = repositoriesScratch(t.config.dataDir);
    const left = fs.existsSync(scratch) ? fs.readdirSync(scratch) : [];
    assert.deepEqual(left, []);
  });
});
