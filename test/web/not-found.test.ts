// A path that names no page answers the 404 page (HTML, with the visitor's session as on every page),
// however deep; under the APIs and git over HTTP an unknown path keeps GitLab's JSON 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestUser } from '../helpers/factory.ts';
import { WebClient } from '../helpers/web.ts';

describe('unknown paths', () => {
  let t: TestApp;
  let owner: TestUser;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'lost');
    await createProject(t, { owner, path: 'found', commit: true });
  });
  after(() => t?.close());

  const deepPaths = [
    '/lost/found/no-such-tab',
    '/lost/found/no/such/page/at/all',
    '/lost/found/tree', // a tree needs a ref
    '/a/b/c/d/e/f',
    '/groups/x/y/z',
    '/explore/nothing/here',
  ];

  it('answers the 404 page to a signed-out visitor and to a signed-in one', async () => {
    const visitor = new WebClient(t);
    const member = new WebClient(t);
    assert.equal((await member.signIn(owner.username, owner.password)).status, 302);
    for (const [who, web] of [
      ['visitor', visitor],
      ['member', member],
    ] as const) {
      for (const path of deepPaths) {
        const page = await web.get(path);
        assert.deepEqual(
          [page.status, page.headers['content-type'], /<h1>Page not found<\/h1>/.test(page.text)],
          [404, 'text/html; charset=utf-8', true],
          `${who} ${path}`,
        );
        assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
        // The header shows who is signed in, as on every page.
        assert.equal(page.text.includes('href="/lost"'), who === 'member', `${who} ${path}`);
      }
    }
    const posted = await member.post('/lost/found/no/such/form', { field: 'value' });
    assert.equal(posted.status, 404);
    assert.match(posted.text, /<h1>Page not found<\/h1>/);
  });

  it('a signed-out form post is told to sign in, and changes nothing', async () => {
    const visitor = new WebClient(t);
    await visitor.get('/users/sign_in');
    const posted = await visitor.post('/lost/found/issues', { 'issue[title]': 'From nowhere' });
    assert.equal(posted.status, 401);
    assert.match(posted.text, /<h1>Sign in required<\/h1>/);
    const issues = await t.request('GET', '/api/v3/projects/lost%2Ffound/issues', { token: owner.token });
    assert.deepEqual(issues.body, []);
  });

  it("keeps GitLab's JSON 404 under the APIs and for git over HTTP", async () => {
    const answers: string[] = [];
    for (const path of [
      '/api/v3/nothing/here',
      '/api/v3/projects/1/no/such/thing',
      '/ci/api/v1/nothing',
      '/lost/found.git/HEAD',
      '/lost/found.git/objects/info/packs',
    ]) {
      const response = await t.server.app.inject({ method: 'GET', url: path });
      answers.push(`${path} ${response.statusCode} ${response.headers['content-type']} ${response.body}`);
    }
    assert.deepEqual(answers, [
      '/api/v3/nothing/here 404 application/json; charset=utf-8 {"error":"404 Not Found"}',
      '/api/v3/projects/1/no/such/thing 404 application/json; charset=utf-8 {"error":"404 Not Found"}',
      '/ci/api/v1/nothing 404 application/json {"error":"404 Not Found"}',
      '/lost/found.git/HEAD 404 application/json; charset=utf-8 {"error":"404 Not Found"}',
      '/lost/found.git/objects/info/packs 404 application/json; charset=utf-8 {"error":"404 Not Found"}',
    ]);
  });
});
