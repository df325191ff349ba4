// Reading a repository over the API as GitLab 8.13 answered: commits, one commit and its diff, tree,
// raw files and blobs, the files API, compare, contributors, archives and tags; who may read them.
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
import { AccessLevel, Visibility } from '../../../src/domain/types.ts';

const REPO_COMMIT_KEYS = ['id', 'short_id', 'title', 'author_name', 'author_email', 'created_at', 'message'];
const COMMIT_DETAIL_KEYS = [
  ...REPO_COMMIT_KEYS,
  'parent_ids',
  'committed_date',
  'authored_date',
  'stats',
  'status',
];
const COMMIT_HASH_KEYS = [
  'id',
  'message',
  'parent_ids',
  'authored_date',
  'author_name',
  'author_email',
  'committed_date',
  'committer_name',
  'committer_email',
];

describe('repository reads', () => {
  let t: TestApp;
  let client: GitClient;
  let owner: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let sample: SampleRepository;
  let base: string;

  const get = (url: string, token = reporter.token) => t.request('GET', `${base}${url}`, { token });
  const raw = async (url: string, token = reporter.token) =>
    t.server.app.inject({ method: 'GET', url: `${base}${url}`, headers: { 'private-token': token } });

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    owner = await createUser(t, 'owner');
    reporter = await createUser(t, 'reporter');
    guest = await createUser(t, 'guest');
    stranger = await createUser(t, 'stranger');
    project = await createProject(t, { owner, path: 'sample' });
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    sample = await buildSampleRepository(client, project.repoPath);
    base = `/api/v3/projects/${project.id}/repository`;
  });
  after(async () => {
    client.close();
    await t.close();
  });

  describe('GET …/commits', () => {
    it('lists the default branch newest first, in the RepoCommit shape', async () => {
      const response = await get('/commits');
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.map((c: any) => c.id),
        [sample.second, sample.first],
      );
      const [second, first] = response.body;
      assert.deepEqual(Object.keys(second), REPO_COMMIT_KEYS);
      assert.equal(second.short_id, sample.second.slice(0, 8));
      assert.equal(second.title, 'Second commit');
      assert.equal(second.author_name, 'Ada Author');
      assert.equal(second.author_email, 'ada@example.com');
      assert.equal(second.created_at, '2015-12-24T16:52:54.000+01:00');
      assert.equal(second.message, 'Second commit\n');
      assert.equal(first.title, 'First commit');
      assert.equal(first.message, 'First commit\n\nWith a body.\n');
      assert.equal(response.headers['x-total'], undefined, 'GitLab did not paginate with headers here');
    });

    it('takes ref_name, 0-based page and per_page, since and until', async () => {
      assert.deepEqual(
        (await get('/commits?ref_name=feature')).body.map((c: any) => c.id),
        [sample.feature, sample.second, sample.first],
      );
      assert.deepEqual(
        (await get('/commits?ref_name=v1.0')).body.map((c: any) => c.id),
        [sample.first],
      );
      assert.deepEqual(
        (await get('/commits?ref_name=feature&per_page=1&page=1')).body.map((c: any) => c.id),
        [sample.second],
      );
      assert.deepEqual(
        (await get('/commits?ref_name=feature&per_page=2&page=0')).body.map((c: any) => c.id),
        [sample.feature, sample.second],
      );
      assert.deepEqual(
        (await get('/commits?ref_name=feature&since=2015-12-24T16:52:00%2B01:00')).body.map((c: any) => c.id),
        [sample.feature, sample.second],
      );
      assert.deepEqual(
        (await get('/commits?ref_name=feature&until=2015-12-24T15:53:00Z')).body.map((c: any) => c.id),
        [sample.second, sample.first],
      );
      assert.deepEqual((await get('/commits?ref_name=nothing')).body, []);
    });

    it('refuses a malformed time or page', async () => {
      const since = await get('/commits?since=yesterday');
      assert.equal(since.status, 400);
      assert.deepEqual(since.body, {
        message: '"since" must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ',
      });
      const page = await get('/commits?page=first');
      assert.equal(page.status, 400);
      assert.deepEqual(page.body, { error: 'page is invalid' });
    });
  });

  describe('GET …/commits/:sha and …/diff', () => {
    it('shows one commit with stats and status, by sha, abbreviated sha, branch or tag', async () => {
      const response = await get(`/commits/${sample.second}`);
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body), COMMIT_DETAIL_KEYS);
      assert.deepEqual(response.body.parent_ids, [sample.first]);
      assert.equal(response.body.committed_date, '2015-12-24T16:52:54.000+01:00');
      assert.equal(response.body.authored_date, '2015-12-24T16:52:54.000+01:00');
      // README +1, the submodule's "Subproject commit" line +1; binary files, renames and modes add none.
      assert.deepEqual(response.body.stats, { additions: 2, deletions: 0, total: 2 });
      assert.equal(response.body.status, null);
      assert.equal((await get(`/commits/${sample.second.slice(0, 10)}`)).body.id, sample.second);
      assert.equal((await get('/commits/feature')).body.id, sample.feature);
      assert.equal((await get('/commits/v2.0')).body.id, sample.second, 'annotated tags are peeled');
      const missing = await get('/commits/0123456789abcdef');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: '404 Commit Not Found' });
      assert.equal((await get('/commits/--all')).status, 404, 'never an option to git');
    });

    it('diffs a commit against its first parent: changes, renames, modes, binaries, submodules', async () => {
      const response = await get(`/commits/${sample.second}/diff`);
      assert.equal(response.status, 200);
      const byPath = new Map(response.body.map((d: any) => [d.new_path, d]));
      assert.deepEqual(Object.keys(response.body[0]), [
        'diff',
        'new_path',
        'old_path',
        'a_mode',
        'b_mode',
        'new_file',
        'renamed_file',
        'deleted_file',
        'too_large',
      ]);
      assert.deepEqual(byPath.get('README.md'), {
        diff: '--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n hello\n+world\n',
        new_path: 'README.md',
        old_path: 'README.md',
        a_mode: '100644',
        b_mode: '100644',
        new_file: false,
        renamed_file: false,
        deleted_file: false,
        too_large: false,
      });
      const renamed: any = byPath.get('docs/manual.md');
      assert.equal(renamed.old_path, 'docs/guide.md');
      assert.equal(renamed.renamed_file, true);
      assert.equal(renamed.diff, '');
      const binary: any = byPath.get('image.bin');
      assert.equal(binary.new_file, true);
      assert.equal(binary.a_mode, '0');
      assert.equal(binary.diff, 'Binary files /dev/null and b/image.bin differ\n');
      const script: any = byPath.get('script.sh');
      assert.equal(script.a_mode, '100644');
      assert.equal(script.b_mode, '100755');
      assert.equal((byPath.get('vendor/lib') as any).b_mode, '160000');
      const root = await get(`/commits/${sample.first}/diff`);
      assert.equal(root.body.length, 4, 'a root commit diffs against nothing');
      assert.ok(root.body.every((d: any) => d.new_file));
      assert.equal((await get('/commits/nope/diff')).status, 404);
    });
  });

  describe('GET …/tree', () => {
    it('lists directories, then files, then submodules, each in git order', async () => {
      const response = await get('/tree');
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.map((e: any) => [e.name, e.type, e.mode]),
        [
          ['docs', 'tree', '040000'],
          ['src', 'tree', '040000'],
          ['vendor', 'tree', '040000'],
          ['README.md', 'blob', '100644'],
          ['image.bin', 'blob', '100644'],
          ['script.sh', 'blob', '100755'],
        ],
      );
      assert.deepEqual(Object.keys(response.body[0]), ['id', 'name', 'type', 'mode']);
    });

    it('takes a path and a ref, lists recursively, and answers GitLab’s 404 for an unknown ref', async () => {
      const vendor = await get('/tree?path=vendor');
      assert.deepEqual(
        vendor.body.map((e: any) => [e.name, e.type, e.mode, e.id]),
        [['lib', 'commit', '160000', sample.submodule]],
      );
      const docs = await get('/tree?path=/docs/&ref_name=v1.0');
      assert.deepEqual(
        docs.body.map((e: any) => e.name),
        ['guide.md'],
      );
      const recursive = await get('/tree?recursive=true');
      assert.deepEqual(
        recursive.body.map((e: any) => e.path),
        [
          'docs',
          'src',
          'vendor',
          'README.md',
          'docs/manual.md',
          'image.bin',
          'script.sh',
          'src/app.rb',
          'vendor/lib',
        ],
      );
      assert.deepEqual((await get('/tree?path=README.md')).body, [], 'a file is no directory');
      assert.deepEqual((await get('/tree?path=missing')).body, []);
      const unknown = await get('/tree?ref_name=nothing');
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.body, { message: '404 Tree Not Found' });
    });
  });

  describe('raw files and blobs', () => {
    it('serves a file by commit and path, and a blob by id, as text/plain', async () => {
      const byPath = await raw(`/blobs/master?filepath=README.md`);
      assert.equal(byPath.statusCode, 200);
      assert.match(String(byPath.headers['content-type']), /^text\/plain/);
      assert.equal(byPath.body, sample.readme);
      assert.equal(Number(byPath.headers['content-length']), sample.readme.length);
      const alias = await raw(`/commits/${sample.first}/blob?filepath=/README.md`);
      assert.equal(alias.body, 'hello\n');
      const binary = await raw(`/blobs/master?filepath=image.bin`);
      assert.deepEqual(binary.rawPayload, Buffer.from([0, 1, 2, 3, 255, 0, 10]));
      const blob = await raw(`/raw_blobs/${sample.readmeBlob}`);
      assert.equal(blob.body, sample.readme);
      assert.equal((await raw(`/raw_blobs/${sample.readmeBlob.slice(0, 7)}`)).body, sample.readme);
    });

    it('answers GitLab’s 400 and 404 bodies', async () => {
      const missing = await get('/blobs/master');
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, { message: '400 (Bad request) "filepath" not given' });
      assert.deepEqual((await get('/blobs/nothing?filepath=README.md')).body, {
        message: '404 Commit Not Found',
      });
      assert.deepEqual((await get('/blobs/master?filepath=nope')).body, { message: '404 File Not Found' });
      assert.deepEqual((await get('/blobs/master?filepath=docs')).body, { message: '404 File Not Found' });
      assert.deepEqual((await get(`/raw_blobs/${sample.second}`)).body, { message: '404 Blob Not Found' });
      assert.deepEqual((await get('/raw_blobs/master')).body, { message: '404 Blob Not Found' });
    });
  });

  describe('GET …/files', () => {
    it('answers the file with its content base64-encoded and the ids of its blob and commits', async () => {
      const response = await get('/files?file_path=README.md&ref=feature');
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, {
        file_name: 'README.md',
        file_path: 'README.md',
        size: sample.readme.length,
        encoding: 'base64',
        content: Buffer.from(sample.readme).toString('base64'),
        ref: 'feature',
        blob_id: sample.readmeBlob,
        commit_id: sample.feature,
        last_commit_id: sample.second,
      });
      const nested = await get('/files?file_path=docs/manual.md&ref=master');
      assert.equal(nested.body.file_name, 'manual.md');
      assert.equal(Buffer.from(nested.body.content, 'base64').toString(), 'guide\nline two\nline three\n');
      const binary = await get('/files?file_path=image.bin&ref=master');
      assert.deepEqual(Buffer.from(binary.body.content, 'base64'), Buffer.from([0, 1, 2, 3, 255, 0, 10]));
    });

    it('requires file_path and ref, and 404s unknown commits and files', async () => {
      assert.deepEqual((await get('/files?ref=master')).body, {
        message: '400 (Bad request) "file_path" not given',
      });
      assert.deepEqual((await get('/files?file_path=README.md')).body, {
        message: '400 (Bad request) "ref" not given',
      });
      assert.deepEqual((await get('/files?file_path=README.md&ref=nothing')).body, {
        message: '404 Commit Not Found',
      });
      assert.deepEqual((await get('/files?file_path=nope.md&ref=master')).body, {
        message: '404 File Not Found',
      });
    });
  });

  describe('GET …/compare', () => {
    it('lists the commits and diffs the branches as `git diff from...to`', async () => {
      const response = await get('/compare?from=master&to=feature');
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body), [
        'commit',
        'commits',
        'diffs',
        'compare_timeout',
        'compare_same_ref',
      ]);
      assert.equal(response.body.commit.id, sample.feature);
      assert.deepEqual(Object.keys(response.body.commit), REPO_COMMIT_KEYS);
      assert.deepEqual(
        response.body.commits.map((c: any) => c.id),
        [sample.feature],
      );
      assert.deepEqual(response.body.diffs, [
        {
          old_path: 'feature.txt',
          new_path: 'feature.txt',
          a_mode: '0',
          b_mode: '100644',
          diff: '--- /dev/null\n+++ b/feature.txt\n@@ -0,0 +1 @@\n+feature\n',
          new_file: true,
          renamed_file: false,
          deleted_file: false,
        },
      ]);
      assert.equal(response.body.compare_timeout, false);
      assert.equal(response.body.compare_same_ref, false);

      const history = await get(`/compare?from=${sample.first}&to=feature`);
      assert.deepEqual(
        history.body.commits.map((c: any) => c.id),
        [sample.second, sample.feature],
        'oldest first',
      );
      assert.equal(history.body.commit.id, sample.feature);
    });

    it('compares a ref with itself and with what does not exist', async () => {
      const same = await get('/compare?from=master&to=v2.0');
      assert.deepEqual(same.body, {
        commit: null,
        commits: [],
        diffs: [],
        compare_timeout: false,
        compare_same_ref: true,
      });
      const unknown = await get('/compare?from=master&to=nothing');
      assert.equal(unknown.status, 200);
      assert.equal(unknown.body.compare_same_ref, false);
      assert.deepEqual(unknown.body.commits, []);
      assert.deepEqual((await get('/compare?from=master')).body, {
        message: '400 (Bad request) "to" not given',
      });
    });
  });

  it('GET …/contributors counts commits per author of the default branch', async () => {
    const response = await get('/contributors');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [
      { name: 'Ada Author', email: 'ada@example.com', commits: 2, additions: 0, deletions: 0 },
    ]);
    const empty = await createProject(t, { owner, path: 'empty-contributors' });
    const none = await t.request('GET', `/api/v3/projects/${empty.id}/repository/contributors`, {
      token: owner.token,
    });
    assert.equal(none.status, 404);
    assert.deepEqual(none.body, { message: '404 Not Found' });
  });

  describe('GET …/archive', () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-archive-test-'));
    after(() => fs.rmSync(scratch, { recursive: true, force: true }));
    const list = (payload: Buffer, name: string, args: string[]) => {
      const file = path.join(scratch, name);
      fs.writeFileSync(file, payload);
      return execFileSync(args[0], [...args.slice(1), file])
        .toString()
        .trim()
        .split('\n')
        .sort();
    };

    it('streams tar.gz by default, named after the project, ref and commit', async () => {
      const response = await raw('/archive');
      assert.equal(response.statusCode, 200);
      const name = `sample-master-${sample.second}`;
      assert.equal(response.headers['content-disposition'], `attachment; filename="${name}.tar.gz"`);
      assert.equal(response.headers['content-type'], 'application/octet-stream');
      assert.deepEqual(list(response.rawPayload, 'a.tar.gz', ['tar', 'tzf']), [
        `${name}/`,
        `${name}/README.md`,
        `${name}/docs/`,
        `${name}/docs/manual.md`,
        `${name}/image.bin`,
        `${name}/script.sh`,
        `${name}/src/`,
        `${name}/src/app.rb`,
        `${name}/vendor/`,
        `${name}/vendor/lib/`,
      ]);
    });

    it('makes zip, tar and tar.bz2 of any commit, and 404s what is not there', async () => {
      const zip = await raw(`/archive.zip?sha=${sample.first}`);
      assert.equal(zip.statusCode, 200);
      const name = `sample-${sample.first}-${sample.first}`;
      assert.equal(zip.headers['content-disposition'], `attachment; filename="${name}.zip"`);
      // As Workhorse answered: zip by its own type, the tar formats as bytes.
      assert.equal(zip.headers['content-type'], 'application/zip');
      assert.ok(list(zip.rawPayload, 'a.zip', ['unzip', '-Z1']).includes(`${name}/docs/guide.md`));
      const tar = await raw('/archive.tar?sha=v1.0');
      assert.equal(tar.headers['content-type'], 'application/octet-stream');
      assert.equal(tar.headers['content-transfer-encoding'], 'binary');
      assert.ok(
        list(tar.rawPayload, 'a.tar', ['tar', 'tf']).includes(`sample-v1.0-${sample.first}/README.md`),
      );
      const bz2 = await raw('/archive.tbz2?sha=feature');
      assert.equal(
        bz2.headers['content-disposition'],
        `attachment; filename="sample-feature-${sample.feature}.tar.bz2"`,
      );
      assert.ok(
        list(bz2.rawPayload, 'a.tar.bz2', ['tar', 'tjf']).includes(
          `sample-feature-${sample.feature}/feature.txt`,
        ),
      );
      await client.ok(['--git-dir', project.repoPath, 'update-ref', 'refs/heads/ünï/"x"', sample.first]);
      const unicode = await raw(`/archive.tar?sha=${encodeURIComponent('ünï/"x"')}`);
      assert.equal(unicode.statusCode, 200);
      assert.equal(
        unicode.headers['content-disposition'],
        `attachment; filename="sample--n---x--${sample.first}.tar"`,
      );
      const missing = await get('/archive?sha=nothing');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: '404 File Not Found' });
      assert.equal((await get('/archive.rar')).status, 404);
    });
  });

  describe('GET …/tags', () => {
    it('lists tags by name, descending, with annotation, commit and release', async () => {
      const response = await get('/tags');
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.map((tag: any) => tag.name),
        ['v2.0', 'v1.0'],
      );
      const [v2, v1] = response.body;
      assert.deepEqual(Object.keys(v2), ['name', 'message', 'commit', 'release']);
      assert.equal(v2.message, 'Release 2');
      assert.equal(v2.commit.id, sample.second);
      assert.deepEqual(Object.keys(v2.commit), COMMIT_HASH_KEYS);
      assert.equal(v2.commit.committer_name, 'Carl Committer');
      assert.equal(v2.release, null);
      assert.equal(v1.message, null, 'lightweight tags have no message');
      assert.equal(v1.commit.id, sample.first);
    });

    it('shows one tag, and 404s an unknown one', async () => {
      const response = await get('/tags/v2.0');
      assert.equal(response.status, 200);
      assert.equal(response.body.name, 'v2.0');
      const missing = await get('/tags/v3.0');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: '404 Tag Not Found' });
    });
  });

  it('lets reporters and readers of public projects read; 403 for guests, 404 when hidden, 401 anonymous', async () => {
    for (const url of ['/commits', `/commits/${sample.first}`, '/tree', '/tags', '/compare?from=a&to=b']) {
      assert.equal((await get(url, guest.token)).status, 403, url);
      assert.deepEqual((await get(url, stranger.token)).body, { message: '404 Project Not Found' }, url);
    }
    assert.equal((await t.request('GET', `${base}/commits`)).status, 401);
    const open = await createProject(t, { owner, path: 'open', visibility: Visibility.Public, commit: true });
    const readable = await t.request('GET', `/api/v3/projects/${open.id}/repository/tree`, {
      token: stranger.token,
    });
    assert.equal(readable.status, 200);
    assert.deepEqual(
      readable.body.map((e: any) => e.name),
      ['README.md'],
    );
    const byPath = await t.request(
      'GET',
      `/api/v3/projects/${encodeURIComponent(open.fullPath)}/repository/commits`,
      {
        token: stranger.token,
      },
    );
    assert.equal(byPath.body.length, 1);
  });
});
