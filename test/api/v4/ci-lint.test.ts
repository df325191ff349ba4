// CI lint over the pipelines' parser: v4's POST /ci/lint (with status) and the project's GET/POST
// …/ci/lint (Entities::Ci::Lint::Result, local includes from the pushed commit), v3's POST /ci/lint
// ({status, errors}); missing content, unknown refs and callers without access are refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCiProject, type CiProject } from '../../helpers/ci.ts';
import { addProjectMember, createUser, type TestUser } from '../../helpers/factory.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const VALID = '.base:\n  script: make\nbuild:\n  extends: .base\n  stage: build\n';
const INVALID = 'build:\n  script: make\n  needs: [nope]\n';

describe('CI lint', () => {
  let ci: CiProject;
  let reporter: TestUser;
  let stranger: TestUser;
  const projectLint = () => `/api/v4/projects/${ci.project.id}/ci/lint`;

  before(async () => {
    ci = await startCiProject({}, 'linted');
    reporter = await createUser(ci.t, 'lintreporter');
    stranger = await createUser(ci.t, 'lintstranger');
    await addProjectMember(ci.t, ci.project.id, reporter.id, AccessLevel.Reporter);
    await ci.push({
      '.gitlab-ci.yml': 'include: ci/jobs.yml\nlint:\n  script: eslint\n',
      'ci/jobs.yml': 'unit:\n  script: test\n',
    });
  });
  after(() => ci.close());

  it('lints posted content instance-wide, merged_yaml only when asked for', async () => {
    const valid = await ci.t.request('POST', '/api/v4/ci/lint', {
      token: ci.owner.token,
      body: { content: VALID },
    });
    assert.equal(valid.status, 200);
    assert.deepEqual(valid.body, { valid: true, errors: [], warnings: [], includes: [], status: 'valid' });
    const merged = await ci.t.request('POST', '/api/v4/ci/lint', {
      token: ci.owner.token,
      body: { content: VALID, include_merged_yaml: true },
    });
    assert.match(merged.body.merged_yaml, /build:\n {2}script: make\n {2}stage: build\n/);
    const invalid = await ci.t.request('POST', '/api/v4/ci/lint', { body: { content: INVALID } });
    assert.equal(invalid.status, 200);
    assert.equal(invalid.body.valid, false);
    assert.equal(invalid.body.status, 'invalid');
    assert.deepEqual(invalid.body.errors, ['build job: undefined need: nope']);
    const missing = await ci.t.request('POST', '/api/v4/ci/lint', { body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'content is missing' });
  });

  it("lints the project's file at a ref, its local includes merged", async () => {
    const response = await ci.t.request('GET', projectLint(), { token: reporter.token });
    assert.equal(response.status, 200);
    assert.equal(response.body.valid, true);
    assert.deepEqual(response.body.errors, []);
    assert.match(response.body.merged_yaml, /unit:\n {2}script: test\n/);
    assert.match(response.body.merged_yaml, /lint:\n {2}script: eslint\n/);
    const unknown = await ci.t.request('GET', `${projectLint()}?content_ref=no-such-ref`, {
      token: reporter.token,
    });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: '404 Commit Not Found' });
    const hidden = await ci.t.request('GET', projectLint(), { token: stranger.token });
    assert.equal(hidden.status, 404);
  });

  it('lints posted content in the project for who may run pipelines', async () => {
    const body = { content: 'include: ci/jobs.yml\nother:\n  script: x\n  needs: [unit]\n  stage: build\n' };
    const owner = await ci.t.request('POST', projectLint(), { token: ci.owner.token, body });
    assert.equal(owner.status, 200);
    assert.equal(owner.body.valid, false);
    // unit (from the include) is in stage test, after build: a need must be in the same or an earlier stage.
    assert.deepEqual(owner.body.errors, ['other job: need unit is not defined in current or prior stages']);
    assert.equal(owner.body.merged_yaml, null);
    const reporterTry = await ci.t.request('POST', projectLint(), { token: reporter.token, body });
    assert.equal(reporterTry.status, 403);
    const strangerTry = await ci.t.request('POST', projectLint(), { token: stranger.token, body });
    assert.equal(strangerTry.status, 404);
  });

  it("answers v3's POST /ci/lint as 9.x did", async () => {
    const valid = await ci.t.request('POST', '/api/v3/ci/lint', { body: { content: VALID } });
    assert.equal(valid.status, 200);
    assert.deepEqual(valid.body, { status: 'valid', errors: [] });
    const invalid = await ci.t.request('POST', '/api/v3/ci/lint', { form: { content: 'a: [' } });
    assert.equal(invalid.body.status, 'invalid');
    assert.equal(invalid.body.errors.length, 1);
    const missing = await ci.t.request('POST', '/api/v3/ci/lint', { body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'content is missing' });
  });
});
