// Concurrent writes to one branch never lose a commit: every write that was acknowledged is in the
// branch's history, and every loser got GitLab's error and left nothing behind (API vs API, API vs
// `git push`, and a write whose branch moved between its read and its ref update).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { AccessLevel } from '../../src/domain/types.ts';
import { findProjectRecordById } from '../../src/db/repositories/projects.ts';
import { projectAccess } from '../../src/policies/access.ts';
import { updateRefAsPush } from '../../src/services/push/ref-updates.ts';

const LOST = { message: 'Could not update branch master. Please refresh and try again.' };

describe('concurrent writes to one branch', () => {
  let t: TestApp;
  let http: string;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let project: TestProject;

  const history = async () =>
    (await client.ok(['--git-dir', project.repoPath, 'rev-list', 'refs/heads/master'])).trim().split('\n');
  const tree = async () =>
    (await client.ok(['--git-dir', project.repoPath, 'ls-tree', '-r', '--name-only', 'refs/heads/master']))
      .trim()
      .split('\n');
  const createFile = (name: string) =>
    t.request('POST', `/api/v3/projects/${project.id}/repository/files`, {
      token: developer.token,
      body: { file_path: name, branch_name: 'master', content: `${name}\n`, commit_message: `Add ${name}` },
    });

  before(async () => {
    t = await startTestApp();
    http = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'cowner');
    developer = await createUser(t, 'cdev');
    project = await createProject(t, { owner, path: 'contended' });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    const work = await client.workTree('contended-seed', ['seed']);
    await client.ok(
      ['push', '-q', repoUrl(http, project.fullPath, owner.username, owner.password), 'master'],
      work,
    );
    // The first push protected master; let developers push to it, so they and the API race on it.
    await t.request('PUT', `/api/v3/projects/${project.id}/repository/branches/master/protect`, {
      token: owner.token,
      body: { developers_can_push: true },
    });
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('API against API: each write either lands or gets GitLab’s error, and nothing acknowledged is lost', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `api-${i}.txt`);
    const before = (await history()).length;
    const answers = await Promise.all(names.map(createFile));
    const landed = names.filter((_, i) => answers[i].status === 201);
    const lost = names.filter((_, i) => answers[i].status !== 201);
    for (const i of answers.keys()) {
      if (answers[i].status !== 201) assert.deepEqual([answers[i].status, answers[i].body], [400, LOST]);
    }
    assert.ok(landed.length >= 1);
    const files = await tree();
    for (const name of landed) assert.ok(files.includes(name), `${name} was acknowledged`);
    for (const name of lost) assert.ok(!files.includes(name), `${name} was refused`);
    assert.equal((await history()).length, before + landed.length, 'one commit per acknowledged write');
    const pending = await t.server.deps.db.kysely
      .selectFrom('pushes')
      .select('id')
      .where('status', '=', 'pending')
      .execute();
    assert.deepEqual(pending, [], 'every recorded push was processed, also the lost ones');
  });

  it('API against git push: whoever moves the branch first wins, the other is refused, no commit is lost', async () => {
    const url = repoUrl(http, project.fullPath, developer.username, developer.password);
    const work = path.join(client.home, 'contended-push');
    await client.ok(['clone', '-q', url, work]);
    for (let round = 0; round < 3; round++) {
      await client.ok(['pull', '-q', '--ff-only'], work);
      const pushed = await client.commit(work, `push ${round}`);
      const [push, api] = await Promise.all([
        client.run(['push', url, 'master'], work),
        createFile(`race-${round}.txt`),
      ]);
      const commits = await history();
      if (push.code === 0) assert.ok(commits.includes(pushed), `round ${round}: the pushed commit is there`);
      else assert.match(push.stderr, /rejected|failed/, `round ${round}: ${push.stderr}`);
      const files = await tree();
      if (api.status === 201)
        assert.ok(files.includes(`race-${round}.txt`), `round ${round}: API write is there`);
      else {
        assert.deepEqual([api.status, api.body], [400, LOST]);
        assert.ok(!files.includes(`race-${round}.txt`));
      }
      assert.ok(push.code === 0 || api.status === 201, `round ${round}: someone won`);
      if (push.code !== 0) await client.ok(['reset', '-q', '--hard', 'HEAD~1'], work);
    }
  });

  it('a branch moved after the write read its tip: 400, the ref keeps the winner, no event for the loser', async () => {
    const db = t.server.deps.db.kysely;
    const record = (await findProjectRecordById(db, project.id))!;
    const pusher = { ...record, access: await projectAccess(db, developer, record), user: developer };
    const [tip, parent] = await history();
    const events = async () =>
      (await t.request('GET', `/api/v3/projects/${project.id}/events`, { token: owner.token })).body.length;
    const eventsBefore = await events();
    await assert.rejects(
      updateRefAsPush(
        t.server.deps,
        pusher,
        { before: parent, after: parent, ref: 'refs/heads/master' },
        LOST.message,
      ),
      (error: any) => error.status === 400 && error.body.message === LOST.message,
    );
    assert.equal((await history())[0], tip);
    assert.equal(await events(), eventsBefore);
  });
});
