// API v4's repository reads: the tree paginated with root paths, blobs as JSON and raw, archives
// (formats, sha, path), compare (straight too), contributors sorted and paginated, merge_base; the v3
// twins side by side where a shared view serves both; who may read (hidden project 404, guest 403).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { GitClient } from '../../helpers/git.ts';
import { buildSampleRepository, type SampleRepository } from '../../helpers/sample-repository.ts';
import { V4_COMMIT_KEYS, V4_DIFF_KEYS } from '../../helpers/entity-keys.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

describe('API v4 repository', () => {
  let t: TestApp;
  let client: GitClient;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let sample: SampleRepository;
  let base: string;

  const get = (url: string, token = reporter.token) => t.request('GET', `${base}${url}`, { token });

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    const owner = await createUser(t, 'owner');
    reporter = await createUser(t, 'reporter');
    guest = await createUser(t, 'guest');
    stranger = await createUser(t, 'stranger');
    project = await createProject(t, { owner, path: 'sample' });
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    sample = await buildSampleRepository(client, project.repoPath);
    base = `/api/v4/projects/${project.id}/repository`;
  });
  after(async () => {
    client.close();
    await t.close();
  });

  describe('GET …/tree', () => {
    it('lists directories, files, submodules as TreeObject with paths from the root, paginated', async () => {
      const response = await get('/tree');
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.deepEqual(Object.keys(response.body[0]), ['id', 'name', 'type', 'path', 'mode']);
      assert.deepEqual(
        response.body.map((e: any) => [e.name, e.type, e.path, e.mode]),
        [
          ['docs', 'tree', 'docs', '040000'],
          ['src', 'tree', 'src', '040000'],
          ['vendor', 'tree', 'vendor', '040000'],
          ['README.md', 'blob', 'README.md', '100644'],
          ['image.bin', 'blob', 'image.bin', '100644'],
          ['script.sh', 'blob', 'script.sh', '100755'],
        ],
      );
      assert.equal(response.headers['x-total'], '6');
      assert.equal(response.headers['x-page'], '1');
      const second = await get('/tree?per_page=4&page=2');
      assert.deepEqual(
        second.body.map((e: any) => e.name),
        ['image.bin', 'script.sh'],
      );
      assert.equal(second.headers['x-total'], '6');
      assert.equal(second.headers['x-total-pages'], '2');
      assert.equal(second.headers['x-prev-page'], '1');
      assert.equal(second.headers['x-next-page'], '');
    });

    it('takes v4’s ref (not ref_name), a path and recursive; 404 Tree Not Found for an unknown ref', async () => {
      const docs = await get('/tree?path=docs&ref=v1.0');
      assert.deepEqual(
        docs.body.map((e: any) => [e.name, e.path]),
        [['guide.md', 'docs/guide.md']],
      );
      const recursive = await get('/tree?path=docs&recursive=true');
      assert.deepEqual(
        recursive.body.map((e: any) => e.path),
        ['docs/manual.md'],
      );
      const all = await get('/tree?recursive=1&per_page=100');
      assert.equal(all.headers['x-total'], '9');
      assert.deepEqual((await get('/tree?path=README.md')).body, []);
      const unknown = await get('/tree?ref=nothing');
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.body, { message: '404 Tree Not Found' });
      assert.equal(unknown.headers['content-type'], 'application/json');
    });
  });

  describe('blobs', () => {
    it('GET …/blobs/:sha answers {size, encoding, content, sha} whose content decodes to the bytes', async () => {
      const response = await get(`/blobs/${sample.readmeBlob}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.deepEqual(Object.keys(response.body), ['size', 'encoding', 'content', 'sha']);
      assert.equal(response.body.size, Buffer.byteLength(sample.readme));
      assert.equal(response.body.encoding, 'base64');
      assert.equal(Buffer.from(response.body.content, 'base64').toString(), sample.readme);
      assert.equal(response.body.sha, sample.readmeBlob);
    });

    it('round-trips a binary blob through base64 and serves it raw', async () => {
      const id = execFileSync('git', ['rev-parse', 'master:image.bin'], { cwd: project.repoPath })
        .toString()
        .trim();
      const bytes = Buffer.from([0, 1, 2, 3, 255, 0, 10]);
      const json = await get(`/blobs/${id}`);
      assert.deepEqual(Buffer.from(json.body.content, 'base64'), bytes);
      const raw = await get(`/blobs/${id}/raw`);
      assert.equal(raw.status, 200);
      assert.deepEqual(raw.raw, bytes);
      assert.equal(raw.headers['content-length'], String(bytes.length));
      const short = await get(`/blobs/${sample.readmeBlob.slice(0, 8)}/raw`);
      assert.equal(short.text, sample.readme);
    });

    it('answers 404 Blob Not Found for an unknown or non-blob id', async () => {
      for (const id of ['0123456789abcdef0123456789abcdef01234567', sample.second, 'zzz']) {
        const response = await get(`/blobs/${id}`);
        assert.equal(response.status, 404, id);
        assert.deepEqual(response.body, { message: '404 Blob Not Found' });
      }
    });
  });

  describe('GET …/archive', () => {
    const inject = (url: string) =>
      t.server.app.inject({
        method: 'GET',
        url: `${base}${url}`,
        headers: { 'private-token': reporter.token },
      });

    it('answers .tar.gz, .zip and .tar.bz2, of the sha given, with GitLab’s file name', async () => {
      const gz = await inject('/archive.tar.gz?sha=v1.0');
      assert.equal(gz.statusCode, 200);
      assert.equal(gz.headers['content-type'], 'application/octet-stream');
      assert.equal(
        gz.headers['content-disposition'],
        `attachment; filename="sample-v1.0-${sample.first}.tar.gz"`,
      );
      assert.deepEqual([...gz.rawPayload.subarray(0, 2)], [0x1f, 0x8b]);
      const zip = await inject('/archive.zip');
      assert.equal(zip.headers['content-type'], 'application/zip');
      assert.equal(zip.rawPayload.subarray(0, 2).toString(), 'PK');
      const bz2 = await inject('/archive.tar.bz2');
      assert.equal(bz2.rawPayload.subarray(0, 3).toString(), 'BZh');
      const plain = await inject('/archive?format=zip');
      assert.equal(plain.headers['content-type'], 'application/zip');
      assert.equal((await inject('/archive.rar')).statusCode, 404);
    });

    it('archives one directory with `path`, and 404s a path that is none', async () => {
      const response = await inject('/archive.tar?path=docs');
      assert.equal(response.statusCode, 200);
      const prefix = `sample-master-${sample.second}-docs`;
      assert.equal(response.headers['content-disposition'], `attachment; filename="${prefix}.tar"`);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'v4-archive-'));
      try {
        fs.writeFileSync(path.join(dir, 'a.tar'), response.rawPayload);
        const listed = execFileSync('tar', ['-tf', path.join(dir, 'a.tar')])
          .toString()
          .trim()
          .split('\n');
        assert.deepEqual(listed.sort(), [`${prefix}/`, `${prefix}/docs/`, `${prefix}/docs/manual.md`].sort());
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      assert.equal((await inject('/archive.tar?path=missing')).statusCode, 404);
    });
  });

  describe('GET …/compare', () => {
    it('answers v4’s Compare: commit, commits oldest first, diffs, flags and web_url', async () => {
      const response = await get(`/compare?from=${sample.first}&to=feature`);
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.deepEqual(Object.keys(response.body), [
        'commit',
        'commits',
        'diffs',
        'compare_timeout',
        'compare_same_ref',
        'web_url',
      ]);
      assert.deepEqual(Object.keys(response.body.commit), V4_COMMIT_KEYS);
      assert.equal(response.body.commit.id, sample.feature);
      assert.deepEqual(
        response.body.commits.map((c: any) => c.id),
        [sample.second, sample.feature],
      );
      assert.deepEqual(Object.keys(response.body.diffs[0]), V4_DIFF_KEYS);
      assert.ok(response.body.diffs.some((d: any) => d.new_path === 'feature.txt' && d.new_file));
      assert.equal(response.body.compare_timeout, false);
      assert.equal(response.body.compare_same_ref, false);
      assert.equal(
        response.body.web_url,
        `${t.config.externalUrl}/${project.fullPath}/compare/${sample.first}...feature`,
      );
      const v3 = await t.request(
        'GET',
        `/api/v3/projects/${project.id}/repository/compare?from=${sample.first}&to=feature`,
        {
          token: reporter.token,
        },
      );
      assert.deepEqual(
        v3.body.commits.map((c: any) => c.id),
        [sample.second, sample.feature],
      );
      assert.equal(v3.body.web_url, undefined, 'v3 keeps 8.13’s shape');
    });

    it('diffs from `from` itself with straight=true, from the merge base otherwise', async () => {
      const merged = await get('/compare?from=feature&to=master');
      assert.deepEqual(merged.body.commits, []);
      assert.deepEqual(merged.body.diffs, []);
      const straight = await get('/compare?from=feature&to=master&straight=true');
      assert.deepEqual(
        straight.body.diffs.map((d: any) => [d.old_path, d.deleted_file]),
        [['feature.txt', true]],
      );
      const same = await get('/compare?from=master&to=master');
      assert.equal(same.body.compare_same_ref, true);
      assert.equal(same.body.commit, null);
    });

    it('answers 400 for missing refs', async () => {
      const response = await get('/compare');
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { error: 'from is missing, to is missing' });
    });
  });

  describe('GET …/contributors', () => {
    it('lists the default branch’s authors, sorted as asked, paginated', async () => {
      const response = await get('/contributors');
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, [
        { name: 'Ada Author', email: 'ada@example.com', commits: 2, additions: 0, deletions: 0 },
      ]);
      assert.equal(response.headers['x-total'], '1');
      assert.equal((await get('/contributors?order_by=name&sort=desc')).status, 200);
      const bad = await get('/contributors?order_by=size');
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { error: 'order_by does not have a valid value' });
    });
  });

  describe('GET …/merge_base', () => {
    it('answers the common ancestor as a Commit, 400 for too few or unknown refs', async () => {
      const response = await get(`/merge_base?refs[]=feature&refs[]=${sample.first}`);
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body), V4_COMMIT_KEYS);
      assert.equal(response.body.id, sample.first);
      assert.equal(response.body.title, 'First commit');
      assert.equal(
        response.body.web_url,
        `${t.config.externalUrl}/${project.fullPath}/commit/${sample.first}`,
      );
      const three = await get(`/merge_base?refs[]=feature&refs[]=master&refs[]=v2.0`);
      assert.equal(three.body.id, sample.second);
      const one = await get('/merge_base?refs[]=master');
      assert.equal(one.status, 400);
      assert.deepEqual(one.body, { message: 'Provide at least 2 refs' });
      const unknown = await get('/merge_base?refs[]=master&refs[]=nope&refs[]=gone');
      assert.equal(unknown.status, 400);
      assert.deepEqual(unknown.body, { message: 'Could not find refs: nope, gone' });
      const missing = await get('/merge_base');
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, { error: 'refs is missing' });
    });
  });

  it('hides a private project from a stranger (404) and refuses a guest the code (403)', async () => {
    for (const url of [
      '/tree',
      `/blobs/${sample.readmeBlob}`,
      '/archive.zip',
      '/compare?from=a&to=b',
      '/contributors',
    ]) {
      const hidden = await get(url, stranger.token);
      assert.equal(hidden.status, 404, url);
      assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
      assert.equal((await get(url, guest.token)).status, 403, url);
    }
    const byPath = await t.request(
      'GET',
      `/api/v4/projects/${encodeURIComponent(project.fullPath)}/repository/tree`,
      {
        token: reporter.token,
      },
    );
    assert.equal(byPath.status, 200);
    assert.equal(byPath.body.length, 6);
  });
});
