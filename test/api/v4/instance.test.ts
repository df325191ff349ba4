// What client suites probe about the instance besides settings: GET /avatar (public), GET
// /namespaces/:id/exists with its suggestion, and DELETE of a project and a group answering 202 and then
// 404 on the next read (GitLab 17 deletes asynchronously; Labrador has already deleted).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createGroup, createUser, type TestUser } from '../../helpers/factory.ts';

describe('API v4 avatar, namespace paths and deletions', () => {
  let t: TestApp;
  let user: TestUser;

  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'prober');
    await createGroup(t, 'taken');
    await createGroup(t, 'taken1');
  });
  after(() => t.close());

  it('answers the avatar of an address, known or not; 400 without an email or with a bad size', async () => {
    const hash = crypto.createHash('md5').update('someone@example.com').digest('hex');
    const avatar = await t.request('GET', '/api/v4/avatar?email=Someone@Example.com&size=32');
    assert.equal(avatar.status, 200);
    assert.deepEqual(avatar.body, { avatar_url: `http://www.gravatar.com/avatar/${hash}?s=32&d=identicon` });
    const known = await t.request('GET', `/api/v4/avatar?email=${encodeURIComponent(user.email)}`);
    const shown = await t.request('GET', `/api/v4/users/${user.id}`, { token: user.token });
    assert.equal(known.body.avatar_url, shown.body.avatar_url);
    const missing = await t.request('GET', '/api/v4/avatar');
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'email is missing' });
    assert.equal((await t.request('GET', '/api/v4/avatar?email=a@b.c&size=big')).status, 400);
  });

  it('tells whether a namespace path is taken (any case) and suggests a free one', async () => {
    const taken = await t.request('GET', '/api/v4/namespaces/TAKEN/exists', { token: user.token });
    assert.equal(taken.status, 200);
    assert.deepEqual(taken.body, { exists: true, suggests: ['TAKEN2'] });
    const personal = await t.request('GET', '/api/v4/namespaces/prober/exists', { token: user.token });
    assert.deepEqual(personal.body, { exists: true, suggests: ['prober1'] });
    const free = await t.request('GET', '/api/v4/namespaces/free-path/exists', { token: user.token });
    assert.deepEqual(free.body, { exists: false, suggests: [] });
    const underParent = await t.request('GET', '/api/v4/namespaces/taken/exists?parent_id=1', {
      token: user.token,
    });
    assert.deepEqual(underParent.body, { exists: false, suggests: [] });
    assert.equal((await t.request('GET', '/api/v4/namespaces/taken/exists')).status, 401);
  });

  it('deletes a project and a group with 202 Accepted; they are 404 from the next read on', async () => {
    const project = await t.request('POST', '/api/v4/projects', {
      token: user.token,
      body: { name: 'doomed' },
    });
    const deleted = await t.request('DELETE', `/api/v4/projects/${project.body.id}`, { token: user.token });
    assert.equal(deleted.status, 202);
    assert.deepEqual(deleted.body, { message: '202 Accepted' });
    const gone = await t.request('GET', `/api/v4/projects/${project.body.id}`, { token: user.token });
    assert.equal(gone.status, 404);
    const group = await t.request('POST', '/api/v4/groups', {
      token: user.token,
      body: { name: 'doomed', path: 'doomed-group' },
    });
    assert.equal(group.status, 201, group.text);
    const groupDeleted = await t.request('DELETE', `/api/v4/groups/${group.body.id}`, { token: user.token });
    assert.equal(groupDeleted.status, 202);
    assert.equal(
      (await t.request('GET', `/api/v4/groups/${group.body.id}`, { token: user.token })).status,
      404,
    );
  });
});
