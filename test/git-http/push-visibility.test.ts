// `git push` is answered once the refs have moved; the push's events and pipelines are recorded just
// after. A client that pushes and then asks the API at once must still see them: API requests wait for
// the pushes this process has already answered.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { commitFiles } from '../helpers/ci.ts';

const PIPELINE = 'test:\n  script: echo ok\n';

describe('what a push leaves, seen by the very next API request', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let project: TestProject;

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t);
    project = await createProject(t, { owner, path: 'visible-push' });
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('shows the push event and the pipeline right after git push returns', async () => {
    const work = await client.workTree('pushed');
    await commitFiles(client, work, { '.gitlab-ci.yml': PIPELINE }, 'ci');
    const url = repoUrl(base, project.fullPath, owner.username, owner.password);
    await client.ok(['push', '-q', url, 'HEAD:master'], work);

    const events = await t.request('GET', `/api/v3/projects/${project.id}/events`, { token: owner.token });
    assert.equal(events.status, 200);
    assert.ok(
      events.body.some((event: { action_name: string }) => event.action_name === 'pushed new'),
      JSON.stringify(events.body),
    );
    const pipelines = await t.request('GET', `/api/v3/projects/${project.id}/pipelines`, {
      token: owner.token,
    });
    assert.equal(pipelines.status, 200);
    assert.equal(pipelines.body.length, 1);
  });
});
