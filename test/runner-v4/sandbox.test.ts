// Our runner over the v4 protocol with its default sandbox (bubblewrap): a whole pipeline — build, then
// test with the build's artifacts as a dependency, then a manual deploy played through the API — runs to
// success; a job that looks for the server's data dir, database, another project's repository, the
// runner's own state, Labrador's checkout and the server's environment finds none of them (each checked
// to exist on the machine first) and still builds its own project; a cancelled sandboxed job leaves no
// process behind.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildsOf, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { createProject, createUser, type TestProject } from '../helpers/factory.ts';
import { requirement } from '../helpers/requirements.ts';
import { eventually } from '../helpers/runner-client.ts';
import { spawnRunner, type RunnerProcess } from '../helpers/runner-process.ts';
import { cancelBuild } from '../../src/services/ci/builds.ts';
import { tracePath } from '../../src/storage/traces.ts';

const REGISTRATION_TOKEN = 'sandbox-registration-token';
const WAIT_MS = 60_000;

const PIPELINE = `
stages: [build, test, deploy]
build:
  stage: build
  script:
    - mkdir -p out
    - cat own.txt > out/result.txt
    - echo "built in $CI_PROJECT_DIR" >> out/result.txt
  artifacts:
    paths: [out/]
test:
  stage: test
  dependencies: [build]
  script:
    - grep -q own-content out/result.txt
    - echo "tested $(cat out/result.txt | head -1)"
deploy:
  stage: deploy
  when: manual
  script:
    - echo "deployed $CI_COMMIT_SHA by job $CI_JOB_ID"
`;

describe('runner v4 in its bubblewrap sandbox', () => {
  let ci: CiProject;
  let runner: RunnerProcess;
  let secret: TestProject;
  let usable = true;

  before(async () => {
    usable = fs.existsSync('/usr/bin/bwrap');
    if (!usable) return requirement('bubblewrap', '/usr/bin/bwrap is missing (Debian package bubblewrap)');
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'sandboxed');
    const other = await createUser(ci.t, 'sandboxother');
    secret = await createProject(ci.t, { owner: other, path: 'secretrepo', commit: true });
    runner = spawnRunner({ url: ci.base, registrationToken: REGISTRATION_TOKEN });
    await runner.waitForOutput(/taking builds from .* each in a bubblewrap sandbox/, WAIT_MS);
  });
  after(async () => {
    await runner?.kill();
    await ci?.close();
    if (runner) fs.rmSync(runner.dataDir, { recursive: true, force: true });
  });

  const pipeline = async (id: number) => (await pipelinesOf(ci.t, ci.project.id)).find((p) => p.id === id)!;
  const trace = async (buildId: number) => {
    const build = (await buildsOf(ci.t, (await pipelinesOf(ci.t, ci.project.id)).at(-1)!.id)).find(
      (candidate) => candidate.id === buildId,
    )!;
    try {
      return fs.readFileSync(tracePath(ci.t.config.dataDir, build), 'utf8');
    } catch {
      return '';
    }
  };
  const buildSettled = async (pipelineId: number, name: string) =>
    eventually(async () => {
      const build = (await buildsOf(ci.t, pipelineId)).find((candidate) => candidate.name === name);
      return build && ['success', 'failed', 'canceled'].includes(build.status) && build;
    }, WAIT_MS);

  it('runs build → test with dependencies → a manual deploy played through the API', async (t) => {
    if (!usable) return t.skip('no bubblewrap');
    const created = (await ci.push({ '.gitlab-ci.yml': PIPELINE, 'own.txt': 'own-content\n' }))!;
    const build = await buildSettled(created.id, 'build');
    assert.equal(build.status, 'success', await trace(build.id));
    assert.match(await trace(build.id), /Using Shell executor in a bubblewrap sandbox/);
    const test = await buildSettled(created.id, 'test');
    assert.equal(test.status, 'success', await trace(test.id));
    assert.match(await trace(test.id), /tested own-content/);
    const deploy = (await buildsOf(ci.t, created.id)).find((candidate) => candidate.name === 'deploy')!;
    // GitLab 8.13 kept a manual job `skipped` until someone plays it.
    assert.equal(deploy.status, 'skipped');
    const played = await ci.t.request('POST', `/api/v3/projects/${ci.project.id}/builds/${deploy.id}/play`, {
      token: ci.owner.token,
    });
    assert.equal(played.status, 200);
    const deployed = await buildSettled(created.id, 'deploy');
    assert.equal(deployed.status, 'success', await trace(deployed.id));
    assert.match(await trace(deployed.id), new RegExp(`deployed ${created.sha} by job ${deploy.id}`));
    assert.equal((await pipeline(created.id)).status, 'success');
  });

  it('keeps the server, other projects and the runner state out of a job, which still builds', async (t) => {
    if (!usable) return t.skip('no bubblewrap');
    const dataDir = ci.t.config.dataDir;
    const forbidden = {
      'data dir': dataDir,
      'other repository': secret.repoPath,
      'runner config': path.join(runner.dataDir, 'runner', 'config.json'),
      'labrador checkout': path.resolve('package.json'),
      'server environment': `/proc/${process.pid}/environ`,
    };
    // Each exists on the machine: hidden inside means the sandbox hid it.
    for (const [what, file] of Object.entries(forbidden)) assert.ok(fs.existsSync(file), what);
    const checks = Object.entries(forbidden)
      .map(
        ([what, file]) =>
          `    - if test -e '${file}'; then echo "VISIBLE ${what}"; else echo "HIDDEN ${what}"; fi`,
      )
      .join('\n');
    const otherUrl = `${ci.base.replace('://', '://gitlab-ci-token:$CI_JOB_TOKEN@')}/${secret.namespacePath}/${secret.path}.git`;
    const yml = `
probe:
  script:
${checks}
    - echo "processes $(ls /proc | grep -c '^[0-9]')"
    - if grep -qs LABRADOR_ /proc/*/environ; then echo "VISIBLE server settings"; else echo "HIDDEN server settings"; fi
    - if git clone -q "${otherUrl}" /tmp/stolen 2>/dev/null; then echo "VISIBLE other clone"; else echo "HIDDEN other clone"; fi
    - echo scratch > /tmp/scratch && cat /tmp/scratch
    - if touch /usr/written 2>/dev/null; then echo "VISIBLE system writable"; else echo "HIDDEN system writable"; fi
    - cat own.txt
`;
    const created = (await ci.push({ '.gitlab-ci.yml': yml, 'own.txt': 'probe-own-content\n' }))!;
    const probe = await buildSettled(created.id, 'probe');
    const text = await trace(probe.id);
    assert.equal(probe.status, 'success', text);
    for (const what of [...Object.keys(forbidden), 'server settings', 'other clone', 'system writable']) {
      assert.match(text, new RegExp(`^HIDDEN ${what}$`, 'm'), what);
    }
    assert.doesNotMatch(text, /^VISIBLE/m);
    // Its own PID namespace: bwrap's init, bash and the probe's own commands, not the machine's hundreds.
    const processes = Number(/processes (\d+)/.exec(text)![1]);
    assert.ok(processes >= 1 && processes < 10, `${processes} processes visible`);
    assert.match(text, /\nscratch\n/);
    assert.match(text, /probe-own-content/);
  });

  it('does not start without a working bubblewrap, and says so in one line', async (t) => {
    if (!usable) return t.skip('no bubblewrap');
    const broken = spawnRunner({
      url: ci.base,
      registrationToken: REGISTRATION_TOKEN,
      extraArgs: ['--bwrap', '/nonexistent/bwrap'],
    });
    try {
      assert.deepEqual(await broken.exited, { code: 3, signal: null });
      assert.match(
        broken.stderr,
        /^labrador-runner: no sandbox for builds: \/nonexistent\/bwrap is missing.*--sandbox off/,
      );
      assert.equal(broken.stderr.trimEnd().split('\n').length, 1);
      // It stopped before registering: the server knows only the sandboxed runner.
      const runners = await ci.t.request('GET', '/api/v3/runners/all', { token: ci.t.rootToken });
      assert.equal(runners.body.length, 1);
    } finally {
      fs.rmSync(broken.dataDir, { recursive: true, force: true });
    }
  });

  it('ends a cancelled sandboxed job with everything it started', async (t) => {
    if (!usable) return t.skip('no bubblewrap');
    const marker = '987.654321';
    const created = (await ci.push({
      '.gitlab-ci.yml': `sleeper:\n  script:\n    - echo started\n    - sleep ${marker} & sleep ${marker}\n`,
    }))!;
    const sleeping = () =>
      fs.readdirSync('/proc').filter((name) => {
        if (!/^\d+$/.test(name)) return false;
        try {
          return fs.readFileSync(`/proc/${name}/cmdline`, 'utf8') === `sleep\0${marker}\0`;
        } catch {
          return false;
        }
      });
    await eventually(async () => sleeping().length === 2, WAIT_MS);
    const [build] = await buildsOf(ci.t, created.id);
    await cancelBuild(ci.t.server.deps, build!.id);
    await eventually(async () => sleeping().length === 0, WAIT_MS);
    await runner.waitForOutput(new RegExp(`build ${build!.id} .* canceled in`), WAIT_MS);
  });
});
