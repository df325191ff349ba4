// A create (or fork) never deletes a repository on disk that it cannot prove is its own leftover: a
// repository of another database, an orphan of a deleted project, anything copied in by hand.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { listen } from '../../helpers/git.ts';
import { commitFile, createProject, createUser, type TestUser } from '../../helpers/factory.ts';
import { git } from '../../../src/git/exec.ts';
import { initBareRepository, repositoryPath } from '../../../src/git/repository.ts';
import { placeRepository, reserveRepository } from '../../../src/services/repository/repository-placement.ts';

const ON_DISK = 'There is already a repository with that name on disk';

/** A repository that belongs to nobody in this database, with one commit on master. */
async function foreignRepository(t: TestApp, namespacePath: string, projectPath: string): Promise<string> {
  const repo = repositoryPath(t.config.dataDir, namespacePath, projectPath);
  await initBareRepository(t.config.dataDir, repo);
  return commitFile(repo, 'precious.txt', 'not yours\n');
}

async function head(repo: string): Promise<string> {
  return (await git(['rev-parse', 'refs/heads/master'], { cwd: repo })).trim();
}

describe('project create and fork keep repositories they did not make', () => {
  let t: TestApp;
  let owner: TestUser;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'owner');
  });
  after(() => t.close());

  it('POST /projects over a foreign repository: 400 on path, nothing created, the repository intact', async () => {
    const commit = await foreignRepository(t, 'root', 'hello');
    const response = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'hello' },
    });
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(response.body, { message: { path: [ON_DISK] } });
    assert.equal(await head(repositoryPath(t.config.dataDir, 'root', 'hello')), commit);
    const shown = await t.request('GET', '/api/v3/projects/root%2Fhello', { token: t.rootToken });
    assert.equal(shown.status, 404);
    // The name is free again once the repository is moved away.
    fs.renameSync(
      repositoryPath(t.config.dataDir, 'root', 'hello'),
      path.join(t.config.dataDir, 'moved-away.git'),
    );
    const retry = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'hello' },
    });
    assert.equal(retry.status, 201, retry.text);
  });

  it('a path differing only in case counts as the same repository on disk', async () => {
    const commit = await foreignRepository(t, 'root', 'casey');
    const response = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'Casey', path: 'CASEY' },
    });
    assert.equal(response.status, 400);
    assert.equal(await head(repositoryPath(t.config.dataDir, 'root', 'casey')), commit);
  });

  it('an import over a foreign repository is refused the same way and leaves no scratch clone', async () => {
    const source = await createProject(t, { owner, path: 'import-source', visibility: 20, commit: true });
    const commit = await foreignRepository(t, 'root', 'imported');
    const base = await listen(t);
    const response = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'imported', import_url: `${base}/owner/${source.path}.git` },
    });
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(response.body, { message: { path: [ON_DISK] } });
    assert.equal(await head(repositoryPath(t.config.dataDir, 'root', 'imported')), commit);
    assert.deepEqual(fs.readdirSync(path.join(t.config.dataDir, 'tmp')), []);
  });

  it('POST /projects/fork/:id over a foreign repository: 409 on path, the repository intact', async () => {
    const source = await createProject(t, { owner, path: 'upstream', visibility: 20, commit: true });
    const commit = await foreignRepository(t, 'root', 'upstream');
    const response = await t.request('POST', `/api/v3/projects/fork/${source.id}`, { token: t.rootToken });
    assert.equal(response.status, 409, response.text);
    assert.deepEqual(response.body, { message: { path: [ON_DISK] } });
    assert.equal(await head(repositoryPath(t.config.dataDir, 'root', 'upstream')), commit);
    const shown = await t.request('GET', '/api/v3/projects/root%2Fupstream', { token: t.rootToken });
    assert.equal(shown.status, 404);
    const scratch = path.join(t.config.dataDir, 'repositories', '.tmp');
    assert.deepEqual(fs.existsSync(scratch) ? fs.readdirSync(scratch) : [], []);
  });

  it('an empty directory holds nothing to lose: the create takes it', async () => {
    fs.mkdirSync(repositoryPath(t.config.dataDir, 'root', 'vacant'), { recursive: true });
    const response = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'vacant' },
    });
    assert.equal(response.status, 201, response.text);
    const repo = repositoryPath(t.config.dataDir, 'root', 'vacant');
    assert.equal((await git(['rev-parse', '--is-bare-repository'], { cwd: repo })).trim(), 'true');
  });

  it('a half-made repository of a create that crashed before committing is replaced by the next create', async () => {
    const deps = t.server.deps;
    const target = repositoryPath(t.config.dataDir, 'root', 'phoenix');
    const reservation = await reserveRepository(deps, target);
    await assert.rejects(
      deps.db.kysely.transaction().execute(async (trx) => {
        await placeRepository(trx, deps, reservation, { defaultBranch: 'master' });
        await commitFile(target, 'half.txt', 'half-made\n');
        throw new Error('the process died here, before the commit');
      }),
      /the process died here/,
    );
    assert.ok(fs.existsSync(path.join(target, 'labrador-creation')));

    const response = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'phoenix' },
    });
    assert.equal(response.status, 201, response.text);
    const branches = await git(['for-each-ref', 'refs/heads/'], { cwd: target });
    assert.equal(branches, '', 'a new empty repository, not the half-made one');
    assert.equal(fs.existsSync(path.join(target, 'labrador-creation')), false);
  });

  it('a creation marker this database does not know proves nothing: refused', async () => {
    const commit = await foreignRepository(t, 'root', 'stranger');
    const repo = repositoryPath(t.config.dataDir, 'root', 'stranger');
    fs.writeFileSync(path.join(repo, 'labrador-creation'), 'a-token-of-another-database\n');
    const response = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'stranger' },
    });
    assert.equal(response.status, 400);
    assert.equal(await head(repo), commit);
  });

  it('a created project keeps no marker in its repository', async () => {
    const response = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'plain' },
    });
    assert.equal(response.status, 201);
    const repo = repositoryPath(t.config.dataDir, 'root', 'plain');
    assert.ok(fs.existsSync(path.join(repo, 'HEAD')));
    assert.equal(fs.existsSync(path.join(repo, 'labrador-creation')), false);
  });
});
