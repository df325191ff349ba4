import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addMember,
  createProject,
  createUser,
  GitClient,
  listen,
  repoUrl,
  type TestProject,
  type TestUser,
} from '../helpers/git.ts';
import { AccessLevel, Visibility } from '../../src/domain/types.ts';

async function events(t: TestApp, projectId: number) {
  return t.server.deps.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute();
}

async function projectRow(t: TestApp, id: number) {
  return t.server.deps.db.kysely
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('git smart HTTP', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let master: TestUser;
  let developer: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let secret: TestProject;

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'alice');
    master = await createUser(t, 'mona');
    developer = await createUser(t, 'dave');
    reporter = await createUser(t, 'rita');
    guest = await createUser(t, 'gus');
    stranger = await createUser(t, 'stan');
    secret = await createProject(t, owner, 'secret');
    await addMember(t, secret, master, AccessLevel.Master);
    await addMember(t, secret, developer, AccessLevel.Developer);
    await addMember(t, secret, reporter, AccessLevel.Reporter);
    await addMember(t, secret, guest, AccessLevel.Guest);
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('clones an empty project, then the first push sets the default branch and records events', async () => {
    const url = repoUrl(base, secret.fullPath, owner.username, owner.password);
    const clone = await client.run(['clone', url, 'empty-clone']);
    assert.equal(clone.code, 0, clone.stderr);
    assert.match(clone.stderr, /empty repository/);

    const work = await client.workTree('first', ['one', 'two', 'three']);
    await client.ok(['checkout', '-q', '-b', 'develop'], work);
    await client.ok(['push', '-q', url, 'develop', 'master'], work);

    const project = await projectRow(t, secret.id);
    assert.equal(project.default_branch, 'master');
    const head = await client.ok(['--git-dir', secret.repoPath, 'symbolic-ref', 'HEAD']);
    assert.equal(head.trim(), 'refs/heads/master');

    const rows = await events(t, secret.id);
    assert.equal(rows.length, 2);
    const byRef = new Map(rows.map((row) => [JSON.parse(row.data!).ref, JSON.parse(row.data!)]));
    const pushed = byRef.get('refs/heads/master');
    assert.equal(pushed.before, '0000000000000000000000000000000000000000');
    assert.equal(pushed.total_commits_count, 3);
    assert.deepEqual(
      pushed.commits.map((c: any) => c.message),
      ['one\n', 'two\n', 'three\n'],
    );
    assert.equal(pushed.user_name, 'alice Name');
    assert.equal(pushed.repository.name, 'secret');
    assert.equal(pushed.commits[0].author.email, 'author@example.com');
    assert.match(pushed.commits[0].timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    assert.deepEqual(pushed.commits[0].added, ['one.txt']);
    assert.equal(rows[0].action, 5);

    const full = await client.run(['clone', url, 'full-clone']);
    assert.equal(full.code, 0, full.stderr);
    const log = await client.ok(['log', '--format=%s'], `${client.home}/full-clone`);
    assert.equal(log, 'three\ntwo\none\n');
  });
});
