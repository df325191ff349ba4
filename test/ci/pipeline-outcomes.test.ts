// Pipelines run to their end by runners over the protocol, with GitLab 8.13's outcomes: allowed failures
// do not fail a pipeline, manual jobs wait (as skipped) without blocking it, `always` and `on_failure`
// jobs run after their stage's predecessors; a failure skips what follows. Runners take only what their
// tags, their projects and the project's shared-runner switch allow.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import type { TestProject } from '../helpers/factory.ts';
import { buildsOf, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { RunnerClient, type Job } from '../helpers/runner-client.ts';

const REGISTRATION_TOKEN = 'outcomes-registration-token';

describe('pipeline outcomes', () => {
  let ci: CiProject;
  let t: TestApp;
  let project: TestProject;
  let shared: RunnerClient;

  const push = async (files: Record<string, string>) => (await ci.push(files))!;

  async function statuses(pipelineId: number) {
    return Object.fromEntries((await buildsOf(t, pipelineId)).map((build) => [build.name, build.status]));
  }

  async function run(runner: RunnerClient, expected: string, state: 'success' | 'failed'): Promise<Job> {
    const job = await runner.requestJob();
    assert.equal(job?.name, expected);
    assert.equal((await runner.update(job!, state, `${expected}: ${state}\n`)).status, 200);
    return job!;
  }

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'outp');
    ({ t, project } = ci);
    shared = new RunnerClient(ci.base);
    assert.equal((await shared.register(REGISTRATION_TOKEN)).status, 201);
  });
  after(() => ci.close());

  it('passes despite an allowed failure, leaves the manual job waiting and runs the `always` job', async () => {
    const pipeline = await push({
      '.gitlab-ci.yml': `
stages: [test, deploy, cleanup]
ok: {stage: test, script: ok}
flaky: {stage: test, script: flaky, allow_failure: true}
deploy: {stage: deploy, script: deploy, when: manual}
notify: {stage: cleanup, script: notify, when: always}
`,
    });
    await run(shared, 'ok', 'success');
    await run(shared, 'flaky', 'failed');
    assert.deepEqual(await statuses(pipeline.id), {
      ok: 'success',
      flaky: 'failed',
      deploy: 'skipped',
      notify: 'pending',
    });
    await run(shared, 'notify', 'success');
    assert.equal(await shared.requestJob(), null);
    const [done] = (await pipelinesOf(t, project.id)).filter((p) => p.id === pipeline.id);
    assert.equal(done!.status, 'success');
    assert.ok(done!.started_at && done!.finished_at);
    assert.equal(typeof done!.duration, 'number');
  });

  it('fails on a failed job, skips the next stage and runs the on_failure job', async () => {
    const pipeline = await push({
      '.gitlab-ci.yml': `
build: {stage: build, script: b}
test: {stage: test, script: t}
recover: {stage: deploy, script: r, when: on_failure}
`,
    });
    await run(shared, 'build', 'failed');
    assert.deepEqual(await statuses(pipeline.id), { build: 'failed', test: 'skipped', recover: 'pending' });
    await run(shared, 'recover', 'success');
    const done = (await pipelinesOf(t, project.id)).find((p) => p.id === pipeline.id)!;
    assert.equal(done.status, 'failed');
  });

  it('gives tagged jobs only to runners with those tags, and specific runners their own projects', async () => {
    const pipeline = await push({ '.gitlab-ci.yml': 'tagged: {script: x, tags: [docker]}\n' });
    assert.equal(await shared.requestJob(), null);
    const specific = new RunnerClient(ci.base);
    const registered = await specific.register(project.runners_token, { tag_list: 'docker' });
    assert.equal(registered.status, 201);
    const job = await specific.requestJob();
    assert.equal(job?.name, 'tagged');
    assert.equal((await statuses(pipeline.id)).tagged, 'running');
    await specific.update(job!, 'success');
    const untaggedOnly = new RunnerClient(ci.base);
    const refused = await untaggedOnly.register(REGISTRATION_TOKEN, { run_untagged: false });
    assert.equal(refused.status, 404, 'a runner that runs no untagged builds needs tags');
  });

  it('keeps shared runners away from a project that turned them off', async () => {
    await t.server.deps.db.kysely
      .updateTable('projects')
      .set({ shared_runners_enabled: 0 })
      .where('id', '=', project.id)
      .execute();
    const pipeline = await push({ '.gitlab-ci.yml': 'j: {script: x}\n' });
    assert.equal(await shared.requestJob(), null);
    assert.equal((await statuses(pipeline.id)).j, 'pending');
  });
});
