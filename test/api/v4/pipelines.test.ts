// v4's pipelines beside v3's: the Ci::Pipeline entity with its source, the list's v4 filters (ref, sha,
// source, username, scope, status), `latest`, a pipeline's jobs (retried ones left out unless asked)
// and variables, running one for a ref through the API (source `api`), retry, cancel, delete (204, with
// its builds and their files), and the refusals: unknown values, other orders, outsiders, guests.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../../helpers/app.ts';
import { addProjectMember, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';
import { buildsOf, pipelinesOf, seedPipeline, startCiProject, type CiProject } from '../../helpers/ci.ts';
import { AccessLevel } from '../../../src/domain/types.ts';
import { tracePath } from '../../../src/storage/traces.ts';

const CI = `
build:
  stage: build
  script: make
test:
  stage: test
  script: make test
`;

const PIPELINE_KEYS = [
  'id',
  'project_id',
  'sha',
  'ref',
  'status',
  'source',
  'created_at',
  'updated_at',
  'web_url',
  'before_sha',
  'tag',
  'yaml_errors',
  'user',
  'started_at',
  'finished_at',
  'committed_at',
  'duration',
  'queued_duration',
  'coverage',
  'detailed_status',
];

describe('API v4 pipelines', () => {
  let ci: CiProject;
  let t: TestApp;
  let project: TestProject;
  let owner: TestUser;
  let developer: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let pushed: number;
  let sha: string;

  const url = (path = '') => `/api/v4/projects/${project.id}${path}`;

  before(async () => {
    ci = await startCiProject({}, 'pipev4');
    ({ t, project, owner } = ci);
    developer = await createUser(t, 'pipedev');
    guest = await createUser(t, 'pipeguest');
    stranger = await createUser(t, 'pipestranger');
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    const pipeline = (await ci.push({ '.gitlab-ci.yml': CI }))!;
    pushed = pipeline.id;
    sha = pipeline.sha;
  });
  after(() => ci.close());

  it('shows a pipeline as Ci::Pipeline with its source, user and status', async () => {
    const response = await t.request('GET', url(`/pipelines/${pushed}`), { token: developer.token });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    const body = response.body;
    assert.deepEqual(Object.keys(body), PIPELINE_KEYS);
    assert.equal(body.id, pushed);
    assert.equal(body.project_id, project.id);
    assert.equal(body.sha, sha);
    assert.equal(body.ref, 'master');
    assert.equal(body.source, 'push');
    assert.equal(body.status, 'pending');
    assert.equal(body.tag, false);
    assert.equal(body.user.id, owner.id);
    assert.equal(body.user.username, owner.username);
    assert.equal(body.web_url, `${t.config.externalUrl}/${project.fullPath}/pipelines/${pushed}`);
    assert.equal(body.detailed_status.group, 'pending');
  });

  it('runs a pipeline for a ref through the API, source api, the caller as its user', async () => {
    const response = await t.request('POST', url('/pipeline'), {
      token: developer.token,
      body: { ref: 'master' },
    });
    assert.equal(response.status, 201);
    assert.equal(response.body.source, 'api');
    assert.equal(response.body.sha, sha);
    assert.equal(response.body.user.id, developer.id);
    const builds = await buildsOf(t, response.body.id);
    assert.deepEqual(
      builds.map((build) => [build.name, build.status, build.user_id]),
      [
        ['build', 'pending', developer.id],
        ['test', 'created', developer.id],
      ],
    );
    const missing = await t.request('POST', url('/pipeline'), { token: developer.token, body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'ref is missing' });
    const unknown = await t.request('POST', url('/pipeline'), {
      token: developer.token,
      body: { ref: 'nowhere' },
    });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body, { message: 'Reference not found' });
    const byGuest = await t.request('POST', url('/pipeline'), {
      token: guest.token,
      body: { ref: 'master' },
    });
    assert.equal(byGuest.status, 403);
  });

  it('lists newest first with the v4 filters', async () => {
    const all = await t.request('GET', url('/pipelines'), { token: developer.token });
    assert.equal(all.status, 200);
    const ids = (await pipelinesOf(t, project.id)).map((p) => p.id).reverse();
    assert.deepEqual(
      all.body.map((p: any) => p.id),
      ids,
    );
    assert.equal(all.headers['x-total'], String(ids.length));
    const list = async (query: string) =>
      (await t.request('GET', url(`/pipelines?${query}`), { token: developer.token })).body.map(
        (p: any) => p.id,
      );
    const api = ids[0];
    assert.deepEqual(await list('source=api'), [api]);
    assert.deepEqual(await list('source=push'), [pushed]);
    assert.deepEqual(await list(`username=${developer.username}`), [api]);
    assert.deepEqual(await list('username=nobody-at-all'), []);
    assert.deepEqual(await list('ref=master'), ids);
    assert.deepEqual(await list('ref=other'), []);
    assert.deepEqual(await list(`sha=${sha}`), ids);
    assert.deepEqual(await list('status=pending&source=push'), [pushed]);
    assert.deepEqual(await list('scope=finished'), []);
    assert.deepEqual(await list('order_by=id&sort=desc'), ids);
    for (const query of ['scope=nope', 'status=nope', 'source=nope', 'sort=sideways']) {
      const bad = await t.request('GET', url(`/pipelines?${query}`), { token: developer.token });
      assert.equal(bad.status, 400, query);
      assert.match(bad.body.error, /does not have a valid value/);
    }
    assert.deepEqual(await list('order_by=id&sort=asc'), [...ids].reverse());
    const badOrder = await t.request('GET', url('/pipelines?order_by=sha'), { token: developer.token });
    assert.equal(badOrder.status, 400);
    assert.deepEqual(badOrder.body, { error: 'order_by does not have a valid value' });
  });

  it('answers the newest pipeline of a ref as latest', async () => {
    const ids = (await pipelinesOf(t, project.id)).map((p) => p.id);
    const latest = await t.request('GET', url('/pipelines/latest'), { token: developer.token });
    assert.equal(latest.status, 200);
    assert.equal(latest.body.id, ids.at(-1));
    const none = await t.request('GET', url('/pipelines/latest?ref=other'), { token: developer.token });
    assert.equal(none.status, 404);
    assert.deepEqual(none.body, { message: '404 Not found' });
  });

  it("lists a pipeline's jobs as Ci::Job, retried ones only when asked, and its variables", async () => {
    const jobs = await t.request('GET', url(`/pipelines/${pushed}/jobs`), { token: developer.token });
    assert.equal(jobs.status, 200);
    assert.deepEqual(
      jobs.body.map((job: any) => job.name),
      ['test', 'build'],
    );
    assert.equal(jobs.body[0].pipeline.id, pushed);
    const build = jobs.body[1];
    const canceled = await t.request('POST', url(`/jobs/${build.id}/cancel`), { token: developer.token });
    assert.equal(canceled.status, 201);
    const retried = await t.request('POST', url(`/jobs/${build.id}/retry`), { token: developer.token });
    assert.equal(retried.status, 201);
    const latest = await t.request('GET', url(`/pipelines/${pushed}/jobs`), { token: developer.token });
    assert.deepEqual(
      latest.body.map((job: any) => job.id),
      [retried.body.id, jobs.body[0].id],
    );
    const everything = await t.request('GET', url(`/pipelines/${pushed}/jobs?include_retried=true`), {
      token: developer.token,
    });
    assert.equal(everything.body.length, 3);
    const pending = await t.request('GET', url(`/pipelines/${pushed}/jobs?scope[]=pending`), {
      token: developer.token,
    });
    assert.deepEqual(
      pending.body.map((job: any) => job.id),
      [retried.body.id],
    );
    const variables = await t.request('GET', url(`/pipelines/${pushed}/variables`), {
      token: developer.token,
    });
    assert.equal(variables.status, 200);
    assert.deepEqual(variables.body, []);
  });

  it('cancels a whole pipeline and retries its failed jobs', async () => {
    const canceled = await t.request('POST', url(`/pipelines/${pushed}/cancel`), { token: developer.token });
    assert.equal(canceled.status, 200);
    assert.equal(canceled.body.status, 'canceled');
    const { pipeline } = await seedPipeline(t, project, {
      sha,
      status: 'failed',
      builds: [{ name: 'broken', status: 'failed' }],
    });
    const retried = await t.request('POST', url(`/pipelines/${pipeline.id}/retry`), {
      token: developer.token,
    });
    assert.equal(retried.status, 201);
    // A pipeline that had started goes back to running while the retried job waits.
    assert.equal(retried.body.status, 'running');
    assert.deepEqual(
      (await buildsOf(t, pipeline.id)).map((build) => build.status),
      ['failed', 'pending'],
    );
    const byGuest = await t.request('POST', url(`/pipelines/${pushed}/retry`), { token: guest.token });
    assert.equal(byGuest.status, 403);
  });

  it('deletes a pipeline with its builds and their files (204), masters only', async () => {
    const { pipeline, builds } = await seedPipeline(t, project, {
      sha,
      builds: [{ name: 'old', status: 'success', trace: 'gone soon\n', artifacts: { 'a.txt': 'a' } }],
    });
    const file = tracePath(t.config.dataDir, builds[0]!);
    assert.ok(fs.existsSync(file));
    const byDeveloper = await t.request('DELETE', url(`/pipelines/${pipeline.id}`), {
      token: developer.token,
    });
    assert.equal(byDeveloper.status, 403);
    const before = Number(
      (await t.request('GET', url('/jobs'), { token: developer.token })).headers['x-total'],
    );
    const deleted = await t.request('DELETE', url(`/pipelines/${pipeline.id}`), { token: owner.token });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal(
      (await t.request('GET', url(`/pipelines/${pipeline.id}`), { token: owner.token })).status,
      404,
    );
    assert.equal((await buildsOf(t, pipeline.id)).length, 0);
    assert.equal(fs.existsSync(file), false);
    const afterCount = (await t.request('GET', url('/jobs'), { token: developer.token })).headers['x-total'];
    assert.equal(afterCount, String(before - 1));
    const again = await t.request('DELETE', url(`/pipelines/${pipeline.id}`), { token: owner.token });
    assert.equal(again.status, 404);
  });

  it('hides a private project from outsiders and reads nothing for bad ids', async () => {
    const hidden = await t.request('GET', url('/pipelines'), { token: stranger.token });
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    const anonymous = await t.request('GET', url(`/pipelines/${pushed}`));
    assert.equal(anonymous.status, 401);
    const unknown = await t.request('GET', url('/pipelines/999999'), { token: developer.token });
    assert.equal(unknown.status, 404);
    const bad = await t.request('GET', url('/pipelines/abc'), { token: developer.token });
    assert.equal(bad.status, 400);
  });
});
