import assert from 'node:assert/strict';
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
import { AccessLevel, Visibility } from '../../../src/domain/types.ts';

const UNICODE = 'fonctionnalité/ブランチ';

describe('branches API', () => {
  let t: TestApp;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let first: string;
  let second: string;

  const branchUrl = (name: string, suffix = '') =>
    `/api/v3/projects/${project.id}/repository/branches/${encodeURIComponent(name)}${suffix}`;

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    owner = await createUser(t, 'brenda');
    developer = await createUser(t, 'devon');
    guest = await createUser(t, 'gina');
    stranger = await createUser(t, 'sam');
    project = await createProject(t, { owner, path: 'branchy' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    // Content goes straight into the bare repository: these tests are about the API, not the transport.
    const work = await client.workTree('branchy');
    first = await client.commit(work, 'first');
    const dated = {
      GIT_AUTHOR_DATE: '2015-12-24T16:51:14+01:00',
      GIT_COMMITTER_DATE: '2015-12-25T08:00:00-05:30',
      GIT_AUTHOR_NAME: 'Ada Lovelace',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
    };
    await client.ok(['commit', '-q', '--allow-empty', '-m', 'second\n\nwith a body'], work, dated);
    second = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    await client.ok(['branch', 'feature/one', first], work);
    await client.ok(['branch', UNICODE], work);
    await client.ok(['branch', 'alpha'], work);
    await client.ok(['push', '-q', project.repoPath, '--all'], work);
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('lists every branch sorted by name, unpaginated, in the RepoBranch shape', async () => {
    const response = await t.request('GET', `/api/v3/projects/${project.id}/repository/branches`, {
      token: developer.token,
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers['x-total'], undefined);
    assert.deepEqual(
      response.body.map((b: any) => b.name),
      ['alpha', 'feature/one', UNICODE, 'master'],
    );
    const master = response.body.find((b: any) => b.name === 'master');
    assert.deepEqual(Object.keys(master), [
      'name',
      'commit',
      'protected',
      'developers_can_push',
      'developers_can_merge',
    ]);
    assert.deepEqual(master.commit, {
      id: second,
      message: 'second\n\nwith a body\n',
      parent_ids: [first],
      authored_date: '2015-12-24T16:51:14.000+01:00',
      author_name: 'Ada Lovelace',
      author_email: 'ada@example.com',
      committed_date: '2015-12-25T08:00:00.000-05:30',
      committer_name: 'Test Author',
      committer_email: 'author@example.com',
    });
    assert.equal(master.protected, false);
  });

  it('shows one branch, with slashes and unicode URL-encoded, by full-path project id too', async () => {
    const slash = await t.request('GET', branchUrl('feature/one'), { token: developer.token });
    assert.equal(slash.status, 200);
    assert.equal(slash.body.name, 'feature/one');
    assert.equal(slash.body.commit.id, first);
    assert.deepEqual(slash.body.commit.parent_ids, []);

    const unicode = await t.request('GET', branchUrl(UNICODE), { token: developer.token });
    assert.equal(unicode.status, 200);
    assert.equal(unicode.body.name, UNICODE);

    const byPath = await t.request(
      'GET',
      `/api/v3/projects/${encodeURIComponent(project.fullPath)}/repository/branches/master`,
      { token: developer.token },
    );
    assert.equal(byPath.status, 200);
    assert.equal(byPath.body.name, 'master');
  });

  it('answers 404 Branch Not Found, 404 Project Not Found when hidden, 403 for guests', async () => {
    const missing = await t.request('GET', branchUrl('feature'), { token: developer.token });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Branch Not Found' });

    const hidden = await t.request('GET', `/api/v3/projects/${project.id}/repository/branches`, {
      token: stranger.token,
    });
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });

    const forGuest = await t.request('GET', `/api/v3/projects/${project.id}/repository/branches`, {
      token: guest.token,
    });
    assert.equal(forGuest.status, 403);
    assert.deepEqual(forGuest.body, { message: '403 Forbidden' });

    const anonymous = await t.request('GET', `/api/v3/projects/${project.id}/repository/branches`);
    assert.equal(anonymous.status, 401);
  });

  it('answers 404 Branch Not Found for names no branch could have, never 500, and protects nothing', async () => {
    const list = `/api/v3/projects/${project.id}/repository/branches`;
    const before = await t.request('GET', list, { token: owner.token });
    // Patterns to git, refused by check-ref-format, or past what a ref (and an argument) can hold.
    const names = ['*', 'ma?ter', 'master.lock', 'a..b', '.hidden', 'x@{1}', 'x'.repeat(200_000)];
    for (const name of names) {
      for (const suffix of ['', '/protect', '/unprotect']) {
        const method = suffix === '' ? 'GET' : 'PUT';
        const response = await t.request(method, branchUrl(name, suffix), { token: owner.token });
        assert.equal(response.status, 404, `${method} ${name.slice(0, 20)}${suffix}`);
        assert.deepEqual(response.body, { message: '404 Branch Not Found' });
      }
    }
    assert.deepEqual((await t.request('GET', list, { token: owner.token })).body, before.body);
  });

  it('lets anyone signed in read the branches of a public project', async () => {
    const open = await createProject(t, { owner, path: 'open-branches', visibility: Visibility.Public });
    const work = await client.workTree('open-branches', ['only']);
    await client.ok(['push', '-q', open.repoPath, 'master'], work);
    const response = await t.request('GET', `/api/v3/projects/${open.id}/repository/branches`, {
      token: stranger.token,
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 1);
  });

  it('protects and unprotects (masters only, idempotent), with to_boolean flags', async () => {
    const byDeveloper = await t.request('PUT', branchUrl('feature/one', '/protect'), {
      token: developer.token,
    });
    assert.equal(byDeveloper.status, 403);
    assert.deepEqual(byDeveloper.body, { message: '403 Forbidden' });

    // An explicit false on an unprotected branch: 8.13.0 answered 500, 8.13.1 protects it.
    const protect = await t.request('PUT', branchUrl('feature/one', '/protect'), {
      token: owner.token,
      form: { developers_can_push: 'false' },
    });
    assert.equal(protect.status, 200);
    assert.equal(protect.body.name, 'feature/one');
    assert.equal(protect.body.protected, true);
    assert.equal(protect.body.developers_can_push, false);
    assert.equal(protect.body.developers_can_merge, false);

    const flags = await t.request('PUT', branchUrl('feature/one', '/protect'), {
      token: owner.token,
      body: { developers_can_push: true, developers_can_merge: 'yes' },
    });
    assert.equal(flags.status, 200);
    assert.equal(flags.body.developers_can_push, true);
    assert.equal(flags.body.developers_can_merge, true);

    // A value that is not a boolean leaves the setting as it is.
    const untouched = await t.request('PUT', branchUrl('feature/one', '/protect'), {
      token: owner.token,
      form: { developers_can_push: 'foo' },
    });
    assert.equal(untouched.status, 200);
    assert.equal(untouched.body.developers_can_push, true);

    const shown = await t.request('GET', branchUrl('feature/one'), { token: developer.token });
    assert.equal(shown.body.protected, true);
    assert.equal(shown.body.developers_can_merge, true);

    const unprotect = await t.request('PUT', branchUrl('feature/one', '/unprotect'), { token: owner.token });
    assert.equal(unprotect.status, 200);
    assert.equal(unprotect.body.protected, false);
    assert.equal(unprotect.body.developers_can_push, false);
    const again = await t.request('PUT', branchUrl('feature/one', '/unprotect'), { token: owner.token });
    assert.equal(again.status, 200);
    assert.equal(again.body.protected, false);

    const unicode = await t.request('PUT', branchUrl(UNICODE, '/protect'), { token: owner.token });
    assert.equal(unicode.status, 200);
    assert.equal(unicode.body.name, UNICODE);
    assert.equal(unicode.body.protected, true);

    const missing = await t.request('PUT', branchUrl('nope', '/protect'), { token: owner.token });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Branch Not Found' });
  });

  it('drops the protection rules and pushes of a deleted project', async () => {
    const doomed = await createProject(t, { owner, path: 'doomed' });
    const work = await client.workTree('doomed', ['only']);
    await client.ok(['push', '-q', doomed.repoPath, 'master'], work);
    const protect = await t.request(
      'PUT',
      `/api/v3/projects/${doomed.id}/repository/branches/master/protect`,
      {
        token: owner.token,
      },
    );
    assert.equal(protect.status, 200);
    const db = t.server.deps.db.kysely;
    await db
      .insertInto('pushes')
      .values({
        project_id: doomed.id,
        user_id: owner.id,
        changes: '[]',
        status: 'processed',
        applied_changes: '[]',
        created_at: new Date().toISOString(),
        processed_at: null,
      })
      .execute();
    await db.deleteFrom('projects').where('id', '=', doomed.id).execute();
    const rules = await db
      .selectFrom('protected_branches')
      .select('id')
      .where('project_id', '=', doomed.id)
      .execute();
    const pushes = await db.selectFrom('pushes').select('id').where('project_id', '=', doomed.id).execute();
    assert.deepEqual([rules.length, pushes.length], [0, 0]);
  });
});
