// The stuck-build sweep (GitLab's StuckCiBuildsWorker): pending and running builds not updated for a day
// are dropped to `failed` through the CI state machine, so the pipeline fails and hooks fire; younger
// builds are left alone, and the runner of a dropped build is told to stop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildsOf, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { RunnerClient } from '../helpers/runner-client.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('stuck builds', () => {
  let ci: CiProject;
  let runner: RunnerClient;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: 'stuck-runner-token' }, 'stuckp');
    runner = new RunnerClient(ci.base);
    assert.equal((await runner.register('stuck-runner-token')).status, 201);
  });
  after(() => ci.close());

  const statuses = async (pipelineId: number) =>
    Object.fromEntries((await buildsOf(ci.t, pipelineId)).map((build) => [build.name, build.status]));

  const age = (id: number, ms: number) =>
    ci.t.server.deps.db.kysely
      .updateTable('ci_builds')
      .set({ updated_at: new Date(Date.now() - ms).toISOString() })
      .where('id', '=', id)
      .execute();

  it('drops a running build untouched for a day, then a pending one, and the pipeline fails', async () => {
    const hook = await ci.t.request('POST', `/api/v3/projects/${ci.project.id}/hooks`, {
      token: ci.owner.token,
      body: {
        url: 'http://127.0.0.1:9/stuck',
        push_events: false,
        build_events: true,
        pipeline_events: true,
      },
    });
    assert.equal(hook.status, 201);
    const pipeline = (await ci.push({
      '.gitlab-ci.yml':
        'stages: [a, b]\nvanished: {stage: a, script: x}\nwaiting: {stage: a, script: y}\nlater: {stage: b, script: z}\n',
    }))!;
    const job = (await runner.requestJob())!;
    assert.equal(job.name, 'vanished');
    const [vanished, waiting] = await buildsOf(ci.t, pipeline.id);
    await age(vanished.id, DAY + 60_000);
    await age(waiting.id, DAY - 60 * 60_000);

    const worker = ci.t.server.stuckBuildsWorker;
    assert.equal(await worker.drain(), 1);
    assert.deepEqual(await statuses(pipeline.id), {
      vanished: 'failed',
      waiting: 'pending',
      later: 'created',
    });
    const dropped = (await buildsOf(ci.t, pipeline.id))[0];
    assert.ok(dropped.finished_at);
    // The runner that comes back learns its build is gone.
    assert.equal((await runner.update(job, 'success', 'late\n')).status, 404);

    // Two hours on, the pending build is a day old too.
    assert.equal(await worker.drain(new Date(Date.now() + 2 * 60 * 60_000)), 1);
    assert.deepEqual(await statuses(pipeline.id), {
      vanished: 'failed',
      waiting: 'failed',
      later: 'skipped',
    });
    assert.equal((await pipelinesOf(ci.t, ci.project.id)).at(-1)!.status, 'failed');
    assert.equal(await worker.drain(new Date(Date.now() + 2 * 60 * 60_000)), 0);

    const deliveries = await ci.t.server.deps.db.kysely
      .selectFrom('hook_deliveries')
      .select(['event', 'payload'])
      .execute();
    const failedBuilds = deliveries
      .filter((row) => row.event === 'Build Hook')
      .map((row) => JSON.parse(row.payload))
      .filter((payload) => payload.build_status === 'failed')
      .map((payload) => payload.build_name)
      .sort();
    assert.deepEqual(failedBuilds, ['vanished', 'waiting']);
    const failedPipeline = deliveries
      .filter((row) => row.event === 'Pipeline Hook')
      .map((row) => JSON.parse(row.payload))
      .find((payload) => payload.object_attributes.status === 'failed');
    assert.ok(failedPipeline);
  });
});
