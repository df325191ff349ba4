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
import { freshPublicKey } from '../../helpers/ssh.ts';

const KEY_FIELDS = ['id', 'title', 'key', 'created_at'];

const freshKey = (comment = 'deploy') => freshPublicKey(comment);

describe('deploy keys API', () => {
  let t: TestApp;
  let master: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let outsider: TestUser;
  let project: TestProject;
  let second: TestProject;
  let publicProject: TestProject;
  let foreign: TestProject;

  before(async () => {
    t = await startTestApp();
    master = await createUser(t, 'dkmaster');
    developer = await createUser(t, 'dkdev');
    stranger = await createUser(t, 'dkstranger');
    outsider = await createUser(t, 'dkoutsider');
    project = await createProject(t, { owner: master, path: 'deployed' });
    second = await createProject(t, { owner: master, path: 'second' });
    publicProject = await createProject(t, { owner: master, path: 'open', visibility: 20 });
    foreign = await createProject(t, { owner: outsider, path: 'foreign' });
    await addProjectMember(t, project.id, developer.id, 30);
  });
  after(() => t.close());

  const keysOf = (p: TestProject, spelling = 'keys') => `/api/v3/projects/${p.id}/${spelling}`;

  it('adds a key and reads it back under both spellings', async () => {
    const text = freshKey();
    const created = await t.request('POST', keysOf(project), {
      token: master.token,
      body: { title: 'CI', key: `  ${text}\n` },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), KEY_FIELDS);
    assert.equal(created.body.title, 'CI');
    assert.equal(created.body.key, text);
    for (const spelling of ['keys', 'deploy_keys']) {
      const list = await t.request('GET', keysOf(project, spelling), { token: master.token });
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.map((k: { id: number }) => k.id),
        [created.body.id],
      );
      const one = await t.request('GET', `${keysOf(project, spelling)}/${created.body.id}`, {
        token: master.token,
      });
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, created.body);
    }
    const missing = await t.request('GET', `${keysOf(project)}/999999`, { token: master.token });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Not found' });
    const invalid = await t.request('GET', `${keysOf(project)}/abc`, { token: master.token });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.body, { error: 'key_id is invalid' });
  });

  it('shares a key already used on another of the caller’s projects (same row)', async () => {
    const text = freshKey('first comment');
    const first = await t.request('POST', keysOf(project), {
      token: master.token,
      body: { title: 'A', key: text },
    });
    assert.equal(first.status, 201);
    // Another comment is still the same key.
    const again = text.replace('first comment', 'other comment');
    const shared = await t.request('POST', keysOf(second, 'deploy_keys'), {
      token: master.token,
      body: { title: 'B', key: again },
    });
    assert.equal(shared.status, 201);
    assert.equal(shared.body.id, first.body.id);
    assert.equal(shared.body.title, 'A');
    // Adding it to the same project twice keeps one entry.
    const twice = await t.request('POST', keysOf(second), {
      token: master.token,
      body: { title: 'B', key: text },
    });
    assert.equal(twice.status, 201);
    const list = await t.request('GET', keysOf(second), { token: master.token });
    assert.equal(list.body.filter((k: { id: number }) => k.id === first.body.id).length, 1);
  });

  it('refuses a personal key, a key of a project the caller cannot reach, and invalid keys', async () => {
    const personal = freshKey('mine');
    const own = await t.request('POST', '/api/v3/user/keys', {
      token: master.token,
      body: { title: 'laptop', key: personal },
    });
    assert.equal(own.status, 201);
    const asDeploy = await t.request('POST', keysOf(project), {
      token: master.token,
      body: { title: 'x', key: personal },
    });
    assert.equal(asDeploy.status, 400);
    assert.deepEqual(asDeploy.body, { message: { fingerprint: ['has already been taken'] } });

    const theirs = freshKey('theirs');
    const added = await t.request('POST', keysOf(foreign), {
      token: outsider.token,
      body: { title: 't', key: theirs },
    });
    assert.equal(added.status, 201);
    const taken = await t.request('POST', keysOf(project), {
      token: master.token,
      body: { title: 't', key: theirs },
    });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body, { message: { fingerprint: ['has already been taken'] } });
    // And a deploy key cannot become someone's personal key.
    const personalTaken = await t.request('POST', '/api/v3/user/keys', {
      token: master.token,
      body: { title: 't', key: theirs },
    });
    assert.equal(personalTaken.status, 400);

    const blank = await t.request('POST', keysOf(project), { token: master.token, body: {} });
    assert.equal(blank.status, 400);
    assert.deepEqual(blank.body.message.title, ["can't be blank"]);
    assert.ok(blank.body.message.key.includes("can't be blank"));
    const garbage = await t.request('POST', keysOf(project), {
      token: master.token,
      body: { title: 'g', key: 'ssh-rsa not-a-key' },
    });
    assert.equal(garbage.status, 400);
    assert.deepEqual(garbage.body.message.fingerprint, ['cannot be generated']);
  });

  it('enables a key from another project of the caller, and disables it', async () => {
    const text = freshKey('enable');
    const created = await t.request('POST', keysOf(project), {
      token: master.token,
      body: { title: 'E', key: text },
    });
    const id = created.body.id;
    const enabled = await t.request('POST', `${keysOf(publicProject, 'deploy_keys')}/${id}/enable`, {
      token: master.token,
    });
    assert.equal(enabled.status, 201);
    assert.deepEqual(enabled.body, created.body);
    const listed = await t.request('GET', keysOf(publicProject), { token: master.token });
    assert.ok(listed.body.some((k: { id: number }) => k.id === id));

    // The outsider masters their own project but is no member where the key lives.
    const notTheirs = await t.request('POST', `${keysOf(foreign)}/${id}/enable`, { token: outsider.token });
    assert.equal(notTheirs.status, 404);
    assert.deepEqual(notTheirs.body, { message: '404 Deploy Key Not Found' });
    const unknown = await t.request('POST', `${keysOf(project)}/999999/enable`, { token: master.token });
    assert.equal(unknown.status, 404);

    const disabled = await t.request('DELETE', `${keysOf(publicProject, 'deploy_keys')}/${id}/disable`, {
      token: master.token,
    });
    assert.equal(disabled.status, 200);
    assert.deepEqual(disabled.body, created.body);
    const twice = await t.request('DELETE', `${keysOf(publicProject)}/${id}/disable`, {
      token: master.token,
    });
    assert.equal(twice.status, 404);
    assert.deepEqual(twice.body, { message: '404 Deploy Key Not Found' });
    // Still enabled where it was first added.
    const still = await t.request('GET', `${keysOf(project)}/${id}`, { token: master.token });
    assert.equal(still.status, 200);
  });

  it('deletes a key from one project; the last project takes the key with it', async () => {
    const text = freshKey('delete');
    const created = await t.request('POST', keysOf(project), {
      token: master.token,
      body: { title: 'D', key: text },
    });
    const id = created.body.id;
    await t.request('POST', keysOf(second), { token: master.token, body: { title: 'D', key: text } });
    const deleted = await t.request('DELETE', `${keysOf(project)}/${id}`, { token: master.token });
    assert.equal(deleted.status, 200);
    assert.deepEqual(Object.keys(deleted.body), [
      'id',
      'user_id',
      'created_at',
      'updated_at',
      'key',
      'title',
      'type',
      'fingerprint',
      'public',
    ]);
    assert.equal(deleted.body.type, 'DeployKey');
    assert.equal(deleted.body.user_id, null);
    assert.equal(deleted.body.public, false);
    const gone = await t.request('DELETE', `${keysOf(project)}/${id}`, { token: master.token });
    assert.equal(gone.status, 404);
    const kept = await t.request('GET', `${keysOf(second)}/${id}`, { token: master.token });
    assert.equal(kept.status, 200);

    await t.request('DELETE', `${keysOf(second, 'deploy_keys')}/${id}`, { token: master.token });
    const all = await t.request('GET', '/api/v3/deploy_keys', { token: t.rootToken });
    assert.ok(!all.body.some((k: { id: number }) => k.id === id));
    // Freed: the same key can now be someone's personal key.
    const personal = await t.request('POST', '/api/v3/user/keys', {
      token: master.token,
      body: { title: 'now mine', key: text },
    });
    assert.equal(personal.status, 201);
  });

  it('lets administrators list every deploy key, and nobody else', async () => {
    const all = await t.request('GET', '/api/v3/deploy_keys', { token: t.rootToken });
    assert.equal(all.status, 200);
    assert.ok(all.body.length >= 2);
    for (const key of all.body) assert.deepEqual(Object.keys(key), KEY_FIELDS);
    const ids = all.body.map((k: { id: number }) => k.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => a - b),
    );
    const mine = await t.request('GET', '/api/v3/deploy_keys', { token: master.token });
    assert.equal(mine.status, 403);
    const anonymous = await t.request('GET', '/api/v3/deploy_keys');
    assert.equal(anonymous.status, 401);
    // GET /keys/:id shows a deploy key with no owner.
    const one = await t.request('GET', `/api/v3/keys/${ids[0]}`, { token: t.rootToken });
    assert.equal(one.status, 200);
    assert.equal(one.body.user, null);
  });

  it('is for masters: developers 403, strangers 404 on private and 403 on public projects', async () => {
    const body = { title: 'x', key: freshKey() };
    const asDeveloper = await t.request('POST', keysOf(project), { token: developer.token, body });
    assert.equal(asDeveloper.status, 403);
    const listDeveloper = await t.request('GET', keysOf(project), { token: developer.token });
    assert.equal(listDeveloper.status, 403);
    const hidden = await t.request('GET', keysOf(project), { token: stranger.token });
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    const hiddenPost = await t.request('POST', keysOf(project, 'deploy_keys'), {
      token: stranger.token,
      body,
    });
    assert.equal(hiddenPost.status, 404);
    const readable = await t.request('GET', keysOf(publicProject), { token: stranger.token });
    assert.equal(readable.status, 403);
    const anonymous = await t.request('GET', keysOf(publicProject));
    assert.equal(anonymous.status, 401);
    const admin = await t.request('GET', keysOf(project), { token: t.rootToken });
    assert.equal(admin.status, 200);
  });
});
