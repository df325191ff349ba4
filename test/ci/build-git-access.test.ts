// git over HTTP with `gitlab-ci-token` and a build's token (what a runner clones with): fetching the
// build's own project works while the build runs; pushing, other projects, and the token of a finished
// build are refused.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createProject } from '../helpers/factory.ts';
import { startCiProject, type CiProject } from '../helpers/ci.ts';
import { repoUrl } from '../helpers/git.ts';
import { RunnerClient, type Job } from '../helpers/runner-client.ts';

describe('git fetch with a build token', () => {
  let ci: CiProject;
  let runner: RunnerClient;
  let job: Job;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: 'git-token-runner' }, 'cigit');
    await ci.push({ '.gitlab-ci.yml': 'job: {script: make}\n', 'src.txt': 'source\n' });
    runner = new RunnerClient(ci.base);
    assert.equal((await runner.register('git-token-runner')).status, 201);
    job = (await runner.requestJob())!;
    assert.ok(job);
  });
  after(() => ci.close());

  const ciUrl = (fullPath: string, token: string) => repoUrl(ci.base, fullPath, 'gitlab-ci-token', token);

  it('clones and fetches the build’s project while the build runs, as the job payload’s repo_url says', async () => {
    const target = path.join(ci.client.home, 'build-clone');
    await ci.client.ok(['clone', '-q', ciUrl(ci.project.fullPath, job.token), target]);
    assert.equal((await ci.client.ok(['rev-parse', 'HEAD'], target)).trim(), job.sha);
    await ci.client.ok(['fetch', '-q', 'origin'], target);
  });

  it('refuses a push with the build token, other projects and unknown tokens', async () => {
    const push = await ci.client.run(
      ['push', ciUrl(ci.project.fullPath, job.token), 'HEAD:refs/heads/from-build'],
      ci.work,
    );
    assert.notEqual(push.code, 0);
    assert.match(push.stderr, /403/);

    const other = await createProject(ci.t, { owner: ci.owner, path: 'cigitother', commit: true });
    const elsewhere = await ci.client.run(['ls-remote', ciUrl(other.fullPath, job.token)]);
    assert.notEqual(elsewhere.code, 0);
    assert.match(elsewhere.stderr, /not found|404/i);

    const wrong = await ci.t.server.app.inject({
      method: 'GET',
      url: `/${ci.project.fullPath}.git/info/refs?service=git-upload-pack`,
      headers: { authorization: `Basic ${Buffer.from('gitlab-ci-token:nope').toString('base64')}` },
    });
    assert.equal(wrong.statusCode, 401);
    const info = await ci.t.server.app.inject({
      method: 'GET',
      url: `/${ci.project.fullPath}.git/info/refs?service=git-receive-pack`,
      headers: { authorization: `Basic ${Buffer.from(`gitlab-ci-token:${job.token}`).toString('base64')}` },
    });
    assert.equal(info.statusCode, 403);
  });

  it('refuses the token once the build has finished', async () => {
    assert.equal((await runner.update(job, 'success', 'ok\n')).status, 200);
    const after = await ci.client.run(['ls-remote', ciUrl(ci.project.fullPath, job.token)]);
    assert.notEqual(after.code, 0);
    assert.match(after.stderr, /401|Authentication failed|could not read/i);
  });
});
