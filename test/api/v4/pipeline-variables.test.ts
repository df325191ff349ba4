// Pipeline variables under v4: POST /projects/:id/pipeline with `variables` keeps them on the pipeline
// (…/pipelines/:id/variables), every job gets them over the project's CI variables and the file's, and
// `rules` see them; a schedule's variables reach the jobs of the pipeline it runs; bad variables are 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../../helpers/app.ts';
import { buildsOf, startCiProject, type CiProject } from '../../helpers/ci.ts';
import { Runner17 } from '../../helpers/runner-v4-client.ts';
import type { TestProject, TestUser } from '../../helpers/factory.ts';

const REGISTRATION_TOKEN = 'pipeline-variables-registration';

const CI = `
variables:
  WHO: file
build:
  script: echo $WHO
  variables:
    WHO: job
only_when_asked:
  script: echo asked
  rules:
    - if: '$RUN_EXTRA == "yes"'
`;

describe('API v4 pipeline variables', () => {
  let ci: CiProject;
  let t: TestApp;
  let project: TestProject;
  let owner: TestUser;
  let runner: Runner17;

  const url = (path = '') => `/api/v4/projects/${project.id}${path}`;
  const jobVariables = async () => {
    const job = await runner.requestJob();
    assert.ok(job, 'a job to run');
    const values = new Map<string, string>();
    for (const variable of job.variables as Array<{ key: string; value: string }>)
      values.set(variable.key, variable.value);
    const finished = await runner.call('PUT', `jobs/${job.id}`, {
      json: { token: job.token, state: 'success' },
    });
    assert.equal(finished.status, 200, finished.text);
    return { job, values };
  };

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'pipevars');
    ({ t, project, owner } = ci);
    runner = new Runner17(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
    await ci.push({ '.gitlab-ci.yml': CI });
    // The push's pipeline runs its one job first: neither the project's variable nor RUN_EXTRA yet.
    const pushed = await jobVariables();
    assert.equal(pushed.values.get('WHO'), 'job');
    const secret = await t.request('POST', url('/variables'), {
      token: owner.token,
      body: { key: 'WHO', value: 'project' },
    });
    assert.equal(secret.status, 201, secret.text);
  });
  after(() => ci.close());

  it('keeps the variables of an API pipeline, hands them to every job and lets rules see them', async () => {
    const created = await t.request('POST', url('/pipeline'), {
      token: owner.token,
      body: {
        ref: 'master',
        variables: [
          { key: 'WHO', value: 'pipeline' },
          { key: 'RUN_EXTRA', value: 'yes', variable_type: 'env_var' },
          { key: 'CONFIG', value: 'a=1', variable_type: 'file' },
        ],
      },
    });
    assert.equal(created.status, 201, created.text);
    const builds = await buildsOf(t, created.body.id);
    assert.deepEqual(builds.map((build) => build.name).sort(), ['build', 'only_when_asked']);

    const shown = await t.request('GET', url(`/pipelines/${created.body.id}/variables`), {
      token: owner.token,
    });
    assert.equal(shown.status, 200, shown.text);
    assert.deepEqual(shown.body, [
      { variable_type: 'env_var', key: 'WHO', value: 'pipeline' },
      { variable_type: 'env_var', key: 'RUN_EXTRA', value: 'yes' },
      { variable_type: 'file', key: 'CONFIG', value: 'a=1' },
    ]);

    for (let i = 0; i < 2; i += 1) {
      const { values } = await jobVariables();
      // A runner lets the last of a name win: the pipeline's over the project's, the job's and the file's.
      assert.equal(values.get('WHO'), 'pipeline');
      assert.equal(values.get('RUN_EXTRA'), 'yes');
      assert.equal(values.get('CONFIG'), 'a=1');
    }

    const plain = await t.request('POST', url('/pipeline'), { token: owner.token, body: { ref: 'master' } });
    assert.equal(plain.status, 201, plain.text);
    assert.deepEqual(
      (await buildsOf(t, plain.body.id)).map((build) => build.name),
      ['build'],
    );
    const { values } = await jobVariables();
    assert.equal(values.get('WHO'), 'project');
    assert.equal(values.has('RUN_EXTRA'), false);
  });

  it('refuses variables that are not a list of keys and values', async () => {
    for (const variables of [
      'WHO=x',
      [{ value: 'no key' }],
      [{ key: 'bad-key', value: 'x' }],
      [
        { key: 'A', value: '1' },
        { key: 'A', value: '2' },
      ],
      [{ key: 'A', value: '1', variable_type: 'secret' }],
    ]) {
      const response = await t.request('POST', url('/pipeline'), {
        token: owner.token,
        body: { ref: 'master', variables },
      });
      assert.equal(response.status, 400, `${JSON.stringify(variables)}: ${response.text}`);
    }
  });

  it("passes a schedule's variables to the jobs of the pipeline it runs", async () => {
    const schedule = await t.request('POST', url('/pipeline_schedules'), {
      token: owner.token,
      body: { description: 'nightly', ref: 'master', cron: '0 1 * * *' },
    });
    assert.equal(schedule.status, 201, schedule.text);
    const variable = await t.request('POST', url(`/pipeline_schedules/${schedule.body.id}/variables`), {
      token: owner.token,
      body: { key: 'RUN_EXTRA', value: 'yes' },
    });
    assert.equal(variable.status, 201, variable.text);
    const played = await t.request('POST', url(`/pipeline_schedules/${schedule.body.id}/play`), {
      token: owner.token,
    });
    assert.equal(played.status, 201, played.text);
    const pipelines = await t.request('GET', url('/pipelines?source=schedule'), { token: owner.token });
    const pipelineId = pipelines.body[0].id;
    assert.deepEqual((await buildsOf(t, pipelineId)).map((build) => build.name).sort(), [
      'build',
      'only_when_asked',
    ]);
    const shown = await t.request('GET', url(`/pipelines/${pipelineId}/variables`), { token: owner.token });
    assert.deepEqual(shown.body, [{ variable_type: 'env_var', key: 'RUN_EXTRA', value: 'yes' }]);
    const first = await jobVariables();
    const second = await jobVariables();
    assert.equal(first.values.get('RUN_EXTRA'), 'yes');
    assert.equal(second.values.get('RUN_EXTRA'), 'yes');
  });
});
