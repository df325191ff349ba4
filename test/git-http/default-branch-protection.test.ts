// GitLab 8.13's default `default_branch_protection` (fully protected): a repository without branches
// takes its first push from masters only, and the push that creates the default branch protects it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import {
  addProjectMember,
  addProtectedBranch,
  createProject,
  createUser,
  type TestUser,
} from '../helpers/factory.ts';
import { AccessLevel } from '../../src/domain/types.ts';

describe('default branch protection', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;

  const branch = (projectId: number, name: string) =>
    t.request('GET', `/api/v3/projects/${projectId}/repository/branches/${name}`, { token: owner.token });

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'olive');
    developer = await createUser(t, 'dev');
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('refuses a developer the first push into an empty project, then protects the pushed default branch', async () => {
    const project = await createProject(t, { owner, path: 'fresh' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    const work = await client.workTree('fresh-work', ['first']);
    const devUrl = repoUrl(base, project.fullPath, developer.username, developer.password);
    const refused = await client.run(['push', devUrl, 'master'], work);
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /remote: You are not allowed to push code to protected branches on this project\./,
    );

    const ownerUrl = repoUrl(base, project.fullPath, owner.username, owner.password);
    await client.ok(['push', '-q', ownerUrl, 'master'], work);
    const master = await branch(project.id, 'master');
    assert.equal(master.status, 200);
    assert.equal(master.body.protected, true);
    assert.equal(master.body.developers_can_push, false);
    assert.equal(master.body.developers_can_merge, false);

    // The developer may now push other branches, but not the default one.
    await client.commit(work, 'second');
    await client.ok(['push', '-q', devUrl, 'master:feature'], work);
    assert.equal((await branch(project.id, 'feature')).body.protected, false);
    const toMaster = await client.run(['push', devUrl, 'master'], work);
    assert.notEqual(toMaster.code, 0);
    assert.match(toMaster.stderr, /You are not allowed to push code to protected branches on this project\./);
  });

  it('protects the first pushed branch when it is not master, and leaves a covering wildcard rule alone', async () => {
    const project = await createProject(t, { owner, path: 'wild' });
    await addProtectedBranch(t, project.id, 'dev*', true);
    const work = await client.workTree('wild-work', ['one']);
    const ownerUrl = repoUrl(base, project.fullPath, owner.username, owner.password);
    await client.ok(['push', '-q', ownerUrl, 'master:develop'], work);
    const develop = await branch(project.id, 'develop');
    assert.equal(develop.body.protected, true);
    assert.equal(develop.body.developers_can_push, true, 'the wildcard rule still decides');
    const rules = await t.server.deps.db.kysely
      .selectFrom('protected_branches')
      .select('name')
      .where('project_id', '=', project.id)
      .execute();
    assert.deepEqual(
      rules.map((rule) => rule.name),
      ['dev*'],
    );
  });
});
