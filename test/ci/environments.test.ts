// Environments and deployments from a real `git push`, run by Labrador's own runner (a process of its
// own): a job with an environment that succeeds records its deployment (the environment made on first
// use, its URL from the job's expanded `url`), seen through v3, v4 and the deployment hook field by
// field; the job got CI_ENVIRONMENT_NAME/SLUG/URL; stopping the environment plays its on_stop job, whose
// success stops it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildsOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { spawnRunner, type RunnerProcess } from '../helpers/runner-process.ts';
import { until } from '../helpers/wait.ts';
import { tracePath } from '../../src/storage/traces.ts';

const REGISTRATION_TOKEN = 'environments-registration-token';
const HOOK_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;
const AVATAR = /^http:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=80&d=identicon$/;

const YAML = `
stages: [deploy]
review:
  stage: deploy
  script:
    - echo "env=$CI_ENVIRONMENT_NAME slug=$CI_ENVIRONMENT_SLUG url=$CI_ENVIRONMENT_URL"
  environment:
    name: review/$CI_BUILD_REF_NAME
    url: https://$CI_ENVIRONMENT_SLUG.example.com
    on_stop: stop_review
stop_review:
  stage: deploy
  script: [echo stopping]
  when: manual
  environment:
    name: review/$CI_BUILD_REF_NAME
    action: stop
production:
  stage: deploy
  script: [echo production]
  environment: production
`;

describe('environments and deployments from a pipeline', () => {
  let ci: CiProject;
  let runner: RunnerProcess;
  let receiver: Receiver;
  let sha = '';
  let builds: Awaited<ReturnType<typeof buildsOf>> = [];
  const v3 = (path: string) =>
    ci.t.request('GET', `/api/v3/projects/${ci.project.id}${path}`, { token: ci.owner.token });
  const v4 = (path: string) =>
    ci.t.request('GET', `/api/v4/projects/${ci.project.id}${path}`, { token: ci.owner.token });
  const build = (name: string) => builds.find((b) => b.name === name)!;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'envp');
    receiver = await startReceiver();
    const hook = await ci.t.request('POST', `/api/v4/projects/${ci.project.id}/hooks`, {
      token: ci.owner.token,
      body: { url: receiver.url, push_events: false, deployment_events: true },
    });
    assert.equal(hook.status, 201);
    assert.equal(hook.body.deployment_events, true);
    runner = spawnRunner({
      url: ci.base,
      registrationToken: REGISTRATION_TOKEN,
      extraArgs: ['--sandbox', 'off'],
    });
    await runner.waitForOutput(/taking builds from/, 60_000);
    const pipeline = (await ci.push({ '.gitlab-ci.yml': YAML }, 'Deploy the review app'))!;
    sha = pipeline.sha;
    builds = await buildsOf(ci.t, pipeline.id);
    await until('both deployments', async () => {
      const list = await v4('/deployments');
      return list.body.length === 2;
    });
  });
  after(async () => {
    await runner?.kill();
    await ci?.close();
    await receiver?.close();
    if (runner) fs.rmSync(runner.dataDir, { recursive: true, force: true });
  });

  it('lists the environments and deployments under v3 as 8.13 shaped them', async () => {
    const environments = await v3('/environments');
    assert.equal(environments.status, 200);
    assert.equal(environments.headers['x-total'], '2');
    const names = environments.body.map((e: { name: string }) => e.name).sort();
    assert.deepEqual(names, ['production', 'review/master']);
    const review = environments.body.find((e: { name: string }) => e.name === 'review/master');
    assert.deepEqual(Object.keys(review), ['id', 'name', 'external_url', 'project']);
    assert.match(review.external_url, /^https:\/\/review-master-[a-z0-9]{6}\.example\.com$/);
    assert.equal(review.project.id, ci.project.id);
    assert.equal(review.project.path_with_namespace, ci.project.fullPath);

    const deployments = await v3('/deployments');
    assert.equal(deployments.status, 200);
    assert.equal(deployments.body.length, 2);
    const byName = new Map(deployments.body.map((d: any) => [d.environment.name, d]));
    const first = byName.get('review/master') as any;
    assert.deepEqual(Object.keys(first), [
      'id',
      'iid',
      'ref',
      'sha',
      'created_at',
      'user',
      'environment',
      'deployable',
    ]);
    assert.deepEqual(deployments.body.map((d: any) => d.iid).sort(), [1, 2]);
    assert.equal(first.ref, 'master');
    assert.equal(first.sha, sha);
    assert.equal(first.user.username, ci.owner.username);
    assert.deepEqual(Object.keys(first.user), ['name', 'username', 'id', 'state', 'avatar_url', 'web_url']);
    assert.deepEqual(first.environment, {
      id: review.id,
      name: 'review/master',
      external_url: review.external_url,
    });
    assert.equal(first.deployable.id, build('review').id);
    assert.equal(first.deployable.name, 'review');
    assert.equal(first.deployable.status, 'success');
    assert.equal(first.deployable.commit.id, sha);

    const one = await v3(`/deployments/${first.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, first);
    assert.equal((await v3('/deployments/999999')).status, 404);
  });

  it('gave the deploying job its environment variables', async () => {
    const review = (await v4('/environments?name=review/master')).body[0];
    const trace = fs.readFileSync(tracePath(ci.t.config.dataDir, build('review')), 'utf8');
    assert.match(
      trace,
      new RegExp(`env=review/master slug=${review.slug} url=https://${review.slug}\\.example\\.com`),
    );
    assert.match(review.slug, /^review-master-[a-z0-9]{6}$/);
  });

  it('lists, filters, orders and shows them under v4', async () => {
    const environments = await v4('/environments');
    assert.equal(environments.status, 200);
    const production = environments.body.find((e: { name: string }) => e.name === 'production');
    assert.deepEqual(Object.keys(production), [
      'id',
      'name',
      'slug',
      'external_url',
      'created_at',
      'updated_at',
      'tier',
      'project',
      'state',
    ]);
    assert.equal(production.slug, 'production');
    assert.equal(production.tier, 'production');
    assert.equal(production.state, 'available');
    assert.equal(production.external_url, null);
    assert.equal(production.project.id, ci.project.id);
    assert.equal((await v4('/environments?search=rev')).body.length, 1);
    assert.equal((await v4('/environments?search=re')).status, 400);
    assert.equal((await v4('/environments?states=stopped')).body.length, 0);
    assert.equal((await v4('/environments?states=gone')).status, 400);

    const one = await v4(`/environments/${production.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(Object.keys(one.body), [
      'id',
      'name',
      'slug',
      'external_url',
      'created_at',
      'updated_at',
      'tier',
      'last_deployment',
      'state',
    ]);
    assert.equal(one.body.last_deployment.deployable.id, build('production').id);
    assert.equal(
      one.body.last_deployment.deployable.web_url,
      `${ci.t.config.externalUrl}/${ci.project.fullPath}/builds/${build('production').id}`,
    );
    assert.equal(one.body.last_deployment.status, 'success');
    assert.equal(one.body.last_deployment.environment, undefined);

    const desc = await v4('/deployments?order_by=iid&sort=desc');
    assert.deepEqual(
      desc.body.map((d: any) => d.iid),
      [2, 1],
    );
    const asc = await v4('/deployments?order_by=created_at&sort=asc');
    assert.deepEqual(
      asc.body.map((d: any) => d.iid),
      [1, 2],
    );
    const filtered = await v4('/deployments?environment=production&status=success');
    assert.equal(filtered.body.length, 1);
    assert.deepEqual(Object.keys(filtered.body[0]), [
      'id',
      'iid',
      'ref',
      'sha',
      'created_at',
      'updated_at',
      'user',
      'environment',
      'deployable',
      'status',
    ]);
    assert.equal(filtered.body[0].environment.name, 'production');
    assert.equal(filtered.body[0].user.username, ci.owner.username);
    assert.equal((await v4('/deployments?environment=nowhere')).body.length, 0);
    assert.equal((await v4('/deployments?order_by=sha')).status, 400);
    const single = await v4(`/deployments/${filtered.body[0].id}`);
    assert.deepEqual(single.body, filtered.body[0]);
  });

  it('announced each deployment to the deployment hook, field by field', async () => {
    await ci.t.server.hookWorker.drain();
    const hooks = await receiver.waitFor(2);
    for (const hook of hooks) assert.equal(hook.headers['x-gitlab-event'], 'Deployment Hook');
    const body = hooks.map((h) => h.body).find((b) => b.environment === 'production');
    const deployment = (await v4('/deployments?environment=production')).body[0];
    const base = ci.t.config.externalUrl;
    const path = ci.project.fullPath;
    assert.match(body.status_changed_at, HOOK_TIME);
    assert.match(body.user.avatar_url, AVATAR);
    assert.deepEqual(body, {
      object_kind: 'deployment',
      status: 'success',
      status_changed_at: body.status_changed_at,
      deployment_id: deployment.id,
      deployable_id: build('production').id,
      deployable_url: `${base}/${path}/builds/${build('production').id}`,
      environment: 'production',
      environment_tier: 'production',
      environment_slug: 'production',
      environment_external_url: null,
      project: {
        id: ci.project.id,
        name: 'envp',
        description: 'About envp',
        web_url: `${base}/${path}`,
        avatar_url: null,
        git_ssh_url: body.project.git_ssh_url,
        git_http_url: `${base}/${path}.git`,
        namespace: body.project.namespace,
        visibility_level: 0,
        path_with_namespace: path,
        default_branch: 'master',
        homepage: `${base}/${path}`,
        url: body.project.git_ssh_url,
        ssh_url: body.project.git_ssh_url,
        http_url: `${base}/${path}.git`,
        ci_config_path: null,
      },
      short_sha: sha.slice(0, 8),
      user: {
        id: ci.owner.id,
        name: ci.owner.name,
        username: ci.owner.username,
        avatar_url: body.user.avatar_url,
        email: ci.owner.email,
      },
      user_url: `${base}/${ci.owner.username}`,
      commit_url: `${base}/${path}/commit/${sha}`,
      commit_title: 'Deploy the review app',
      ref: 'master',
    });
    assert.match(body.project.git_ssh_url, new RegExp(`${path}\\.git$`));
  });

  it('keeps the v3 hook entity as 8.13 had it, without deployment_events', async () => {
    const hooks = await v3('/hooks');
    assert.equal(hooks.status, 200);
    assert.equal(hooks.body.length, 1);
    assert.equal('deployment_events' in hooks.body[0], false);
    assert.equal((await v4('/hooks')).body[0].deployment_events, true);
  });

  it('stops the review environment by playing its on_stop job', async () => {
    const review = (await v4('/environments?name=review/master')).body[0];
    const stop = await ci.t.request(
      'POST',
      `/api/v4/projects/${ci.project.id}/environments/${review.id}/stop`,
      {
        token: ci.owner.token,
      },
    );
    assert.equal(stop.status, 200);
    assert.equal(stop.body.state, 'stopping');
    const stopped = await until('the stop job to stop the environment', async () => {
      const list = await v4('/environments?states=stopped');
      return list.body.length === 1 && list.body[0];
    });
    assert.equal(stopped.name, 'review/master');
    const jobs = await v4(`/jobs?scope[]=success`);
    assert.ok(
      jobs.body.some((job: any) => job.name === 'stop_review' && job.user.username === ci.owner.username),
    );
    // Stopping records no deployment.
    assert.equal((await v4('/deployments')).body.length, 2);
  });
});
