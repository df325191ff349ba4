// `when: delayed` + `start_in` from a real push: once the stages before it succeed, the job waits as
// `scheduled` (and so does its pipeline) until its time, when the CI clock makes it pending; `play`
// runs a scheduled job at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCiProject, type CiProject } from '../helpers/ci.ts';
import { Runner17 } from '../helpers/runner-v4-client.ts';

const YML = `
stages: [build, deploy]
build:
  stage: build
  script: make
later:
  stage: deploy
  script: deploy
  when: delayed
  start_in: 10 minutes
by-rule:
  stage: deploy
  script: deploy
  rules:
    - when: delayed
      start_in: 1 hour
`;

describe('delayed jobs', () => {
  let ci: CiProject;
  let runner: Runner17;
  let pipelineId: number;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: 'delayed-token' }, 'delayedjobs');
    runner = new Runner17(ci.base);
    assert.equal((await runner.register('delayed-token')).status, 201);
    const pipeline = await ci.push({ '.gitlab-ci.yml': YML });
    assert.ok(pipeline);
    assert.equal(pipeline.yaml_errors, null);
    pipelineId = pipeline.id;
  });
  after(() => ci.close());

  const v4 = (path: string) => `/api/v4/projects/${ci.project.id}${path}`;
  const statuses = async () => {
    const reply = await ci.t.request('GET', v4(`/pipelines/${pipelineId}/jobs`), { token: ci.owner.token });
    assert.equal(reply.status, 200, reply.text);
    return Object.fromEntries(
      (reply.body as Array<{ name: string; status: string }>).map((j) => [j.name, j.status]),
    );
  };
  const pipelineStatus = async () =>
    (await ci.t.request('GET', v4(`/pipelines/${pipelineId}`), { token: ci.owner.token })).body.status;

  it('waits as scheduled once the stages before it succeed', async () => {
    assert.deepEqual(await statuses(), { build: 'pending', later: 'created', 'by-rule': 'created' });
    const build = await runner.requestJob();
    assert.equal(build?.job_info.name, 'build');
    assert.equal(await runner.requestJob(), null);
    assert.equal((await runner.update(build!, 'success')).status, 200);
    assert.deepEqual(await statuses(), { build: 'success', later: 'scheduled', 'by-rule': 'scheduled' });
    assert.equal(await pipelineStatus(), 'scheduled');
    assert.equal(await runner.requestJob(), null);
  });

  it('becomes pending when its time comes, once, however often the clock looks', async () => {
    assert.equal(await ci.t.server.ciTimersWorker.drain(), 0);
    const inEleven = new Date(Date.now() + 11 * 60_000);
    // Two servers on one database (two processes) look at the same moment: one of them enqueues it.
    const other = await ci.t.sibling();
    try {
      const counts = await Promise.all([
        ci.t.server.ciTimersWorker.drain(inEleven),
        other.ciTimersWorker.drain(inEleven),
      ]);
      assert.equal(counts[0] + counts[1], 1);
    } finally {
      await other.close();
    }
    assert.deepEqual(await statuses(), { build: 'success', later: 'pending', 'by-rule': 'scheduled' });
    assert.equal(await pipelineStatus(), 'running');
    const later = await runner.requestJob();
    assert.equal(later?.job_info.name, 'later');
    assert.equal((await runner.update(later!, 'success')).status, 200);
  });

  it('play runs a scheduled job now', async () => {
    const reply = await ci.t.request('GET', v4(`/pipelines/${pipelineId}/jobs`), { token: ci.owner.token });
    const byRule = (reply.body as Array<{ id: number; name: string }>).find((j) => j.name === 'by-rule')!;
    const played = await ci.t.request('POST', v4(`/jobs/${byRule.id}/play`), { token: ci.owner.token });
    assert.equal(played.status, 200, played.text);
    assert.equal(played.body.status, 'pending');
    const job = await runner.requestJob();
    assert.equal(job?.job_info.name, 'by-rule');
    assert.equal((await runner.update(job!, 'success')).status, 200);
    assert.equal(await pipelineStatus(), 'success');
  });
});
