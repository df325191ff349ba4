// POST /groups/:id/projects/:project_id: an administrator moves a project into a group; its repository
// follows on disk (also when a crash interrupts the move) and system hooks hear project_transfer.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createGroup, createProject, createUser, type TestUser } from '../../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../../helpers/git.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { repositoryPath } from '../../../src/git/repository.ts';
import { moveProjectToNamespace } from '../../../src/db/repositories/projects.ts';
import { journalRepositoryMove } from '../../../src/services/repository/repository-moves.ts';
import { Visibility } from '../../../src/domain/types.ts';

describe('project transfer', () => {
  let t: TestApp;
  let http: string;
  let client: GitClient;
  let receiver: Receiver;
  let owner: TestUser;
  let groupId: number;
  let privateGroupId: number;

  const transfer = (group: number | string, project: number | string, token = t.rootToken) =>
    t.request('POST', `/api/v3/groups/${group}/projects/${project}`, { token });
  const projectOf = async (id: number) =>
    (await t.request('GET', `/api/v3/projects/${id}`, { token: t.rootToken })).body;
  const delivered = async () => {
    await t.server.hookWorker.drain();
    return receiver.received.splice(0).map((delivery) => delivery.body);
  };

  before(async () => {
    t = await startTestApp();
    http = await listen(t);
    client = new GitClient();
    receiver = await startReceiver();
    assert.equal(
      (await t.request('POST', '/api/v3/hooks', { token: t.rootToken, body: { url: receiver.url } })).status,
      201,
    );
    owner = await createUser(t, 'mover');
    groupId = await createGroup(t, 'destination');
    privateGroupId = await createGroup(t, 'hideout', Visibility.Private);
  });
  after(async () => {
    client.close();
    await receiver.close();
    await t.close();
  });

  it('moves the project and its repository into the group, and announces project_transfer', async () => {
    const project = await createProject(t, {
      owner,
      path: 'travelling',
      commit: true,
      visibility: Visibility.Public,
    });
    const wiki = repositoryPath(t.config.dataDir, 'mover', 'travelling.wiki');
    fs.mkdirSync(wiki, { recursive: true });
    fs.writeFileSync(path.join(wiki, 'HEAD'), 'ref: refs/heads/master\n');
    await delivered();

    const response = await transfer(groupId, project.id);
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.id, groupId);
    assert.equal(response.body.path, 'destination');

    const moved = await projectOf(project.id);
    assert.equal(moved.path_with_namespace, 'destination/travelling');
    assert.equal(moved.visibility_level, Visibility.Public);
    assert.equal(fs.existsSync(project.repoPath), false);
    assert.ok(fs.existsSync(repositoryPath(t.config.dataDir, 'destination', 'travelling')));
    assert.ok(
      fs.existsSync(path.join(repositoryPath(t.config.dataDir, 'destination', 'travelling.wiki'), 'HEAD')),
    );
    const dir = path.join(client.home, 'transferred');
    await client.ok([
      'clone',
      '-q',
      repoUrl(http, 'destination/travelling', owner.username, owner.password),
      dir,
    ]);
    assert.ok(fs.existsSync(path.join(dir, 'README.md')));

    const [event, ...rest] = await delivered();
    assert.deepEqual(rest, []);
    assert.equal(event.event_name, 'project_transfer');
    assert.equal(event.path_with_namespace, 'destination/travelling');
    assert.equal(event.old_path_with_namespace, 'mover/travelling');
    assert.equal(event.project_id, project.id);
  });

  it('caps the visibility at the group’s', async () => {
    const project = await createProject(t, { owner, path: 'exposed', visibility: Visibility.Public });
    assert.equal((await transfer(privateGroupId, project.id)).status, 201);
    assert.equal((await projectOf(project.id)).visibility_level, Visibility.Private);
  });

  it('answers GitLab’s refusals and changes nothing', async () => {
    const project = await createProject(t, { owner, path: 'stay' });
    const invalid = { message: 'Failed to transfer project {:new_namespace=>["is invalid"]}' };
    assert.equal((await transfer(groupId, project.id, owner.token)).status, 403);
    assert.deepEqual((await transfer(groupId, 999999)).body, { message: '404 Not found' });
    assert.deepEqual((await transfer(groupId, 'mover%2Fstay')).body, { message: '404 Not found' });
    assert.deepEqual((await transfer(999999, project.id)).body, invalid);
    assert.deepEqual((await transfer('destination', project.id)).body, invalid, 'groups by id only');
    const into = await createProject(t, { owner, path: 'stay', namespace: 'destination' });
    const taken = await transfer(groupId, project.id);
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body, {
      message:
        'Failed to transfer project {:new_namespace=>["Project with same path in target namespace already exists"]}',
    });
    assert.deepEqual((await transfer(groupId, into.id)).body, invalid, 'already in that namespace');

    const leftover = await createProject(t, { owner, path: 'leftover' });
    fs.mkdirSync(repositoryPath(t.config.dataDir, 'destination', 'leftover'), { recursive: true });
    fs.writeFileSync(path.join(repositoryPath(t.config.dataDir, 'destination', 'leftover'), 'HEAD'), 'x');
    assert.deepEqual((await transfer(groupId, leftover.id)).body, {
      message: 'Failed to transfer project {:new_namespace=>["Cannot move project"]}',
    });
    assert.equal((await projectOf(leftover.id)).path_with_namespace, 'mover/leftover');
    assert.ok(fs.existsSync(leftover.repoPath));
  });

  it('finishes at start-up a move that a crash left between the database and the disk', async () => {
    const project = await createProject(t, { owner, path: 'crashed', commit: true });
    const db = t.server.deps.db.kysely;
    // What the transfer commits before it renames anything, and then the process dies.
    await db.transaction().execute(async (trx) => {
      await moveProjectToNamespace(trx, project.id, project.namespace_id, { namespace_id: groupId });
      await journalRepositoryMove(
        trx,
        project.id,
        { namespacePath: 'mover', projectPath: 'crashed' },
        { namespacePath: 'destination', projectPath: 'crashed' },
        new Date().toISOString(),
      );
    });
    assert.ok(fs.existsSync(project.repoPath), 'still at the old place');
    await t.restart();
    assert.equal(fs.existsSync(project.repoPath), false);
    const moved = repositoryPath(t.config.dataDir, 'destination', 'crashed');
    assert.ok(fs.existsSync(path.join(moved, 'HEAD')));
    const commits = await t.request('GET', `/api/v3/projects/${project.id}/repository/commits`, {
      token: t.rootToken,
    });
    assert.equal(commits.body.length, 1);
    assert.deepEqual(await t.server.deps.db.kysely.selectFrom('repository_moves').selectAll().execute(), []);
    // Finishing again (another start-up) changes nothing.
    await t.restart();
    assert.ok(fs.existsSync(path.join(moved, 'HEAD')));
  });
});
