// The CI scenario continued over API v3, with a runner speaking the protocol: a build's entity field by
// field while it runs (live trace) and once it has artifacts; retry of a failed build passes the
// pipeline; play of the manual job; artifacts by ref and job name come from the newest successful
// pipeline; cancel of a running build stops its runner; erase and keep; the pipelines API; and the sweep
// of expired artifacts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { addProjectMember, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { buildsOf, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { RunnerClient, type Job } from '../helpers/runner-client.ts';
import { makeZip } from '../helpers/zip.ts';
import { USER_KEYS } from '../helpers/entity-keys.ts';

const REGISTRATION_TOKEN = 'builds-api-registration-token';

const PIPELINE = `
stages: [build, test, deploy]
compile:
  stage: build
  script: make
  artifacts:
    paths: [out/]
    expire_in: 1 week
check:
  stage: test
  script: make check
ship:
  stage: deploy
  script: make ship
  when: manual
`;

const BUILD_KEYS = [
  'id',
  'status',
  'stage',
  'name',
  'ref',
  'tag',
  'coverage',
  'created_at',
  'started_at',
  'finished_at',
  'user',
  'artifacts_file',
  'commit',
  'runner',
  'pipeline',
];
const ACTION_KEYS = BUILD_KEYS.filter((key) => key !== 'pipeline');
const ERASED_KEYS = [
  ...BUILD_KEYS.filter((key) => key !== 'pipeline' && key !== 'artifacts_file'),
  'download_url',
];
const PIPELINE_KEYS = [
  'id',
  'sha',
  'ref',
  'status',
  'before_sha',
  'tag',
  'yaml_errors',
  'user',
  'created_at',
  'updated_at',
  'started_at',
  'finished_at',
  'committed_at',
  'duration',
];
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('builds over API v3, driven by a runner', () => {
  let ci: CiProject;
  let t: TestApp;
  let project: TestProject;
  let owner: TestUser;
  let developer: TestUser;
  let runner: RunnerClient;

  const api = (method: string, url: string, token = developer.token) =>
    t.request(method, `/api/v3/projects/${project.id}${url}`, { token });
  async function take(name: string): Promise<Job> {
    const job = await runner.requestJob();
    assert.equal(job?.name, name);
    return job!;
  }
  const finish = async (job: Job, state: 'success' | 'failed') =>
    assert.equal((await runner.update(job, state, `${job.name}: ${state}\n`)).status, 200);
  const pipelineStatus = async (id: number) =>
    (await pipelinesOf(t, project.id)).find((p) => p.id === id)!.status;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'bapi');
    ({ t, project, owner } = ci);
    developer = await createUser(t, 'bapidev');
    await addProjectMember(t, project.id, developer.id, 30);
    runner = new RunnerClient(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
  });
  after(() => ci.close());

  let first: number;
  let compile: Job;
  let check: Job;

  it('shows a running build field by field, with its live trace', async () => {
    const pipeline = (await ci.push({ '.gitlab-ci.yml': PIPELINE }, 'Add CI\n\nwith a body'))!;
    first = pipeline.id;
    compile = await take('compile');
    assert.equal((await runner.patchTrace(compile, 0, '$ make\n')).status, 202);
    const trace = await api('GET', `/builds/${compile.id}/trace`);
    assert.equal(trace.status, 200);
    assert.equal(trace.headers['content-type'], 'text/plain');
    assert.equal(trace.headers['content-disposition'], `infile; filename="${compile.id}.log"`);
    assert.equal(trace.text, '$ make\n');
    assert.equal((await runner.patchTrace(compile, 7, 'compiling\n')).status, 202);
    assert.equal((await api('GET', `/builds/${compile.id}/trace`)).text, '$ make\ncompiling\n');

    const response = await api('GET', `/builds/${compile.id}`);
    assert.equal(response.status, 200);
    const build = response.body;
    assert.deepEqual(Object.keys(build), BUILD_KEYS);
    assert.equal(build.id, compile.id);
    assert.equal(build.status, 'running');
    assert.equal(build.stage, 'build');
    assert.equal(build.name, 'compile');
    assert.equal(build.ref, 'master');
    assert.equal(build.tag, false);
    assert.equal(build.coverage, null);
    assert.match(build.created_at, TIME);
    assert.match(build.started_at, TIME);
    assert.equal(build.finished_at, null);
    assert.deepEqual(Object.keys(build.user), USER_KEYS);
    assert.equal(build.user.id, owner.id);
    assert.equal(build.user.username, owner.username);
    assert.equal(build.artifacts_file, null);
    assert.deepEqual(build.commit, {
      id: pipeline.sha,
      short_id: pipeline.sha.slice(0, 8),
      title: 'Add CI',
      author_name: build.commit.author_name,
      author_email: build.commit.author_email,
      created_at: build.commit.created_at,
      message: 'Add CI\n\nwith a body\n',
    });
    assert.ok(build.commit.author_name && build.commit.author_email);
    assert.match(build.commit.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000[+-]\d\d:\d\d$/);
    assert.deepEqual(build.runner, {
      id: runner.id,
      description: 'test runner',
      active: true,
      is_shared: true,
      name: 'gitlab-ci-multi-runner',
    });
    assert.deepEqual(build.pipeline, { id: first, sha: pipeline.sha, ref: 'master', status: 'running' });

    const list = await api('GET', '/builds');
    assert.deepEqual(
      list.body.map((b: { name: string; status: string }) => [b.name, b.status]),
      [
        ['ship', 'created'],
        ['check', 'created'],
        ['compile', 'running'],
      ],
    );
    assert.deepEqual(list.body[2], build);
    const ofCommit = await api('GET', `/repository/commits/${pipeline.sha}/builds?scope=running`);
    assert.deepEqual(ofCommit.body, [build]);
    // Not started yet: no trace.
    const waiting = await api('GET', `/builds/${list.body[1].id}/trace`);
    assert.equal(waiting.status, 404);
  });

  it('serves artifacts once uploaded; a failed build retried passes the pipeline', async () => {
    const zip = await makeZip({ 'out/app.bin': 'first' });
    assert.equal((await runner.uploadArtifacts(compile, zip, 'out.zip', '1 week')).status, 201);
    await finish(compile, 'success');
    const build = (await api('GET', `/builds/${compile.id}`)).body;
    assert.deepEqual(build.artifacts_file, { filename: 'out.zip', size: zip.length });
    assert.equal(build.status, 'success');
    assert.match(build.finished_at, TIME);
    const download = await api('GET', `/builds/${compile.id}/artifacts`);
    assert.equal(download.status, 200);
    assert.equal(download.headers['content-type'], 'application/octet-stream');
    assert.equal(download.headers['content-disposition'], 'attachment; filename=out.zip');
    assert.equal(download.headers['content-transfer-encoding'], 'binary');
    assert.deepEqual(download.raw, zip, 'the bytes the runner uploaded');

    check = await take('check');
    const notYet = await api('POST', `/builds/${check.id}/retry`);
    assert.equal(notYet.status, 403);
    assert.deepEqual(notYet.body, { message: '403 Forbidden  - Build is not retryable' });
    await finish(check, 'failed');
    assert.equal(await pipelineStatus(first), 'failed');

    const retried = await api('POST', `/builds/${check.id}/retry`);
    assert.equal(retried.status, 201, retried.text);
    assert.deepEqual(Object.keys(retried.body), ACTION_KEYS);
    assert.notEqual(retried.body.id, check.id);
    assert.equal(retried.body.name, 'check');
    assert.equal(retried.body.status, 'pending');
    assert.equal(retried.body.finished_at, null);
    assert.equal(retried.body.started_at, null);
    assert.equal(retried.body.runner, null);
    assert.equal(retried.body.user.id, developer.id);
    assert.equal(await pipelineStatus(first), 'running');
    // The old build stays as it was.
    assert.equal((await api('GET', `/builds/${check.id}`)).body.status, 'failed');
    const again = await take('check');
    assert.equal(again.id, retried.body.id);
    await finish(again, 'success');
    // The manual job waits without holding the pipeline.
    assert.equal(await pipelineStatus(first), 'success');
  });

  it('plays the manual job (only that one), which a runner then takes', async () => {
    const ship = (await buildsOf(t, first)).find((b) => b.name === 'ship')!;
    assert.equal(ship.status, 'skipped');
    const unplayable = await api('POST', `/builds/${compile.id}/play`);
    assert.equal(unplayable.status, 400);
    assert.deepEqual(unplayable.body, { message: '400 (Bad request) "Unplayable Build" not given' });
    const reporter = await createUser(t, 'bapirep');
    await addProjectMember(t, project.id, reporter.id, 20);
    assert.equal((await api('POST', `/builds/${ship.id}/play`, reporter.token)).status, 403);

    const played = await api('POST', `/builds/${ship.id}/play`);
    assert.equal(played.status, 200, played.text);
    assert.deepEqual(Object.keys(played.body), ACTION_KEYS);
    assert.equal(played.body.id, ship.id);
    assert.equal(played.body.status, 'started');
    assert.equal(played.body.finished_at, null);
    assert.equal(played.body.user.id, developer.id);
    assert.equal((await api('GET', `/builds/${ship.id}`)).body.status, 'pending');
    assert.equal(await pipelineStatus(first), 'running');
    const job = await take('ship');
    await finish(job, 'success');
    assert.equal(await pipelineStatus(first), 'success');
    assert.equal((await api('POST', `/builds/${ship.id}/play`)).status, 400);
  });

  let second: number;
  let secondCompile: Job;

  it('downloads artifacts by ref and job name from the newest successful pipeline', async () => {
    second = (await ci.push({ README: 'again\n' }, 'Second'))!.id;
    secondCompile = await take('compile');
    const zip = await makeZip({ 'out/app.bin': 'second' });
    assert.equal((await runner.uploadArtifacts(secondCompile, zip, 'second.zip', '1 week')).status, 201);
    await finish(secondCompile, 'success');
    // The second pipeline is still running: the first one's artifacts are the newest successful.
    const before = await api('GET', '/builds/artifacts/master/download?job=compile');
    assert.equal(before.status, 200);
    assert.equal(before.headers['content-disposition'], 'attachment; filename=out.zip');
    assert.deepEqual(before.raw, await makeZip({ 'out/app.bin': 'first' }));
    await finish(await take('check'), 'success');
    assert.equal(await pipelineStatus(second), 'success');
    const latest = await api('GET', '/builds/artifacts/master/download?job=compile');
    assert.equal(latest.status, 200);
    assert.equal(latest.headers['content-disposition'], 'attachment; filename=second.zip');
    assert.equal(Number(latest.headers['content-length']), zip.length);
    assert.deepEqual(latest.raw, zip);
    for (const url of [
      '/builds/artifacts/master/download?job=check',
      '/builds/artifacts/master/download?job=nope',
      '/builds/artifacts/master/download',
      '/builds/artifacts/other/download?job=compile',
    ]) {
      const missing = await api('GET', url);
      assert.equal(missing.status, 404, url);
      assert.deepEqual(missing.body, { message: '404 Not found' }, url);
    }
  });

  it('cancels a running build: its runner stops, the pipeline is canceled', async () => {
    const third = (await ci.push({ README: 'third\n' }, 'Third'))!.id;
    const job = await take('compile');
    const canceled = await api('POST', `/builds/${job.id}/cancel`);
    assert.equal(canceled.status, 201);
    assert.deepEqual(Object.keys(canceled.body), ACTION_KEYS);
    assert.equal(canceled.body.status, 'canceled');
    assert.match(canceled.body.finished_at, TIME);
    const patch = await runner.patchTrace(job, 0, 'still going\n');
    assert.equal(patch.headers.get('build-status'), 'canceled');
    assert.equal((await runner.update(job, 'success')).status, 404);
    assert.equal(await pipelineStatus(third), 'canceled');
    // Cancel of a finished build changes nothing.
    const again = await api('POST', `/builds/${job.id}/cancel`);
    assert.equal(again.status, 201);
    assert.equal(again.body.finished_at, canceled.body.finished_at);
    // The pipelines API: the list newest first, scopes, one pipeline, retry of its failed builds.
    const list = await api('GET', '/pipelines');
    assert.deepEqual(
      list.body.map((p: { id: number; status: string }) => [p.id, p.status]),
      [
        [third, 'canceled'],
        [second, 'success'],
        [first, 'success'],
      ],
    );
    assert.deepEqual(Object.keys(list.body[0]), PIPELINE_KEYS);
    assert.equal(list.body[0].user.id, owner.id);
    assert.equal(list.headers['x-total'], '3');
    const branches = await api('GET', '/pipelines?scope=branches');
    assert.deepEqual(
      branches.body.map((p: { id: number }) => p.id),
      [third],
    );
    assert.deepEqual((await api('GET', '/pipelines?scope=running')).body, []);
    assert.deepEqual(
      (await api('GET', '/pipelines?status=success')).body.map((p: { id: number }) => p.id),
      [second, first],
    );
    const one = await api('GET', `/pipelines/${first}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, list.body[2]);
    assert.equal(one.body.tag, false);
    assert.equal(one.body.yaml_errors, null);
    assert.equal(typeof one.body.duration, 'number');
  });

  it('retries and cancels a whole pipeline', async () => {
    const fourth = (await ci.push({ README: 'fourth\n' }, 'Fourth'))!.id;
    await finish(await take('compile'), 'failed');
    assert.equal(await pipelineStatus(fourth), 'failed');
    const retried = await api('POST', `/pipelines/${fourth}/retry`);
    assert.equal(retried.status, 201);
    assert.equal(retried.body.status, 'running');
    const job = await take('compile');
    const canceled = await api('POST', `/pipelines/${fourth}/cancel`);
    assert.equal(canceled.status, 200);
    assert.equal(canceled.body.status, 'canceled');
    assert.equal((await runner.patchTrace(job, 0, 'x')).headers.get('build-status'), 'canceled');
    const rows = await buildsOf(t, fourth);
    assert.deepEqual(
      rows.map((b) => [b.name, b.status]),
      [
        ['compile', 'failed'],
        ['check', 'skipped'],
        ['ship', 'skipped'],
        ['compile', 'canceled'],
      ],
    );
  });

  it('erases a build (artifacts, trace; who and when) and keeps artifacts from expiring', async () => {
    const keep = await api('POST', `/builds/${compile.id}/artifacts/keep`);
    assert.equal(keep.status, 200);
    assert.deepEqual(Object.keys(keep.body), ERASED_KEYS);
    assert.equal(keep.body.download_url, null);
    const kept = (await buildsOf(t, first)).find((b) => b.id === compile.id)!;
    assert.equal(kept.artifacts_expire_at, null);
    assert.equal((await api('GET', `/builds/${compile.id}`)).body.artifacts_file.filename, 'out.zip');

    const erased = await api('POST', `/builds/${secondCompile.id}/erase`);
    assert.equal(erased.status, 201);
    assert.deepEqual(Object.keys(erased.body), ERASED_KEYS);
    assert.equal(erased.body.status, 'success');
    const row = (await buildsOf(t, second)).find((b) => b.id === secondCompile.id)!;
    assert.equal(row.erased_by_id, developer.id);
    assert.match(row.erased_at!, TIME);
    assert.equal(row.artifacts_file, null);
    assert.equal((await api('GET', `/builds/${secondCompile.id}`)).body.artifacts_file, null);
    for (const url of [`/builds/${secondCompile.id}/trace`, `/builds/${secondCompile.id}/artifacts`]) {
      const gone = await api('GET', url);
      assert.equal(gone.status, 404, url);
      assert.deepEqual(gone.body, { message: '404 Not Found' });
    }
    const keepErased = await api('POST', `/builds/${secondCompile.id}/artifacts/keep`);
    assert.equal(keepErased.status, 404);
    assert.deepEqual(keepErased.body, { message: '404 Not Found' });
    // Erasing again answers the same (nothing is left to remove).
    assert.equal((await api('POST', `/builds/${secondCompile.id}/erase`)).status, 201);
    // Its runner may no longer report on it.
    assert.equal((await runner.patchTrace(secondCompile, 0, 'late\n')).status, 403);
  });

  it('sweeps expired artifacts (kept ones stay), walking the expiry index', async () => {
    const fifth = (await ci.push({ README: 'fifth\n' }, 'Fifth'))!.id;
    const job = await take('compile');
    assert.equal(
      (await runner.uploadArtifacts(job, await makeZip({ 'out/x': 'x' }), 'x.zip', '1 week')).status,
      201,
    );
    await finish(job, 'success');
    await t.server.deps.db.kysely
      .updateTable('ci_builds')
      .set({ artifacts_expire_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', job.id)
      .execute();
    // Expired but not yet swept: no longer shown or served.
    assert.equal((await api('GET', `/builds/${job.id}`)).body.artifacts_file, null);
    assert.equal((await api('GET', `/builds/${job.id}/artifacts`)).status, 404);
    assert.equal(await t.server.artifactsWorker.drain(), 1);
    const swept = (await buildsOf(t, fifth)).find((b) => b.id === job.id)!;
    assert.equal(swept.artifacts_file, null);
    assert.equal(swept.artifacts_expire_at, null);
    assert.equal(await t.server.artifactsWorker.drain(), 0);
    assert.equal((await api('GET', `/builds/${compile.id}/artifacts`)).status, 200);
  });
});
