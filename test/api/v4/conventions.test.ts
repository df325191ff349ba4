// What every /api/v4 route shares: the exact JSON content type, GitLab's JSON 404 for any unknown path
// or method (never a page, never the pages' CSRF refusal), the caller required as in v3.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';

/** A multipart/form-data body as fetch's FormData writes it (gitbeaker's way), files named after their field. */
async function multipart(
  fields: Record<string, string>,
  files: Record<string, string> = {},
): Promise<{ type: string; bytes: Buffer }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, content] of Object.entries(files)) form.append(name, new Blob([content]), `${name}.bin`);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    type: String(request.headers.get('content-type')),
    bytes: Buffer.from(await request.arrayBuffer()),
  };
}

describe('API v4 conventions', () => {
  let t: TestApp;
  let user: TestUser;

  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'alice');
  });
  after(() => t.close());

  /** A request with a body of its own type, as the caller signed in. */
  function send(method: 'POST' | 'PUT' | 'DELETE', url: string, type: string, payload: string | Buffer) {
    return t.server.app.inject({
      method,
      url,
      headers: { 'private-token': user.token, 'content-type': type },
      payload,
    });
  }

  it('GET /version answers three dotted parts with exactly application/json', async () => {
    const response = await t.request('GET', '/api/v4/version', { token: user.token });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    assert.match(response.body.version, /^\d+\.\d+\.\d+$/);
    assert.equal(response.body.revision, 'labrador');
    assert.equal(response.body.enterprise, false);
    const metadata = await t.request('GET', '/api/v4/metadata', { token: user.token });
    assert.deepEqual(metadata.body, response.body);
  });

  it('asks for a caller: 401 without a token', async () => {
    const response = await t.request('GET', '/api/v4/version');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { message: '401 Unauthorized' });
    assert.equal(response.headers['content-type'], 'application/json');
  });

  it('answers an unknown path of any method with the JSON 404, signed in or not', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
      for (const token of [undefined, user.token]) {
        const response = await t.request(method, '/api/v4/no/such/thing', { token, body: {} });
        assert.equal(response.status, 404, `${method} ${token ? 'signed in' : 'anonymous'}`);
        assert.deepEqual(response.body, { error: '404 Not Found' });
        assert.equal(response.headers['content-type'], 'application/json');
      }
    }
  });

  it('answers the JSON 404 for anything under /api/ that no version serves, never a page', async () => {
    for (const url of ['/api', '/api/foo', '/api/v5/x', '/api/v5/projects/1', '/api/foo/bar.git/info/refs']) {
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH']) {
        const withBody = method !== 'GET' && method !== 'HEAD';
        const response = await t.request(method, url, { body: withBody ? {} : undefined });
        assert.equal(response.status, 404, `${method} ${url}`);
        assert.match(String(response.headers['content-type']), /^application\/json/, `${method} ${url}`);
        if (method !== 'HEAD')
          assert.deepEqual(response.body, { error: '404 Not Found' }, `${method} ${url}`);
      }
    }
    // A form POST there is not a page's: no CSRF refusal (it was a 422 HTML page).
    const form = await t.request('POST', '/api/foo', { form: { a: '1' } });
    assert.equal(form.status, 404);
    assert.deepEqual(form.body, { error: '404 Not Found' });
  });

  it('answers HEAD wherever GET answers: the same status and headers, no body', async () => {
    const get = await t.request('GET', '/api/v4/version', { token: user.token });
    const head = await t.request('HEAD', '/api/v4/version', { token: user.token });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers['content-type'], 'application/json');
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    const anonymous = await t.request('HEAD', '/api/v4/version');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.text, '');
  });

  it('reads multipart bodies (gitbeaker sends one with a file) and still answers the route', async () => {
    const body = await multipart({ name: 'x' }, { avatar: 'GIF89a' });
    const response = await send('PUT', '/api/v4/no/such/thing', body.type, body.bytes);
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { error: '404 Not Found' });
    const cutOff = '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end';
    const broken = await send('PUT', '/api/v4/version', 'multipart/form-data; boundary=zz', cutOff);
    // A cut-off body is read as far as it goes (never a 500): here no route takes a PUT.
    assert.equal(broken.statusCode, 404);
    assert.equal(broken.headers['content-type'], 'application/json');
  });

  it('refuses a body that is not JSON with a 400, in JSON', async () => {
    const response = await send('POST', '/api/v4/version', 'application/json', '{"name":');
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { error: 'Body is not valid JSON' });
    assert.equal(response.headers['content-type'], 'application/json');
  });

  it('leaves /api/v3 as it was: 8.13 version', async () => {
    const response = await t.request('GET', '/api/v3/version', { token: user.token });
    assert.deepEqual(response.body, { version: '8.13.0', revision: 'labrador' });
  });
});
