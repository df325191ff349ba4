// Archiving through the API closes the repository to pushes (the git area's pre-receive check reads the
// flag the archive endpoint sets); unarchiving opens it again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser } from '../../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../../helpers/git.ts';

describe('archived projects refuse pushes', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('refuses a push after POST archive and accepts one after POST unarchive', async () => {
    const owner = await createUser(t, 'arch');
    const project = await createProject(t, { owner, path: 'vault' });
    const url = repoUrl(base, project.fullPath, owner.username, owner.password);
    const work = await client.workTree('vault-work', ['one']);

    const archived = await t.request('POST', `/api/v3/projects/${project.id}/archive`, {
      token: owner.token,
    });
    assert.equal(archived.status, 201);
    const refused = await client.run(['push', url, 'master'], work);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /You are not allowed to push code to this project\./);
    assert.equal(await client.ok(['--git-dir', project.repoPath, 'for-each-ref']), '');

    assert.equal(
      (await t.request('POST', `/api/v3/projects/${project.id}/unarchive`, { token: owner.token })).status,
      201,
    );
    await client.ok(['push', '-q', url, 'master'], work);
    assert.notEqual(await client.ok(['--git-dir', project.repoPath, 'for-each-ref']), '');
  });
});
