// Build and pipeline hooks (`build_events`, `pipeline_events`) as GitLab 8.13's data builders shaped them,
// checked field by field as a receiver gets them: a build hook when a build is created, starts running
// and finishes; a pipeline hook on every status change of the pipeline.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildsOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { RunnerClient, type Job } from '../helpers/runner-client.ts';
import { startReceiver, type ReceivedHook, type Receiver } from '../helpers/receiver.ts';

const REGISTRATION_TOKEN = 'hooks-registration-token';
const BLANK = '0000000000000000000000000000000000000000';
const HOOK_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;
const AVATAR = /^http:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=80&d=identicon$/;

describe('build and pipeline hooks', () => {
  let ci: CiProject;
  let receiver: Receiver;
  let runner: RunnerClient;
  let sha: string;
  let job: Job;

  const byEvent = (event: string) =>
    receiver.received.filter((hook) => hook.headers['x-gitlab-event'] === event);
  // Deliveries run concurrently, so their arrival order is not the order they were queued in.
  const builds = () =>
    byEvent('Build Hook')
      .map((hook) => hook.body)
      .sort((a, b) => a.build_id - b.build_id);
  const pipelines = () => byEvent('Pipeline Hook').map((hook) => hook.body);

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'hookp');
    receiver = await startReceiver();
    const hook = await ci.t.request('POST', `/api/v3/projects/${ci.project.id}/hooks`, {
      token: ci.owner.token,
      body: { url: receiver.url, push_events: false, build_events: true, pipeline_events: true },
    });
    assert.equal(hook.status, 201);
    runner = new RunnerClient(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN, { description: 'hooked runner' })).status, 201);
  });
  after(async () => {
    await ci.close();
    await receiver.close();
  });

  const project = () => {
    const path = ci.project.fullPath;
    return {
      name: 'hookp',
      url: `git@labrador.test:${path}.git`,
      description: 'About hookp',
      homepage: `http://labrador.test/${path}`,
      git_http_url: `http://labrador.test/${path}.git`,
      git_ssh_url: `git@labrador.test:${path}.git`,
      visibility_level: 0,
    };
  };

  it('announces the new builds and the pending pipeline', async () => {
    const pipeline = (await ci.push(
      {
        '.gitlab-ci.yml':
          'stages: [build, test]\ncompile: {stage: build, script: make}\nunit: {stage: test, script: test}\n',
      },
      'hooked ci',
    ))!;
    sha = pipeline.sha;
    await ci.t.server.hookWorker.drain();
    const [compile, unit] = await buildsOf(ci.t, pipeline.id);
    const created = builds();
    assert.equal(created.length, 2);
    assert.deepEqual(created[0], {
      object_kind: 'build',
      ref: 'master',
      tag: false,
      before_sha: BLANK,
      sha,
      build_id: compile!.id,
      build_name: 'compile',
      build_stage: 'build',
      build_status: 'created',
      build_started_at: null,
      build_finished_at: null,
      build_duration: null,
      build_allow_failure: false,
      project_id: ci.project.id,
      project_name: `${ci.owner.name} / hookp`,
      user: { id: ci.owner.id, name: ci.owner.name, email: ci.owner.email },
      commit: {
        id: pipeline.id,
        sha,
        message: 'hooked ci\n',
        author_name: 'Test Author',
        author_email: 'author@example.com',
        status: 'created',
        duration: null,
        started_at: null,
        finished_at: null,
      },
      repository: project(),
    });
    assert.equal(created[1].build_id, unit!.id);
    const [pending] = pipelines();
    assert.equal(pipelines().length, 1);
    assert.deepEqual(Object.keys(pending), [
      'object_kind',
      'object_attributes',
      'user',
      'project',
      'commit',
      'builds',
    ]);
    assert.equal(pending.object_kind, 'pipeline');
    assert.deepEqual(pending.object_attributes, {
      id: pipeline.id,
      ref: 'master',
      tag: false,
      sha,
      before_sha: BLANK,
      status: 'pending',
      stages: ['build', 'test'],
      created_at: pending.object_attributes.created_at,
      finished_at: null,
      duration: null,
    });
    assert.match(pending.object_attributes.created_at, HOOK_TIME);
    assert.deepEqual(pending.user, {
      name: ci.owner.name,
      username: ci.owner.username,
      avatar_url: pending.user.avatar_url,
    });
    assert.match(pending.user.avatar_url, AVATAR);
    const { url: _url, homepage: _homepage, ...hookProject } = project();
    assert.deepEqual(pending.project, {
      name: hookProject.name,
      description: hookProject.description,
      web_url: `http://labrador.test/${ci.project.fullPath}`,
      avatar_url: null,
      git_ssh_url: hookProject.git_ssh_url,
      git_http_url: hookProject.git_http_url,
      namespace: ci.project.namespacePath,
      visibility_level: 0,
      path_with_namespace: ci.project.fullPath,
      default_branch: 'master',
    });
    assert.deepEqual(Object.keys(pending.commit), ['id', 'message', 'timestamp', 'url', 'author']);
    assert.equal(pending.commit.id, sha);
    assert.equal(pending.commit.message, 'hooked ci\n');
    assert.equal(pending.commit.url, `http://labrador.test/${ci.project.fullPath}/commit/${sha}`);
    assert.deepEqual(pending.commit.author, { name: 'Test Author', email: 'author@example.com' });
    assert.match(pending.commit.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
    assert.deepEqual(
      pending.builds.map((build: Record<string, unknown>) => [
        build.name,
        build.status,
        build.when,
        build.manual,
      ]),
      [
        ['compile', 'pending', 'on_success', false],
        ['unit', 'created', 'on_success', false],
      ],
    );
    assert.deepEqual(pending.builds[0], {
      id: compile!.id,
      stage: 'build',
      name: 'compile',
      status: 'pending',
      created_at: pending.builds[0].created_at,
      started_at: null,
      finished_at: null,
      when: 'on_success',
      manual: false,
      user: pending.user,
      runner: null,
      artifacts_file: { filename: null, size: null },
    });
  });

  it('announces a build that starts running, and the running pipeline with its runner', async () => {
    receiver.received.length = 0;
    job = (await runner.requestJob())!;
    await ci.t.server.hookWorker.drain();
    const [running] = builds();
    assert.equal(running.build_id, job.id);
    assert.equal(running.build_status, 'running');
    assert.match(running.build_started_at, HOOK_TIME);
    assert.equal(typeof running.build_duration, 'number');
    assert.equal(running.commit.status, 'running');
    const [pipeline] = pipelines();
    assert.equal(pipeline.object_attributes.status, 'running');
    assert.deepEqual(pipeline.builds[0].runner, {
      id: runner.id,
      description: 'hooked runner',
      active: true,
      is_shared: true,
    });
  });

  it('announces the finish with its duration; the pipeline stays running while the next stage opens', async () => {
    receiver.received.length = 0;
    assert.equal((await runner.update(job, 'success', 'ok\n')).status, 200);
    await ci.t.server.hookWorker.drain();
    const [finished] = builds();
    assert.equal(finished.build_status, 'success');
    assert.match(finished.build_finished_at, HOOK_TIME);
    assert.ok(finished.build_duration >= 0);
    // Still running: the next stage's build is pending now (no status change, no pipeline hook).
    assert.deepEqual(pipelines(), []);
    const next = (await runner.requestJob())!;
    await ci.t.server.hookWorker.drain();
    receiver.received.length = 0;
    await runner.update(next, 'failed', 'boom\n');
    await ci.t.server.hookWorker.drain();
    const [failed] = pipelines();
    assert.equal(failed.object_attributes.status, 'failed');
    assert.match(failed.object_attributes.finished_at, HOOK_TIME);
    assert.equal(typeof failed.object_attributes.duration, 'number');
    assert.deepEqual(
      builds().map((build: ReceivedHook['body']) => build.build_status),
      ['failed'],
    );
  });
});
