// GET /api/v4/job: the running job a CI_JOB_TOKEN names, as Ci::Job (header JOB-TOKEN or `job_token`);
// the token of a finished job, an unknown one and no token at all are refused; and the job runner 17
// picks up over real HTTP, asked about with the token the runner hands its script.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';
import { seedPipeline, startCiProject, type CiProject } from '../../helpers/ci.ts';
import { Runner17 } from '../../helpers/runner-v4-client.ts';
import { GitClient } from '../../helpers/git.ts';

describe('API v4 current job by job token', () => {
  let t: TestApp;
  let client: GitClient;
  let owner: TestUser;
  let project: TestProject;
  let sha: string;
  let pipelineId: number;
  let builds: Array<{ id: number; name: string; token: string | null }>;
  const tokenOf = (name: string) => builds.find((build) => build.name === name)!.token!;
  const idOf = (name: string) => builds.find((build) => build.name === name)!.id;

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    owner = await createUser(t, 'jobtokenowner');
    project = await createProject(t, { owner, path: 'jobtoken' });
    const work = await client.workTree('jobtoken');
    sha = await client.commit(work, 'Run me');
    await client.ok(['push', '-q', project.repoPath, 'master'], work);
    const seeded = await seedPipeline(t, project, {
      sha,
      userId: owner.id,
      status: 'running',
      builds: [
        { name: 'compile', status: 'success', stage: 'build' },
        { name: 'check', status: 'running', stage: 'test' },
        { name: 'lint', status: 'running', stage: 'test' },
      ],
    });
    pipelineId = seeded.pipeline.id;
    builds = seeded.builds;
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('answers the running job of a JOB-TOKEN header as Ci::Job', async () => {
    const response = await t.request('GET', '/api/v4/job', { headers: { 'JOB-TOKEN': tokenOf('check') } });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    const job = response.body;
    assert.equal(job.id, idOf('check'));
    assert.equal(job.name, 'check');
    assert.equal(job.status, 'running');
    assert.equal(job.stage, 'test');
    assert.equal(job.finished_at, null);
    assert.equal(typeof job.duration, 'number');
    assert.equal(job.user.username, owner.username);
    assert.equal(job.commit.id, sha);
    assert.equal(job.pipeline.id, pipelineId);
    assert.equal(job.web_url, `${t.config.externalUrl}/${project.fullPath}/builds/${idOf('check')}`);
    assert.deepEqual(job.artifacts, []);
  });

  it('takes the token as the job_token parameter too, and each token names its own job', async () => {
    const response = await t.request('GET', `/api/v4/job?job_token=${tokenOf('lint')}`);
    assert.equal(response.status, 200);
    assert.equal(response.body.id, idOf('lint'));
    assert.equal(response.body.name, 'lint');
  });

  it('refuses the token of a finished job and an unknown token with 401', async () => {
    for (const token of [tokenOf('compile'), 'not-a-job-token', `${tokenOf('check')}x`]) {
      const response = await t.request('GET', '/api/v4/job', { headers: { 'JOB-TOKEN': token } });
      assert.equal(response.status, 401, token);
      assert.deepEqual(response.body, { message: '401 Unauthorized' });
    }
  });

  it('refuses a job token once the job is cancelled', async () => {
    const cancelled = await t.request('POST', `/api/v4/projects/${project.id}/jobs/${idOf('lint')}/cancel`, {
      token: owner.token,
    });
    assert.equal(cancelled.status, 201);
    assert.equal(cancelled.body.status, 'canceled');
    const after = await t.request('GET', '/api/v4/job', { headers: { 'JOB-TOKEN': tokenOf('lint') } });
    assert.equal(after.status, 401);
  });

  it('answers 404 Job Not Found to a personal token without a job token, 401 to nobody', async () => {
    const signedIn = await t.request('GET', '/api/v4/job', { token: owner.token });
    assert.equal(signedIn.status, 404);
    assert.deepEqual(signedIn.body, { message: '404 Job Not Found' });
    const anonymous = await t.request('GET', '/api/v4/job');
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.body, { message: '401 Unauthorized' });
  });
});

describe('API v4 current job for a job runner 17 runs', () => {
  const REGISTRATION_TOKEN = 'job-token-registration';
  let ci: CiProject;
  after(async () => ci.close());

  it('answers the picked job with its runner while it runs, 401 once the runner finishes it', async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'jobtokenrun');
    const pipeline = await ci.push({ '.gitlab-ci.yml': 'unit:\n  script: make test\n' });
    assert.ok(pipeline, 'the push records a pipeline');
    const runner = new Runner17(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
    const job = (await runner.requestJob())!;
    assert.ok(job, 'the runner gets the job');

    const current = await fetch(`${ci.base}/api/v4/job`, { headers: { 'JOB-TOKEN': job.token } });
    assert.equal(current.status, 200);
    const body = await current.json();
    assert.equal(body.id, job.id);
    assert.equal(body.name, 'unit');
    assert.equal(body.status, 'running');
    assert.equal(body.pipeline.id, pipeline.id);
    assert.equal(body.runner.id, runner.id);
    assert.equal(body.user.username, ci.owner.username);

    assert.equal((await runner.update(job, 'success')).status, 200);
    const finished = await fetch(`${ci.base}/api/v4/job?job_token=${job.token}`);
    assert.equal(finished.status, 401);
    assert.deepEqual(await finished.json(), { message: '401 Unauthorized' });
  });
});
