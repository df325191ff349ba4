// A personal access token as the password of git over HTTP, under any username (as GitLab): its scopes
// decide what git may do. read_repository clones and cannot push; write_repository and api clone and
// push; a token without a repository scope (read_user) is refused; a revoked one is a wrong password.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';

describe('git over HTTP with personal access tokens', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let project: TestProject;
  let work: string;

  async function tokenWith(scopes: string[]): Promise<{ id: number; token: string }> {
    const response = await t.request('POST', '/api/v4/user/personal_access_tokens', {
      token: owner.token,
      body: { name: scopes.join(' '), scopes },
    });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  /** The info/refs answer for a service with these basic credentials. */
  async function advertise(service: string, login: string, secret: string) {
    const response = await t.server.app.inject({
      method: 'GET',
      url: `/${project.fullPath}.git/info/refs?service=${service}`,
      headers: { authorization: `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}` },
    });
    return { status: response.statusCode, text: response.body };
  }

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'gitter');
    project = await createProject(t, { owner, path: 'tokened' });
    work = await client.workTree('work', ['first']);
    await client.ok(
      ['push', '-q', repoUrl(base, project.fullPath, owner.username, owner.password), 'HEAD:master'],
      work,
    );
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('read_repository clones (any username) and may not push', async () => {
    const { token } = await tokenWith(['read_repository']);
    const url = repoUrl(base, project.fullPath, 'anyone-at-all', token);
    await client.ok(['clone', '-q', url, 'read-clone']);
    await client.commit(work, 'second');
    const push = await client.run(['push', '-q', url, 'HEAD:master'], work);
    assert.notEqual(push.code, 0);
    assert.match(push.stderr, /403/);
    const answer = await advertise('git-receive-pack', 'anyone-at-all', token);
    assert.equal(answer.status, 403);
    assert.equal(answer.text, 'You are not allowed to upload code.\n');
  });

  it('write_repository and api clone and push', async () => {
    for (const scopes of [['write_repository'], ['api']]) {
      const { token } = await tokenWith(scopes);
      const url = repoUrl(base, project.fullPath, owner.username, token);
      const sha = await client.commit(work, `by ${scopes[0]}`);
      await client.ok(['push', '-q', url, 'HEAD:master'], work);
      const branch = await t.request('GET', `/api/v3/projects/${project.id}/repository/branches/master`, {
        token: owner.token,
      });
      assert.equal(branch.body.commit.id, sha, scopes[0]);
      await client.ok(['clone', '-q', url, `clone-${scopes[0]}`]);
    }
  });

  it('a token without a repository scope is refused; a revoked one is a wrong password', async () => {
    const readUser = await tokenWith(['read_user']);
    const clone = await client.run([
      'clone',
      '-q',
      repoUrl(base, project.fullPath, 'x', readUser.token),
      'no-clone',
    ]);
    assert.notEqual(clone.code, 0);
    const answer = await advertise('git-upload-pack', 'x', readUser.token);
    assert.equal(answer.status, 403);
    assert.equal(answer.text, 'You are not allowed to download code.\n');

    const revoked = await tokenWith(['api']);
    assert.equal((await advertise('git-upload-pack', 'x', revoked.token)).status, 200);
    const revoke = await t.request('DELETE', `/api/v4/personal_access_tokens/${revoked.id}`, {
      token: owner.token,
    });
    assert.equal(revoke.status, 204);
    const refused = await advertise('git-upload-pack', 'x', revoked.token);
    assert.equal(refused.status, 401);
    assert.equal(refused.text, 'HTTP Basic: Access denied\n');
  });
});
