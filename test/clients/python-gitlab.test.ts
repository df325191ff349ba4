// Debian's python-gitlab 3.12 (`python3-gitlab`, run with Debian's /usr/bin/python3) against a listening
// Labrador: each case runs one scenario of python_gitlab_client.py and asserts what the client saw. The
// client parses only `Content-Type: application/json`, sends some POST parameters in the query string,
// follows the Link header's `next` URL and raises GitlabError subclasses with the response's status.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startClientApp, type ClientApp } from './client-app.ts';
import { PYTHON, pythonGitlabSkip } from './python-gitlab-client.ts';

const SCRIPT = path.join(import.meta.dirname, 'python_gitlab_client.py');

describe('python-gitlab 3.12', { skip: pythonGitlabSkip }, () => {
  let app: ClientApp;

  before(async () => {
    app = await startClientApp();
  });
  after(() => app.t.close());

  async function run(scenario: string, token = app.t.rootToken): Promise<any> {
    const { stdout, stderr } = await promisify(execFile)(PYTHON, [SCRIPT, scenario], {
      env: { PATH: process.env.PATH, GITLAB_URL: app.url, GITLAB_TOKEN: token },
    });
    assert.equal(stderr, '', `${scenario} wrote to stderr`);
    return JSON.parse(stdout);
  }

  it('reads the version (GET /version, parsed as exactly application/json)', async () => {
    const seen = await run('version');
    assert.equal(seen.client, '3.12.0');
    assert.equal(seen.version.length, 2);
    assert.match(seen.version[0], /^\d+\.\d+\.\d+$/);
    assert.equal(seen.version[1], 'labrador');
  });

  it('signs in: gl.auth() reads GET /user into gl.user', async () => {
    assert.deepEqual(await run('auth'), { username: 'root', id: 1, is_admin: true });
  });

  it('creates, gets, lists and searches users; a missing one is GitlabGetError 404', async () => {
    const seen = await run('users');
    assert.equal(seen.made.username, 'pyuser');
    assert.equal(seen.made.name, 'Py User');
    assert.deepEqual(seen.got, { id: seen.made.id, username: 'pyuser', state: 'active' });
    assert.deepEqual([...seen.listed].sort(), ['pyuser', 'root']);
    assert.deepEqual(seen.searched, ['pyuser']);
    assert.deepEqual(seen.missing, { raised: 'GitlabGetError', status: 404, message: '404 User Not Found' });
  });

  it('creates a group, gets it by path, adds a member (409 the second time), deletes it', async () => {
    const seen = await run('groups');
    assert.deepEqual(seen.made, {
      id: seen.made.id,
      path: 'py-group',
      full_path: 'py-group',
      visibility: seen.made.visibility,
    });
    assert.equal(seen.got_id, seen.made.id);
    assert.deepEqual(seen.listed, ['py-group']);
    assert.deepEqual(seen.member, { username: 'pygm', access_level: 30 });
    assert.equal(seen.member_again.raised, 'GitlabCreateError');
    assert.equal(seen.member_again.status, 409);
    assert.deepEqual(seen.members, ['pygm', 'root']);
    assert.deepEqual(seen.after_delete, {
      raised: 'GitlabGetError',
      status: 404,
      message: '404 Group Not Found',
    });
  });

  it('makes a personal access token for a user, signs in with it, is refused a write, revokes it', async () => {
    const seen = await run('tokens');
    assert.equal(seen.name, 'py');
    assert.deepEqual(seen.scopes, ['read_api']);
    assert.equal(seen.token_prefix, 'glpat-');
    assert.deepEqual(seen.listed, ['py']);
    assert.deepEqual(seen.self, { name: 'py', active: true, revoked: false });
    assert.deepEqual(seen.write_refused, {
      raised: 'GitlabCreateError',
      status: 403,
      message: 'insufficient_scope',
    });
    assert.deepEqual(seen.after_revoke, {
      raised: 'GitlabAuthenticationError',
      status: 401,
      message: '401 Unauthorized',
    });
  });

  it('creates, gets by id and by URL-encoded path, edits, lists and deletes a project', async () => {
    const seen = await run('projects');
    assert.deepEqual(seen.made, {
      path_with_namespace: 'root/py-project',
      visibility: 'internal',
      default_branch: seen.made.default_branch,
    });
    assert.equal(typeof seen.by_path_id, 'number');
    assert.equal(seen.description, 'two');
    assert.deepEqual(seen.owned, ['root/py-project']);
    assert.deepEqual(seen.after_delete, {
      raised: 'GitlabGetError',
      status: 404,
      message: '404 Project Not Found',
    });
  });

  it('walks every page by the Link headers: iterator=True and get_all=True', async () => {
    const seen = await run('pagination');
    const all = ['page-0', 'page-1', 'page-2', 'page-3', 'page-4'];
    assert.deepEqual(seen.walked, all);
    assert.equal(seen.total, 5);
    assert.equal(seen.total_pages, 3);
    assert.deepEqual(seen.everything, all);
    assert.deepEqual(seen.first, ['page-0', 'page-1']);
  });

  it('commits a first file on main (the default branch then), actions, branches, tags, protection', async () => {
    const seen = await run('repository');
    assert.equal(seen.default_branch, 'main');
    assert.deepEqual(seen.commit, { title: 'Two actions', message: 'Two actions' });
    assert.equal(seen.readme, 'hello again\n');
    assert.deepEqual(seen.branch, { name: 'feature', commit_id: seen.head });
    assert.deepEqual(seen.branches, ['feature', 'main']);
    assert.deepEqual(seen.tag, { name: 'v1.0', target: seen.head });
    assert.deepEqual(seen.protected, { name: 'feature', push: [40] });
    assert.deepEqual(seen.protected_again, {
      raised: 'GitlabCreateError',
      status: 409,
      message: "Protected branch 'main' already exists",
    });
    assert.deepEqual(seen.protected_list, ['feature', 'main']);
  });

  it('sends create() keyword arguments in the query string: projects and users take them', async () => {
    const seen = await run('query_kwargs');
    assert.deepEqual(seen.project, { visibility: 'public', description: 'from the query' });
    assert.deepEqual(seen.raw, { path: 'py-raw', topics: ['py', 'kw'] });
    assert.deepEqual(seen.user, { username: 'pykw', projects_limit: 3 });
  });

  it('reads and saves settings, statistics, topics, deploy tokens; /license is 404; hard deletes', async () => {
    const seen = await run('instance');
    assert.deepEqual(seen.default_branch, { before: 'main', after: 'trunk' });
    assert.match(seen.users, /^\d+$/);
    assert.ok(seen.topics.includes('py-topic'));
    assert.equal(seen.topic_title, 'Py Topic');
    assert.deepEqual(seen.project_topics, ['py-topic']);
    assert.equal(seen.project_default_branch, 'main');
    assert.equal(seen.token.prefix, 'gldt-');
    assert.match(seen.token.username, /^gitlab\+deploy-token-\d+$/);
    assert.deepEqual(seen.token.listed, ['py-token']);
    assert.ok(seen.token.every.includes('py-token'));
    assert.deepEqual(seen.after_token_delete, []);
    assert.equal(seen.license.raised, 'GitlabHttpError');
    assert.equal(seen.license.status, 404);
    assert.equal(seen.deleted_user.status, 404);
  });

  it('creates, edits, closes and lists an issue; opens, edits, lists, reads and merges an MR', async () => {
    const seen = await run('issues_merge_requests');
    assert.deepEqual(seen.issue, {
      iid: 1,
      state: 'closed',
      description: 'Found by python',
      labels: ['bug'],
    });
    assert.deepEqual(seen.issues, ['Py bug']);
    assert.equal(seen.mr.iid, 1);
    assert.deepEqual(seen.listed, ['Py fix']);
    assert.deepEqual(seen.changes, ['fix.txt']);
    assert.deepEqual(seen.commits, ['Fix']);
    assert.deepEqual(seen.merged, { state: 'merged', merged_by: 'root', description: 'Fixes the bug' });
    assert.ok(seen.mine.includes('Py fix'));
    assert.deepEqual(seen.again, {
      raised: 'GitlabMRClosedError',
      status: 405,
      message: '405 Method Not Allowed',
    });
  });

  it('raises the refusals with their statuses: 401 for a bad token, 404 for what is not there', async () => {
    const seen = await run('refusals');
    assert.deepEqual(seen.bad_token, {
      raised: 'GitlabAuthenticationError',
      status: 401,
      message: '401 Unauthorized',
    });
    assert.equal(seen.missing_project.raised, 'GitlabGetError');
    assert.equal(seen.missing_project.status, 404);
    assert.equal(seen.unknown_path.raised, 'GitlabHttpError');
    assert.equal(seen.unknown_path.status, 404);
    assert.equal(seen.unknown_path.message, '404 Not Found');
  });
});
