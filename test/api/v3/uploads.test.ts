import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';
import { WebClient } from '../../helpers/web.ts';

function multipart(parts: Array<{ name: string; filename?: string; type?: string; data: Buffer | string }>) {
  const boundary = `----labrador${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const type = part.filename ? `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('uploads', () => {
  let t: TestApp;
  let owner: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let project: TestProject;

  before(async () => {
    t = await startTestApp({ LABRADOR_UPLOAD_MAX_BYTES: '1000' });
    owner = await createUser(t, 'owner');
    guest = await createUser(t, 'guest');
    outsider = await createUser(t, 'outsider');
    project = await createProject(t, { owner, path: 'docs', visibility: 0 });
    await t.request('POST', `/api/v3/projects/${project.id}/members`, {
      token: owner.token,
      body: { user_id: guest.id, access_level: 10 },
    });
  });
  after(() => t.close());

  async function upload(
    token: string | undefined,
    parts: Parameters<typeof multipart>[0],
    id: number | string = project.id,
  ) {
    const { payload, contentType } = multipart(parts);
    const headers: Record<string, string> = { 'content-type': contentType };
    if (token) headers['private-token'] = token;
    const response = await t.server.app.inject({
      method: 'POST',
      url: `/api/v3/projects/${id}/uploads`,
      headers,
      payload,
    });
    return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : null };
  }

  it('stores an image under a fresh secret and answers an image link; serves it inline', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const response = await upload(guest.token, [
      { name: 'note', data: 'ignored' },
      { name: 'file', filename: 'dk.png', type: 'image/png', data: png },
    ]);
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body), ['alt', 'url', 'markdown']);
    const match = /^\/uploads\/([0-9a-f]{32})\/dk\.png$/.exec(response.body.url);
    assert.ok(match, response.body.url);
    assert.equal(response.body.alt, 'dk');
    assert.equal(response.body.markdown, `![dk](${response.body.url})`);
    const onDisk = path.join(t.config.dataDir, 'uploads', 'owner', 'docs', match[1], 'dk.png');
    assert.deepEqual(fs.readFileSync(onDisk), png);

    const served = await t.server.app.inject({
      method: 'GET',
      url: `/owner/docs${response.body.url}`,
      headers: { 'private-token': owner.token },
    });
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.match(String(served.headers['content-disposition']), /^inline; filename="dk.png"/);
    assert.deepEqual(served.rawPayload, png);
    const byParam = await t.server.app.inject({
      method: 'GET',
      url: `/owner/docs${response.body.url}?private_token=${guest.token}`,
    });
    assert.equal(byParam.statusCode, 200);
    // The project is private: no token or an outsider's token finds nothing.
    assert.equal(
      (await t.server.app.inject({ method: 'GET', url: `/owner/docs${response.body.url}` })).statusCode,
      404,
    );
    const outsiderGet = await t.server.app.inject({
      method: 'GET',
      url: `/owner/docs${response.body.url}`,
      headers: { 'private-token': outsider.token },
    });
    assert.equal(outsiderGet.statusCode, 404);
    assert.deepEqual(JSON.parse(outsiderGet.body), { message: '404 Project Not Found' });
    // A member signed in on the pages sees the image in the project's issues; an outsider's session not.
    const member = new WebClient(t);
    await member.signIn(guest.username, guest.password);
    assert.equal((await member.get(`/owner/docs${response.body.url}`)).status, 200);
    const stranger = new WebClient(t);
    await stranger.signIn(outsider.username, outsider.password);
    assert.equal((await stranger.get(`/owner/docs${response.body.url}`)).status, 404);
    const wrongSecret = await t.server.app.inject({
      method: 'GET',
      url: `/owner/docs/uploads/${'0'.repeat(32)}/dk.png`,
      headers: { 'private-token': owner.token },
    });
    assert.equal(wrongSecret.statusCode, 404);
  });

  it('links other files plainly, escapes ] and neutralizes names that try to leave the folder', async () => {
    const text = await upload(owner.token, [
      { name: 'file', filename: 'notes [v2].txt', type: 'text/plain', data: 'hello' },
    ]);
    assert.equal(text.status, 201);
    assert.equal(text.body.alt, 'notes__v2_.txt'.replace('__v2_', '_[v2]'));
    assert.match(
      text.body.markdown,
      /^\[notes_\[v2\\\]\.txt\]\(\/uploads\/[0-9a-f]{32}\/notes_\[v2\]\.txt\)$/,
    );
    const served = await t.server.app.inject({
      method: 'GET',
      url: `/owner/docs${encodeURI(text.body.url)}`,
      headers: { 'private-token': owner.token },
    });
    assert.equal(served.statusCode, 200);
    assert.equal(served.body, 'hello');
    assert.match(String(served.headers['content-type']), /^text\/plain/);
    assert.match(String(served.headers['content-disposition']), /^attachment;/);

    const evil = await upload(owner.token, [
      { name: 'file', filename: '../../../../etc/evil.sh', data: 'x' },
    ]);
    assert.equal(evil.status, 201);
    assert.match(evil.body.url, /^\/uploads\/[0-9a-f]{32}\/evil\.sh$/);
    // A name that is nothing but a way up is no name at all.
    const dotted = await upload(owner.token, [{ name: 'file', filename: '..', data: 'x' }]);
    assert.equal(dotted.status, 400);
    const hidden = await upload(owner.token, [{ name: 'file', filename: 'a/.../b c;.sh', data: 'x' }]);
    assert.match(hidden.body.url, /^\/uploads\/[0-9a-f]{32}\/b_c_\.sh$/);
    const windows = await upload(owner.token, [{ name: 'file', filename: '..\\..\\boot.ini', data: 'x' }]);
    assert.match(windows.body.url, /\/boot\.ini$/);
    const root = path.join(t.config.dataDir, 'uploads', 'owner', 'docs');
    for (const secret of fs.readdirSync(root)) {
      assert.match(secret, /^[0-9a-f]{32}$/);
      for (const name of fs.readdirSync(path.join(root, secret))) assert.ok(!name.includes('/'));
    }
    assert.ok(!fs.existsSync(path.join(t.config.dataDir, 'etc')));
    const traversal = await t.server.app.inject({
      method: 'GET',
      url: `/owner/docs/uploads/${'a'.repeat(32)}/..%2F..%2F..%2Flabrador.sqlite3`,
      headers: { 'private-token': owner.token },
    });
    assert.equal(traversal.statusCode, 404);
  });

  it('answers 400 without a file, 413 over the limit (keeping nothing), 404 for hidden projects', async () => {
    assert.deepEqual((await upload(owner.token, [{ name: 'other', data: 'x' }])).body, {
      message: '400 (Bad request) "file" not given',
    });
    const json = await t.request('POST', `/api/v3/projects/${project.id}/uploads`, {
      token: owner.token,
      body: { file: 'not a file' },
    });
    assert.equal(json.status, 400);
    assert.deepEqual(json.body, { message: '400 (Bad request) "file" not given' });
    const root = path.join(t.config.dataDir, 'uploads', 'owner', 'docs');
    const before = fs.readdirSync(root).length;
    const big = await upload(owner.token, [
      { name: 'file', filename: 'big.bin', data: Buffer.alloc(5000, 1) },
    ]);
    assert.equal(big.status, 413);
    assert.match(big.body.message, /^413 Request Entity Too Large/);
    assert.equal(fs.readdirSync(root).length, before);
    const exact = await upload(owner.token, [
      { name: 'file', filename: 'fits.bin', data: Buffer.alloc(1000, 1) },
    ]);
    assert.equal(exact.status, 201);
    assert.deepEqual((await upload(outsider.token, [{ name: 'file', filename: 'a.txt', data: 'x' }])).body, {
      message: '404 Project Not Found',
    });
    assert.equal((await upload(undefined, [{ name: 'file', filename: 'a.txt', data: 'x' }])).status, 401);
    const byPath = await upload(
      owner.token,
      [{ name: 'file', filename: 'a.txt', data: 'x' }],
      'owner%2Fdocs',
    );
    assert.equal(byPath.status, 201);
  });
});
