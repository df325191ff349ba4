// Uploaded avatars over HTTP: PUT /user/avatar, PUT /users/:id, /projects/:id and /groups/:id with a
// multipart `avatar`, served at /uploads/<owner>/avatar/<id>/<name> (ETag, 304, hidden projects 404),
// named by avatar_url in v3's and v4's entities; refused (400) when not an image or over 200 KB. On the
// pages: the profile form uploads one; without one, an identicon is drawn.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { signedInClient } from '../../helpers/web.ts';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082',
  'hex',
);

function multipart(fields: Record<string, string>, files: Record<string, { name: string; data: Buffer }>) {
  const boundary = '----labrador-test-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  for (const [name, file] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('avatars', () => {
  let t: TestApp;
  let base: string;
  let owner: TestUser;
  let outsider: TestUser;
  let project: TestProject;
  let groupId = 0;

  const send = async (
    method: string,
    url: string,
    user: TestUser | null,
    files: Record<string, { name: string; data: Buffer }>,
    fields: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) => {
    const body = multipart(fields, files);
    const response = await t.server.app.inject({
      method: method as 'PUT',
      url,
      payload: body.payload,
      headers: {
        'content-type': body.contentType,
        ...(user ? { 'private-token': user.token } : {}),
        ...headers,
      },
    });
    return { status: response.statusCode, body: response.json() as any, text: response.body };
  };
  const get = (url: string, user?: TestUser, headers: Record<string, string> = {}) =>
    t.server.app.inject({
      method: 'GET',
      url,
      headers: { ...(user ? { 'private-token': user.token } : {}), ...headers },
    });

  before(async () => {
    t = await startTestApp();
    base = t.server.deps.config.externalUrl;
    owner = await createUser(t, 'owen', { admin: true });
    outsider = await createUser(t, 'outsider');
    project = await createProject(t, { owner, path: 'secret', visibility: 0 });
    groupId = await createGroup(t, 'crew');
  });
  after(async () => t?.close());

  it('sets the caller’s avatar (PUT /user/avatar), names it in v3 and v4, and serves it with an ETag', async () => {
    const put = await send('PUT', '/api/v4/user/avatar', outsider, { avatar: { name: 'me.png', data: PNG } });
    assert.equal(put.status, 200, put.text);
    const url = `${base}/uploads/user/avatar/${outsider.id}/me.png`;
    assert.deepEqual(put.body, { avatar_url: url });
    for (const version of ['v3', 'v4']) {
      const me = await t.request('GET', `/api/${version}/user`, { token: outsider.token });
      assert.equal(me.body.avatar_url, url, version);
    }
    const served = await get(`/uploads/user/avatar/${outsider.id}/me.png`);
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.deepEqual(served.rawPayload, PNG);
    assert.match(String(served.headers['cache-control']), /public, max-age=3600/);
    const again = await get(`/uploads/user/avatar/${outsider.id}/me.png`, undefined, {
      'if-none-match': String(served.headers.etag),
    });
    assert.equal(again.statusCode, 304);
    assert.equal((await get(`/uploads/user/avatar/${outsider.id}/other.png`)).statusCode, 404);
    // A new one replaces it: the old name is gone.
    await send('PUT', '/api/v4/user/avatar', outsider, { avatar: { name: 'new.gif', data: PNG } });
    assert.equal((await get(`/uploads/user/avatar/${outsider.id}/me.png`)).statusCode, 404);
    assert.equal((await get(`/uploads/user/avatar/${outsider.id}/new.gif`)).statusCode, 200);
    // Without one, the Gravatar stays (owner uploaded none).
    const other = await t.request('GET', `/api/v4/users/${owner.id}`, { token: outsider.token });
    assert.match(other.body.avatar_url, /^http:\/\/www\.gravatar\.com\/avatar\//);
  });

  it('refuses what is not an image, what is over 200 KB, and a missing file, changing nothing', async () => {
    const text = await send('PUT', '/api/v4/user/avatar', owner, {
      avatar: { name: 'a.txt', data: Buffer.from('hi') },
    });
    assert.equal(text.status, 400);
    assert.deepEqual(text.body, { message: { avatar: ['only images allowed'] } });
    const svg = await send('PUT', '/api/v4/user/avatar', owner, {
      avatar: { name: 'a.svg', data: Buffer.from('<svg/>') },
    });
    assert.equal(svg.status, 400);
    const big = await send('PUT', '/api/v4/user/avatar', owner, {
      avatar: { name: 'big.png', data: Buffer.alloc(200 * 1024 + 1, 1) },
    });
    assert.equal(big.status, 400);
    assert.deepEqual(big.body, { message: { avatar: ['is too big (should be at most 200 KB)'] } });
    const none = await send('PUT', '/api/v4/user/avatar', owner, {}, { name: 'x' });
    assert.equal(none.status, 400);
    assert.deepEqual(none.body, { error: 'avatar is missing' });
    // PUT /users/:id refuses before saving the rest.
    const refused = await send(
      'PUT',
      `/api/v4/users/${owner.id}`,
      owner,
      { avatar: { name: 'a.txt', data: PNG } },
      { bio: 'changed' },
    );
    assert.equal(refused.status, 400);
    const me = await t.request('GET', '/api/v4/user', { token: owner.token });
    assert.notEqual(me.body.bio, 'changed');
    assert.match(me.body.avatar_url, /gravatar/);
    // Exactly 200 KB is allowed (an administrator sets another user's).
    const edge = await send(
      'PUT',
      `/api/v4/users/${owner.id}`,
      owner,
      {
        avatar: { name: 'edge.png', data: Buffer.alloc(200 * 1024, 1) },
      },
      { bio: 'changed' },
    );
    assert.equal(edge.status, 200, edge.text);
    assert.equal(edge.body.bio, 'changed');
    assert.equal(edge.body.avatar_url, `${base}/uploads/user/avatar/${owner.id}/edge.png`);
  });

  it('sets a project’s and a group’s avatar; a hidden project’s answers 404', async () => {
    const put = await send('PUT', `/api/v4/projects/${project.id}`, owner, {
      avatar: { name: 'logo.png', data: PNG },
    });
    assert.equal(put.status, 200, put.text);
    const url = `${base}/uploads/project/avatar/${project.id}/logo.png`;
    assert.equal(put.body.avatar_url, url);
    const v3 = await t.request('GET', `/api/v3/projects/${project.id}`, { token: owner.token });
    assert.equal(v3.body.avatar_url, url);
    const path = `/uploads/project/avatar/${project.id}/logo.png`;
    // Pages read the session: a member's browser sees it, an outsider's and a visitor's do not.
    const member = await signedInClient(t, owner);
    const shown = await member.get(path);
    assert.equal(shown.status, 200);
    assert.match(String(shown.headers['cache-control']), /^private/);
    assert.equal((await (await signedInClient(t, outsider)).get(path)).status, 404);
    assert.equal((await get(path)).statusCode, 404);
    const refused = await send('PUT', `/api/v4/projects/${project.id}`, outsider, {
      avatar: { name: 'x.png', data: PNG },
    });
    assert.equal(refused.status, 404);

    const group = await send('PUT', `/api/v4/groups/${groupId}`, owner, {
      avatar: { name: 'crew.jpg', data: PNG },
    });
    assert.equal(group.status, 200, group.text);
    const groupUrl = `${base}/uploads/group/avatar/${groupId}/crew.jpg`;
    assert.equal(group.body.avatar_url, groupUrl);
    const v3Group = await t.request('GET', `/api/v3/groups/${groupId}`, { token: owner.token });
    assert.equal(v3Group.body.avatar_url, groupUrl);
    const served = await get(`/uploads/group/avatar/${groupId}/crew.jpg`);
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/jpeg');
  });

  it('creates a project and a group with a multipart avatar; a bad file creates nothing', async () => {
    const made = await send(
      'POST',
      '/api/v4/projects',
      outsider,
      { avatar: { name: 'new.png', data: PNG } },
      {
        name: 'with-logo',
      },
    );
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.avatar_url, `${base}/uploads/project/avatar/${made.body.id}/new.png`);
    const fetched = await t.request('GET', `/api/v4/projects/${made.body.id}`, { token: outsider.token });
    assert.equal(fetched.body.avatar_url, made.body.avatar_url);
    const bad = await send(
      'POST',
      '/api/v4/projects',
      outsider,
      { avatar: { name: 'a.txt', data: PNG } },
      {
        name: 'not-made',
      },
    );
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { message: { avatar: ['only images allowed'] } });
    const missing = await t.request('GET', `/api/v4/projects/${encodeURIComponent('outsider/not-made')}`, {
      token: outsider.token,
    });
    assert.equal(missing.status, 404);

    const group = await send(
      'POST',
      '/api/v4/groups',
      owner,
      { avatar: { name: 'g.gif', data: PNG } },
      {
        name: 'Logo crew',
        path: 'logo-crew',
      },
    );
    assert.equal(group.status, 201, group.text);
    assert.equal(group.body.avatar_url, `${base}/uploads/group/avatar/${group.body.id}/g.gif`);
    const big = await send(
      'POST',
      '/api/v4/groups',
      owner,
      { avatar: { name: 'big.png', data: Buffer.alloc(200 * 1024 + 1, 1) } },
      { name: 'Big crew', path: 'big-crew' },
    );
    assert.equal(big.status, 400);
    assert.equal((await t.request('GET', '/api/v4/groups/big-crew', { token: owner.token })).status, 404);
  });

  it('uploads an avatar on the profile page; without one the header draws an identicon', async () => {
    const alice = await createUser(t, 'alice');
    const web = await signedInClient(t, alice);
    const page = await web.get('/profile');
    assert.equal(page.status, 200);
    assert.match(page.text, /enctype="multipart\/form-data"/);
    assert.match(page.text, /<input type="file" name="user\[avatar\]"/);
    assert.match(
      page.text,
      new RegExp(`<span class="avatar identicon s24 bg${alice.id % 7}" aria-hidden="true">A</span>`),
    );
    const cookie = [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const post = async (file: { name: string; data: Buffer }) => {
      const body = multipart(
        {
          authenticity_token: web.csrf,
          'user[name]': 'Alice A',
          'user[email]': alice.email,
          'user[bio]': '',
        },
        { 'user[avatar]': file },
      );
      return t.server.app.inject({
        method: 'POST',
        url: '/profile',
        payload: body.payload,
        headers: { 'content-type': body.contentType, cookie },
      });
    };
    const refused = await post({ name: 'notes.txt', data: Buffer.from('x') });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /Avatar only images allowed/);
    const done = await post({ name: 'face.png', data: PNG });
    assert.equal(done.statusCode, 302, done.body);
    const after = await web.get('/profile');
    const src = `/uploads/user/avatar/${alice.id}/face.png`;
    assert.match(
      after.text,
      new RegExp(`<img class="avatar s24" src="${src}" alt="Alice A's avatar" width="24" height="24"/>`),
    );
    assert.match(after.text, new RegExp(`<img class="avatar s90" src="${src}"`));
    assert.equal((await web.get(src)).status, 200);

    // On an issue's page: alice's upload by the issue and her comment, an identicon by bob's comment.
    const bob = await createUser(t, 'bob');
    const open = await createProject(t, { owner: alice, path: 'open', visibility: 20 });
    const issue = await t.request('POST', `/api/v3/projects/${open.id}/issues`, {
      token: alice.token,
      body: { title: 'Faces' },
    });
    for (const user of [alice, bob])
      await t.request('POST', `/api/v3/projects/${open.id}/issues/${issue.body.id}/notes`, {
        token: user.token,
        body: { body: `From ${user.username}` },
      });
    const issuePage = await web.get(`/${open.fullPath}/issues/${issue.body.iid}`);
    assert.equal(issuePage.status, 200);
    const faces = issuePage.text.match(new RegExp(`<img class="avatar s24" src="${src}"`, 'g')) ?? [];
    assert.equal(faces.length, 3, 'header, issue author, comment');
    assert.match(
      issuePage.text,
      new RegExp(
        `<span class="avatar identicon s24 bg${bob.id % 7}" aria-hidden="true">B</span> <a href="/bob"`,
      ),
    );
    assert.doesNotMatch(issuePage.text, /gravatar/);
  });
});
