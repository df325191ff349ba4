// Today's artifacts keys and includes over HTTP: `artifacts:reports` (junit, dotenv, codequality,
// coverage_report …), `exclude`, `expose_as`, `resource_group` and `include: template` checked by the
// lints as GitLab checks them; the runner 17 payload's `artifacts` entries for them; report uploads kept
// as their own artifacts beside the archive, a dotenv report's variables reaching the job that needs
// it; and `include: project` read as the caller by the lints, the API, triggers and schedules.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { buildsOf, commitFiles, pipelinesOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { createProject, createUser } from '../helpers/factory.ts';
import { repoUrl } from '../helpers/git.ts';
import { Runner17, type V4Job } from '../helpers/runner-v4-client.ts';
import { makeZip } from '../helpers/zip.ts';

const REGISTRATION_TOKEN = 'reports-registration-token';

const PIPELINE = `
stages: [build, test]
build:
  stage: build
  script: make
  resource_group: production
  interruptible: true
  artifacts:
    paths: [out/]
    exclude: [out/*.tmp]
    expose_as: Build output
    expire_in: 1 week
    reports:
      junit: report.xml
      dotenv: build.env
      codequality: [gl-cq.json]
      coverage_report:
        coverage_format: cobertura
        path: coverage.xml
test:
  stage: test
  script: make test
  needs: [build]
  artifacts:
    reports:
      dotenv: bad.env
`;

const JUNIT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="unit" tests="3">
    <testcase classname="math" name="adds" time="0.5" file="test/math.js"/>
    <testcase classname="math" name="divides" time="1.25">
      <failure message="expected 2">AssertionError: expected 2 &amp; got 3</failure>
    </testcase>
    <testcase classname="math" name="later" time="0"><skipped/></testcase>
  </testsuite>
</testsuites>
`;

describe('artifacts reports, exclude, expose_as and includes everywhere', () => {
  let ci: CiProject;
  let runner: Runner17;
  const lint = (content: string, token?: string) =>
    ci.t.request('POST', '/api/v4/ci/lint', { token, body: { content } });

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'reports');
    const shared = await createProject(ci.t, { owner: ci.owner, path: 'reports-shared' });
    const work = await ci.client.workTree('shared');
    await ci.client.ok(
      ['remote', 'add', 'origin', repoUrl(ci.base, shared.fullPath, ci.owner.username, ci.owner.password)],
      work,
    );
    await commitFiles(ci.client, work, { 'ci/jobs.yml': 'shared-job:\n  script: echo shared\n' }, 'CI');
    await ci.client.ok(['push', '-q', 'origin', 'master'], work);
    const stranger = await createUser(ci.t, 'reportsstranger');
    await createProject(ci.t, { owner: stranger, path: 'reports-secret' });
    runner = new Runner17(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
  });
  after(() => ci.close());

  it('lints reports, exclude, expose_as and resource_group as valid', async () => {
    const valid = await lint(PIPELINE);
    assert.equal(valid.status, 200);
    assert.deepEqual(valid.body.errors, []);
    assert.equal(valid.body.valid, true);
  });

  it('names the key and the job of a bad report, exclude, expose_as or resource_group', async () => {
    const job = (artifacts: string, extra = '') => `build:\n  script: x\n${extra}  artifacts:\n${artifacts}`;
    const cases: Array<[string, string]> = [
      [
        job('    reports:\n      nope: a.xml\n'),
        'jobs:build:artifacts:reports config contains unknown keys: nope',
      ],
      [
        job('    reports:\n      junit: {a: b}\n'),
        'jobs:build:artifacts:reports junit should be an array of strings or a string',
      ],
      [job('    reports: [junit]\n'), 'jobs:build:artifacts reports should be a hash'],
      [
        job('    reports:\n      coverage_report: {coverage_format: jacoco, path: c.xml}\n'),
        'jobs:build:artifacts:reports:coverage_report coverage format must be one of supported formats: cobertura.',
      ],
      [
        job('    reports:\n      coverage_report: {coverage_format: cobertura}\n'),
        "jobs:build:artifacts:reports:coverage_report path can't be blank",
      ],
      [job('    exclude: out/x\n'), 'jobs:build:artifacts exclude should be an array of strings'],
      [job('    expose_as: Output\n'), "jobs:build:artifacts paths can't be blank"],
      [
        job('    expose_as: Output\n    paths: [out/*.bin]\n'),
        "jobs:build:artifacts paths can't contain '*' when used with 'expose_as'",
      ],
      [
        job('    expose_as: "#out"\n    paths: [out/]\n'),
        "jobs:build:artifacts expose as can contain only letters, digits, '-', '_' and spaces",
      ],
      [
        job(`    expose_as: ${'a'.repeat(101)}\n    paths: [out/]\n`),
        'jobs:build:artifacts expose as is too long (maximum is 100 characters)',
      ],
      [job('    paths: [out/]\n', '  resource_group: [a]\n'), 'jobs:build resource group should be a string'],
    ];
    for (const [content, error] of cases) {
      const response = await lint(content);
      assert.equal(response.status, 200, content);
      assert.deepEqual(response.body.errors, [error], content);
    }
  });

  it("includes this server's templates; names an unknown one as GitLab does", async () => {
    const merged = await ci.t.request('POST', '/api/v4/ci/lint', {
      body: {
        content: 'include:\n  - template: Workflows/Branch-Pipelines.gitlab-ci.yml\na:\n  script: x\n',
        include_merged_yaml: true,
      },
    });
    assert.equal(merged.body.valid, true, JSON.stringify(merged.body));
    assert.match(merged.body.merged_yaml, /workflow:\n {2}rules:\n {4}- if: \$CI_COMMIT_TAG\n/);
    // The picker's templates too, by GitLab's file names, the same texts the templates API serves.
    for (const [name, file] of [
      ['Nodejs', 'Nodejs.gitlab-ci.yml'],
      ['HTML', 'Pages/HTML.gitlab-ci.yml'],
    ]) {
      const served = await ci.t.request('GET', `/api/v4/templates/gitlab_ci_ymls/${name}`);
      assert.equal(served.status, 200, served.text);
      const included = await ci.t.request('POST', '/api/v4/ci/lint', {
        body: { content: `include: {template: ${file}}\n`, include_merged_yaml: true },
      });
      assert.equal(included.body.valid, true, JSON.stringify(included.body));
      const direct = await ci.t.request('POST', '/api/v4/ci/lint', {
        body: { content: served.body.content, include_merged_yaml: true },
      });
      assert.equal(included.body.merged_yaml, direct.body.merged_yaml, file);
    }
    const unknown = await lint('include: {template: Nope.gitlab-ci.yml}\na:\n  script: x\n');
    assert.deepEqual(unknown.body.errors, ['Included file `Nope.gitlab-ci.yml` is empty or does not exist!']);
    const invalid = await lint('include: {template: Nope}\na:\n  script: x\n');
    assert.deepEqual(invalid.body.errors, ['Template file `Nope` is not a valid location!']);
  });

  it('reads include: project as the caller in every lint', async () => {
    const content = `include: {project: ${ci.owner.username}/reports-shared, file: ci/jobs.yml}\nown:\n  script: x\n`;
    const asOwner = await ci.t.request('POST', '/api/v4/ci/lint', {
      token: ci.owner.token,
      body: { content, include_merged_yaml: true },
    });
    assert.equal(asOwner.body.valid, true, JSON.stringify(asOwner.body));
    assert.match(asOwner.body.merged_yaml, /shared-job:\n {2}script: echo shared\n/);
    const anonymous = await lint(content);
    assert.match(
      anonymous.body.errors[0],
      /^Project `reportsowner\/reports-shared` not found or access denied!/,
    );
    const project = await ci.t.request('POST', `/api/v4/projects/${ci.project.id}/ci/lint`, {
      token: ci.owner.token,
      body: { content },
    });
    assert.equal(project.body.valid, true, JSON.stringify(project.body));
    const v3 = await ci.t.request('POST', '/api/v3/ci/lint', { token: ci.owner.token, body: { content } });
    assert.equal(v3.body.status, 'valid', JSON.stringify(v3.body));
    const hidden = await lint(
      'include: {project: reportsstranger/reports-secret, file: a.yml}\nown:\n  script: x\n',
      ci.owner.token,
    );
    assert.match(
      hidden.body.errors[0],
      /^Project `reportsstranger\/reports-secret` not found or access denied!/,
    );
  });

  let build: V4Job;
  let testJobId: number;
  let zip: Buffer;

  it('hands runner 17 an artifacts entry per report, exclude in the archive entry', async () => {
    const pipeline = await ci.push({ '.gitlab-ci.yml': PIPELINE });
    assert.equal(pipeline?.yaml_errors, null);
    build = (await runner.requestJob())!;
    assert.equal(build.job_info.name, 'build');
    const always = { when: 'always', expire_in: '1 week' };
    assert.deepEqual(build.artifacts, [
      {
        untracked: false,
        paths: ['out/'],
        exclude: ['out/*.tmp'],
        when: 'on_success',
        expire_in: '1 week',
        artifact_type: 'archive',
        artifact_format: 'zip',
      },
      {
        artifact_type: 'junit',
        artifact_format: 'gzip',
        name: 'junit.xml',
        paths: ['report.xml'],
        ...always,
      },
      { artifact_type: 'dotenv', artifact_format: 'gzip', name: '.env', paths: ['build.env'], ...always },
      {
        artifact_type: 'codequality',
        artifact_format: 'raw',
        name: 'gl-code-quality-report.json',
        paths: ['gl-cq.json'],
        ...always,
      },
      {
        artifact_type: 'cobertura',
        artifact_format: 'gzip',
        name: 'cobertura-coverage.xml',
        paths: ['coverage.xml'],
        ...always,
      },
    ]);
  });

  it('keeps report uploads as their own artifacts, beside the archive', async () => {
    zip = await makeZip({ 'out/app.bin': 'binary' });
    assert.equal((await runner.uploadArtifacts(build, zip)).status, 201);
    const junit = await runner.uploadArtifacts(
      build,
      zlib.gzipSync(JUNIT),
      { artifact_format: 'gzip', artifact_type: 'junit', expire_in: '1 week' },
      'junit.xml.gz',
    );
    assert.equal(junit.status, 201, junit.text);
    assert.deepEqual(junit.body, { message: '201 Created' });
    const again = await runner.uploadArtifacts(
      build,
      zlib.gzipSync(JUNIT),
      { artifact_format: 'gzip', artifact_type: 'junit' },
      'junit.xml.gz',
    );
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { message: 'another artifact of the same type already exists' });
    const wrongFormat = await runner.uploadArtifacts(build, Buffer.from('x'), {
      artifact_format: 'zip',
      artifact_type: 'junit',
    });
    assert.deepEqual(
      [wrongFormat.status, wrongFormat.body],
      [400, { error: 'artifact_format does not have a valid value' }],
    );
    const unknown = await runner.uploadArtifacts(build, Buffer.from('x'), {
      artifact_format: 'raw',
      artifact_type: 'bogus',
    });
    assert.deepEqual(
      [unknown.status, unknown.body],
      [400, { error: 'artifact_type does not have a valid value' }],
    );
    const dotenv = await runner.uploadArtifacts(
      build,
      zlib.gzipSync('DEPLOY_URL=https://staging.example\n\nVERSION = 1.2.3\n'),
      { artifact_format: 'gzip', artifact_type: 'dotenv' },
      '.env.gz',
    );
    assert.equal(dotenv.status, 201, dotenv.text);
    const quality = await runner.uploadArtifacts(
      build,
      Buffer.from('[]'),
      { artifact_format: 'raw', artifact_type: 'codequality' },
      'gl-code-quality-report.json',
    );
    assert.equal(quality.status, 201, quality.text);
    // The archive is still the one uploaded first.
    const rows = await ci.t.server.deps.db.kysely
      .selectFrom('ci_job_artifacts')
      .select(['file_type', 'file_format', 'file', 'size', 'expire_at'])
      .where('job_id', '=', build.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.file_type, r.file_format, r.file]),
      [
        ['junit', 'gzip', 'junit.xml.gz'],
        ['dotenv', 'gzip', '.env.gz'],
        ['codequality', 'raw', 'gl-code-quality-report.json'],
      ],
    );
    assert.ok(rows[0]!.expire_at);
    assert.equal(rows[2]!.size, 2);
    assert.equal((await runner.update(build, 'success', { exit_code: 0 })).status, 200);
  });

  it("hands a dotenv report's variables to the job that needs it; refuses a bad dotenv", async () => {
    const test = (await runner.requestJob())!;
    assert.equal(test.job_info.name, 'test');
    testJobId = test.id;
    const value = (key: string) => test.variables.find((v) => v.key === key)?.value;
    assert.equal(value('DEPLOY_URL'), 'https://staging.example');
    assert.equal(value('VERSION'), '1.2.3');
    const download = await runner.downloadArtifacts(build.id, test.token);
    assert.deepEqual(download.bytes, zip);
    const bad = await runner.uploadArtifacts(
      test,
      zlib.gzipSync('not a variable\n'),
      { artifact_format: 'gzip', artifact_type: 'dotenv' },
      '.env.gz',
    );
    assert.deepEqual([bad.status, bad.body], [400, { message: 'Invalid Format' }]);
    const badKey = await runner.uploadArtifacts(
      test,
      zlib.gzipSync('BAD-KEY=1\n'),
      { artifact_format: 'gzip', artifact_type: 'dotenv' },
      '.env.gz',
    );
    assert.deepEqual(badKey.body, {
      message: "Validation failed: Key can contain only letters, digits and '_'.",
    });
    // A junit report that is not well-formed is kept; the test report shows it as its suite's error.
    const broken = await runner.uploadArtifacts(
      test,
      zlib.gzipSync('<testsuite><testcase name="x">'),
      { artifact_format: 'gzip', artifact_type: 'junit' },
      'junit.xml.gz',
    );
    assert.equal(broken.status, 201);
    assert.equal((await runner.update(test, 'success')).status, 200);
  });

  it("answers the pipeline's test report and its summary from the junit artifact", async () => {
    const url = `/api/v4/projects/${ci.project.id}/pipelines/${(await pipelinesOf(ci.t, ci.project.id)).at(-1)!.id}`;
    const report = await ci.t.request('GET', `${url}/test_report`, { token: ci.owner.token });
    assert.equal(report.status, 200, report.text);
    const totals = {
      total_time: 1.75,
      total_count: 3,
      success_count: 1,
      failed_count: 1,
      skipped_count: 1,
      error_count: 0,
    };
    const none = {
      total_time: 0,
      total_count: 0,
      success_count: 0,
      failed_count: 0,
      skipped_count: 0,
      error_count: 0,
    };
    const brokenError = 'JUnit XML parsing failed: unclosed <testcase>';
    const testCase = (status: string, name: string, time: number, extra: Record<string, unknown> = {}) => ({
      status,
      name,
      classname: 'math',
      file: null,
      execution_time: time,
      system_output: null,
      stack_trace: null,
      recent_failures: null,
      ...extra,
    });
    assert.deepEqual(report.body, {
      ...totals,
      test_suites: [
        {
          name: 'build',
          ...totals,
          suite_error: null,
          test_cases: [
            testCase('failed', 'divides', 1.25, { system_output: 'AssertionError: expected 2 & got 3' }),
            testCase('success', 'adds', 0.5, { file: 'test/math.js' }),
            testCase('skipped', 'later', 0),
          ],
        },
        { name: 'test', ...none, suite_error: brokenError, test_cases: [] },
      ],
    });
    const summary = await ci.t.request('GET', `${url}/test_report_summary`, { token: ci.owner.token });
    assert.deepEqual(summary.body, {
      total: { time: 1.75, count: 3, success: 1, failed: 1, skipped: 1, error: 0, suite_error: brokenError },
      test_suites: [
        { name: 'build', ...totals, build_ids: [build.id], suite_error: null },
        { name: 'test', ...none, build_ids: [testJobId], suite_error: brokenError },
      ],
    });
    const stranger = await createUser(ci.t, 'reportsoutsider');
    const hidden = await ci.t.request('GET', `${url}/test_report`, { token: stranger.token });
    assert.equal(hidden.status, 404);
  });

  it('reads include: project as the caller for API, trigger and schedule pipelines', async () => {
    await ci.push({
      '.gitlab-ci.yml': `include: {project: ${ci.owner.username}/reports-shared, file: ci/jobs.yml}\nown:\n  script: x\n`,
    });
    const names = async (pipelineId: number) => (await buildsOf(ci.t, pipelineId)).map((b) => b.name).sort();
    const url = (path: string) => `/api/v4/projects/${ci.project.id}${path}`;
    const api = await ci.t.request('POST', url('/pipeline'), {
      token: ci.owner.token,
      body: { ref: 'master' },
    });
    assert.equal(api.status, 201, api.text);
    assert.equal(api.body.yaml_errors, null);
    assert.deepEqual(await names(api.body.id), ['own', 'shared-job']);
    const trigger = await ci.t.request('POST', url('/triggers'), {
      token: ci.owner.token,
      body: { description: 'ci' },
    });
    const triggered = await ci.t.request('POST', url('/trigger/pipeline'), {
      body: { token: trigger.body.token, ref: 'master' },
    });
    assert.equal(triggered.status, 201, triggered.text);
    assert.deepEqual(await names(triggered.body.id), ['own', 'shared-job']);
    const schedule = await ci.t.request('POST', url('/pipeline_schedules'), {
      token: ci.owner.token,
      body: { description: 'nightly', ref: 'master', cron: '0 3 * * *' },
    });
    const played = await ci.t.request('POST', url(`/pipeline_schedules/${schedule.body.id}/play`), {
      token: ci.owner.token,
    });
    assert.equal(played.status, 201, played.text);
    const newest = (await pipelinesOf(ci.t, ci.project.id)).at(-1)!;
    assert.equal(newest.source, 'schedule');
    assert.equal(newest.yaml_errors, null);
    assert.deepEqual(await names(newest.id), ['own', 'shared-job']);
  });
  it('sweeps report artifacts whose expiry passed, leaving the others', async () => {
    const db = ci.t.server.deps.db.kysely;
    await db
      .updateTable('ci_job_artifacts')
      .set({ expire_at: new Date(Date.now() - 1000).toISOString() })
      .where('job_id', '=', build.id)
      .where('file_type', '=', 'junit')
      .execute();
    const reportDir = path.join(ci.t.server.deps.config.dataDir, 'artifacts');
    const junitFiles = () =>
      fs.readdirSync(reportDir, { recursive: true }).filter((f) => String(f).endsWith('junit.xml.gz'));
    assert.equal(junitFiles().length, 2);
    assert.equal(await ci.t.server.artifactsWorker.drain(), 1);
    const left = await db
      .selectFrom('ci_job_artifacts')
      .select(['job_id', 'file_type'])
      .where('job_id', 'in', [build.id, testJobId])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      left.map((r) => [r.job_id, r.file_type]),
      [
        [build.id, 'dotenv'],
        [build.id, 'codequality'],
        [testJobId, 'junit'],
      ],
    );
    assert.equal(junitFiles().length, 1);
    assert.equal(await ci.t.server.artifactsWorker.drain(), 0);
  });
});
