// Merge request versions (GitLab 8.12's GET …/merge_requests/:id/versions and …/versions/:version_id):
// one version when the MR is created, one more for each push that moves its source branch, newest
// first; a single version shows its commits and its diff from the merge base. A project the caller
// cannot see answers 404, as does a version of another MR or none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';

const VERSION_KEYS = [
  'id',
  'head_commit_sha',
  'base_commit_sha',
  'start_commit_sha',
  'created_at',
  'merge_request_id',
  'state',
  'real_size',
];

describe('merge request versions', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let project: TestProject;

  const call = (method: string, url: string, body: Record<string, unknown> = {}, token = owner.token) =>
    t.request(method, url, { token, body });

  async function writeFile(branch: string, file: string, content: string) {
    const written = await call('POST', `/api/v3/projects/${project.id}/repository/files`, {
      file_path: file,
      branch_name: branch,
      content,
      commit_message: `Write ${file}`,
    });
    assert.equal(written.status, 201, written.text);
  }

  async function head(branch: string): Promise<string> {
    const found = await call('GET', `/api/v3/projects/${project.id}/repository/branches/${branch}`);
    assert.equal(found.status, 200, found.text);
    return found.body.commit.id;
  }

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'versionsowner');
    stranger = await createUser(t, 'versionsstranger');
    project = await createProject(t, { owner, path: 'versioned', commit: true });
  });
  after(() => t.close());

  it('records a version at creation and at each push to the source branch', async () => {
    const branched = await call('POST', `/api/v3/projects/${project.id}/repository/branches`, {
      branch_name: 'feature',
      ref: 'master',
    });
    assert.equal(branched.status, 201, branched.text);
    await writeFile('feature', 'one.txt', 'one\n');
    const master = await head('master');
    const firstHead = await head('feature');
    const created = await call('POST', `/api/v3/projects/${project.id}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'master',
      title: 'Feature',
    });
    assert.equal(created.status, 201, created.text);
    const versions = `/api/v3/projects/${project.id}/merge_requests/${created.body.id}/versions`;

    const first = await call('GET', versions);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.length, 1);
    assert.deepEqual(Object.keys(first.body[0]), VERSION_KEYS);
    assert.deepEqual(
      {
        head: first.body[0].head_commit_sha,
        base: first.body[0].base_commit_sha,
        start: first.body[0].start_commit_sha,
        mr: first.body[0].merge_request_id,
        state: first.body[0].state,
        size: first.body[0].real_size,
      },
      { head: firstHead, base: master, start: master, mr: created.body.id, state: 'collected', size: '1' },
    );

    await writeFile('feature', 'two.txt', 'two\n');
    const secondHead = await head('feature');
    const second = await call('GET', versions);
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(
      second.body.map((version: { head_commit_sha: string; real_size: string }) => [
        version.head_commit_sha,
        version.real_size,
      ]),
      [
        [secondHead, '2'],
        [firstHead, '1'],
      ],
      'newest first',
    );

    const latest = await call('GET', `${versions}/${second.body[0].id}`);
    assert.equal(latest.status, 200, latest.text);
    assert.deepEqual(Object.keys(latest.body), [...VERSION_KEYS, 'commits', 'diffs']);
    assert.deepEqual(
      latest.body.commits.map((commit: { id: string }) => commit.id),
      [secondHead, firstHead],
    );
    assert.deepEqual(
      latest.body.diffs.map((diff: { new_path: string; new_file: boolean; diff: string }) => [
        diff.new_path,
        diff.new_file,
        diff.diff.includes('+two'),
      ]),
      [
        ['one.txt', true, false],
        ['two.txt', true, true],
      ],
    );
    const older = await call('GET', `${versions}/${second.body[1].id}`);
    assert.deepEqual(
      older.body.commits.map((commit: { id: string }) => commit.id),
      [firstHead],
    );
    assert.deepEqual(
      older.body.diffs.map((diff: { new_path: string }) => diff.new_path),
      ['one.txt'],
    );
  });

  it('answers 404 for a hidden project, an unknown version and a version of another MR', async () => {
    const branched = await call('POST', `/api/v3/projects/${project.id}/repository/branches`, {
      branch_name: 'other',
      ref: 'master',
    });
    assert.equal(branched.status, 201, branched.text);
    await writeFile('other', 'other.txt', 'other\n');
    const mrs = `/api/v3/projects/${project.id}/merge_requests`;
    const listed = await call('GET', mrs);
    const feature = listed.body.find((mr: { source_branch: string }) => mr.source_branch === 'feature');
    assert.ok(feature, listed.text);
    const other = await call('POST', mrs, {
      source_branch: 'other',
      target_branch: 'master',
      title: 'Other',
    });
    assert.equal(other.status, 201, other.text);
    const featureVersions = await call('GET', `${mrs}/${feature.id}/versions`);
    assert.equal(featureVersions.status, 200, featureVersions.text);

    const hidden = await call('GET', `${mrs}/${feature.id}/versions`, {}, stranger.token);
    assert.equal(hidden.status, 404, hidden.text);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    const hiddenOne = await call(
      'GET',
      `${mrs}/${feature.id}/versions/${featureVersions.body[0].id}`,
      {},
      stranger.token,
    );
    assert.equal(hiddenOne.status, 404, hiddenOne.text);

    for (const path of [
      `${mrs}/${feature.id}/versions/999999`,
      `${mrs}/${other.body.id}/versions/${featureVersions.body[0].id}`,
      `${mrs}/${feature.id}/versions/nope`,
    ]) {
      const missing = await call('GET', path);
      assert.equal(missing.status, 404, `${path}: ${missing.text}`);
      assert.deepEqual(missing.body, { message: '404 Not found' });
    }
  });
});
