// `needs:` as a DAG, from a real push: a job with needs is handed to the runner once what it needs has
// finished, while a slow job of the stage before still runs; `needs: []` waits for nothing; a failed
// need skips its dependents; jobs without needs keep stage gating.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildsOf, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { RunnerClient, type Job } from '../helpers/runner-client.ts';

const YML = `
stages: [build, test, deploy]
slow:
  stage: build
  script: sleep 60
fast:
  stage: build
  script: make
breaks:
  stage: build
  script: exit 1
flaky:
  stage: build
  script: exit 1
  allow_failure: true
dag:
  stage: test
  script: test
  needs: [fast, {job: not-in-file, optional: true}]
after-break:
  stage: test
  script: test
  needs: [breaks]
rescue:
  stage: test
  script: cleanup
  when: on_failure
  needs: [breaks]
staged:
  stage: test
  script: test
  when: always
early:
  stage: deploy
  script: notify
  needs: []
after-flaky:
  stage: deploy
  script: x
  needs: [flaky]
`;

describe('needs: as a DAG', () => {
  let ci: CiProject;
  let runner: RunnerClient;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: 'dag-runner-token' }, 'dagneeds');
    runner = new RunnerClient(ci.base);
    assert.equal((await runner.register('dag-runner-token')).status, 201);
  });
  after(() => ci.close());

  /** Every job the runner is handed now, by name. */
  async function takeAll(): Promise<Map<string, Job>> {
    const jobs = new Map<string, Job>();
    for (let job = await runner.requestJob(); job; job = await runner.requestJob()) jobs.set(job.name, job);
    return jobs;
  }

  it('opens jobs by their needs, not by their stage', async () => {
    const pipeline = await ci.push({ '.gitlab-ci.yml': YML });
    assert.ok(pipeline);
    assert.equal(pipeline.yaml_errors, null);
    const statuses = async () =>
      Object.fromEntries((await buildsOf(ci.t, pipeline.id)).map((b) => [b.name, b.status]));
    // The first stage and the `needs: []` job of the last stage are pending at once.
    assert.deepEqual(await statuses(), {
      slow: 'pending',
      fast: 'pending',
      breaks: 'pending',
      flaky: 'pending',
      dag: 'created',
      'after-break': 'created',
      rescue: 'created',
      staged: 'created',
      early: 'pending',
      'after-flaky': 'created',
    });
    const first = await takeAll();
    assert.deepEqual([...first.keys()].sort(), ['breaks', 'early', 'fast', 'flaky', 'slow']);
    assert.deepEqual(first.get('early')!.depends_on_builds, []);

    assert.equal((await runner.update(first.get('fast')!, 'success', 'ok\n')).status, 200);
    // `slow` still runs: the job needing `fast` is handed out anyway, with only fast's build.
    const second = await takeAll();
    assert.deepEqual([...second.keys()], ['dag']);
    assert.deepEqual(
      second.get('dag')!.depends_on_builds.map((b) => b.name),
      ['fast'],
    );

    assert.equal((await runner.update(first.get('breaks')!, 'failed', 'no\n')).status, 200);
    // A failed need skips the on_success dependent and opens the on_failure one.
    const third = await takeAll();
    assert.deepEqual([...third.keys()], ['rescue']);
    // A need that was allowed to fail counts as done.
    assert.equal((await runner.update(first.get('flaky')!, 'failed', 'meh\n')).status, 200);
    const afterFlaky = await takeAll();
    assert.deepEqual([...afterFlaky.keys()], ['after-flaky']);
    const now = await statuses();
    assert.equal(now['after-break'], 'skipped');
    assert.equal(now.slow, 'running');
    assert.equal(now.staged, 'created');

    // Jobs without needs still wait for the whole stage before them.
    assert.equal((await runner.update(first.get('slow')!, 'success', 'ok\n')).status, 200);
    const fourth = await takeAll();
    assert.deepEqual([...fourth.keys()], ['staged']);
    assert.deepEqual(
      fourth
        .get('staged')!
        .depends_on_builds.map((b) => b.name)
        .sort(),
      ['breaks', 'fast', 'flaky', 'slow'],
    );
    for (const job of [
      first.get('early')!,
      second.get('dag')!,
      third.get('rescue')!,
      afterFlaky.get('after-flaky')!,
      fourth.get('staged')!,
    ]) {
      assert.equal((await runner.update(job, 'success', 'ok\n')).status, 200);
    }
    // `breaks` was not allowed to fail: the pipeline fails once everything has finished.
    assert.equal((await pipelinesOf(ci.t, ci.project.id)).at(-1)!.status, 'failed');
  });
});
