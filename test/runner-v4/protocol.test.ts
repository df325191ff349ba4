// The v4 runner protocol as gitlab-runner 17.11 calls it (test/helpers/runner-v4-client.ts, each request
// beside the line of runner 17's source that sends it), over real HTTP against a pushed pipeline of
// build → test (depending on build) → manual deploy: registration and its refusals, the job payload,
// the trace with its 416, artifacts with their limit, a finished job's token refused, a cancelled job
// stopping the runner, the creation flow's `glrt-` token, token reset and unregistration.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import type { TestProject, TestUser } from '../helpers/factory.ts';
import { createUser } from '../helpers/factory.ts';
import { buildsOf, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { Runner17, type V4Job } from '../helpers/runner-v4-client.ts';
import { makeZip } from '../helpers/zip.ts';

const REGISTRATION_TOKEN = 'v4-registration-token';

const PIPELINE = `
stages: [build, test, deploy]
before_script:
  - echo prepare
build:
  stage: build
  script:
    - make
    - make check
  after_script:
    - echo cleanup
  image: ruby:3.3
  services: [postgres:16]
  artifacts:
    paths: [out/]
    expire_in: 1 week
test:
  stage: test
  script: make test
  dependencies: [build]
deploy:
  stage: deploy
  script: make deploy
  when: manual
`;

describe('runner protocol v4', () => {
  let ci: CiProject;
  let t: TestApp;
  let base: string;
  let owner: TestUser;
  let project: TestProject;
  let runner: Runner17;

  before(async () => {
    ci = await startCiProject(
      { LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN, LABRADOR_ARTIFACTS_MAX_BYTES: '4096' },
      'runv4',
    );
    ({ t, base, owner, project } = ci);
    runner = new Runner17(base);
  });
  after(() => ci.close());

  const json = (reply: { headers: Headers }) =>
    assert.equal(reply.headers.get('content-type'), 'application/json');

  it('registers with the shared token as runner 17 sends it, refuses a wrong one, and verifies', async () => {
    const wrong = await new Runner17(base).register('nope');
    assert.equal(wrong.status, 403);
    json(wrong);
    assert.deepEqual(wrong.body, { message: '403 Forbidden' });
    const missing = await runner.call('POST', 'runners', { json: { description: 'x' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'token is missing' });
    const registered = await runner.register(REGISTRATION_TOKEN, { tag_list: 'docker, linux' });
    assert.equal(registered.status, 201, registered.text);
    json(registered);
    assert.deepEqual(Object.keys(registered.body), ['id', 'token', 'token_expires_at']);
    assert.equal(registered.body.token_expires_at, null);
    const verified = await runner.verify();
    assert.equal(verified.status, 200);
    json(verified);
    assert.deepEqual(verified.body, { id: runner.id, token: runner.token, token_expires_at: null });
    const unknown = await runner.verify('not-a-runner');
    assert.equal(unknown.status, 403);
    // The runner's tags as runner 17 sent them, read back through the runners API.
    const shown = await t.request('GET', `/api/v3/runners/${runner.id}`, { token: rootToken() });
    assert.deepEqual([...shown.body.tag_list].sort(), ['docker', 'linux']);
  });

  function rootToken(): string {
    return t.rootToken;
  }

  it('answers 204 with X-GitLab-Last-Update when there is nothing, and 403 to a wrong token', async () => {
    const none = await runner.requestJobReply();
    assert.equal(none.status, 204);
    assert.equal(none.text, '');
    assert.match(none.headers.get('x-gitlab-last-update') ?? '', /^\d+$/);
    const stranger = await new Runner17(base).call('POST', 'jobs/request', {
      json: { token: 'wrong', info: {} },
    });
    assert.equal(stranger.status, 403);
    json(stranger);
  });

  let build: V4Job;
  let sha: string;

  it('hands out the first job with the payload runner 17 reads', async () => {
    const pipeline = await ci.push({ '.gitlab-ci.yml': PIPELINE });
    assert.ok(pipeline);
    sha = pipeline.sha;
    build = (await runner.requestJob())!;
    assert.ok(build);
    assert.equal(build.job_info.name, 'build');
    assert.equal(build.job_info.stage, 'build');
    assert.equal(build.job_info.project_id, project.id);
    assert.equal(build.git_info.sha, sha);
    assert.equal(build.git_info.ref, 'master');
    assert.equal(build.git_info.ref_type, 'branch');
    assert.deepEqual(build.git_info.refspecs, ['+refs/heads/master:refs/remotes/origin/master']);
    assert.equal(build.git_info.before_sha, '0000000000000000000000000000000000000000');
    assert.equal(
      build.git_info.repo_url,
      `http://gitlab-ci-token:${build.token}@labrador.test/${project.fullPath}.git`,
    );
    assert.deepEqual(build.steps, [
      {
        name: 'script',
        script: ['echo prepare', 'make', 'make check'],
        timeout: 3600,
        when: 'on_success',
        allow_failure: false,
      },
      { name: 'after_script', script: ['echo cleanup'], timeout: 3600, when: 'always', allow_failure: true },
    ]);
    assert.deepEqual(build.runner_info, { timeout: 3600 });
    assert.deepEqual(build.image, { name: 'ruby:3.3' });
    assert.deepEqual(build.services, [{ name: 'postgres:16' }]);
    assert.deepEqual(build.artifacts, [
      {
        untracked: false,
        paths: ['out/'],
        when: 'on_success',
        expire_in: '1 week',
        artifact_type: 'archive',
        artifact_format: 'zip',
      },
    ]);
    assert.deepEqual(build.dependencies, []);
    const variables = new Map(build.variables.map((v) => [v.key, v]));
    assert.deepEqual(variables.get('CI_JOB_TOKEN'), {
      key: 'CI_JOB_TOKEN',
      value: build.token,
      public: false,
      masked: true,
    });
    assert.equal(variables.get('CI_BUILD_TOKEN')!.masked, true);
    const value = (key: string) => variables.get(key)?.value;
    assert.equal(value('CI_JOB_ID'), String(build.id));
    assert.equal(value('CI_JOB_NAME'), 'build');
    assert.equal(value('CI_JOB_STAGE'), 'build');
    assert.equal(value('CI_COMMIT_SHA'), sha);
    assert.equal(value('CI_COMMIT_REF_NAME'), 'master');
    assert.equal(value('CI_PIPELINE_ID'), String(pipeline.id));
    assert.equal(value('CI_PROJECT_ID'), String(project.id));
    assert.equal(value('CI_PROJECT_PATH'), project.fullPath);
    assert.equal(value('CI_SERVER_URL'), 'http://labrador.test');
    assert.equal(value('CI_API_V4_URL'), 'http://labrador.test/api/v4');
    assert.equal(value('CI_REPOSITORY_URL'), build.git_info.repo_url);
    assert.equal(variables.get('CI_REPOSITORY_URL')!.public, false);
    // 8.x's names ride along for old scripts.
    assert.equal(value('CI_BUILD_ID'), String(build.id));
    assert.equal(value('CI_BUILD_REF'), sha);
    assert.equal(value('GITLAB_USER_EMAIL'), owner.email);
    // The next stage waits for this one.
    assert.equal(await runner.requestJob(), null);
  });

  it('appends the trace with inclusive ranges, answers 416 with the stored range, refuses a wrong token', async () => {
    const one = await runner.patchTrace(build, 0, '$ make\n');
    assert.equal(one.status, 202);
    assert.equal(one.headers.get('range'), '0-7');
    assert.equal(one.headers.get('job-status'), 'running');
    assert.equal(one.headers.get('x-gitlab-trace-update-interval'), '3');
    const gap = await runner.patchTrace(build, 3, 'xx');
    assert.equal(gap.status, 416);
    assert.equal(gap.headers.get('range'), '0-7');
    const two = await runner.patchTrace(build, 7, `token ${build.token}\n`);
    assert.equal(two.status, 202);
    assert.equal(two.headers.get('range'), `0-${7 + 7 + build.token.length}`);
    const wrong = await runner.patchTrace({ id: build.id, token: 'wrong' }, 0, 'x');
    assert.equal(wrong.status, 403);
    const missing = await runner.patchTrace({ id: 2_000_000_000, token: build.token }, 0, 'x');
    assert.equal(missing.status, 404);
    const trace = await t.request('GET', `/api/v3/projects/${project.id}/builds/${build.id}/trace`, {
      token: owner.token,
    });
    assert.equal(trace.text, `$ make\ntoken ${'x'.repeat(build.token.length)}\n`);
  });

  /** git fetch as runner 17 clones: the payload's repo_url, `gitlab-ci-token:<job token>@`. */
  const cloneWith = (token: string, dir: string) =>
    ci.client.run(
      ['clone', '-q', `${base.replace('://', `://gitlab-ci-token:${token}@`)}/${project.fullPath}.git`, dir],
      ci.work,
    );

  it('lets the running job clone its project with its token, and nothing with a wrong one', async () => {
    const own = await cloneWith(build.token, '../clone-running');
    assert.equal(own.code, 0, own.stderr);
    const wrong = await cloneWith('wrong-token', '../clone-wrong');
    assert.notEqual(wrong.code, 0);
  });

  let zip: Buffer;

  it('takes the artifacts archive, refuses one past the limit, other kinds and a wrong token', async () => {
    const tooBig = await runner.uploadArtifacts(build, Buffer.alloc(8192, 1));
    assert.equal(tooBig.status, 413);
    json(tooBig);
    const report = await runner.uploadArtifacts(build, Buffer.from('<xml/>'), {
      artifact_format: 'gzip',
      artifact_type: 'nonsense',
    });
    assert.equal(report.status, 400);
    const wrong = await runner.uploadArtifacts({ id: build.id, token: 'wrong' }, Buffer.from('x'));
    assert.equal(wrong.status, 403);
    zip = await makeZip({ 'out/app.bin': 'binary' });
    const upload = await runner.uploadArtifacts(build, zip, {
      artifact_format: 'zip',
      artifact_type: 'archive',
      expire_in: '1 week',
    });
    assert.equal(upload.status, 201, upload.text);
    json(upload);
  });

  let test: V4Job;

  it('finishes the job, then refuses its token; the next job gets the dependency with its own token', async () => {
    const bogus = await runner.update(build, 'bogus');
    assert.equal(bogus.status, 400);
    assert.deepEqual(bogus.body, { error: 'state does not have a valid value' });
    const running = await runner.update(build, 'running');
    assert.equal(running.status, 200);
    assert.equal(running.headers.get('job-status'), 'running');
    const success = await runner.update(build, 'success', { exit_code: 0 });
    assert.equal(success.status, 200);
    assert.equal(success.headers.get('job-status'), 'success');
    const again = await runner.update(build, 'failed', { failure_reason: 'script_failure', exit_code: 1 });
    assert.equal(again.status, 403);
    assert.equal(again.headers.get('job-status'), 'success');
    const late = await runner.patchTrace(build, 0, 'late');
    assert.equal(late.status, 403);
    assert.equal(late.headers.get('job-status'), 'success');
    const lateUpload = await runner.uploadArtifacts(build, zip);
    assert.equal(lateUpload.status, 403);
    // The finished job's own token no longer downloads anything, nor clones.
    assert.equal((await runner.downloadArtifacts(build.id, build.token)).status, 403);
    const clone = await cloneWith(build.token, '../clone-finished');
    assert.notEqual(clone.code, 0);

    test = (await runner.requestJob())!;
    assert.equal(test.job_info.name, 'test');
    assert.equal(test.dependencies.length, 1);
    const dependency = test.dependencies[0]!;
    assert.equal(dependency.id, build.id);
    assert.equal(dependency.name, 'build');
    assert.equal(dependency.token, test.token);
    assert.deepEqual(dependency.artifacts_file, { filename: 'artifacts.zip', size: zip.length });
    const download = await runner.downloadArtifacts(dependency.id, dependency.token);
    assert.equal(download.status, 200);
    assert.deepEqual(download.bytes, zip);
    assert.equal((await runner.downloadArtifacts(dependency.id, 'wrong')).status, 403);
    assert.equal((await runner.update(test, 'success')).status, 200);
    assert.equal((await runner.downloadArtifacts(dependency.id, test.token)).status, 403);
    // The manual deploy waits for a person.
    assert.equal(await runner.requestJob(), null);
  });

  it('runs the manual deploy once played through the API, and stops it when cancelled', async () => {
    const pipeline = (await pipelinesOf(t, project.id)).at(-1)!;
    const deploy = (await buildsOf(t, pipeline.id)).find((b) => b.name === 'deploy')!;
    const played = await t.request('POST', `/api/v3/projects/${project.id}/builds/${deploy.id}/play`, {
      token: owner.token,
    });
    assert.equal(played.status, 200);
    const job = (await runner.requestJob())!;
    assert.equal(job.id, deploy.id);
    const manual = new Map(job.variables.map((v) => [v.key, v.value]));
    assert.equal(manual.get('CI_JOB_MANUAL'), 'true');
    assert.equal((await runner.patchTrace(job, 0, 'deploying\n')).status, 202);
    const cancel = await t.request('POST', `/api/v3/projects/${project.id}/builds/${deploy.id}/cancel`, {
      token: owner.token,
    });
    assert.equal(cancel.status, 201);
    // Runner 17 aborts on 403 or Job-Status canceled (network/remote_job_state_response.go IsFailed).
    const patch = await runner.patchTrace(job, 10, 'more\n');
    assert.equal(patch.status, 403);
    assert.equal(patch.headers.get('job-status'), 'canceled');
    const update = await runner.update(job, 'success');
    assert.equal(update.status, 403);
    assert.equal(update.headers.get('job-status'), 'canceled');
    const after = (await buildsOf(t, pipeline.id)).find((b) => b.name === 'deploy')!;
    assert.equal(after.status, 'canceled');
  });

  it('resets its token (the old one stops working) and unregisters with 204', async () => {
    const old = runner.token!;
    const reset = await runner.resetToken();
    assert.equal(reset.status, 201);
    assert.deepEqual(Object.keys(reset.body), ['token', 'token_expires_at']);
    assert.notEqual(reset.body.token, old);
    assert.equal((await runner.verify(old)).status, 403);
    runner.token = reset.body.token;
    assert.equal((await runner.verify()).status, 200);
    const gone = await runner.unregister();
    assert.equal(gone.status, 204);
    assert.equal(gone.text, '');
    assert.equal((await runner.verify()).status, 403);
    assert.equal((await runner.unregister()).status, 403);
  });

  it("creates a runner through POST /user/runners whose glrt- token runner 17's register verifies", async () => {
    const stranger = await createUser(t, 'runv4stranger');
    const hidden = await t.request('POST', '/api/v4/user/runners', {
      token: stranger.token,
      body: { runner_type: 'project_type', project_id: project.id },
    });
    assert.equal(hidden.status, 404);
    const notAdmin = await t.request('POST', '/api/v4/user/runners', {
      token: owner.token,
      body: { runner_type: 'instance_type' },
    });
    assert.equal(notAdmin.status, 403);
    const anonymous = await t.request('POST', '/api/v4/user/runners', {
      body: { runner_type: 'instance_type' },
    });
    assert.equal(anonymous.status, 401);
    const created = await t.request('POST', '/api/v4/user/runners', {
      token: owner.token,
      body: { runner_type: 'project_type', project_id: project.id, description: 'made', tag_list: 'a,b' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.body.token, /^glrt-[A-Za-z0-9_-]{20}$/);
    const fresh = new Runner17(base);
    fresh.token = created.body.token;
    const verified = await fresh.verify();
    assert.equal(verified.status, 200);
    assert.equal(verified.body.id, created.body.id);
    // It runs this project's jobs: a new pipeline's first job goes to it.
    await ci.push({ '.gitlab-ci.yml': PIPELINE, 'more.txt': 'x' });
    const job = (await fresh.requestJob())!;
    assert.equal(job.job_info.project_id, project.id);
    const reset = await fresh.resetToken();
    assert.match(reset.body.token, /^glrt-/);
  });
});
