// How today's keys treat a failing job, from a real push and a protocol-level runner 17: `retry:`
// re-creates a job whose failure reason its `when` names, up to `max`; `allow_failure: exit_codes`
// allows the failure of a listed exit code; a job running past its `timeout:` is failed by the server
// as job_execution_timeout (and its runner is told so); a bad key is a yml error naming key and job.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCiProject, type CiProject } from '../helpers/ci.ts';
import { Runner17, type V4Job } from '../helpers/runner-v4-client.ts';

const YML = `
flaky:
  script: exit 3
  retry: {max: 2, when: [script_failure]}
system-only:
  script: exit 1
  retry: {max: 2, when: runner_system_failure}
allowed:
  script: exit 42
  allow_failure: {exit_codes: [42, 43]}
not-allowed:
  script: exit 1
  allow_failure: {exit_codes: 42}
slow:
  script: sleep 1000
  timeout: 30 seconds
`;

describe('job failures: retry, allow_failure exit codes, timeout', () => {
  let ci: CiProject;
  let runner: Runner17;
  let pipelineId: number;
  const jobs = new Map<string, V4Job>();

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: 'failures-token' }, 'jobfailures');
    runner = new Runner17(ci.base);
    assert.equal((await runner.register('failures-token')).status, 201);
    const pipeline = await ci.push({ '.gitlab-ci.yml': YML });
    assert.ok(pipeline);
    assert.equal(pipeline.yaml_errors, null);
    pipelineId = pipeline.id;
    for (let job = await runner.requestJob(); job; job = await runner.requestJob())
      jobs.set(job.job_info.name, job);
  });
  after(() => ci.close());

  const jobsOf = async (query = '') => {
    const reply = await ci.t.request(
      'GET',
      `/api/v4/projects/${ci.project.id}/pipelines/${pipelineId}/jobs?per_page=100${query}`,
      { token: ci.owner.token },
    );
    assert.equal(reply.status, 200, reply.text);
    return reply.body as Array<Record<string, any>>;
  };
  const fail = async (job: V4Job, reason: string, exitCode: number) =>
    assert.equal(
      (await runner.update(job, 'failed', { failure_reason: reason, exit_code: exitCode })).status,
      200,
    );

  it('hands out every job with its own timeout', () => {
    assert.deepEqual([...jobs.keys()].sort(), ['allowed', 'flaky', 'not-allowed', 'slow', 'system-only']);
    assert.equal(jobs.get('slow')!.runner_info.timeout, 30);
    assert.equal(jobs.get('slow')!.steps[0]!.timeout, 30);
    assert.equal(jobs.get('flaky')!.runner_info.timeout, 3600);
  });

  it('retries a job while its failure reason is one `when` names, up to max', async () => {
    await fail(jobs.get('flaky')!, 'script_failure', 3);
    for (let retry = 1; retry <= 2; retry++) {
      const again = await runner.requestJob();
      assert.ok(again, `retry ${retry} was not handed out`);
      assert.equal(again.job_info.name, 'flaky');
      await fail(again, 'script_failure', 3);
    }
    assert.equal(await runner.requestJob(), null);
    const flaky = (await jobsOf('&include_retried=true')).filter((job) => job.name === 'flaky');
    assert.equal(flaky.length, 3);
    for (const job of flaky) {
      assert.equal(job.status, 'failed');
      assert.equal(job.failure_reason, 'script_failure');
    }
    // Another reason than `when` names is not retried.
    await fail(jobs.get('system-only')!, 'script_failure', 1);
    assert.equal(await runner.requestJob(), null);
    assert.equal((await jobsOf('&include_retried=true')).filter((j) => j.name === 'system-only').length, 1);
  });

  it('allows the failure of a listed exit code only', async () => {
    await fail(jobs.get('allowed')!, 'script_failure', 42);
    await fail(jobs.get('not-allowed')!, 'script_failure', 1);
    const byName = new Map((await jobsOf()).map((job) => [job.name, job]));
    assert.equal(byName.get('allowed')!.status, 'failed');
    assert.equal(byName.get('allowed')!.allow_failure, true);
    assert.equal(byName.get('not-allowed')!.allow_failure, false);
  });

  it('fails a job running past its timeout, and its runner hears it', async () => {
    // Nothing is overdue yet.
    assert.equal(await ci.t.server.ciTimersWorker.drain(), 0);
    assert.equal(await ci.t.server.ciTimersWorker.drain(new Date(Date.now() + 60_000)), 1);
    const slow = (await jobsOf()).find((job) => job.name === 'slow')!;
    assert.equal(slow.status, 'failed');
    assert.equal(slow.failure_reason, 'job_execution_timeout');
    const late = await runner.update(jobs.get('slow')!, 'running');
    assert.equal(late.status, 403);
    assert.equal(late.headers.get('job-status'), 'failed');
    const pipeline = await ci.t.request('GET', `/api/v4/projects/${ci.project.id}/pipelines/${pipelineId}`, {
      token: ci.owner.token,
    });
    assert.equal(pipeline.body.status, 'failed');
  });

  it('refuses a bad retry or allow_failure, naming the job and the key', async () => {
    const bad = await ci.push({
      '.gitlab-ci.yml': 'job:\n  script: x\n  retry: {max: 1, when: [sometimes]}\n',
    });
    assert.match(bad!.yaml_errors ?? '', /^jobs:job retry when should be one of: always, /);
    const codes = await ci.push({
      '.gitlab-ci.yml': 'job:\n  script: x\n  allow_failure: {exit_codes: one}\n',
    });
    assert.equal(codes!.yaml_errors, 'jobs:job allow failure should be a hash of exit_codes');
  });
});
