// API v4's files: GET with the v4 entity (content bytes, SHA-256, executable flag) and its X-Gitlab-*
// headers, HEAD with the headers alone, /raw, and the writes with v4's `branch`: create 201 (text and
// base64), a conflicting create 400, update 200 with the last_commit_id check, start_branch, delete 204;
// a reporter refused 403, a hidden project 404.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
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
import { AccessLevel } from '../../../src/domain/types.ts';

const FILE_KEYS = [
  'file_name',
  'file_path',
  'size',
  'encoding',
  'content_sha256',
  'ref',
  'blob_id',
  'commit_id',
  'last_commit_id',
  'execute_filemode',
  'content',
];

const sha256 = (bytes: Buffer | string) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('API v4 repository files', () => {
  let t: TestApp;
  let client: GitClient;
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let sample: SampleRepository;
  let base: string;

  const file = (filePath: string) => `${base}/${encodeURIComponent(filePath)}`;
  const show = (revision: string) =>
    execFileSync('git', ['show', revision], { cwd: project.repoPath, encoding: 'buffer' });

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    const owner = await createUser(t, 'owner');
    developer = await createUser(t, 'developer');
    reporter = await createUser(t, 'reporter');
    stranger = await createUser(t, 'stranger');
    project = await createProject(t, { owner, path: 'files' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
    sample = await buildSampleRepository(client, project.repoPath);
    const edit = await t.request('PUT', `/api/v3/projects/${project.id}`, {
      token: owner.token,
      body: { name: 'files', default_branch: 'master' },
    });
    assert.equal(edit.status, 200);
    base = `/api/v4/projects/${project.id}/repository/files`;
  });
  after(async () => {
    client.close();
    await t.close();
  });

  describe('reads', () => {
    it('GET answers the v4 entity, content last, and the same fields as X-Gitlab-* headers', async () => {
      const response = await t.request('GET', `${file('docs/manual.md')}?ref=master`, {
        token: reporter.token,
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.deepEqual(Object.keys(response.body), FILE_KEYS);
      const content = 'guide\nline two\nline three\n';
      const blobId = execFileSync('git', ['rev-parse', 'master:docs/manual.md'], { cwd: project.repoPath })
        .toString()
        .trim();
      assert.deepEqual(response.body, {
        file_name: 'manual.md',
        file_path: 'docs/manual.md',
        size: content.length,
        encoding: 'base64',
        content_sha256: sha256(content),
        ref: 'master',
        blob_id: blobId,
        commit_id: sample.second,
        last_commit_id: sample.second,
        execute_filemode: false,
        content: Buffer.from(content).toString('base64'),
      });
      assert.equal(response.headers['x-gitlab-file-name'], 'manual.md');
      assert.equal(response.headers['x-gitlab-file-path'], 'docs/manual.md');
      assert.equal(response.headers['x-gitlab-size'], String(content.length));
      assert.equal(response.headers['x-gitlab-encoding'], 'base64');
      assert.equal(response.headers['x-gitlab-content-sha256'], sha256(content));
      assert.equal(response.headers['x-gitlab-ref'], 'master');
      assert.equal(response.headers['x-gitlab-blob-id'], blobId);
      assert.equal(response.headers['x-gitlab-commit-id'], sample.second);
      assert.equal(response.headers['x-gitlab-last-commit-id'], sample.second);
      assert.equal(response.headers['x-gitlab-execute-filemode'], 'false');
    });

    it('reads a binary file’s exact bytes, an executable’s flag, and an older ref’s last commit', async () => {
      const binary = await t.request('GET', `${file('image.bin')}?ref=master`, { token: reporter.token });
      const bytes = Buffer.from([0, 1, 2, 3, 255, 0, 10]);
      assert.deepEqual(Buffer.from(binary.body.content, 'base64'), bytes);
      assert.equal(binary.body.content_sha256, sha256(bytes));
      const script = await t.request('GET', `${file('script.sh')}?ref=master`, { token: reporter.token });
      assert.equal(script.body.execute_filemode, true);
      const old = await t.request('GET', `${file('README.md')}?ref=v1.0`, { token: reporter.token });
      assert.equal(Buffer.from(old.body.content, 'base64').toString(), 'hello\n');
      assert.equal(old.body.last_commit_id, sample.first);
    });

    it('HEAD answers the headers without a body', async () => {
      const response = await t.server.app.inject({
        method: 'HEAD',
        url: `${file('README.md')}?ref=master`,
        headers: { 'private-token': reporter.token },
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
      assert.equal(response.headers['x-gitlab-file-name'], 'README.md');
      assert.equal(response.headers['x-gitlab-blob-id'], sample.readmeBlob);
      assert.equal(response.headers['x-gitlab-content-sha256'], sha256(sample.readme));
      const missing = await t.server.app.inject({
        method: 'HEAD',
        url: `${file('nothing.txt')}?ref=master`,
        headers: { 'private-token': reporter.token },
      });
      assert.equal(missing.statusCode, 404);
    });

    it('/raw answers the bytes, ref defaulting to the default branch', async () => {
      const raw = await t.request('GET', `${file('image.bin')}/raw`, { token: reporter.token });
      assert.equal(raw.status, 200);
      assert.deepEqual(raw.raw, Buffer.from([0, 1, 2, 3, 255, 0, 10]));
      assert.equal(raw.headers['x-gitlab-file-path'], 'image.bin');
      const old = await t.request('GET', `${file('README.md')}/raw?ref=v1.0`, { token: reporter.token });
      assert.equal(old.text, 'hello\n');
    });

    it('answers 400 without ref, 404 for an unknown ref or file', async () => {
      const noRef = await t.request('GET', file('README.md'), { token: reporter.token });
      assert.equal(noRef.status, 400);
      assert.deepEqual(noRef.body, { error: 'ref is missing' });
      const badRef = await t.request('GET', `${file('README.md')}?ref=nothing`, { token: reporter.token });
      assert.equal(badRef.status, 404);
      assert.deepEqual(badRef.body, { message: '404 Commit Not Found' });
      const noFile = await t.request('GET', `${file('docs')}?ref=master`, { token: reporter.token });
      assert.equal(noFile.status, 404);
      assert.deepEqual(noFile.body, { message: '404 File Not Found' });
    });
  });

  describe('writes', () => {
    it('creates a file (201 {file_path, branch}) from text and from base64', async () => {
      const created = await t.request('POST', file('notes/new.txt'), {
        token: developer.token,
        body: {
          branch: 'master',
          content: 'new text\n',
          commit_message: 'Add notes',
          author_name: 'Ann',
          author_email: 'ann@example.com',
        },
      });
      assert.equal(created.status, 201);
      assert.equal(created.headers['content-type'], 'application/json');
      assert.deepEqual(created.body, { file_path: 'notes/new.txt', branch: 'master' });
      assert.equal(show('master:notes/new.txt').toString(), 'new text\n');
      const author = execFileSync('git', ['log', '-1', '--format=%an <%ae>|%s', 'master'], {
        cwd: project.repoPath,
      });
      assert.equal(author.toString().trim(), 'Ann <ann@example.com>|Add notes');

      const bytes = Buffer.from([255, 254, 0, 1, 128]);
      const binary = await t.request('POST', file('data.bin'), {
        token: developer.token,
        body: {
          branch: 'master',
          content: bytes.toString('base64'),
          encoding: 'base64',
          commit_message: 'Bytes',
        },
      });
      assert.equal(binary.status, 201);
      assert.deepEqual(show('master:data.bin'), bytes);
      const read = await t.request('GET', `${file('data.bin')}?ref=master`, { token: developer.token });
      assert.deepEqual(Buffer.from(read.body.content, 'base64'), bytes);
    });

    it('refuses a create over an existing file (400), missing parameters and a bad encoding', async () => {
      const conflict = await t.request('POST', file('README.md'), {
        token: developer.token,
        body: { branch: 'master', content: 'x', commit_message: 'again' },
      });
      assert.equal(conflict.status, 400);
      assert.deepEqual(conflict.body, {
        message: 'Your changes could not be committed because a file with the same name already exists',
      });
      const missing = await t.request('POST', file('other.txt'), { token: developer.token, body: {} });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, {
        error: 'branch is missing, commit_message is missing, content is missing',
      });
      const encoding = await t.request('POST', file('other.txt'), {
        token: developer.token,
        body: { branch: 'master', content: 'x', commit_message: 'm', encoding: 'rot13' },
      });
      assert.equal(encoding.status, 400);
      assert.deepEqual(encoding.body, { error: 'encoding does not have a valid value' });
    });

    it('updates a file (200), refusing a stale last_commit_id, and sets the executable flag', async () => {
      const before = await t.request('GET', `${file('src/app.rb')}?ref=master`, { token: developer.token });
      const stale = await t.request('PUT', file('src/app.rb'), {
        token: developer.token,
        body: { branch: 'master', content: 'puts 2\n', commit_message: 'Two', last_commit_id: sample.second },
      });
      assert.equal(stale.status, 400);
      assert.deepEqual(stale.body, {
        message: 'You are attempting to update a file that has changed since you started editing it.',
      });
      const updated = await t.request('PUT', file('src/app.rb'), {
        token: developer.token,
        body: {
          branch: 'master',
          content: 'puts 2\n',
          commit_message: 'Two',
          last_commit_id: before.body.last_commit_id,
          execute_filemode: true,
        },
      });
      assert.equal(updated.status, 200);
      assert.deepEqual(updated.body, { file_path: 'src/app.rb', branch: 'master' });
      const after = await t.request('GET', `${file('src/app.rb')}?ref=master`, { token: developer.token });
      assert.equal(Buffer.from(after.body.content, 'base64').toString(), 'puts 2\n');
      assert.equal(after.body.execute_filemode, true);
    });

    it('starts a new branch from start_branch, and refuses one that exists', async () => {
      const created = await t.request('POST', file('topic.txt'), {
        token: developer.token,
        body: { branch: 'topic', start_branch: 'feature', content: 't\n', commit_message: 'Topic' },
      });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body, { file_path: 'topic.txt', branch: 'topic' });
      const parent = execFileSync('git', ['rev-parse', 'topic^'], { cwd: project.repoPath })
        .toString()
        .trim();
      assert.equal(parent, sample.feature);
      const again = await t.request('POST', file('topic2.txt'), {
        token: developer.token,
        body: { branch: 'topic', start_branch: 'master', content: 't\n', commit_message: 'Topic' },
      });
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, {
        message: "A branch called 'topic' already exists. Switch to that branch in order to make changes",
      });
    });

    it('deletes a file with 204 and no body; a missing one is 400', async () => {
      const deleted = await t.request('DELETE', file('notes/new.txt'), {
        token: developer.token,
        body: { branch: 'master', commit_message: 'Remove notes' },
      });
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      const gone = await t.request('GET', `${file('notes/new.txt')}?ref=master`, { token: developer.token });
      assert.equal(gone.status, 404);
      const again = await t.request('DELETE', file('notes/new.txt'), {
        token: developer.token,
        body: { branch: 'master', commit_message: 'Remove notes' },
      });
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, { message: "A file with this name doesn't exist" });
    });

    it('refuses a reporter (403) and hides the project from a stranger (404); nothing is written', async () => {
      const tip = execFileSync('git', ['rev-parse', 'master'], { cwd: project.repoPath }).toString().trim();
      const body = { branch: 'master', content: 'x', commit_message: 'm' };
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const refused = await t.request(method, file('r.txt'), { token: reporter.token, body });
        assert.equal(refused.status, 403, method);
        assert.deepEqual(refused.body, { message: '403 Forbidden' });
        const hidden = await t.request(method, file('r.txt'), { token: stranger.token, body });
        assert.equal(hidden.status, 404, method);
        assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
      }
      const read = await t.request('GET', `${file('README.md')}?ref=master`, { token: stranger.token });
      assert.equal(read.status, 404);
      assert.equal(
        execFileSync('git', ['rev-parse', 'master'], { cwd: project.repoPath }).toString().trim(),
        tip,
      );
    });
  });

  it('leaves v3’s files API as it was: branch_name, query file_path, branch_name in the answer', async () => {
    const created = await t.request('POST', `/api/v3/projects/${project.id}/repository/files`, {
      token: developer.token,
      body: { file_path: 'v3.txt', branch_name: 'master', content: 'v3\n', commit_message: 'v3' },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, { file_path: 'v3.txt', branch_name: 'master' });
    const read = await t.request(
      'GET',
      `/api/v3/projects/${project.id}/repository/files?file_path=v3.txt&ref=master`,
      {
        token: developer.token,
      },
    );
    assert.deepEqual(Object.keys(read.body), [
      'file_name',
      'file_path',
      'size',
      'encoding',
      'content',
      'ref',
      'blob_id',
      'commit_id',
      'last_commit_id',
    ]);
  });
});
