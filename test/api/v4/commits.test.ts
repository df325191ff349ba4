// API v4's commits: the history paginated from page 1 with totals (ref_name, path, all, since, with_stats,
// first_parent), the CommitDetail entity, a commit of actions with v4's `branch` (create, base64 content,
// update, move, chmod, delete; a conflicting create 400), its diff and refs paginated, comments and
// statuses with v4's entities; a reporter refused 403 on writes, a hidden project 404.
import assert from 'node:assert/strict';
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
import { V4_COMMIT_KEYS, V4_DIFF_KEYS } from '../../helpers/entity-keys.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const DETAIL_KEYS = [...V4_COMMIT_KEYS, 'stats', 'status', 'project_id', 'last_pipeline'];

describe('API v4 commits', () => {
  let t: TestApp;
  let client: GitClient;
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let sample: SampleRepository;
  let base: string;

  const get = (url: string, token = reporter.token) => t.request('GET', `${base}${url}`, { token });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project.repoPath, encoding: 'buffer' });

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    const owner = await createUser(t, 'owner');
    developer = await createUser(t, 'developer');
    reporter = await createUser(t, 'reporter');
    stranger = await createUser(t, 'stranger');
    project = await createProject(t, { owner, path: 'history' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
    sample = await buildSampleRepository(client, project.repoPath);
    const edit = await t.request('PUT', `/api/v3/projects/${project.id}`, {
      token: owner.token,
      body: { name: 'history', default_branch: 'master' },
    });
    assert.equal(edit.status, 200);
    base = `/api/v4/projects/${project.id}/repository`;
  });
  after(async () => {
    client.close();
    await t.close();
  });

  describe('GET …/commits', () => {
    it('lists the default branch newest first in v4’s Commit shape, paginated from page 1', async () => {
      const response = await get('/commits');
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.deepEqual(
        response.body.map((c: any) => c.id),
        [sample.second, sample.first],
      );
      const [second, first] = response.body;
      assert.deepEqual(Object.keys(second), V4_COMMIT_KEYS);
      assert.deepEqual(second, {
        id: sample.second,
        short_id: sample.second.slice(0, 8),
        created_at: '2015-12-24T16:52:54.000+01:00',
        parent_ids: [sample.first],
        title: 'Second commit',
        message: 'Second commit\n',
        author_name: 'Ada Author',
        author_email: 'ada@example.com',
        authored_date: '2015-12-24T16:52:54.000+01:00',
        committer_name: 'Carl Committer',
        committer_email: 'carl@example.com',
        committed_date: '2015-12-24T16:52:54.000+01:00',
        trailers: {},
        extended_trailers: {},
        web_url: `${t.config.externalUrl}/${project.fullPath}/commit/${sample.second}`,
      });
      assert.equal(first.message, 'First commit\n\nWith a body.\n');
      assert.equal(response.headers['x-total'], '2');
      assert.equal(response.headers['x-page'], '1');
      assert.equal(response.headers['x-total-pages'], '1');
      const page2 = await get('/commits?ref_name=feature&per_page=1&page=2');
      assert.deepEqual(
        page2.body.map((c: any) => c.id),
        [sample.second],
      );
      assert.equal(page2.headers['x-total'], '3');
      assert.equal(page2.headers['x-next-page'], '3');
      assert.equal(page2.headers['x-prev-page'], '1');
      assert.match(String(page2.headers.link), /ref_name=feature/);
    });

    it('takes path, all, since, first_parent and with_stats', async () => {
      assert.deepEqual(
        (await get('/commits?ref_name=feature&path=feature.txt')).body.map((c: any) => c.id),
        [sample.feature],
      );
      const all = await get('/commits?all=true');
      assert.deepEqual(
        all.body.map((c: any) => c.id),
        [sample.feature, sample.second, sample.first],
      );
      assert.equal(all.headers['x-total'], '3');
      assert.deepEqual(
        (await get('/commits?ref_name=feature&since=2015-12-24T16:52:00%2B01:00')).body.map((c: any) => c.id),
        [sample.feature, sample.second],
      );
      assert.equal((await get('/commits?first_parent=true')).body.length, 2);
      const stats = await get('/commits?with_stats=true&per_page=1');
      assert.deepEqual(Object.keys(stats.body[0]), [...V4_COMMIT_KEYS, 'stats']);
      // README's added line and the submodule's, as v3's commit shows them.
      assert.deepEqual(stats.body[0].stats, { additions: 2, deletions: 0, total: 2 });
      const unknown = await get('/commits?ref_name=nothing');
      assert.deepEqual(unknown.body, []);
      assert.equal(unknown.headers['x-total'], '0');
    });
  });

  describe('GET …/commits/:sha, …/diff, …/refs', () => {
    it('shows CommitDetail with stats, status, project_id and last_pipeline', async () => {
      const response = await get('/commits/master');
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body), DETAIL_KEYS);
      assert.equal(response.body.id, sample.second);
      const v3 = await t.request('GET', `/api/v3/projects/${project.id}/repository/commits/master`, {
        token: reporter.token,
      });
      assert.deepEqual(response.body.stats, v3.body.stats);
      assert.deepEqual(response.body.stats, { additions: 2, deletions: 0, total: 2 });
      assert.equal(response.body.status, null);
      assert.equal(response.body.project_id, project.id);
      assert.equal(response.body.last_pipeline, null);
      const missing = await get('/commits/0123456789abcdef0123456789abcdef01234567');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: '404 Commit Not Found' });
    });

    it('diffs a commit in v4’s Diff shape, paginated', async () => {
      const response = await get(`/commits/${sample.second}/diff`);
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body[0]), V4_DIFF_KEYS);
      const total = Number(response.headers['x-total']);
      assert.equal(total, response.body.length);
      assert.ok(response.body.some((d: any) => d.renamed_file && d.new_path === 'docs/manual.md'));
      const page = await get(`/commits/${sample.second}/diff?per_page=1&page=2`);
      assert.equal(page.body.length, 1);
      assert.equal(page.body[0].new_path, response.body[1].new_path);
    });

    it('lists the branches and tags holding a commit by type', async () => {
      assert.deepEqual((await get(`/commits/${sample.first}/refs`)).body, [
        { type: 'branch', name: 'feature' },
        { type: 'branch', name: 'master' },
      ]);
      assert.deepEqual((await get(`/commits/${sample.first}/refs?type=tag`)).body, [
        { type: 'tag', name: 'v1.0' },
        { type: 'tag', name: 'v2.0' },
      ]);
      const all = await get(`/commits/${sample.feature}/refs?type=all`);
      assert.deepEqual(all.body, [{ type: 'branch', name: 'feature' }]);
      assert.equal(all.headers['x-total'], '1');
      const bad = await get(`/commits/${sample.first}/refs?type=note`);
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { error: 'type does not have a valid value' });
    });
  });

  describe('POST …/commits', () => {
    const commit = (body: Record<string, unknown>, token = developer.token) =>
      t.request('POST', `${base}/commits`, { token, body });

    it('commits create (text and base64), update, move, chmod and delete in one commit', async () => {
      const bytes = Buffer.from([0, 200, 13, 10, 255]);
      const response = await commit({
        branch: 'master',
        commit_message: 'Many changes\n\nSigned-off-by: Ann <ann@example.com>',
        author_name: 'Ann',
        author_email: 'ann@example.com',
        actions: [
          { action: 'create', file_path: 'new/text.txt', content: 'text\n' },
          {
            action: 'create',
            file_path: 'new/bytes.bin',
            content: bytes.toString('base64'),
            encoding: 'base64',
          },
          { action: 'update', file_path: 'README.md', content: 'updated\n' },
          { action: 'move', previous_path: 'src/app.rb', file_path: 'lib/app.rb' },
          { action: 'chmod', file_path: 'script.sh', execute_filemode: false },
          { action: 'delete', file_path: 'image.bin' },
        ],
      });
      assert.equal(response.status, 201);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.deepEqual(Object.keys(response.body), DETAIL_KEYS);
      assert.equal(response.body.title, 'Many changes');
      assert.equal(response.body.author_name, 'Ann');
      assert.deepEqual(response.body.parent_ids, [sample.second]);
      assert.deepEqual(response.body.trailers, { 'Signed-off-by': 'Ann <ann@example.com>' });
      assert.deepEqual(response.body.extended_trailers, { 'Signed-off-by': ['Ann <ann@example.com>'] });
      const id = response.body.id;
      assert.equal(git('rev-parse', 'master').toString().trim(), id);
      assert.equal(git('show', `${id}:new/text.txt`).toString(), 'text\n');
      assert.deepEqual(git('show', `${id}:new/bytes.bin`), bytes);
      assert.equal(git('show', `${id}:README.md`).toString(), 'updated\n');
      assert.equal(git('show', `${id}:lib/app.rb`).toString(), 'puts 1\n');
      assert.match(git('ls-tree', id, 'script.sh').toString(), /^100644 /);
      const names = git('ls-tree', '-r', '--name-only', id).toString().split('\n');
      assert.ok(!names.includes('src/app.rb') && !names.includes('image.bin'));

      const back = await commit({
        branch: 'master',
        commit_message: 'Executable again',
        actions: [{ action: 'chmod', file_path: 'script.sh', execute_filemode: true }],
      });
      assert.equal(back.status, 201);
      assert.match(git('ls-tree', 'master', 'script.sh').toString(), /^100755 /);
    });

    it('starts a branch from start_branch', async () => {
      const response = await commit({
        branch: 'from-feature',
        start_branch: 'feature',
        commit_message: 'On a new branch',
        actions: [{ action: 'create', file_path: 'branch.txt', content: 'b' }],
      });
      assert.equal(response.status, 201);
      assert.deepEqual(response.body.parent_ids, [sample.feature]);
      assert.equal(git('rev-parse', 'from-feature').toString().trim(), response.body.id);
    });

    it('refuses a conflicting create, a stale last_commit_id and missing parameters with 400', async () => {
      const tip = git('rev-parse', 'master').toString().trim();
      const conflict = await commit({
        branch: 'master',
        commit_message: 'Again',
        actions: [{ action: 'create', file_path: 'README.md', content: 'x' }],
      });
      assert.equal(conflict.status, 400);
      assert.deepEqual(conflict.body, {
        message:
          'Your changes could not be committed because a file with the name `README.md` already exists.',
      });
      const stale = await commit({
        branch: 'master',
        commit_message: 'Stale',
        actions: [{ action: 'update', file_path: 'README.md', content: 'x', last_commit_id: sample.first }],
      });
      assert.equal(stale.status, 400);
      assert.deepEqual(stale.body, {
        message: 'The file has changed since you started editing it: README.md',
      });
      const missing = await commit({});
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, {
        error: 'branch is missing, commit_message is missing, actions is missing',
      });
      assert.equal(git('rev-parse', 'master').toString().trim(), tip, 'nothing was committed');
    });

    it('refuses a reporter (403) and hides the project from a stranger (404)', async () => {
      const body = {
        branch: 'master',
        commit_message: 'No',
        actions: [{ action: 'create', file_path: 'no.txt', content: 'x' }],
      };
      const refused = await commit(body, reporter.token);
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body, { message: '403 Forbidden' });
      const hidden = await commit(body, stranger.token);
      assert.equal(hidden.status, 404);
      assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
      assert.equal((await get('/commits', stranger.token)).status, 404);
      assert.equal((await get(`/commits/${sample.first}`, stranger.token)).status, 404);
    });

    it('keeps v3’s branch_name and refuses chmod there, as 8.13 did', async () => {
      const response = await t.request('POST', `/api/v3/projects/${project.id}/repository/commits`, {
        token: developer.token,
        body: {
          branch_name: 'master',
          commit_message: 'v3',
          actions: [{ action: 'chmod', file_path: 'script.sh', execute_filemode: false }],
        },
      });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: 'Unknown action type `chmod`.' });
    });
  });

  describe('comments and statuses', () => {
    it('comments on a commit and lists the comments (CommitNote), paginated', async () => {
      const created = await t.request('POST', `${base}/commits/${sample.second}/comments`, {
        token: reporter.token,
        body: { note: 'Nice' },
      });
      assert.equal(created.status, 201);
      assert.deepEqual(Object.keys(created.body), [
        'note',
        'path',
        'line',
        'line_type',
        'author',
        'created_at',
      ]);
      assert.equal(created.body.note, 'Nice');
      assert.equal(created.body.author.username, reporter.username);
      const list = await get(`/commits/${sample.second}/comments`);
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.map((n: any) => n.note),
        ['Nice'],
      );
      assert.equal(list.headers['x-total'], '1');
      const missing = await t.request('POST', `${base}/commits/${sample.second}/comments`, {
        token: reporter.token,
        body: {},
      });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, { error: 'note is missing' });
    });

    it('reports a status (developers) and lists it in v4’s CommitStatus shape', async () => {
      const refused = await t.request('POST', `/api/v4/projects/${project.id}/statuses/${sample.first}`, {
        token: reporter.token,
        body: { state: 'success' },
      });
      assert.equal(refused.status, 403);
      const created = await t.request('POST', `/api/v4/projects/${project.id}/statuses/${sample.first}`, {
        token: developer.token,
        body: { state: 'success', name: 'ci/lint', ref: 'master', target_url: 'https://ci.example.com/1' },
      });
      assert.equal(created.status, 201);
      assert.deepEqual(Object.keys(created.body), [
        'id',
        'sha',
        'ref',
        'status',
        'name',
        'target_url',
        'description',
        'created_at',
        'started_at',
        'finished_at',
        'allow_failure',
        'coverage',
        'pipeline_id',
        'author',
      ]);
      assert.equal(created.body.sha, sample.first);
      assert.equal(created.body.status, 'success');
      assert.equal(created.body.name, 'ci/lint');
      assert.equal(typeof created.body.pipeline_id, 'number');
      assert.equal(created.body.author.username, developer.username);
      const list = await get(`/commits/${sample.first}/statuses`);
      assert.deepEqual(
        list.body.map((s: any) => [s.name, s.status, s.pipeline_id]),
        [['ci/lint', 'success', created.body.pipeline_id]],
      );
      const detail = await get(`/commits/${sample.first}`);
      assert.equal(detail.body.status, 'success');
      assert.deepEqual(Object.keys(detail.body.last_pipeline), [
        'id',
        'project_id',
        'sha',
        'ref',
        'status',
        'source',
        'created_at',
        'updated_at',
        'web_url',
      ]);
      assert.equal(detail.body.last_pipeline.id, created.body.pipeline_id);
      assert.equal(detail.body.last_pipeline.sha, sample.first);
    });
  });
});
