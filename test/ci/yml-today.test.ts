// Today's .gitlab-ci.yml keys, each pushed through the real git client: rules (if, changes, exists,
// when, allow_failure, variables), workflow rules, extends, hidden jobs, anchors, !reference,
// default and inherit, needs, .pre/.post and delayed jobs; every refusal names the key and the job.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildsOf, commitFiles, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { RunnerClient } from '../helpers/runner-client.ts';

type Build = Awaited<ReturnType<typeof buildsOf>>[number];
const variablesOf = (build: Build) =>
  Object.fromEntries(
    (JSON.parse(build.yaml_variables ?? '[]') as Array<{ key: string; value: string }>).map((v) => [
      v.key,
      v.value,
    ]),
  );
const byName = (builds: Build[]) => new Map(builds.map((b) => [b.name, b]));

describe('.gitlab-ci.yml as today', () => {
  let ci: CiProject;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: 'yml-runner-token' }, 'ymltoday');
  });
  after(() => ci.close());

  /** Pushes `files` to `branch` and answers the pipeline that push made, or undefined. */
  async function pushTo(files: Record<string, string>, branch = 'master', message = 'ci') {
    const before = (await pipelinesOf(ci.t, ci.project.id)).length;
    await commitFiles(ci.client, ci.work, files, message);
    await ci.client.ok(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], ci.work);
    const pipelines = await pipelinesOf(ci.t, ci.project.id);
    return pipelines.length > before ? pipelines.at(-1) : undefined;
  }

  it('runs a file mixing 8.13 keys with rules, when, allow_failure and rule variables', async () => {
    const pipeline = await pushTo(
      {
        '.gitlab-ci.yml': `
stages: [build, test, deploy]
variables:
  DEPLOY_TO: "prod-$CI_COMMIT_REF_NAME"
old-style:
  stage: build
  script: make
  only: [master]
on-master:
  stage: test
  script: test
  rules:
    - if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE == "push"'
      variables: {LEVEL: "full"}
    - when: never
manual-deploy:
  stage: deploy
  script: deploy
  rules:
    - if: $CI_COMMIT_MESSAGE =~ /deploy/i
      when: manual
      allow_failure: true
never-here:
  script: x
  rules:
    - if: $CI_COMMIT_TAG
    - if: '$DEPLOY_TO == "prod-other"'
nothing-matches:
  script: x
  rules:
    - if: $UNSET_VARIABLE != null
`,
        'src/a.ts': 'a\n',
      },
      'master',
      'please Deploy this',
    );
    assert.ok(pipeline);
    assert.equal(pipeline.yaml_errors, null);
    const builds = await buildsOf(ci.t, pipeline.id);
    assert.deepEqual(
      builds.map((b) => [b.name, b.stage_idx, b.when, b.allow_failure, b.status]),
      [
        ['old-style', 0, 'on_success', 0, 'pending'],
        ['on-master', 1, 'on_success', 0, 'created'],
        ['manual-deploy', 2, 'manual', 1, 'created'],
      ],
    );
    assert.equal(variablesOf(byName(builds).get('on-master')!).LEVEL, 'full');
    assert.equal(variablesOf(byName(builds).get('on-master')!).DEPLOY_TO, 'prod-$CI_COMMIT_REF_NAME');
  });

  it('reads rules on another branch, expanding variables in rules', async () => {
    const pipeline = await pushTo(
      {
        '.gitlab-ci.yml': `
variables:
  TARGET: "prod-$CI_COMMIT_REF_NAME"
branch-only:
  script: x
  rules:
    - if: '$CI_COMMIT_BRANCH =~ /^feature-/ && ($TARGET == "prod-feature-1" || $NOPE)'
default-only:
  script: x
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
      },
      'feature-1',
    );
    assert.ok(pipeline);
    assert.equal(pipeline.ref, 'feature-1');
    assert.deepEqual(
      (await buildsOf(ci.t, pipeline.id)).map((b) => b.name),
      ['branch-only'],
    );
  });

  it('creates jobs with rules: changes only when the push changed a matching path, and exists', async () => {
    const yml = `
backend:
  script: x
  rules:
    - changes: ["src/**/*.ts"]
docs:
  script: x
  rules:
    - changes: {paths: ["docs/*"]}
has-dockerfile:
  script: x
  rules:
    - exists: [Dockerfile]
has-readme:
  script: x
  rules:
    - exists: ["**/*.md"]
`;
    // A new branch: changes holds whatever changed.
    const first = await pushTo({ '.gitlab-ci.yml': yml, 'notes/a.md': 'x\n' }, 'changes-branch');
    assert.ok(first);
    assert.deepEqual(
      (await buildsOf(ci.t, first.id)).map((b) => b.name),
      ['backend', 'docs', 'has-readme'],
    );
    const second = await pushTo({ 'docs/intro.txt': 'x\n' }, 'changes-branch');
    assert.ok(second);
    assert.deepEqual(
      (await buildsOf(ci.t, second.id)).map((b) => b.name),
      ['docs', 'has-readme'],
    );
    const third = await pushTo({ 'src/deep/b.ts': 'x\n', Dockerfile: 'FROM x\n' }, 'changes-branch');
    assert.ok(third);
    assert.deepEqual(
      (await buildsOf(ci.t, third.id)).map((b) => b.name),
      ['backend', 'has-dockerfile', 'has-readme'],
    );
  });

  it('makes no pipeline when workflow rules match nothing, and passes workflow variables on', async () => {
    const yml = `
workflow:
  name: "Pipeline for $CI_COMMIT_BRANCH"
  rules:
    - if: $CI_COMMIT_BRANCH == "release"
      variables: {CHANNEL: "stable"}
    - if: $CI_COMMIT_BRANCH =~ /^wip/
      when: never
    - if: $CI_COMMIT_BRANCH
job:
  script: x
  variables: {CHANNEL: "edge"}
`;
    assert.equal(await pushTo({ '.gitlab-ci.yml': yml }, 'wip-1'), undefined);
    const release = await pushTo({ 'r.txt': '1\n' }, 'release');
    assert.ok(release);
    const [job] = await buildsOf(ci.t, release.id);
    assert.equal(variablesOf(job!).CHANNEL, 'stable');
    const other = await pushTo({ 'r.txt': '2\n' }, 'other');
    assert.ok(other);
    assert.equal(variablesOf((await buildsOf(ci.t, other.id))[0]!).CHANNEL, 'edge');
  });

  it('builds jobs from extends, hidden jobs, anchors, !reference, default and inherit', async () => {
    const pipeline = await pushTo({
      '.gitlab-ci.yml': `
variables:
  GLOBAL_A: "a"
  GLOBAL_B: "b"
default:
  before_script: [echo default]
  image: ruby:3
  tags: [docker]
  retry: 2
.base: &base
  stage: test
  variables: {FROM_BASE: "1", SHARED: "base"}
  artifacts: {paths: [out/], expire_in: 1 day}
.setup:
  script:
    - echo setup-1
    - echo setup-2
.deep:
  extends: .base
  variables: {SHARED: "deep"}
  timeout: 30m
child:
  extends: [.deep]
  artifacts: {paths: [dist/]}
  script:
    - !reference [.setup, script]
    - echo child
anchored:
  <<: *base
  image: alpine
  inherit:
    default: [image]
    variables: [GLOBAL_B]
  script: |
    echo one
    echo two
`,
    });
    assert.ok(pipeline);
    assert.equal(pipeline.yaml_errors, null);
    const builds = byName(await buildsOf(ci.t, pipeline.id));
    assert.deepEqual([...builds.keys()], ['child', 'anchored']);
    const child = builds.get('child')!;
    assert.equal(child.stage, 'test');
    assert.equal(child.commands, 'echo default\necho setup-1\necho setup-2\necho child');
    assert.deepEqual(JSON.parse(child.tag_list!), ['docker']);
    const childOptions = JSON.parse(child.options!);
    assert.equal(childOptions.image, 'ruby:3');
    assert.equal(childOptions.retry, 2);
    assert.equal(childOptions.timeout, '30m');
    // Hashes merge deep: paths from the child, expire_in from .base.
    assert.deepEqual(childOptions.artifacts, { paths: ['dist/'], expire_in: '1 day' });
    assert.deepEqual(variablesOf(child), { GLOBAL_A: 'a', GLOBAL_B: 'b', FROM_BASE: '1', SHARED: 'deep' });
    const anchored = builds.get('anchored')!;
    assert.equal(anchored.commands, 'echo one\necho two\n');
    assert.deepEqual(JSON.parse(anchored.tag_list!), []);
    assert.equal(JSON.parse(anchored.options!).image, 'alpine');
    assert.equal(JSON.parse(anchored.options!).retry, undefined);
    assert.deepEqual(variablesOf(anchored), { GLOBAL_B: 'b', FROM_BASE: '1', SHARED: 'base' });
  });

  it('records needs as the artifacts a job takes, with .pre/.post and delayed jobs', async () => {
    const pipeline = await pushTo({
      '.gitlab-ci.yml': `
stages: [build, test]
setup:
  stage: .pre
  script: x
compile:
  stage: build
  script: x
lint:
  stage: build
  script: x
unit:
  stage: test
  script: x
  needs: [compile, {job: lint, artifacts: false}, {job: missing-ok, optional: true}]
later:
  stage: .post
  script: x
  when: delayed
  start_in: 5 minutes
`,
    });
    assert.ok(pipeline);
    assert.equal(pipeline.yaml_errors, null);
    const builds = await buildsOf(ci.t, pipeline.id);
    assert.deepEqual(
      builds.map((b) => [b.name, b.stage, b.stage_idx, b.status]),
      [
        ['setup', '.pre', 0, 'pending'],
        ['compile', 'build', 1, 'created'],
        ['lint', 'build', 1, 'created'],
        ['unit', 'test', 2, 'created'],
        ['later', '.post', 3, 'created'],
      ],
    );
    const unit = JSON.parse(byName(builds).get('unit')!.options!);
    assert.deepEqual(unit.dependencies, ['compile']);
    assert.equal(JSON.parse(byName(builds).get('later')!.options!).start_in, '5 minutes');
  });

  it('merges include: local files of the same commit, nested, under the including file', async () => {
    const pipeline = await pushTo({
      '.gitlab-ci.yml': `
include:
  - local: ci/base.yml
  - /ci/jobs.yml
variables: {WHO: "main"}
lint:
  script: main-lint
`,
      'ci/base.yml':
        'include: ci/templates.yml\nvariables: {WHO: "base", BASE: "1"}\nlint:\n  script: base-lint\n  stage: build\n',
      'ci/templates.yml': '.tpl:\n  tags: [from-template]\n',
      'ci/jobs.yml': 'unit:\n  extends: .tpl\n  script: unit\n',
    });
    assert.ok(pipeline);
    assert.equal(pipeline.yaml_errors, null);
    const builds = byName(await buildsOf(ci.t, pipeline.id));
    assert.deepEqual([...builds.keys()], ['lint', 'unit']);
    const lint = builds.get('lint')!;
    assert.equal(lint.commands, 'main-lint');
    assert.equal(lint.stage, 'build');
    assert.deepEqual(variablesOf(lint), { WHO: 'main', BASE: '1' });
    assert.deepEqual(JSON.parse(builds.get('unit')!.tag_list!), ['from-template']);
  });

  it('runs parallel: N and parallel: matrix as their instances, needs following them', async () => {
    const pipeline = await pushTo({
      '.gitlab-ci.yml': `
stages: [test, deploy]
shard:
  stage: test
  script: x
  parallel: 2
matrix:
  stage: test
  script: x
  parallel:
    matrix:
      - {PROVIDER: aws, STACK: [app, db]}
      - {PROVIDER: gcp}
publish:
  stage: deploy
  script: x
  needs: [shard]
`,
    });
    assert.ok(pipeline);
    assert.equal(pipeline.yaml_errors, null);
    const builds = await buildsOf(ci.t, pipeline.id);
    assert.deepEqual(
      builds.map((b) => b.name),
      ['shard 1/2', 'shard 2/2', 'matrix: [aws, app]', 'matrix: [aws, db]', 'matrix: [gcp]', 'publish'],
    );
    const named = byName(builds);
    assert.deepEqual(
      [
        variablesOf(named.get('shard 2/2')!).CI_NODE_INDEX,
        variablesOf(named.get('shard 2/2')!).CI_NODE_TOTAL,
      ],
      ['2', '2'],
    );
    const db = variablesOf(named.get('matrix: [aws, db]')!);
    assert.deepEqual([db.PROVIDER, db.STACK, db.CI_NODE_INDEX, db.CI_NODE_TOTAL], ['aws', 'db', '2', '3']);
    assert.deepEqual(JSON.parse(named.get('publish')!.options!).dependencies, ['shard 1/2', 'shard 2/2']);
  });

  it("hands a runner today's pipeline variables before the file's, and parallel ones", async () => {
    const pipeline = await pushTo(
      { '.gitlab-ci.yml': 'variables: {CI_COMMIT_TITLE: mine}\njob:\n  script: env\n  parallel: 2\n' },
      'master',
      'release notes\n\nbody',
    );
    assert.ok(pipeline);
    const runner = new RunnerClient(ci.base);
    assert.equal((await runner.register('yml-runner-token')).status, 201);
    const seen = new Map<string, Record<string, string>>();
    for (;;) {
      const job = await runner.requestJob();
      if (!job) break;
      const vars: Record<string, string> = {};
      for (const v of job.variables) vars[v.key] = v.value ?? '';
      seen.set(vars.CI_BUILD_NAME!, vars);
      await runner.update(job, 'success', 'ok\n');
    }
    const first = seen.get('job 1/2');
    assert.ok(first, [...seen.keys()].join(','));
    assert.equal(first.CI_PIPELINE_SOURCE, 'push');
    assert.equal(first.CI_COMMIT_BRANCH, 'master');
    assert.equal(first.CI_DEFAULT_BRANCH, 'master');
    assert.equal(first.CI_COMMIT_TAG, undefined);
    assert.equal(first.CI_COMMIT_MESSAGE, 'release notes\n\nbody\n');
    assert.equal(first.CI_COMMIT_TITLE, 'mine');
    assert.equal(first.CI_NODE_INDEX, '1');
    assert.equal(seen.get('job 2/2')?.CI_NODE_INDEX, '2');
  });

  for (const [title, yml, error] of [
    [
      'a bad parallel',
      'a:\n  script: x\n  parallel: 500\n',
      'jobs:a parallel should be an integer from 1 to 200, or a hash with a matrix of up to 200 jobs',
    ],
    [
      'a missing local include',
      'include: nope.yml\na:\n  script: x\n',
      'Local file `nope.yml` does not exist!',
    ],
    [
      'a remote include',
      'include:\n  - remote: https://example.com/ci.yml\na:\n  script: x\n',
      'include:remote is not supported on this server: `https://example.com/ci.yml`',
    ],
    [
      'a template this server does not have',
      'include:\n  - template: Auto-DevOps.gitlab-ci.yml\na:\n  script: x\n',
      'Included file `Auto-DevOps.gitlab-ci.yml` is empty or does not exist!',
    ],
    [
      'rules mixed with only',
      'job:\n  script: x\n  only: [master]\n  rules:\n    - if: $CI\n',
      'jobs:job config key may not be used with `rules`: only',
    ],
    [
      'an unknown rule key',
      'job:\n  script: x\n  rules:\n    - if: $CI\n      foo: 1\n',
      'jobs:job:rules:rule config contains unknown keys: foo',
    ],
    [
      'a bad expression',
      'job:\n  script: x\n  rules:\n    - if: $CI ==\n',
      'jobs:job:rules:rule if invalid expression syntax',
    ],
    [
      'a bad rule when',
      'job:\n  script: x\n  rules:\n    - when: sometimes\n',
      'jobs:job:rules:rule when unknown value: sometimes',
    ],
    ['an unknown need', 'a:\n  script: x\n  needs: [nope]\n', 'a job: undefined need: nope'],
    [
      'a need left out by rules',
      'a:\n  stage: build\n  script: x\n  rules: [{when: never}]\nb:\n  stage: test\n  script: x\n  needs: [a]\n',
      "'b' job needs 'a' job, but 'a' does not exist in the pipeline. This might be because of the only, except, or rules keywords.",
    ],
    ['an unknown parent', 'a:\n  script: x\n  extends: .nope\n', 'a: unknown keys in `extends` (.nope)'],
    [
      'circular extends',
      '.a:\n  extends: .b\n.b:\n  extends: .a\nc:\n  extends: .a\n  script: x\n',
      '.a: circular dependency detected in `extends`',
    ],
    [
      'a missing reference',
      'a:\n  script: !reference [.x, script]\n',
      '!reference [".x", "script"] could not be found',
    ],
    [
      'a bad workflow when',
      'workflow:\n  rules:\n    - when: manual\na:\n  script: x\n',
      'workflow:rules:rule when unknown value: manual',
    ],
  ] as const) {
    it(`fails the pipeline naming the key and the job for ${title}`, async () => {
      const pipeline = await pushTo({ '.gitlab-ci.yml': yml });
      assert.ok(pipeline);
      assert.equal(pipeline.status, 'failed');
      assert.equal(pipeline.yaml_errors, error);
      assert.deepEqual(await buildsOf(ci.t, pipeline.id), []);
    });
  }
});
