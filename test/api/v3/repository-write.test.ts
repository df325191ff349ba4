// Writing a repository over the API as GitLab 8.13 answered: branches, tags and release notes, files and
// multi-action commits. Every write is a push: same rules as `git push`, recorded as push events, and
// what it wrote is what a real `git clone` gets.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  addProtectedBranch,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../../helpers/git.ts';
import { buildSampleRepository, type SampleRepository } from '../../helpers/sample-repository.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const BRANCH_KEYS = ['name', 'commit', 'protected', 'developers_can_push', 'developers_can_merge'];

describe('repository writes', () => {
  let t: TestApp;
  let http: string;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let sample: SampleRepository;
  let base: string;

  const call = (method: string, url: string, body: Record<string, unknown> = {}, token = developer.token) =>
    t.request(method, `${base}${url}`, { token, body });
  const refSha = async (ref: string) =>
    (await client.run(['--git-dir', project.repoPath, 'rev-parse', '--verify', '-q', ref])).stdout.trim();
  const lastEvent = async () =>
    (await t.request('GET', `/api/v3/projects/${project.id}/events`, { token: owner.token })).body[0];
  /** A fresh clone over smart HTTP, as a user would make it. */
  const clone = async (name: string, branch = 'master') => {
    const dir = path.join(client.home, `${name}-${Date.now()}`);
    await client.ok([
      'clone',
      '-q',
      '-b',
      branch,
      repoUrl(http, project.fullPath, owner.username, owner.password),
      dir,
    ]);
    return dir;
  };

  before(async () => {
    t = await startTestApp();
    http = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'wowner');
    developer = await createUser(t, 'wdev');
    reporter = await createUser(t, 'wreporter');
    stranger = await createUser(t, 'wstranger');
    project = await createProject(t, { owner, path: 'writable' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
    sample = await buildSampleRepository(client, project.repoPath);
    base = `/api/v3/projects/${project.id}/repository`;
    // The sample was pushed past push processing, which would have chosen the default branch.
    const edit = await t.request('PUT', `/api/v3/projects/${project.id}`, {
      token: owner.token,
      body: { name: 'writable', default_branch: 'master' },
    });
    assert.equal(edit.status, 200, edit.text);
  });
  after(async () => {
    client.close();
    await t.close();
  });

  describe('branches', () => {
    it('creates a branch from a ref (201 RepoBranch) as a push, with its event', async () => {
      const response = await call('POST', '/branches', { branch_name: 'topic/one', ref: sample.first });
      assert.equal(response.status, 201, response.text);
      assert.deepEqual(Object.keys(response.body), BRANCH_KEYS);
      assert.equal(response.body.name, 'topic/one');
      assert.equal(response.body.commit.id, sample.first);
      assert.equal(response.body.protected, false);
      assert.equal(await refSha('refs/heads/topic/one'), sample.first);
      const event = await lastEvent();
      assert.equal(event.action_name, 'pushed new');
      assert.equal(event.data.ref, 'refs/heads/topic/one');
      assert.equal(event.author_username, 'wdev');
      const fromBranch = await call('POST', '/branches', { branch_name: 'topic/two', ref: 'feature' });
      assert.equal(fromBranch.body.commit.id, sample.feature);
    });

    it('answers GitLab’s 400s for a bad name, an existing branch and an unknown ref', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ branch_name: 'bad..name', ref: 'master' }, 'Branch name is invalid'],
        [{ ref: 'master' }, 'Branch name is invalid'],
        [{ branch_name: 'feature', ref: 'master' }, 'Branch already exists'],
        [{ branch_name: 'new-one', ref: 'nothing' }, 'Invalid reference name'],
        [{ branch_name: 'new-one' }, 'Invalid reference name'],
      ];
      for (const [body, message] of cases) {
        const response = await call('POST', '/branches', body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.deepEqual(response.body, { message });
      }
    });

    it('applies the push rules: a developer may not create a branch a rule protects', async () => {
      await addProtectedBranch(t, project.id, 'release/*');
      const refused = await call('POST', '/branches', { branch_name: 'release/1', ref: 'master' });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body, {
        message: 'You are not allowed to push code to protected branches on this project.',
      });
      assert.equal(await refSha('refs/heads/release/1'), '');
      const byOwner = await call(
        'POST',
        '/branches',
        { branch_name: 'release/1', ref: 'master' },
        owner.token,
      );
      assert.equal(byOwner.status, 201);
      assert.equal(byOwner.body.protected, true);
    });

    it('deletes a branch (slashes allowed), refusing the default and protected ones with 405', async () => {
      const removed = await call('DELETE', '/branches/topic/two');
      assert.equal(removed.status, 200);
      assert.deepEqual(removed.body, { branch_name: 'topic/two' });
      assert.equal(await refSha('refs/heads/topic/two'), '');
      const event = await lastEvent();
      assert.equal(event.action_name, 'deleted');
      assert.equal(event.data.after, '0000000000000000000000000000000000000000');
      const missing = await call('DELETE', '/branches/topic/two');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: 'No such branch' });
      const head = await call('DELETE', '/branches/master', {}, owner.token);
      assert.equal(head.status, 405);
      assert.deepEqual(head.body, { message: 'Cannot remove HEAD branch' });
      const guarded = await call('DELETE', '/branches/release%2F1', {}, owner.token);
      assert.equal(guarded.status, 405);
      assert.deepEqual(guarded.body, { message: 'Protected branch cant be removed' });
    });

    it('is for developers: 403 for reporters, 404 for strangers, 403 on archived projects', async () => {
      assert.equal(
        (await call('POST', '/branches', { branch_name: 'x', ref: 'master' }, reporter.token)).status,
        403,
      );
      assert.equal((await call('DELETE', '/branches/feature', {}, reporter.token)).status, 403);
      const hidden = await call('POST', '/branches', { branch_name: 'x', ref: 'master' }, stranger.token);
      assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
      const attic = await createProject(t, { owner, path: 'attic', archived: true, commit: true });
      const archived = await t.request('POST', `/api/v3/projects/${attic.id}/repository/branches`, {
        token: owner.token,
        body: { branch_name: 'x', ref: 'master' },
      });
      assert.equal(archived.status, 403);
    });
  });

  describe('tags and releases', () => {
    it('creates lightweight and annotated tags with release notes, as tag pushes', async () => {
      const light = await call('POST', '/tags', { tag_name: 'v3.0', ref: 'feature' });
      assert.equal(light.status, 201, light.text);
      assert.deepEqual(Object.keys(light.body), ['name', 'message', 'commit', 'release']);
      assert.equal(light.body.message, null);
      assert.equal(light.body.commit.id, sample.feature);
      assert.equal(light.body.release, null);
      assert.equal((await lastEvent()).data.object_kind, 'tag_push');

      const annotated = await call('POST', '/tags', {
        tag_name: 'v4.0',
        ref: sample.first,
        message: '  Version four  ',
        release_description: 'Notes for **four**',
      });
      assert.equal(annotated.status, 201, annotated.text);
      assert.equal(annotated.body.message, 'Version four');
      assert.equal(annotated.body.commit.id, sample.first);
      assert.deepEqual(annotated.body.release, { tag_name: 'v4.0', description: 'Notes for **four**' });
      const object = (await client.ok(['--git-dir', project.repoPath, 'cat-file', '-p', 'v4.0'])).toString();
      assert.match(object, /^tagger wdev Name <wdev@example\.com> \d+ \+0000$/m);
      const shown = await call('GET', '/tags/v4.0', {}, reporter.token);
      assert.deepEqual(shown.body.release, { tag_name: 'v4.0', description: 'Notes for **four**' });
    });

    it('answers GitLab’s 400s for a bad name, a bad target and an existing tag', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ tag_name: 'bad~name', ref: 'master' }, 'Tag name invalid'],
        [{ tag_name: 'v9', ref: 'nothing' }, 'Target nothing is invalid'],
        [{ tag_name: 'v1.0', ref: 'master' }, 'Tag v1.0 already exists'],
        [{ tag_name: 'v1.0', ref: 'master', message: 'again' }, 'Tag v1.0 already exists'],
      ];
      for (const [body, message] of cases) {
        const response = await call('POST', '/tags', body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.deepEqual(response.body, { message });
      }
      assert.equal(await refSha('refs/tags/v1.0'), sample.first, 'the existing tag is untouched');
    });

    it('writes and rewrites release notes', async () => {
      const created = await call('POST', '/tags/v3.0/release', { description: 'First notes' });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body, { tag_name: 'v3.0', description: 'First notes' });
      const again = await call('POST', '/tags/v3.0/release', { description: 'x' });
      assert.equal(again.status, 409);
      assert.deepEqual(again.body, { message: 'Release already exists' });
      const updated = await call('PUT', '/tags/v3.0/release', { description: 'Better notes' });
      assert.equal(updated.status, 200);
      assert.deepEqual(updated.body, { tag_name: 'v3.0', description: 'Better notes' });
      assert.deepEqual((await call('PUT', '/tags/v1.0/release', { description: 'x' })).body, {
        message: 'Release does not exist',
      });
      assert.deepEqual((await call('POST', '/tags/nope/release', { description: 'x' })).body, {
        message: 'Tag does not exist',
      });
      const blank = await call('POST', '/tags/v1.0/release', {});
      assert.equal(blank.status, 400);
      assert.deepEqual(blank.body, { message: '400 (Bad request) "description" not given' });
    });

    it('deletes tags with their release notes; only masters change existing tags', async () => {
      const refused = await call('DELETE', '/tags/v3.0');
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body, {
        message: 'You are not allowed to change existing tags on this project.',
      });
      const removed = await call('DELETE', '/tags/v3.0', {}, owner.token);
      assert.equal(removed.status, 200);
      assert.deepEqual(removed.body, { tag_name: 'v3.0' });
      assert.equal(await refSha('refs/tags/v3.0'), '');
      const event = await lastEvent();
      assert.equal(event.data.object_kind, 'tag_push');
      assert.equal(event.data.after, '0000000000000000000000000000000000000000');
      const missing = await call('DELETE', '/tags/v3.0', {}, owner.token);
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: 'No such tag' });
      // Made again, the tag starts without the old notes.
      await call('POST', '/tags', { tag_name: 'v3.0', ref: 'master' });
      assert.equal((await call('GET', '/tags/v3.0')).body.release, null);
    });
  });

  describe('files', () => {
    it('creates, updates and deletes files, each one commit a real clone sees', async () => {
      const created = await call('POST', '/files', {
        file_path: 'notes/todo.md',
        branch_name: 'master',
        content: 'first\r\nsecond\r\n',
        commit_message: 'Add todo',
        author_name: 'Someone Else',
        author_email: 'else@example.com',
      });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body, { file_path: 'notes/todo.md', branch_name: 'master' });
      const event = await lastEvent();
      assert.equal(event.action_name, 'pushed to');
      assert.equal(event.data.commits[0].message, 'Add todo');

      const binary = Buffer.from([0, 159, 146, 150, 13, 10]);
      const encoded = await call('POST', '/files', {
        file_path: '/assets/blob.bin',
        branch_name: 'master',
        content: binary.toString('base64'),
        encoding: 'base64',
        commit_message: 'Add binary',
      });
      assert.equal(encoded.status, 201, encoded.text);
      assert.equal(encoded.body.file_path, 'assets/blob.bin');

      const updated = await call('PUT', '/files', {
        file_path: 'script.sh',
        branch_name: 'master',
        content: 'echo changed\n',
        commit_message: 'Change script',
      });
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(updated.body, { file_path: 'script.sh', branch_name: 'master' });
      const removed = await call('DELETE', '/files', {
        file_path: 'src/app.rb',
        branch_name: 'master',
        commit_message: 'Remove app',
      });
      assert.equal(removed.status, 200, removed.text);

      const dir = await clone('files');
      assert.equal(fs.readFileSync(path.join(dir, 'notes/todo.md'), 'utf8'), 'first\nsecond\n', 'CRLF → LF');
      assert.deepEqual(fs.readFileSync(path.join(dir, 'assets/blob.bin')), binary, 'binaries as sent');
      assert.equal(fs.readFileSync(path.join(dir, 'script.sh'), 'utf8'), 'echo changed\n');
      assert.ok(fs.statSync(path.join(dir, 'script.sh')).mode & 0o100, 'the executable bit is kept');
      assert.equal(fs.existsSync(path.join(dir, 'src/app.rb')), false);
      const log = await client.ok(['log', '--format=%s|%an <%ae>|%cn <%ce>', '-4'], dir);
      assert.deepEqual(log.trim().split('\n'), [
        'Remove app|wdev Name <wdev@example.com>|wdev Name <wdev@example.com>',
        'Change script|wdev Name <wdev@example.com>|wdev Name <wdev@example.com>',
        'Add binary|wdev Name <wdev@example.com>|wdev Name <wdev@example.com>',
        'Add todo|Someone Else <else@example.com>|wdev Name <wdev@example.com>',
      ]);
      await client.ok(['fsck', '--strict'], dir);
    });

    it('keeps of an author what git can store, and falls back to the caller for what it cannot', async () => {
      const write = (file: string, author: Record<string, string>) =>
        call('POST', '/files', {
          file_path: file,
          branch_name: 'master',
          content: 'x',
          commit_message: file,
          ...author,
        });
      assert.equal(
        (await write('ident-a', { author_name: 'Bad <Name>\n', author_email: '<bad@example.com>' })).status,
        201,
      );
      assert.equal(
        (await write('ident-b', { author_name: '...', author_email: 'dots@example.com' })).status,
        201,
      );
      const log = await client.ok([
        '--git-dir',
        project.repoPath,
        'log',
        '--format=%an <%ae>',
        '-2',
        'master',
      ]);
      assert.deepEqual(log.trim().split('\n'), [
        'wdev Name <wdev@example.com>',
        'Bad Name <bad@example.com>',
      ]);
    });

    it('answers GitLab’s 400s, in GitLab’s order', async () => {
      const write = { branch_name: 'master', content: 'x', commit_message: 'm' };
      const cases: Array<[string, Record<string, unknown>, string]> = [
        [
          'POST',
          { branch_name: 'master', content: 'x', commit_message: 'm' },
          '400 (Bad request) "file_path" not given',
        ],
        [
          'POST',
          { file_path: 'a', content: 'x', commit_message: 'm' },
          '400 (Bad request) "branch_name" not given',
        ],
        [
          'POST',
          { file_path: 'a', branch_name: 'master', commit_message: 'm' },
          '400 (Bad request) "content" not given',
        ],
        ['DELETE', { file_path: 'a', branch_name: 'master' }, '400 (Bad request) "commit_message" not given'],
        [
          'POST',
          { ...write, file_path: 'README.md' },
          'Your changes could not be committed because a file with the same name already exists',
        ],
        [
          'POST',
          { ...write, file_path: '../x' },
          'Your changes could not be committed, because the file name cannot include directory traversal.',
        ],
        [
          'POST',
          { ...write, file_path: 'a b' },
          "Your changes could not be committed, because the file name can contain only letters, digits, '_', '-', '@' and '.'. Separate directories with a '/'.",
        ],
        ['POST', { ...write, file_path: '.git/config' }, 'Invalid path'],
        [
          'POST',
          { ...write, file_path: 'README.md/inside' },
          'Your changes could not be committed, because `README.md` is a file',
        ],
        ['PUT', { ...write, file_path: 'docs' }, 'A directory with this name already exists'],
        [
          'POST',
          { ...write, file_path: 'new', branch_name: 'nothing' },
          'You can only create or edit files when you are on a branch',
        ],
        [
          'DELETE',
          { file_path: 'missing.txt', branch_name: 'master', commit_message: 'm' },
          "A file with this name doesn't exist",
        ],
        [
          'POST',
          { ...write, file_path: 'x', branch_name: 'release/1' },
          'You are not allowed to push into this branch',
        ],
      ];
      const before = await refSha('refs/heads/master');
      for (const [method, body, message] of cases) {
        const response = await call(method, '/files', body);
        assert.equal(response.status, 400, `${method} ${JSON.stringify(body)}: ${response.text}`);
        assert.deepEqual(response.body, { message }, `${method} ${JSON.stringify(body)}`);
      }
      assert.equal(await refSha('refs/heads/master'), before, 'nothing was committed');
      assert.equal((await call('POST', '/files', { ...write, file_path: 'r' }, reporter.token)).status, 403);
    });

    it('commits into an empty project: masters start the default branch (then protected), developers may not', async () => {
      const empty = await createProject(t, { owner, path: 'blank' });
      await addProjectMember(t, empty.id, developer.id, AccessLevel.Developer);
      const url = `/api/v3/projects/${empty.id}/repository/files`;
      const body = {
        file_path: 'README.md',
        branch_name: 'main',
        content: '# blank\n',
        commit_message: 'Start',
      };
      const refused = await t.request('POST', url, { token: developer.token, body });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body, { message: 'You are not allowed to push into this branch' });
      const started = await t.request('POST', url, { token: owner.token, body });
      assert.equal(started.status, 201, started.text);
      const shown = await t.request('GET', `/api/v3/projects/${empty.id}`, { token: owner.token });
      assert.equal(shown.body.default_branch, 'main');
      const branch = await t.request('GET', `/api/v3/projects/${empty.id}/repository/branches/main`, {
        token: owner.token,
      });
      assert.equal(branch.body.protected, true);
    });
  });

  it('runs CI for an API write as for a push: the commit shows its pipeline’s status', async () => {
    const created = await call('POST', '/commits', {
      branch_name: 'topic/one',
      commit_message: 'Add CI',
      actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'test:\n  script: make test\n' }],
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, 'pending');
    assert.equal((await call('GET', `/commits/${created.body.id}`)).body.status, 'pending');
    const pipelines = await t.server.deps.db.kysely
      .selectFrom('ci_pipelines')
      .select(['sha', 'ref', 'user_id'])
      .where('project_id', '=', project.id)
      .execute();
    assert.deepEqual(pipelines, [{ sha: created.body.id, ref: 'topic/one', user_id: developer.id }]);
  });

  describe('POST …/commits', () => {
    it('commits several actions at once and answers the commit (201 RepoCommitDetail)', async () => {
      const response = await call('POST', '/commits', {
        branch_name: 'feature',
        commit_message: 'Several changes',
        actions: [
          { action: 'create', file_path: '/lib/new.rb', content: 'new\n' },
          {
            action: 'update',
            file_path: 'README.md',
            content: Buffer.from('updated\n').toString('base64'),
            encoding: 'base64',
          },
          { action: 'delete', file_path: 'feature.txt' },
          { action: 'move', file_path: 'run.sh', previous_path: 'script.sh' },
          {
            action: 'move',
            file_path: 'docs/renamed.md',
            previous_path: 'docs/manual.md',
            content: 'renamed\n',
          },
        ],
      });
      assert.equal(response.status, 201, response.text);
      assert.deepEqual(Object.keys(response.body), [
        'id',
        'short_id',
        'title',
        'author_name',
        'author_email',
        'created_at',
        'message',
        'parent_ids',
        'committed_date',
        'authored_date',
        'stats',
        'status',
      ]);
      assert.equal(response.body.title, 'Several changes');
      assert.deepEqual(response.body.parent_ids, [sample.feature]);
      assert.equal(response.body.author_name, 'wdev Name');
      assert.equal(await refSha('refs/heads/feature'), response.body.id);

      const dir = await clone('actions', 'feature');
      assert.equal(fs.readFileSync(path.join(dir, 'lib/new.rb'), 'utf8'), 'new\n');
      assert.equal(fs.readFileSync(path.join(dir, 'README.md'), 'utf8'), 'updated\n');
      assert.equal(fs.existsSync(path.join(dir, 'feature.txt')), false);
      assert.equal(fs.existsSync(path.join(dir, 'script.sh')), false);
      assert.equal(fs.readFileSync(path.join(dir, 'run.sh'), 'utf8'), 'echo hi\n');
      assert.ok(fs.statSync(path.join(dir, 'run.sh')).mode & 0o100, 'a move keeps the mode');
      assert.equal(fs.readFileSync(path.join(dir, 'docs/renamed.md'), 'utf8'), 'renamed\n');
      assert.equal(fs.existsSync(path.join(dir, 'docs/manual.md')), false);
      await client.ok(['fsck', '--strict'], dir);
    });

    it('refuses invalid actions with GitLab’s messages, committing nothing', async () => {
      const before = await refSha('refs/heads/feature');
      const cases: Array<[Record<string, unknown>, number, unknown]> = [
        [{}, 400, { error: 'branch_name is missing, commit_message is missing, actions is missing' }],
        [{ branch_name: 'feature', commit_message: 'm', actions: 'x' }, 400, { error: 'actions is invalid' }],
        [
          { branch_name: 'feature', commit_message: 'm', actions: [{ action: 'copy', file_path: 'a' }] },
          400,
          { message: 'Unknown action type `copy`.' },
        ],
        [
          { branch_name: 'feature', commit_message: 'm', actions: [{ action: 'create' }] },
          400,
          { message: 'You must specify a file_path.' },
        ],
        [
          {
            branch_name: 'feature',
            commit_message: 'm',
            actions: [{ action: 'create', file_path: 'README.md' }],
          },
          400,
          {
            message:
              'Your changes could not be committed because a file with the name `README.md` already exists.',
          },
        ],
        [
          { branch_name: 'feature', commit_message: 'm', actions: [{ action: 'update', file_path: 'nope' }] },
          400,
          { message: 'File to be updated `nope` does not exist.' },
        ],
        [
          { branch_name: 'feature', commit_message: 'm', actions: [{ action: 'delete', file_path: 'nope' }] },
          400,
          { message: 'File to be deleted `nope` does not exist.' },
        ],
        [
          { branch_name: 'feature', commit_message: 'm', actions: [{ action: 'move', file_path: 'b' }] },
          400,
          { message: 'You must supply the original file path when moving file `b`.' },
        ],
        [
          {
            branch_name: 'feature',
            commit_message: 'm',
            actions: [{ action: 'move', file_path: 'README.md', previous_path: 'run.sh' }],
          },
          400,
          { message: 'Move destination `README.md` already exists.' },
        ],
        [
          {
            branch_name: 'feature',
            commit_message: 'm',
            actions: [{ action: 'create', file_path: 'a/../b' }],
          },
          400,
          {
            message:
              'Your changes could not be committed, because the file name, `a/../b` cannot include directory traversal.',
          },
        ],
        [
          { branch_name: 'feature', commit_message: 'm', actions: [{ action: 'create', file_path: 'a*b' }] },
          400,
          {
            message:
              "Your changes could not be committed, because the file name, `a*b` can contain only letters, digits, '_', '-', '@' and '.'. Separate directories with a '/'.",
          },
        ],
        [
          { branch_name: 'nothing', commit_message: 'm', actions: [{ action: 'create', file_path: 'a' }] },
          400,
          { message: 'You can only create or edit files when you are on a branch' },
        ],
      ];
      for (const [body, status, answer] of cases) {
        const response = await call('POST', '/commits', body);
        assert.equal(response.status, status, JSON.stringify(body));
        assert.deepEqual(response.body, answer, JSON.stringify(body));
      }
      assert.equal(await refSha('refs/heads/feature'), before);
      const empty = await createProject(t, { owner, path: 'blank-actions' });
      const none = await t.request('POST', `/api/v3/projects/${empty.id}/repository/commits`, {
        token: owner.token,
        body: { branch_name: 'master', commit_message: 'm', actions: [{ action: 'update', file_path: 'a' }] },
      });
      assert.deepEqual(none.body, { message: 'No files to update.' });
    });
  });
});
