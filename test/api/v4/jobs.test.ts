// v4's jobs beside v3's builds: the Ci::Job entity key by key, the list with scope[], one job, its
// trace, its artifacts (the archive, one file of it, by ref and job name), keep and delete artifacts,
// play, erase, and the refusals: unknown scopes, guests, developers only for actions, hidden projects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { seedPipeline } from '../../helpers/ci.ts';
import { GitClient } from '../../helpers/git.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const JOB_KEYS = [
  'id',
  'status',
  'stage',
  'name',
  'ref',
  'tag',
  'coverage',
  'allow_failure',
  'created_at',
  'started_at',
  'finished_at',
  'erased_at',
  'duration',
  'queued_duration',
  'user',
  'commit',
  'pipeline',
  'web_url',
  'project',
  'artifacts_file',
  'artifacts',
  'runner',
  'runner_manager',
  'artifacts_expire_at',
  'archived',
  'tag_list',
];

describe('API v4 jobs', () => {
  let t: TestApp;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let sha: string;
  let pipelineId: number;
  let ids: Record<string, number>;

  const url = (path: string) => `/api/v4/projects/${project.id}${path}`;
  const get = (path: string, user = reporter) => t.request('GET', url(path), { token: user.token });

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    owner = await createUser(t, 'jobowner');
    developer = await createUser(t, 'jobdev');
    reporter = await createUser(t, 'jobreporter');
    guest = await createUser(t, 'jobguest');
    stranger = await createUser(t, 'jobstranger');
    project = await createProject(t, { owner, path: 'jobs' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    const work = await client.workTree('jobs');
    sha = await client.commit(work, 'Build me\n\nplease');
    await client.ok(['push', '-q', project.repoPath, 'master'], work);
    const { pipeline, builds } = await seedPipeline(t, project, {
      sha,
      userId: owner.id,
      builds: [
        {
          name: 'compile',
          status: 'success',
          stage: 'build',
          trace: '$ make\nok\n',
          artifacts: { 'out/app.txt': 'binary' },
        },
        { name: 'check', status: 'failed', stage: 'test', trace: 'boom\n' },
        { name: 'ship', status: 'skipped', stage: 'deploy', when: 'manual', startedAt: null },
      ],
    });
    pipelineId = pipeline.id;
    ids = Object.fromEntries(builds.map((build) => [build.name, build.id]));
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('shows a job as Ci::Job, key by key', async () => {
    const response = await get(`/jobs/${ids.compile}`);
    assert.equal(response.status, 200);
    const job = response.body;
    assert.deepEqual(Object.keys(job), JOB_KEYS);
    assert.equal(job.id, ids.compile);
    assert.equal(job.status, 'success');
    assert.equal(job.stage, 'build');
    assert.equal(job.name, 'compile');
    assert.equal(job.ref, 'master');
    assert.equal(job.tag, false);
    assert.equal(job.allow_failure, false);
    assert.equal(job.erased_at, null);
    assert.equal(typeof job.duration, 'number');
    assert.equal(job.user.id, owner.id);
    assert.equal(job.user.username, owner.username);
    assert.equal(job.commit.id, sha);
    assert.equal(job.commit.title, 'Build me');
    assert.equal(job.pipeline.id, pipelineId);
    assert.equal(job.pipeline.source, 'push');
    assert.equal(job.web_url, `${t.config.externalUrl}/${project.fullPath}/builds/${ids.compile}`);
    assert.equal(job.artifacts_file.filename, 'artifacts.zip');
    assert.ok(job.artifacts_file.size > 0);
    assert.deepEqual(job.artifacts, [
      { file_type: 'archive', size: job.artifacts_file.size, filename: 'artifacts.zip', file_format: 'zip' },
    ]);
    assert.equal(job.runner, null);
    assert.deepEqual(job.tag_list, []);

    const failed = (await get(`/jobs/${ids.check}`)).body;
    assert.equal(failed.failure_reason, 'script_failure');
    assert.equal('artifacts_file' in failed, false);
    assert.deepEqual(failed.artifacts, []);
  });

  it('lists jobs newest first, narrowed by scope[]', async () => {
    const all = await get('/jobs');
    assert.equal(all.status, 200);
    assert.equal(all.headers['x-total'], '3');
    assert.deepEqual(
      all.body.map((job: any) => job.name),
      ['ship', 'check', 'compile'],
    );
    const some = await get('/jobs?scope[]=success&scope[]=failed');
    assert.deepEqual(
      some.body.map((job: any) => job.name),
      ['check', 'compile'],
    );
    const one = await get('/jobs?scope=skipped');
    assert.deepEqual(
      one.body.map((job: any) => job.name),
      ['ship'],
    );
    const bad = await get('/jobs?scope[]=sleeping');
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { error: 'scope does not have a valid value' });
  });

  it('serves the trace and the artifacts: the archive, one file, by ref and job name', async () => {
    const trace = await get(`/jobs/${ids.compile}/trace`);
    assert.equal(trace.status, 200);
    assert.match(String(trace.headers['content-type']), /^text\/plain/);
    assert.equal(trace.text, '$ make\nok\n');
    const archive = await get(`/jobs/${ids.compile}/artifacts`);
    assert.equal(archive.status, 200);
    assert.equal(archive.headers['content-disposition'], 'attachment; filename=artifacts.zip');
    assert.equal(archive.raw.subarray(0, 2).toString('latin1'), 'PK');
    const file = await get(`/jobs/${ids.compile}/artifacts/out/app.txt`);
    assert.equal(file.status, 200);
    assert.equal(file.text, 'binary');
    assert.equal((await get(`/jobs/${ids.compile}/artifacts/out/none.txt`)).status, 404);
    const byRef = await get('/jobs/artifacts/master/download?job=compile');
    assert.equal(byRef.status, 200);
    assert.deepEqual(byRef.raw, archive.raw);
    assert.equal((await get('/jobs/artifacts/master/download?job=check')).status, 404);
    const noJob = await get('/jobs/artifacts/master/download');
    assert.equal(noJob.status, 400);
    assert.deepEqual(noJob.body, { error: 'job is missing' });
    assert.equal((await get(`/jobs/${ids.check}/artifacts`)).status, 404);
  });

  it('keeps, then deletes artifacts (204), developers only', async () => {
    const byReporter = await t.request('POST', url(`/jobs/${ids.compile}/artifacts/keep`), {
      token: reporter.token,
    });
    assert.equal(byReporter.status, 403);
    const kept = await t.request('POST', url(`/jobs/${ids.compile}/artifacts/keep`), {
      token: developer.token,
    });
    assert.equal(kept.status, 200);
    assert.equal(kept.body.artifacts_expire_at, null);
    const deleted = await t.request('DELETE', url(`/jobs/${ids.compile}/artifacts`), {
      token: developer.token,
    });
    assert.equal(deleted.status, 204);
    assert.equal((await get(`/jobs/${ids.compile}/artifacts`)).status, 404);
    assert.deepEqual((await get(`/jobs/${ids.compile}`)).body.artifacts, []);
    assert.equal((await get(`/jobs/${ids.compile}/trace`)).text, '$ make\nok\n');
    const again = await t.request('DELETE', url(`/jobs/${ids.compile}/artifacts`), {
      token: developer.token,
    });
    assert.equal(again.status, 404);
  });

  it('plays a manual job and erases a finished one', async () => {
    const played = await t.request('POST', url(`/jobs/${ids.ship}/play`), { token: developer.token });
    assert.equal(played.status, 200);
    assert.equal(played.body.status, 'pending');
    assert.equal(played.body.user.id, developer.id);
    const erased = await t.request('POST', url(`/jobs/${ids.check}/erase`), { token: developer.token });
    assert.equal(erased.status, 201);
    assert.ok(erased.body.erased_at);
    assert.equal((await get(`/jobs/${ids.check}/trace`)).status, 404);
    const retried = await t.request('POST', url(`/jobs/${ids.check}/retry`), { token: developer.token });
    assert.equal(retried.status, 201);
    assert.equal(retried.body.name, 'check');
    assert.notEqual(retried.body.id, ids.check);
  });

  it('refuses guests, outsiders and unknown jobs', async () => {
    assert.equal((await get('/jobs', guest)).status, 403);
    const hidden = await get('/jobs', stranger);
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    assert.equal((await get('/jobs/999999')).status, 404);
    assert.equal((await get('/jobs/abc')).status, 400);
  });
});
