// A push of a .gitlab-ci.yml through the real git client creates a pipeline and its builds in the
// push's transaction, as GitLab 8.13 did: first stage pending, later ones created; refused files make a
// failed pipeline with the error; [ci skip] a skipped one; no file, no pipeline.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import type { TestProject } from '../helpers/factory.ts';
import type { GitClient } from '../helpers/git.ts';
import { buildsOf, commitFiles, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';

const TWO_STAGES = `
stages: [build, test]
variables:
  GLOBAL: "g"
before_script:
  - echo before
build:
  stage: build
  script: make
  artifacts:
    paths: [out/]
    expire_in: 1 week
test:
  stage: test
  script:
    - make test
  dependencies: [build]
  variables: {LOCAL: "l"}
`;

describe('pipelines from pushes', () => {
  let ci: CiProject;
  let t: TestApp;
  let client: GitClient;
  let project: TestProject;
  let work: string;

  before(async () => {
    ci = await startCiProject({}, 'cip');
    ({ t, client, project, work } = ci);
  });
  after(() => ci.close());

  it('makes no pipeline for a commit without .gitlab-ci.yml', async () => {
    await commitFiles(client, work, { 'README.md': 'hi\n' }, 'first');
    await client.ok(['push', '-q', 'origin', 'master'], work);
    assert.deepEqual(await pipelinesOf(t, project.id), []);
  });

  it('makes no pipeline while the project has builds turned off', async () => {
    const off = await t.request('PUT', `/api/v3/projects/${project.id}`, {
      token: ci.owner.token,
      body: { name: project.name, builds_enabled: false },
    });
    assert.equal(off.status, 200, off.text);
    await commitFiles(client, work, { '.gitlab-ci.yml': 'job: {script: x}\n' }, 'builds off');
    await client.ok(['push', '-q', 'origin', 'master'], work);
    assert.deepEqual(await pipelinesOf(t, project.id), []);
    const on = await t.request('PUT', `/api/v3/projects/${project.id}`, {
      token: ci.owner.token,
      body: { name: project.name, builds_enabled: true },
    });
    assert.equal(on.status, 200);
  });

  it('creates a pipeline with the first stage pending and the next created', async () => {
    const sha = await commitFiles(client, work, { '.gitlab-ci.yml': TWO_STAGES }, 'add ci');
    await client.ok(['push', '-q', 'origin', 'master'], work);
    const [pipeline] = await pipelinesOf(t, project.id);
    assert.ok(pipeline);
    assert.equal(pipeline.sha, sha);
    assert.equal(pipeline.ref, 'master');
    assert.equal(pipeline.status, 'pending');
    assert.equal(pipeline.yaml_errors, null);
    const builds = await buildsOf(t, pipeline.id);
    assert.deepEqual(
      builds.map((b) => [b.name, b.stage, b.stage_idx, b.status]),
      [
        ['build', 'build', 0, 'pending'],
        ['test', 'test', 1, 'created'],
      ],
    );
    assert.equal(builds[0]!.commands, 'echo before\nmake');
    assert.deepEqual(JSON.parse(builds[1]!.yaml_variables!), [
      { key: 'GLOBAL', value: 'g', public: true },
      { key: 'LOCAL', value: 'l', public: true },
    ]);
    assert.deepEqual(JSON.parse(builds[0]!.options!), {
      artifacts: { paths: ['out/'], expire_in: '1 week' },
    });
    assert.notEqual(builds[0]!.token, builds[1]!.token);
  });

  it('records the error of a file that does not validate, with no builds', async () => {
    await commitFiles(client, work, { '.gitlab-ci.yml': 'rspec:\n  script: x\n  foo: 1\n' }, 'bad ci');
    await client.ok(['push', '-q', 'origin', 'master'], work);
    const pipelines = await pipelinesOf(t, project.id);
    const last = pipelines.at(-1)!;
    assert.equal(last.status, 'failed');
    assert.equal(last.yaml_errors, 'jobs:rspec config contains unknown keys: foo');
    assert.deepEqual(await buildsOf(t, last.id), []);
  });

  it('records the parser’s error for a file that is not YAML, and the push goes through', async () => {
    const sha = await commitFiles(
      client,
      work,
      { '.gitlab-ci.yml': 'stages: [build\njob: {script: x}\n' },
      'broken',
    );
    await client.ok(['push', '-q', 'origin', 'master'], work);
    const last = (await pipelinesOf(t, project.id)).at(-1)!;
    assert.equal(last.sha, sha);
    assert.equal(last.status, 'failed');
    assert.match(last.yaml_errors!, /at line \d+, column \d+/);
    assert.deepEqual(await buildsOf(t, last.id), []);
    const branch = await t.request('GET', `/api/v3/projects/${project.id}/repository/branches/master`, {
      token: ci.owner.token,
    });
    assert.equal(branch.body.commit.id, sha);
  });

  it('skips the pipeline of a [ci skip] commit', async () => {
    await commitFiles(client, work, { '.gitlab-ci.yml': TWO_STAGES }, 'quiet [ci skip]');
    await client.ok(['push', '-q', 'origin', 'master'], work);
    const last = (await pipelinesOf(t, project.id)).at(-1)!;
    assert.equal(last.status, 'skipped');
    assert.deepEqual(await buildsOf(t, last.id), []);
  });
});
