// `needs:` within one stage (GitLab 14.2 and later), from a real push: the needing job waits for its
// need in the same stage and then runs; a cycle of needs, or a need in a later stage, is a yml error
// naming the job.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildsOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { Runner17 } from '../helpers/runner-v4-client.ts';

describe('needs: in the same stage', () => {
  let ci: CiProject;
  let runner: Runner17;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: 'same-stage-token' }, 'samestage');
    runner = new Runner17(ci.base);
    assert.equal((await runner.register('same-stage-token')).status, 201);
  });
  after(() => ci.close());

  it('runs a job after the job of its own stage it needs', async () => {
    const pipeline = await ci.push({
      '.gitlab-ci.yml': 'first:\n  script: a\nsecond:\n  script: b\n  needs: [first]\nthird:\n  script: c\n',
    });
    assert.ok(pipeline);
    assert.equal(pipeline.yaml_errors, null);
    const statuses = async () =>
      Object.fromEntries((await buildsOf(ci.t, pipeline.id)).map((b) => [b.name, b.status]));
    assert.deepEqual(await statuses(), { first: 'pending', second: 'created', third: 'pending' });
    const taken = [await runner.requestJob(), await runner.requestJob()];
    assert.deepEqual(taken.map((job) => job?.job_info.name).sort(), ['first', 'third']);
    assert.equal(await runner.requestJob(), null);
    const first = taken.find((job) => job?.job_info.name === 'first')!;
    assert.equal((await runner.update(first, 'success')).status, 200);
    assert.equal((await statuses()).second, 'pending');
    assert.equal((await runner.requestJob())?.job_info.name, 'second');
  });

  it('refuses a cycle of needs and a need in a later stage', async () => {
    const cycle = await ci.push({
      '.gitlab-ci.yml':
        'a:\n  script: x\n  needs: [b]\nb:\n  script: x\n  needs: [c]\nc:\n  script: x\n  needs: [a]\n',
    });
    assert.equal(cycle?.yaml_errors, 'a job: needs form a cycle: a → b → c → a');
    assert.equal(cycle?.status, 'failed');
    const later = await ci.push({
      '.gitlab-ci.yml': 'a:\n  stage: build\n  script: x\n  needs: [b]\nb:\n  stage: test\n  script: x\n',
    });
    assert.equal(later?.yaml_errors, 'a job: need b is not defined in current or prior stages');
  });
});
