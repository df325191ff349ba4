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

const HOOK_KEYS = [
  'id',
  'url',
  'created_at',
  'project_id',
  'push_events',
  'issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'build_events',
  'pipeline_events',
  'wiki_page_events',
  'enable_ssl_verification',
];

describe('project hooks API', () => {
  let t: TestApp;
  let owner: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let other: TestProject;
  let base: string;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'hookowner');
    developer = await createUser(t, 'hookdev');
    stranger = await createUser(t, 'hookstranger');
    project = await createProject(t, { owner, path: 'hooked', visibility: 0 });
    other = await createProject(t, { owner, path: 'other', visibility: 20 });
    await addProjectMember(t, project.id, developer.id, 30);
    base = `/api/v3/projects/${project.id}/hooks`;
  });
  after(() => t.close());

  it('creates a hook with GitLab defaults and reads it back', async () => {
    const created = await t.request('POST', base, {
      token: owner.token,
      body: { url: 'http://example.com/hook' },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), HOOK_KEYS);
    assert.equal(created.body.project_id, project.id);
    assert.equal(created.body.url, 'http://example.com/hook');
    assert.equal(created.body.push_events, true);
    assert.equal(created.body.enable_ssl_verification, true);
    for (const name of HOOK_KEYS.slice(5, 12)) assert.equal(created.body[name], false, name);

    const read = await t.request('GET', `${base}/${created.body.id}`, { token: owner.token });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, created.body);
    const byPath = await t.request(
      'GET',
      `/api/v3/projects/${owner.username}%2Fhooked/hooks/${created.body.id}`,
      {
        token: owner.token,
      },
    );
    assert.deepEqual(byPath.body, created.body);
  });

  it('takes every switch, wiki_events written and wiki_page_events read back', async () => {
    const created = await t.request('POST', base, {
      token: owner.token,
      form: {
        url: 'https://example.com/all',
        push_events: 'false',
        issues_events: 'true',
        merge_requests_events: '1',
        tag_push_events: 't',
        note_events: 'yes',
        build_events: 'true',
        pipeline_events: 'true',
        wiki_events: 'true',
        enable_ssl_verification: 'false',
      },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.push_events, false);
    assert.equal(created.body.enable_ssl_verification, false);
    for (const name of HOOK_KEYS.slice(5, 12)) assert.equal(created.body[name], true, name);

    // wiki_page_events wins over wiki_events when both are given.
    const updated = await t.request('PUT', `${base}/${created.body.id}`, {
      token: owner.token,
      body: {
        url: 'https://example.com/changed',
        wiki_events: true,
        wiki_page_events: false,
        push_events: true,
      },
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.url, 'https://example.com/changed');
    assert.equal(updated.body.wiki_page_events, false);
    assert.equal(updated.body.push_events, true);
    assert.equal(updated.body.issues_events, true, 'switches not sent are kept');
    assert.equal(updated.body.created_at, created.body.created_at);
  });

  it('answers GitLab errors for a missing or malformed url and unknown hooks', async () => {
    const missing = await t.request('POST', base, { token: owner.token, body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { message: '400 (Bad request) "url" not given' });
    for (const url of ['not a url', 'ftp://example.com/', 'http://', 'http://exa mple.com/']) {
      const invalid = await t.request('POST', base, { token: owner.token, body: { url } });
      assert.equal(invalid.status, 422, url);
      assert.deepEqual(invalid.body, { error: 'Invalid url given' });
    }
    const badSwitch = await t.request('POST', base, {
      token: owner.token,
      body: { url: 'http://example.com/', push_events: 'maybe' },
    });
    assert.equal(badSwitch.status, 400);
    assert.deepEqual(badSwitch.body, { error: 'push_events is invalid' });

    for (const id of ['999999', 'abc']) {
      const unknown = await t.request('GET', `${base}/${id}`, { token: owner.token });
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.body, { message: '404 Not found' });
      // The hook is looked up before the url is checked.
      const put = await t.request('PUT', `${base}/${id}`, { token: owner.token, body: {} });
      assert.equal(put.status, 404);
      assert.deepEqual(put.body, { message: '404 Not found' });
    }
    const hook = (
      await t.request('POST', base, { token: owner.token, body: { url: 'http://example.com/x' } })
    ).body;
    const noUrl = await t.request('PUT', `${base}/${hook.id}`, {
      token: owner.token,
      body: { push_events: false },
    });
    assert.equal(noUrl.status, 400);
    assert.deepEqual(noUrl.body, { message: '400 (Bad request) "url" not given' });
    const badUrl = await t.request('PUT', `${base}/${hook.id}`, {
      token: owner.token,
      body: { url: 'nope' },
    });
    assert.equal(badUrl.status, 422);
    assert.deepEqual(badUrl.body, { error: 'Invalid url given' });
  });

  it('refuses a URL over 2,000 characters or holding a NUL byte, on create and update, and stores nothing', async () => {
    const longest = `http://example.com/${'a'.repeat(2000 - 'http://example.com/'.length)}`;
    const kept = await t.request('POST', base, { token: owner.token, body: { url: longest } });
    assert.equal(kept.status, 201);
    assert.equal(kept.body.url, longest);
    const before = await t.request('GET', `${base}?per_page=100`, { token: owner.token });
    const refused = [
      `${longest}b`,
      `http://example.com/${'a'.repeat(1024 * 1024)}`,
      'http://example.com/\u0000x',
    ];
    for (const url of refused) {
      const created = await t.request('POST', base, { token: owner.token, body: { url } });
      assert.equal(created.status, 422, `${url.length} characters`);
      assert.deepEqual(created.body, { error: 'Invalid url given' });
      const updated = await t.request('PUT', `${base}/${kept.body.id}`, {
        token: owner.token,
        body: { url },
      });
      assert.equal(updated.status, 422, `${url.length} characters`);
      assert.deepEqual(updated.body, { error: 'Invalid url given' });
    }
    const after = await t.request('GET', `${base}?per_page=100`, { token: owner.token });
    assert.deepEqual(after.body, before.body);
  });

  it('keeps hooks to their project', async () => {
    const hook = (
      await t.request('POST', base, { token: owner.token, body: { url: 'http://example.com/mine' } })
    ).body;
    const elsewhere = `/api/v3/projects/${other.id}/hooks/${hook.id}`;
    assert.equal((await t.request('GET', elsewhere, { token: owner.token })).status, 404);
    assert.equal(
      (await t.request('PUT', elsewhere, { token: owner.token, body: { url: 'http://x.y/' } })).status,
      404,
    );
    const deleted = await t.request('DELETE', elsewhere, { token: owner.token });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.text, 'null');
    assert.equal((await t.request('GET', `${base}/${hook.id}`, { token: owner.token })).status, 200);
  });

  it('deletes idempotently: the hook, then null', async () => {
    const hook = (
      await t.request('POST', base, { token: owner.token, body: { url: 'http://example.com/gone' } })
    ).body;
    const deleted = await t.request('DELETE', `${base}/${hook.id}`, { token: owner.token });
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, hook);
    const again = await t.request('DELETE', `${base}/${hook.id}`, { token: owner.token });
    assert.equal(again.status, 200);
    assert.equal(again.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(again.text, 'null');
    assert.equal((await t.request('DELETE', `${base}/abc`, { token: owner.token })).text, 'null');
  });

  it('lists hooks with pagination', async () => {
    const total = (await t.request('GET', base, { token: owner.token })).headers['x-total'];
    const page = await t.request('GET', `${base}?per_page=2&page=2`, { token: owner.token });
    assert.equal(page.status, 200);
    assert.equal(page.headers['x-total'], total);
    assert.equal(page.headers['x-page'], '2');
    assert.equal(page.headers['x-per-page'], '2');
    assert.equal(page.body.length, Math.min(2, Number(total) - 2));
    const first = (await t.request('GET', `${base}?per_page=2`, { token: owner.token })).body;
    assert.ok(first[1].id < page.body[0].id, 'ordered by id');
  });

  it('is for masters and owners: 403 for developers, 404 for those who cannot see the project', async () => {
    const routes: Array<[string, string]> = [
      ['GET', base],
      ['POST', base],
      ['GET', `${base}/1`],
      ['PUT', `${base}/1`],
      ['DELETE', `${base}/1`],
    ];
    for (const [method, url] of routes) {
      const asDeveloper = await t.request(method, url, {
        token: developer.token,
        body: { url: 'http://x.y/' },
      });
      assert.equal(asDeveloper.status, 403, `${method} ${url}`);
      assert.deepEqual(asDeveloper.body, { message: '403 Forbidden' });
      const asStranger = await t.request(method, url, {
        token: stranger.token,
        body: { url: 'http://x.y/' },
      });
      assert.equal(asStranger.status, 404, `${method} ${url}`);
      assert.deepEqual(asStranger.body, { message: '404 Project Not Found' });
    }
    // A public project is visible to everyone, but its hooks are still for masters only.
    const publicHooks = await t.request('GET', `/api/v3/projects/${other.id}/hooks`, {
      token: stranger.token,
    });
    assert.equal(publicHooks.status, 403);
    // Administrators may manage any project's hooks.
    assert.equal((await t.request('GET', base, { token: t.rootToken })).status, 200);
    assert.equal(
      (await t.request('GET', '/api/v3/projects/999999/hooks', { token: t.rootToken })).status,
      404,
    );
  });

  it('shows the delivery log of a project hook to administrators only', async () => {
    const hook = (
      await t.request('POST', base, { token: owner.token, body: { url: 'http://example.com/log' } })
    ).body;
    const url = `${base}/${hook.id}/deliveries`;
    const asOwner = await t.request('GET', url, { token: owner.token });
    assert.equal(asOwner.status, 403);
    const asAdmin = await t.request('GET', url, { token: t.rootToken });
    assert.equal(asAdmin.status, 200);
    assert.deepEqual(asAdmin.body, []);
    assert.equal(asAdmin.headers['x-total'], '0');
    const resend = await t.request('POST', `${url}/1/resend`, { token: t.rootToken });
    assert.equal(resend.status, 404);
    assert.deepEqual(resend.body, { message: '404 Hook delivery Not Found' });
  });
});
