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

  describe('over the personal access token routes', () => {
    /** POST /user/personal_access_tokens with the parameters sent one way; answers the token's name and scopes. */
    async function made(response: { statusCode: number; json(): any }) {
      assert.equal(response.statusCode, 201);
      const body = response.json();
      return { name: body.name, scopes: body.scopes };
    }

    it('reads parameters alike from the query, JSON, form and multipart bodies', async () => {
      const url = '/api/v4/user/personal_access_tokens';
      const query = await send(
        'POST',
        `${url}?name=q&scopes[]=read_api&scopes[]=read_user`,
        'application/json',
        '',
      );
      assert.deepEqual(await made(query), { name: 'q', scopes: ['read_api', 'read_user'] });
      const json = await send(
        'POST',
        url,
        'application/json',
        JSON.stringify({ name: 'j', scopes: ['api'] }),
      );
      assert.deepEqual(await made(json), { name: 'j', scopes: ['api'] });
      const form = await send(
        'POST',
        url,
        'application/x-www-form-urlencoded',
        'name=f&scopes%5B%5D=read_user',
      );
      assert.deepEqual(await made(form), { name: 'f', scopes: ['read_user'] });
      const body = await multipart({ name: 'm', 'scopes[]': 'read_repository' });
      assert.deepEqual(await made(await send('POST', url, body.type, body.bytes)), {
        name: 'm',
        scopes: ['read_repository'],
      });
      // Some in the query, the rest in the body (python-gitlab's kwargs go to the query).
      const mixed = await send(
        'POST',
        `${url}?name=mixed`,
        'application/json',
        JSON.stringify({ scopes: ['api'] }),
      );
      assert.deepEqual(await made(mixed), { name: 'mixed', scopes: ['api'] });
    });

    it('answers a missing parameter as Grape: 400 {"error":"… is missing"}', async () => {
      const response = await send('POST', '/api/v4/user/personal_access_tokens', 'application/json', '{}');
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: 'name is missing, scopes is missing' });
    });

    it('reads booleans as true/false/1/0/True/False/yes/no, and refuses other words', async () => {
      const token = await t.request('POST', '/api/v4/user/personal_access_tokens', {
        token: user.token,
        body: { name: 'gone', scopes: ['api'] },
      });
      await t.request('DELETE', `/api/v4/personal_access_tokens/${token.body.id}`, {
        token: user.token,
        body: {},
      });
      const names = async (revoked: string) => {
        const response = await t.request('GET', `/api/v4/personal_access_tokens?revoked=${revoked}`, {
          token: user.token,
        });
        assert.equal(response.status, 200, revoked);
        return response.body.map((item: { name: string }) => item.name);
      };
      for (const word of ['true', '1', 'True', 'yes']) assert.deepEqual(await names(word), ['gone'], word);
      for (const word of ['false', '0', 'False', 'no']) {
        assert.equal((await names(word)).includes('gone'), false, word);
      }
      const bad = await t.request('GET', '/api/v4/personal_access_tokens?revoked=maybe', {
        token: user.token,
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { error: 'revoked is invalid' });
    });

    it('pages as v4: per_page at most 100, bad page values refused, Link URLs under /api/v4 keeping filters', async () => {
      for (let n = 0; n < 3; n += 1) {
        await t.request('POST', '/api/v4/user/personal_access_tokens', {
          token: user.token,
          body: { name: `page-${n}`, scopes: ['read_api'] },
        });
      }
      const list = '/api/v4/personal_access_tokens';
      const page = await t.request('GET', `${list}?state=active&per_page=1&page=2`, { token: user.token });
      assert.equal(page.status, 200);
      assert.equal(page.body.length, 1);
      assert.equal(page.headers['x-page'], '2');
      assert.equal(page.headers['x-per-page'], '1');
      assert.equal(page.headers['x-prev-page'], '1');
      assert.equal(page.headers['x-next-page'], '3');
      const total = Number(page.headers['x-total']);
      assert.equal(page.headers['x-total-pages'], String(total));
      const base = `${t.config.externalUrl}${list}`;
      assert.equal(
        page.headers.link,
        [
          `<${base}?page=1&per_page=1&state=active>; rel="prev"`,
          `<${base}?page=3&per_page=1&state=active>; rel="next"`,
          `<${base}?page=1&per_page=1&state=active>; rel="first"`,
          `<${base}?page=${total}&per_page=1&state=active>; rel="last"`,
        ].join(', '),
      );
      const capped = await t.request('GET', `${list}?per_page=500`, { token: user.token });
      assert.equal(capped.status, 200);
      assert.equal(capped.headers['x-per-page'], '100');
      const refusals: [string, string][] = [
        ['page=abc', 'page is invalid'],
        ['page=0', 'page does not have a valid value'],
        ['page=-1', 'page does not have a valid value'],
        ['per_page=x', 'per_page is invalid'],
        ['per_page=0', 'per_page does not have a valid value'],
      ];
      for (const [query, error] of refusals) {
        const response = await t.request('GET', `${list}?${query}`, { token: user.token });
        assert.equal(response.status, 400, query);
        assert.deepEqual(response.body, { error }, query);
      }
      // v3 keeps 8.13's fallbacks for the same values.
      const v3 = await t.request('GET', '/api/v3/projects?page=abc&per_page=0', { token: user.token });
      assert.equal(v3.status, 200);
      assert.equal(v3.headers['x-per-page'], '20');
    });

    it("takes gitbeaker's `{}` with a DELETE and answers 204 with no body", async () => {
      const token = await t.request('POST', '/api/v4/user/personal_access_tokens', {
        token: user.token,
        body: { name: 'to-revoke', scopes: ['api'] },
      });
      const response = await send(
        'DELETE',
        `/api/v4/personal_access_tokens/${token.body.id}`,
        'application/json',
        '{}',
      );
      assert.equal(response.statusCode, 204);
      assert.equal(response.body, '');
    });
  });

  it('leaves /api/v3 as it was: 8.13 version', async () => {
    const response = await t.request('GET', '/api/v3/version', { token: user.token });
    assert.deepEqual(response.body, { version: '8.13.0', revision: 'labrador' });
  });
});
