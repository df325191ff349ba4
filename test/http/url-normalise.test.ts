// Paths as GitLab 8.13 matched them: the optional `.json` suffix of every API and runner route (Grape's
// `format :json`), trailing and doubled slashes (Rails' router), and names that end in `.json` where a
// branch, tag or ref is the last segment (the name wins there).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  commitFile,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { seedPipeline } from '../helpers/ci.ts';
import { listen } from '../helpers/git.ts';
import { RunnerClient } from '../helpers/runner-client.ts';
import { makeZip } from '../helpers/zip.ts';

describe('API paths as Rails and Grape read them', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: TestProject;
  let base: string;
  let sha: string;
  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    owner = await createUser(t, 'suffix-owner');
    project = await createProject(t, { owner, path: 'suffix-project' });
    sha = await commitFile(project.repoPath, 'README.md', 'suffixes\n');
  });
  after(() => t.close());

  it('answers a project, a build and its artifacts with the .json suffix', async () => {
    const plain = await t.request('GET', `/api/v3/projects/${project.id}`, { token: owner.token });
    const suffixed = await t.request('GET', `/api/v3/projects/${project.id}.json`, { token: owner.token });
    assert.equal(suffixed.status, 200);
    assert.deepEqual(suffixed.body, plain.body);
    const byPath = await t.request('GET', `/api/v3/projects/${encodeURIComponent(project.fullPath)}.json`, {
      token: owner.token,
    });
    assert.equal(byPath.body.id, project.id);

    const { builds } = await seedPipeline(t, project, {
      sha,
      builds: [{ name: 'zipped', status: 'success', artifacts: { 'out.txt': 'artifact body\n' } }],
    });
    const build = builds[0]!;
    const one = await t.request('GET', `/api/v3/projects/${project.id}/builds/${build.id}.json`, {
      token: owner.token,
    });
    assert.equal(one.status, 200);
    assert.equal(one.body.id, build.id);
    const artifacts = await t.server.app.inject({
      method: 'GET',
      url: `/api/v3/projects/${project.id}/builds/${build.id}/artifacts.json`,
      headers: { 'private-token': owner.token },
    });
    assert.equal(artifacts.statusCode, 200);
    assert.equal(artifacts.rawPayload.subarray(0, 2).toString(), 'PK');
  });

  it('takes the runner’s artifacts upload and download with the .json suffix', async () => {
    const { builds } = await seedPipeline(t, project, {
      sha,
      builds: [{ name: 'running', status: 'running' }],
    });
    const job = { id: builds[0]!.id, token: builds[0]!.token as string };
    const runner = new RunnerClient(base);
    const form = new FormData();
    const zip = await makeZip({ 'report.txt': 'uploaded\n' });
    form.append('file', new Blob([new Uint8Array(zip)]), 'artifacts.zip');
    const upload = await runner.call('POST', `builds/${job.id}/artifacts.json`, {
      headers: { 'BUILD-TOKEN': job.token },
      body: form,
    });
    assert.equal(upload.status, 201, upload.text);
    const download = await fetch(`${base}/ci/api/v1/builds/${job.id}/artifacts.json`, {
      headers: { 'BUILD-TOKEN': job.token },
    });
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), zip);
    const state = await runner.call('PUT', `builds/${job.id}.json`, {
      json: { token: 'nope', state: 'success' },
    });
    assert.equal(state.status, 403);
  });

  it('drops a trailing slash and merges doubled slashes before matching', async () => {
    const list = await t.request('GET', '/api/v3/projects/', { token: owner.token });
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.body));
    const doubled = await t.request('GET', `/api/v3//projects//${project.id}/`, { token: owner.token });
    assert.equal(doubled.status, 200);
    assert.equal(doubled.body.id, project.id);
    const created = await t.request('POST', '/api/v3/projects/', {
      token: owner.token,
      body: { name: 'slashed' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.path, 'slashed');
    const withQuery = await t.request(
      'GET',
      `/api/v3/projects//${project.id}/repository/tree/?ref_name=master`,
      {
        token: owner.token,
      },
    );
    assert.equal(withQuery.status, 200);
    assert.ok(withQuery.body.some((entry: { name: string }) => entry.name === 'README.md'));
  });

  it('keeps .json in a branch, tag or ref that ends with it', async () => {
    const repo = `/api/v3/projects/${project.id}/repository`;
    const branch = await t.request('POST', `${repo}/branches`, {
      token: owner.token,
      body: { branch_name: 'release.json', ref: 'master' },
    });
    assert.equal(branch.status, 201);
    const shown = await t.request('GET', `${repo}/branches/release.json`, { token: owner.token });
    assert.equal(shown.status, 200);
    assert.equal(shown.body.name, 'release.json');
    // No branch "release": the suffix was not taken off.
    const other = await t.request('GET', `${repo}/branches/release`, { token: owner.token });
    assert.equal(other.status, 404);
    const tag = await t.request('POST', `${repo}/tags`, {
      token: owner.token,
      body: { tag_name: 'v1.json', ref: 'master' },
    });
    assert.equal(tag.status, 201);
    const tagShown = await t.request('GET', `${repo}/tags/v1.json`, { token: owner.token });
    assert.equal(tagShown.body.name, 'v1.json');
    const commit = await t.request('GET', `${repo}/commits/release.json`, { token: owner.token });
    assert.equal(commit.status, 200);
    assert.equal(commit.body.id, sha);
  });
});
