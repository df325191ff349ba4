// v4's deploy keys: DeployKeysProject (fingerprint_sha256, can_push false) for a project's keys, add
// (201), retitle, enable on another project, remove (204), the administrators' list; the refusals.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
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

const PROJECT_KEY_FIELDS = [
  'id',
  'title',
  'created_at',
  'expires_at',
  'key',
  'fingerprint',
  'fingerprint_sha256',
  'can_push',
];

describe('API v4 deploy keys', () => {
  let t: TestApp;
  let master: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let admin: TestUser;
  let project: TestProject;
  let second: TestProject;
  let keyId: number;
  let text: string;

  const keysOf = (p: TestProject) => `/api/v4/projects/${p.id}/deploy_keys`;

  before(async () => {
    t = await startTestApp();
    master = await createUser(t, 'dkmaster');
    developer = await createUser(t, 'dkdev');
    stranger = await createUser(t, 'dkstranger');
    admin = await createUser(t, 'dkadmin', { admin: true });
    project = await createProject(t, { owner: master, path: 'deployed' });
    second = await createProject(t, { owner: master, path: 'second' });
    await addProjectMember(t, project.id, developer.id, 30);
    text = freshPublicKey('deploy');
  });
  after(() => t.close());

  it('adds a key (201) in the DeployKeysProject shape, with the SHA256 fingerprint', async () => {
    const created = await t.request('POST', keysOf(project), {
      token: master.token,
      body: { title: 'CI', key: text, can_push: false },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), PROJECT_KEY_FIELDS);
    keyId = created.body.id;
    assert.equal(created.body.title, 'CI');
    assert.equal(created.body.key, text);
    assert.equal(created.body.expires_at, null);
    assert.equal(created.body.can_push, false);
    assert.match(created.body.fingerprint, /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    const blob = Buffer.from(text.split(' ')[1], 'base64');
    const sha = crypto.createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
    assert.equal(created.body.fingerprint_sha256, `SHA256:${sha}`);

    const list = await t.request('GET', keysOf(project), { token: master.token });
    assert.equal(list.status, 200);
    assert.equal(list.headers['x-total'], '1');
    assert.deepEqual(list.body, [created.body]);
    const one = await t.request('GET', `${keysOf(project)}/${keyId}`, { token: master.token });
    assert.deepEqual(one.body, created.body);
  });

  it('refuses a missing key, a writable key, developers (403), strangers (404)', async () => {
    const missing = await t.request('POST', keysOf(project), { token: master.token, body: { title: 'x' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'key is missing' });
    const writable = await t.request('POST', keysOf(project), {
      token: master.token,
      body: { title: 'w', key: freshPublicKey('w'), can_push: true },
    });
    assert.equal(writable.status, 400);
    assert.deepEqual(writable.body, { error: 'can_push does not have a valid value' });
    const byDeveloper = await t.request('GET', keysOf(project), { token: developer.token });
    assert.equal(byDeveloper.status, 403);
    const hidden = await t.request('GET', keysOf(project), { token: stranger.token });
    assert.equal(hidden.status, 404);
    const none = await t.request('GET', `${keysOf(project)}/999999`, { token: master.token });
    assert.equal(none.status, 404);
    assert.deepEqual(none.body, { message: '404 Deploy Key Not Found' });
    const list = await t.request('GET', keysOf(project), { token: master.token });
    assert.equal(list.body.length, 1);
  });

  it('retitles a key with PUT; a blank title is a validation error', async () => {
    const renamed = await t.request('PUT', `${keysOf(project)}/${keyId}`, {
      token: master.token,
      body: { title: 'Deployer' },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.title, 'Deployer');
    const blank = await t.request('PUT', `${keysOf(project)}/${keyId}`, {
      token: master.token,
      body: { title: ' ' },
    });
    assert.equal(blank.status, 400);
    assert.deepEqual(blank.body, { message: { title: ["can't be blank"] } });
    const elsewhere = await t.request('PUT', `${keysOf(second)}/${keyId}`, {
      token: master.token,
      body: { title: 'x' },
    });
    assert.equal(elsewhere.status, 404);
  });

  it('enables the key on another project (201) and lists every key for administrators only', async () => {
    const enabled = await t.request('POST', `${keysOf(second)}/${keyId}/enable`, { token: master.token });
    assert.equal(enabled.status, 201);
    assert.equal(enabled.body.id, keyId);
    assert.equal(enabled.body.title, 'Deployer');
    const all = await t.request('GET', '/api/v4/deploy_keys', { token: admin.token });
    assert.equal(all.status, 200);
    assert.equal(all.headers['x-total'], '1');
    assert.deepEqual(Object.keys(all.body[0]), PROJECT_KEY_FIELDS.slice(0, -1));
    const notAdmin = await t.request('GET', '/api/v4/deploy_keys', { token: master.token });
    assert.equal(notAdmin.status, 403);
  });

  it('removes the key from one project with 204; it stays on the other', async () => {
    const deleted = await t.request('DELETE', `${keysOf(project)}/${keyId}`, {
      token: master.token,
      body: {},
    });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    const again = await t.request('DELETE', `${keysOf(project)}/${keyId}`, { token: master.token });
    assert.equal(again.status, 404);
    assert.deepEqual((await t.request('GET', keysOf(project), { token: master.token })).body, []);
    const other = await t.request('GET', keysOf(second), { token: master.token });
    assert.deepEqual(
      other.body.map((key: any) => key.id),
      [keyId],
    );
  });
});
