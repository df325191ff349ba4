// Labrador's runner (dist/runner.mjs, a process of its own) against a Labrador listening on a real port:
// it registers with the shared token, and pushed pipelines run to their end through the runner protocol
// alone. Two stages with artifacts, dependencies, a cache and an after_script; a failing line fails the
// build and skips the next stage; a secret variable is usable but never printed; a cancel and a timeout
// end the build's processes; a runner killed mid-build ends what it left after a restart.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildsOf, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { eventually } from '../helpers/runner-client.ts';
import { groupAlive, spawnRunner, type RunnerProcess } from '../helpers/runner-process.ts';
import { cancelBuild } from '../../src/services/ci/builds.ts';
import { tracePath } from '../../src/storage/traces.ts';

const REGISTRATION_TOKEN = 'runner-registration-token';
const WAIT_MS = 60_000;
// The executor itself, with the machine in view: these tests follow a build's process group by the pid
// its script prints and meet in a shared /tmp. The sandbox is test/runner-v4/sandbox.test.ts's.
const UNSANDBOXED = ['--sandbox', 'off'];

const TWO_STAGES = `
stages: [build, test]
variables:
  GREETING: hello
cache:
  key: deps
  paths: [vendor/]
build:
  stage: build
  script:
    - mkdir -p out vendor
    - echo "$GREETING from build" > out/result.txt
    - test -f vendor/dep.txt && echo "cache hit" || echo "cache miss"
    - echo cached > vendor/dep.txt
  after_script:
    - echo "after script ran"
  artifacts:
    name: result
    paths: [out/]
    expire_in: 1 day
test:
  stage: test
  dependencies: [build]
  script:
    - cat out/result.txt
    - test -f vendor/dep.txt && echo "cache hit" || echo "cache miss"
`;

describe('runner', () => {
  let ci: CiProject;
  let runner: RunnerProcess;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'runr');
    runner = spawnRunner({ url: ci.base, registrationToken: REGISTRATION_TOKEN, extraArgs: UNSANDBOXED });
    await runner.waitForOutput(/taking builds from/, WAIT_MS);
  });
  after(async () => {
    await runner?.kill();
    await ci?.close();
    if (runner) fs.rmSync(runner.dataDir, { recursive: true, force: true });
  });

  const builds = async (pipelineId: number) => buildsOf(ci.t, pipelineId);
  const pipeline = async (id: number) => (await pipelinesOf(ci.t, ci.project.id)).find((p) => p.id === id)!;
  const trace = async (buildId: number) => {
    const build = (await ci.t.server.deps.db.kysely
      .selectFrom('ci_builds')
      .selectAll()
      .where('id', '=', buildId)
      .executeTakeFirstOrThrow())!;
    try {
      return fs.readFileSync(tracePath(ci.t.config.dataDir, build), 'utf8');
    } catch {
      return '';
    }
  };
  /** Waits until the pipeline reaches one of the final states and answers it. */
  const settled = async (pipelineId: number) =>
    eventually(async () => {
      const row = await pipeline(pipelineId);
      return ['success', 'failed', 'canceled', 'skipped'].includes(row.status) && row;
    }, WAIT_MS);

  it('runs a two-stage pipeline with artifacts, dependencies, a cache and an after_script', async () => {
    const created = (await ci.push({ '.gitlab-ci.yml': TWO_STAGES }))!;
    const done = await settled(created.id);
    const [build, test] = await builds(created.id);
    const buildTrace = await trace(build!.id);
    const testTrace = await trace(test!.id);
    assert.equal(done.status, 'success', `${buildTrace}\n${testTrace}`);
    assert.deepEqual([build!.status, test!.status], ['success', 'success']);
    // Each command echoed, then its output.
    assert.match(buildTrace, /\$ mkdir -p out vendor/);
    assert.match(
      buildTrace,
      /\$ test -f vendor\/dep.txt && echo "cache hit" \|\| echo "cache miss"\S*\ncache miss\n/,
    );
    assert.match(
      buildTrace,
      /Running after script\.\.\.\S*\n\S*\$ echo "after script ran"\S*\nafter script ran\n/,
    );
    assert.match(buildTrace, /Build succeeded/);
    assert.equal(build!.artifacts_file, 'result.zip');
    assert.ok(build!.artifacts_expire_at);
    // The second job has the first one's artifact, and the cache the first one left.
    assert.match(testTrace, /Downloading artifacts for build/);
    assert.match(testTrace, /\$ cat out\/result.txt\S*\nhello from build\n/);
    assert.match(testTrace, /cache hit/);
  });

  it('fails the build at the first failing line and skips the next stage', async () => {
    const created = (await ci.push({
      '.gitlab-ci.yml': `
stages: [build, test]
build:
  stage: build
  script:
    - echo before the failure
    - "false"
    - echo never printed
  after_script:
    - echo after script still ran
test:
  stage: test
  script: echo never run
`,
    }))!;
    const done = await settled(created.id);
    assert.equal(done.status, 'failed');
    const [build, test] = await builds(created.id);
    assert.equal(build!.status, 'failed');
    assert.equal(test!.status, 'skipped');
    const text = await trace(build!.id);
    assert.match(text, /before the failure/);
    assert.doesNotMatch(text, /never printed/);
    assert.match(text, /after script still ran/);
    assert.match(text, /ERROR: Build failed: exit code 1/);
  });

  it('gives the build its secret variables without printing them', async () => {
    const secret = 'sup3r-s3cret-value-42';
    const added = await ci.t.request('POST', `/api/v3/projects/${ci.project.id}/variables`, {
      token: ci.owner.token,
      form: { key: 'DEPLOY_SECRET', value: secret },
    });
    assert.equal(added.status, 201, added.text);
    const created = (await ci.push({
      '.gitlab-ci.yml': `
job:
  script:
    - test "$DEPLOY_SECRET" = "${secret}"
    - echo "secret length \${#DEPLOY_SECRET}"
`,
    }))!;
    const done = await settled(created.id);
    const [build] = await builds(created.id);
    const text = await trace(build!.id);
    assert.equal(done.status, 'success', text);
    assert.match(text, new RegExp(`secret length ${secret.length}`));
    // The command line names the value only because this test wrote it into the script itself.
    assert.equal(text.split(secret).length - 1, 1);
    assert.doesNotMatch(text.replace(`"${secret}"`, ''), new RegExp(secret));
  });

  /** Pushes a job that prints its shell's process group and sleeps; answers the build and the group. */
  const sleeper = async (name: string) => {
    const created = (await ci.push({
      '.gitlab-ci.yml': `
${name}:
  script:
    - echo "group $$"
    - sleep 600
`,
    }))!;
    const [build] = await builds(created.id);
    const pgid = await eventually(async () => {
      const match = /group (\d+)\n/.exec(await trace(build!.id));
      return match && Number(match[1]);
    }, WAIT_MS);
    assert.ok(groupAlive(pgid));
    return { pipelineId: created.id, buildId: build!.id, pgid };
  };

  it('ends a canceled build and leaves no process behind', async () => {
    const { pipelineId, buildId, pgid } = await sleeper('sleeper');
    await cancelBuild(ci.t.server.deps, buildId);
    await eventually(async () => !groupAlive(pgid), WAIT_MS);
    assert.equal((await pipeline(pipelineId)).status, 'canceled');
    await runner.waitForOutput(new RegExp(`build ${buildId} .* canceled in`), WAIT_MS);
  });

  it('fails a build that runs longer than the project allows, ending its script', async () => {
    // The timeout counts from when the runner takes the build, so on a loaded machine the clone alone may
    // use it up before the script starts. Each such try is a timed-out build too; the timeout doubles
    // until a try's script has started, and that one's processes must be gone.
    let group: RegExpExecArray | null = null;
    try {
      for (let timeout = 1; !group; timeout *= 2) {
        assert.ok(timeout <= 64, 'the script started within a 64 s build timeout');
        await ci.t.server.deps.db.kysely
          .updateTable('projects')
          .set({ build_timeout: timeout })
          .where('id', '=', ci.project.id)
          .execute();
        const created = (await ci.push({
          '.gitlab-ci.yml': `slow:\n  script:\n    - echo "group $$"\n    - sleep 600\n# try ${timeout}\n`,
        }))!;
        const done = await settled(created.id);
        assert.equal(done.status, 'failed');
        const [build] = await builds(created.id);
        const text = await trace(build!.id);
        assert.match(text, new RegExp(`execution took longer than ${timeout} seconds`));
        group = /group (\d+)\n/.exec(text);
      }
      assert.equal(groupAlive(Number(group[1])), false, 'nothing of the script is left');
    } finally {
      await ci.t.server.deps.db.kysely
        .updateTable('projects')
        .set({ build_timeout: 3600 })
        .where('id', '=', ci.project.id)
        .execute();
    }
  });

  it('ends what a killed runner left running when it starts again', async () => {
    const { pipelineId, buildId, pgid } = await sleeper('orphan');
    runner.child.kill('SIGKILL');
    await runner.exited;
    // The build's own process group outlives the runner...
    assert.ok(groupAlive(pgid));
    runner = spawnRunner({
      url: ci.base,
      registrationToken: REGISTRATION_TOKEN,
      dataDir: runner.dataDir,
      extraArgs: UNSANDBOXED,
    });
    await runner.waitForOutput(/taking builds from/, WAIT_MS);
    // ...until the runner is back: then it is ended (SIGKILL takes effect a moment after it is sent) and
    // the build is reported failed.
    await eventually(async () => !groupAlive(pgid), WAIT_MS);
    assert.match(runner.stdout, new RegExp(`build ${buildId} was left running`));
    const done = await settled(pipelineId);
    assert.equal(done.status, 'failed');
    assert.match(await trace(buildId), /the runner stopped during the build/);
  });

  it('runs builds of one stage at the same time', async () => {
    // Each job waits for the other's mark: they succeed only when both run at once.
    const marks = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-marks-'));
    const job = (own: string, other: string) =>
      `${own}:\n  script:\n    - touch ${marks}/${own}\n    - for i in $(seq 600); do test -f ${marks}/${other} && exit 0; sleep 0.1; done; exit 1\n`;
    try {
      const created = (await ci.push({ '.gitlab-ci.yml': job('left', 'right') + job('right', 'left') }))!;
      // Both finish at about the same time: the pipeline still settles (they take turns on it).
      const done = await settled(created.id);
      assert.equal(done.status, 'success');
    } finally {
      fs.rmSync(marks, { recursive: true, force: true });
    }
  });

  it('runs an empty job', async () => {
    const created = (await ci.push({ '.gitlab-ci.yml': 'empty:\n  script: ["true"]\n' }))!;
    const done = await settled(created.id);
    assert.equal(done.status, 'success');
  });
});
