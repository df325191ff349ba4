// The files behind uploaded avatars, as GitLab's CarrierWave kept them: a replaced avatar's old URL
// answers 404 and its file leaves the data dir; a blank `avatar` removes a project's or a group's, the
// profile page's "Remove avatar" the user's; and deleting the user, project or group (v3, v4, the
// settings page, a group's projects with it, a user's personal projects) takes its avatar files, while
// a refused delete keeps them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createGroup, createProject, createUser, type TestUser } from '../../helpers/factory.ts';
import { signedInClient } from '../../helpers/web.ts';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082',
  'hex',
);
// Another image's bytes (the extension is what is checked), so a replacement is told apart.
const OTHER = Buffer.concat([PNG, Buffer.from('second')]);

type Owner = 'user' | 'project' | 'group';

describe('avatar files', () => {
  let t: TestApp;
  let admin: TestUser;

  /** A multipart request with one `avatar` file (and fields), as python-gitlab and curl --form send. */
  const upload = async (
    method: 'PUT' | 'POST',
    url: string,
    user: TestUser,
    name: string,
    data: Buffer,
    fields: Record<string, string> = {},
  ) => {
    const boundary = '----labrador-avatar-files';
    const parts: Buffer[] = [];
    for (const [key, value] of Object.entries(fields))
      parts.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`),
      );
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="${name}"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    );
    const response = await t.server.app.inject({
      method,
      url,
      payload: Buffer.concat(parts),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'private-token': user.token,
      },
    });
    assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json() as { avatar_url: string | null; id: number };
  };
  // Anonymous: the projects and groups here are public.
  const served = (owner: Owner, id: number, name: string) =>
    t.server.app.inject({ method: 'GET', url: `/uploads/${owner}/avatar/${id}/${name}` });
  const file = (owner: Owner, id: number, name: string) =>
    path.join(t.server.deps.config.dataDir, 'avatars', owner, String(id), name);
  const folder = (owner: Owner, id: number) =>
    path.join(t.server.deps.config.dataDir, 'avatars', owner, String(id));
  /** The avatar is served with exactly these bytes and stored under its name. */
  const assertServed = async (owner: Owner, id: number, name: string, bytes: Buffer) => {
    const answer = await served(owner, id, name);
    assert.equal(answer.statusCode, 200, `${owner} ${id} ${name}`);
    assert.deepEqual(answer.rawPayload, bytes);
    assert.deepEqual(fs.readFileSync(file(owner, id, name)), bytes);
  };
  /** The avatar answers 404 and its file is gone from the data dir. */
  const assertGone = async (owner: Owner, id: number, name: string) => {
    assert.equal((await served(owner, id, name)).statusCode, 404, `${owner} ${id} ${name}`);
    assert.equal(fs.existsSync(file(owner, id, name)), false, `${owner} ${id} ${name} on disk`);
  };

  before(async () => {
    t = await startTestApp();
    admin = await createUser(t, 'keeper', { admin: true });
  });
  after(async () => t?.close());

  it('replaces a user’s avatar: the old URL 404s and its file goes, the new one serves', async () => {
    const user = await createUser(t, 'replaced');
    await upload('PUT', '/api/v4/user/avatar', user, 'first.png', PNG);
    await assertServed('user', user.id, 'first.png', PNG);
    // An administrator's PUT /users/:id with a new one.
    const put = await upload('PUT', `/api/v4/users/${user.id}`, admin, 'second.png', OTHER, { bio: 'x' });
    assert.match(put.avatar_url!, /\/uploads\/user\/avatar\/\d+\/second\.png$/);
    await assertGone('user', user.id, 'first.png');
    await assertServed('user', user.id, 'second.png', OTHER);
    // The same name again: replaced in place, still served, nothing else left beside it.
    await upload('PUT', '/api/v4/user/avatar', user, 'second.png', PNG);
    await assertServed('user', user.id, 'second.png', PNG);
    assert.deepEqual(fs.readdirSync(folder('user', user.id)), ['second.png']);
    // On the profile page.
    const web = await signedInClient(t, user);
    await web.get('/profile');
    const boundary = '----labrador-profile';
    const form = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = Buffer.concat([
      Buffer.from(
        form('authenticity_token', web.csrf) +
          form('user[name]', user.name) +
          form('user[email]', user.email) +
          `--${boundary}\r\nContent-Disposition: form-data; name="user[avatar]"; filename="page.gif"\r\n\r\n`,
      ),
      OTHER,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const posted = await t.server.app.inject({
      method: 'POST',
      url: '/profile',
      payload,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    assert.equal(posted.statusCode, 302, posted.body);
    await assertGone('user', user.id, 'second.png');
    await assertServed('user', user.id, 'page.gif', OTHER);
    // "Remove avatar" on the profile page (8.13's DELETE /profile/avatar): the Gravatar is back.
    const page = await web.get('/profile');
    assert.match(page.text, /<form method="post" action="\/profile\/avatar\/delete">/);
    const removed = await web.post('/profile/avatar/delete');
    assert.equal(removed.status, 302);
    assert.equal(removed.headers.location, '/profile?done=avatar_removed');
    await assertGone('user', user.id, 'page.gif');
    const me = await t.request('GET', '/api/v4/user', { token: user.token });
    assert.match(me.body.avatar_url, /^http:\/\/www\.gravatar\.com\/avatar\//);
    const after = await web.get('/profile?done=avatar_removed');
    assert.match(after.text, /The avatar was removed\./);
    assert.doesNotMatch(after.text, /\/profile\/avatar\/delete/);
  });

  it('a write that fails keeps the avatar the row names, and leaves nothing of the new one', async () => {
    const user = await createUser(t, 'unlucky');
    await upload('PUT', '/api/v4/user/avatar', user, 'kept.png', PNG);
    // A folder where the new file would go: its rename in fails.
    fs.mkdirSync(path.join(file('user', user.id, 'blocked.png'), 'inside'), { recursive: true });
    const boundary = '----labrador-blocked';
    const failed = await t.server.app.inject({
      method: 'PUT',
      url: '/api/v4/user/avatar',
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="blocked.png"\r\n\r\n`,
        ),
        OTHER,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'private-token': user.token },
    });
    assert.equal(failed.statusCode, 500, failed.body);
    const me = await t.request('GET', '/api/v4/user', { token: user.token });
    assert.match(me.body.avatar_url, /\/uploads\/user\/avatar\/\d+\/kept\.png$/);
    await assertServed('user', user.id, 'kept.png', PNG);
    assert.deepEqual(fs.readdirSync(folder('user', user.id)).sort(), ['blocked.png', 'kept.png']);
    assert.deepEqual(fs.readdirSync(file('user', user.id, 'blocked.png')), ['inside']);
  });

  it('deletes a user’s avatar and their personal projects’ with them (v4 and v3); a refused delete keeps it', async () => {
    const soft = await createUser(t, 'softly');
    await upload('PUT', '/api/v4/user/avatar', soft, 'face.png', PNG);
    const own = await createProject(t, { owner: soft, path: 'own', visibility: 20 });
    await upload('PUT', `/api/v4/projects/${own.id}`, soft, 'logo.png', OTHER);
    await assertServed('user', soft.id, 'face.png', PNG);
    await assertServed('project', own.id, 'logo.png', OTHER);
    const deleted = await t.request('DELETE', `/api/v4/users/${soft.id}`, { token: admin.token });
    assert.equal(deleted.status, 204);
    await assertGone('user', soft.id, 'face.png');
    await assertGone('project', own.id, 'logo.png');
    assert.equal(fs.existsSync(folder('user', soft.id)), false);
    assert.equal(fs.existsSync(folder('project', own.id)), false);

    const hard = await createUser(t, 'hardly');
    await upload('PUT', '/api/v4/user/avatar', hard, 'face.png', PNG);
    const v3 = await t.request('DELETE', `/api/v3/users/${hard.id}`, { token: admin.token });
    assert.equal(v3.status, 200, v3.text);
    await assertGone('user', hard.id, 'face.png');

    // The ghost user (made by the soft delete above) cannot be deleted: its avatar stays.
    const ghosts = await t.request('GET', '/api/v4/users?username=ghost', { token: admin.token });
    assert.equal(ghosts.body.length, 1);
    const ghost = ghosts.body[0].id as number;
    await upload('PUT', `/api/v4/users/${ghost}`, admin, 'boo.png', PNG);
    const refused = await t.request('DELETE', `/api/v4/users/${ghost}`, { token: admin.token });
    assert.equal(refused.status, 403);
    await assertServed('user', ghost, 'boo.png', PNG);
  });

  it('replaces and removes a project’s avatar (a blank `avatar`), and deletes it with the project', async () => {
    const owner = await createUser(t, 'maker');
    const project = await createProject(t, { owner, path: 'logo', visibility: 20 });
    await upload('PUT', `/api/v4/projects/${project.id}`, owner, 'a.png', PNG);
    await assertServed('project', project.id, 'a.png', PNG);
    const replaced = await upload('PUT', `/api/v4/projects/${project.id}`, owner, 'b.jpg', OTHER);
    assert.match(replaced.avatar_url!, /\/uploads\/project\/avatar\/\d+\/b\.jpg$/);
    await assertGone('project', project.id, 'a.png');
    await assertServed('project', project.id, 'b.jpg', OTHER);

    // GitLab 15.4: `avatar=` as a form field removes it; so does JSON's "" (python-gitlab's save()).
    const removed = await t.request('PUT', `/api/v4/projects/${project.id}`, {
      token: owner.token,
      form: { avatar: '' },
    });
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body.avatar_url, null);
    await assertGone('project', project.id, 'b.jpg');
    await upload('PUT', `/api/v4/projects/${project.id}`, owner, 'c.png', PNG);
    const json = await t.request('PUT', `/api/v4/projects/${project.id}`, {
      token: owner.token,
      body: { avatar: '', description: 'plain' },
    });
    assert.equal(json.status, 200, json.text);
    assert.equal(json.body.avatar_url, null);
    assert.equal(json.body.description, 'plain');
    await assertGone('project', project.id, 'c.png');
    const again = await t.request('GET', `/api/v3/projects/${project.id}`, { token: owner.token });
    assert.equal(again.body.avatar_url, null);
    // Removing none is no error.
    const none = await t.request('PUT', `/api/v4/projects/${project.id}`, {
      token: owner.token,
      form: { avatar: '' },
    });
    assert.equal(none.status, 200, none.text);

    // Deleted through v4, v3 and the settings page: each takes its avatar file.
    await upload('PUT', `/api/v4/projects/${project.id}`, owner, 'last.png', PNG);
    await assertServed('project', project.id, 'last.png', PNG);
    const v4 = await t.request('DELETE', `/api/v4/projects/${project.id}`, { token: owner.token });
    assert.equal(v4.status, 202);
    await assertGone('project', project.id, 'last.png');
    assert.equal(fs.existsSync(folder('project', project.id)), false);

    const second = await createProject(t, { owner, path: 'second', visibility: 20 });
    await upload('PUT', `/api/v4/projects/${second.id}`, owner, 'two.png', PNG);
    const v3 = await t.request('DELETE', `/api/v3/projects/${second.id}`, { token: owner.token });
    assert.equal(v3.status, 200, v3.text);
    await assertGone('project', second.id, 'two.png');

    const third = await createProject(t, { owner, path: 'third', visibility: 20 });
    await upload('PUT', `/api/v4/projects/${third.id}`, owner, 'three.png', PNG);
    const web = await signedInClient(t, owner);
    await web.get(`/${third.fullPath}/edit`);
    // A mistyped path refuses the delete and keeps the file.
    assert.equal((await web.post(`/${third.fullPath}/delete`, { confirm_path: 'nope' })).status, 422);
    await assertServed('project', third.id, 'three.png', PNG);
    assert.equal((await web.post(`/${third.fullPath}/delete`, { confirm_path: 'third' })).status, 302);
    await assertGone('project', third.id, 'three.png');
  });

  it('replaces and removes a group’s avatar, and deletes it and its projects’ with the group (v4, v3)', async () => {
    for (const version of ['v4', 'v3']) {
      const groupId = await createGroup(t, `crew-${version}`);
      await upload('PUT', `/api/v4/groups/${groupId}`, admin, 'g1.png', PNG);
      await assertServed('group', groupId, 'g1.png', PNG);
      const replaced = await upload('PUT', `/api/v4/groups/${groupId}`, admin, 'g2.png', OTHER);
      assert.match(replaced.avatar_url!, /\/uploads\/group\/avatar\/\d+\/g2\.png$/);
      await assertGone('group', groupId, 'g1.png');
      await assertServed('group', groupId, 'g2.png', OTHER);
      const project = await createProject(t, {
        owner: admin,
        namespace: `crew-${version}`,
        path: 'inside',
        visibility: 20,
      });
      await upload('PUT', `/api/v4/projects/${project.id}`, admin, 'p.png', PNG);
      await assertServed('project', project.id, 'p.png', PNG);

      const deleted = await t.request('DELETE', `/api/${version}/groups/${groupId}`, { token: admin.token });
      assert.equal(deleted.status, version === 'v4' ? 202 : 200, deleted.text);
      await assertGone('group', groupId, 'g2.png');
      assert.equal(fs.existsSync(folder('group', groupId)), false);
      await assertGone('project', project.id, 'p.png');
      assert.equal(fs.existsSync(folder('project', project.id)), false);
    }

    const groupId = await createGroup(t, 'blank-crew');
    await upload('PUT', `/api/v4/groups/${groupId}`, admin, 'g.png', PNG);
    const removed = await t.request('PUT', `/api/v4/groups/${groupId}`, {
      token: admin.token,
      form: { avatar: '' },
    });
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body.avatar_url, null);
    await assertGone('group', groupId, 'g.png');
    const read = await t.request('GET', `/api/v4/groups/${groupId}`, { token: admin.token });
    assert.equal(read.body.avatar_url, null);
  });
});
