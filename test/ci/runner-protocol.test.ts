// A runner speaking GitLab 8.x's protocol over real HTTP against a pushed two-stage pipeline: it registers,
// takes the first build, streams its trace in pieces, uploads artifacts and reports success; only then
// does the second stage become pending, listing the first build and its artifacts; the dependency's
// artifacts download; a cancel stops the runner through Build-Status. Every runner answer is exactly
// `Content-Type: application/json`.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import type { TestProject, TestUser } from '../helpers/factory.ts';
import type { GitClient } from '../helpers/git.ts';
import { buildsOf, commitFiles, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { RunnerClient, type Job } from '../helpers/runner-client.ts';
import { makeZip } from '../helpers/zip.ts';
import { cancelBuild } from '../../src/services/ci/builds.ts';

const REGISTRATION_TOKEN = 'shared-registration-token';

const PIPELINE = `
stages: [build, test]
build:
  stage: build
  script:
    - make
  artifacts:
    name: out
    paths: [out/]
    expire_in: 1 week
test:
  stage: test
  script: make test
  dependencies: [build]
`;

describe('runner protocol', () => {
  let ci: CiProject;
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let project: TestProject;
  let work: string;
  let runner: RunnerClient;

  before(async () => {
    ci = await startCiProject(
      { LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN, LABRADOR_ARTIFACTS_MAX_BYTES: '4096' },
      'runp',
    );
    ({ t, base, client, owner, project, work } = ci);
    runner = new RunnerClient(base);
  });
  after(() => ci.close());

  const json = (reply: { headers: Headers }) =>
    assert.equal(reply.headers.get('content-type'), 'application/json');

  it('registers with the shared token, refuses a wrong one, and verifies', async () => {
    const wrong = await new RunnerClient(base).register('nope');
    assert.equal(wrong.status, 403);
    json(wrong);
    assert.deepEqual(wrong.body, { message: '403 Forbidden' });
    const missing = await runner.call('POST', 'runners/register.json', { json: {} });
    assert.equal(missing.status, 400);
    json(missing);
    assert.deepEqual(missing.body, { message: '400 (Bad request) "token" not given' });
    const registered = await runner.register(REGISTRATION_TOKEN, { tag_list: 'docker, linux' });
    assert.equal(registered.status, 201);
    assert.deepEqual(Object.keys(registered.body), ['id', 'token']);
    assert.match(registered.body.token, /^[0-9a-f]{30}$/);
    const alive = await runner.verify();
    assert.equal(alive.status, 404);
    json(alive);
    const unknown = await new RunnerClient(base).call('PUT', 'builds/-1', { json: { token: 'x' } });
    assert.equal(unknown.status, 403);
    json(unknown);
  });

  it('has nothing to do before a push: 204 for a versioned runner, 404 for others', async () => {
    const versioned = await runner.requestJobReply();
    assert.equal(versioned.status, 204);
    const plain = await runner.call('POST', 'builds/register.json', {
      json: { token: runner.token },
      headers: { 'User-Agent': 'curl/8' },
    });
    assert.equal(plain.status, 404);
    json(plain);
  });

  let first: Job;
  let second: Job;

  it('hands out the first stage only, with the job payload runners need', async () => {
    const sha = await commitFiles(client, work, { '.gitlab-ci.yml': PIPELINE }, 'ci');
    await client.ok(['push', '-q', 'origin', 'master'], work);
    // The pipeline is recorded just after `git push` returns; the runner's request waits for that.
    first = (await runner.requestJob())!;
    assert.ok(first);
    assert.equal(first.name, 'build');
    assert.equal(first.stage, 'build');
    assert.equal(first.sha, sha);
    assert.equal(first.ref, 'master');
    assert.equal(first.status, 'running');
    assert.equal(first.commands, 'make');
    assert.equal(
      first.repo_url,
      `http://gitlab-ci-token:${first.token}@labrador.test/${project.fullPath}.git`,
    );
    assert.deepEqual(first.options, { artifacts: { name: 'out', paths: ['out/'], expire_in: '1 week' } });
    assert.deepEqual(first.depends_on_builds, []);
    assert.equal(first.timeout, 3600);
    assert.equal(first.allow_git_fetch, true);
    assert.equal(first.before_sha, '0000000000000000000000000000000000000000');
    const variables = new Map(first.variables.map((v) => [v.key, v]));
    assert.equal(variables.get('CI_BUILD_ID')!.value, String(first.id));
    assert.deepEqual(variables.get('CI_BUILD_TOKEN'), {
      key: 'CI_BUILD_TOKEN',
      value: first.token,
      public: false,
    });
    assert.equal(variables.get('CI_BUILD_REF')!.value, sha);
    assert.equal(variables.get('CI_PROJECT_PATH')!.value, project.fullPath);
    assert.equal(variables.get('CI_RUNNER_TAGS')!.value, 'docker, linux');
    assert.equal(variables.get('GITLAB_USER_EMAIL')!.value, owner.email);
    // The second stage waits for the first.
    assert.equal(await runner.requestJob(), null);
  });

  it('appends trace pieces, answers 416 with the stored range, and keeps secrets out', async () => {
    const one = await runner.patchTrace(first, 0, '$ make\n');
    assert.equal(one.status, 202);
    json(one);
    assert.equal(one.headers.get('range'), '0-7');
    assert.equal(one.headers.get('build-status'), 'running');
    const gap = await runner.patchTrace(first, 3, 'xx');
    assert.equal(gap.status, 416);
    json(gap);
    assert.equal(gap.headers.get('range'), '0-7');
    const two = await runner.patchTrace(first, 7, `token ${first.token} done\n`);
    assert.equal(two.status, 202);
    assert.equal(two.headers.get('range'), `0-${7 + 12 + first.token.length}`);
    const noRange = await runner.call('PATCH', `builds/${first.id}/trace.txt`, {
      headers: { 'Content-Type': 'text/plain', 'BUILD-TOKEN': first.token },
      body: 'x',
    });
    assert.equal(noRange.status, 400);
    assert.deepEqual(noRange.body, { error: '400 Missing header Content-Range' });
    const badToken = await runner.patchTrace({ id: first.id, token: 'wrong' }, 0, 'x');
    assert.equal(badToken.status, 403);
    const [build] = await buildsOf(t, (await pipelinesOf(t, project.id))[0]!.id);
    const { tracePath } = await import('../../src/storage/traces.ts');
    const stored = fs.readFileSync(tracePath(t.config.dataDir, build!), 'utf8');
    assert.equal(stored, `$ make\ntoken ${'x'.repeat(first.token.length)} done\n`);
  });

  it('takes the artifacts upload, then the second stage opens and lists them', async () => {
    const zip = await makeZip({ 'out/app.bin': 'binary', 'out/docs/readme.txt': 'read me' });
    const upload = await runner.uploadArtifacts(first, zip, 'out.zip', '1 week');
    assert.equal(upload.status, 201, upload.text);
    json(upload);
    assert.deepEqual(upload.body.artifacts_file, { filename: 'out.zip', size: zip.length });
    assert.ok(Date.parse(upload.body.artifacts_expire_at) > Date.now() + 6 * 86_400_000);
    // GitLab's metadata: gzip of length-prefixed strings (version, errors, then path and JSON per entry).
    const [build] = await buildsOf(t, (await pipelinesOf(t, project.id))[0]!.id);
    const { artifactsDir } = await import('../../src/storage/artifacts.ts');
    const raw = zlib.gunzipSync(
      fs.readFileSync(path.join(artifactsDir(t.config.dataDir, build!), 'metadata.gz')),
    );
    const strings: string[] = [];
    for (let at = 0; at < raw.length;) {
      const length = raw.readUInt32BE(at);
      strings.push(raw.subarray(at + 4, at + 4 + length).toString());
      at += 4 + length;
    }
    assert.equal(strings[0], 'GitLab Build Artifacts Metadata 0.0.2\n');
    assert.equal(strings[1], '{}');
    const entries = strings.slice(2).filter((_s, index) => index % 2 === 0);
    assert.deepEqual(entries, ['out/', 'out/app.bin', 'out/docs/', 'out/docs/readme.txt']);
    const appBin = JSON.parse(strings[5]!);
    assert.equal(appBin.size, 6);
    assert.equal(appBin.mode, '644');
    assert.equal(appBin.modified, Date.UTC(2016, 9, 22, 10, 0, 0) / 1000);
    const success = await runner.update(first, 'success', '$ make\nall done\n');
    assert.equal(success.status, 200);
    json(success);
    second = (await runner.requestJob())!;
    assert.equal(second.name, 'test');
    assert.equal(second.depends_on_builds.length, 1);
    const dependency = second.depends_on_builds[0]!;
    assert.equal(dependency.id, first.id);
    assert.equal(dependency.name, 'build');
    assert.deepEqual(dependency.artifacts_file, { filename: 'out.zip', size: zip.length });
    // With the dependency's own token (what runner 1.7 sends) and with the dependent job's token.
    for (const token of [dependency.token, second.token]) {
      const download = await runner.downloadArtifacts(first.id, token);
      assert.equal(download.status, 200);
      assert.equal(download.headers.get('content-type'), 'application/octet-stream');
      assert.equal(download.headers.get('content-disposition'), 'attachment; filename=out.zip');
      assert.deepEqual(download.body, zip);
    }
    assert.equal((await runner.downloadArtifacts(first.id, 'wrong')).status, 403);
    assert.equal((await runner.downloadArtifacts(second.id, second.token)).status, 404);
  });

  it('refuses uploads for builds that are not running, and too large ones', async () => {
    const zip = await makeZip({ 'a.txt': 'a' });
    const late = await runner.uploadArtifacts(first, zip, 'late.zip');
    assert.equal(late.status, 403);
    json(late);
    assert.deepEqual(late.body, { message: '403 Forbidden  - Build is not running!' });
    const missing = await runner.call('POST', `builds/${second.id}/artifacts`, {
      headers: { 'BUILD-TOKEN': second.token, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { message: '400 (Bad request) "Missing artifacts file!" not given' });
    const big = await makeZip({ 'big.txt': crypto.randomBytes(6000).toString('hex') });
    const tooLarge = await runner.uploadArtifacts(second, big, 'big.zip');
    assert.equal(tooLarge.status, 413);
    json(tooLarge);
    assert.deepEqual(tooLarge.body, { message: '413 Request Entity Too Large' });
  });

  it('stops the runner of a canceled build through Build-Status, and then refuses its updates', async () => {
    await cancelBuild(t.server.deps, second.id);
    const patch = await runner.patchTrace(second, 0, 'still running\n');
    assert.equal(patch.status, 202);
    assert.equal(patch.headers.get('build-status'), 'canceled');
    const update = await runner.update(second, 'success', 'done');
    assert.equal(update.status, 404);
    json(update);
    assert.deepEqual(update.body, { message: '404 Not found' });
    const [pipeline] = await pipelinesOf(t, project.id);
    assert.equal(pipeline!.status, 'canceled');
  });

  it('unregisters: the runner is gone for every later call', async () => {
    const removed = await runner.unregister();
    assert.equal(removed.status, 200);
    json(removed);
    assert.equal((await runner.verify()).status, 403);
    assert.equal((await runner.requestJobReply()).status, 403);
  });
});
