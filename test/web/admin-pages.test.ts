// The administrators' pages as a browser without script uses them: every change goes through the API's
// services and is read back through the API; non-administrators get 404, signed-out visitors are sent to
// sign in, and a form without its token changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestUser } from '../helpers/factory.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { RUNNER_USER_AGENT } from '../helpers/runner-client.ts';
import { until } from '../helpers/wait.ts';
import { WebClient } from '../helpers/web.ts';

/** The text of a page without tags, whitespace folded: what a reader sees. */
function visible(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('pages: admin area', () => {
  let t: TestApp;
  let root: WebClient;
  let plain: TestUser;
  let receiver: Receiver;

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    receiver = await startReceiver();
    plain = await createUser(t, 'plainuser');
    root = new WebClient(t);
    assert.equal((await root.signIn('root', t.rootPassword)).status, 302);
  });
  after(async () => {
    await receiver?.close();
    await t?.close();
  });

  const api = (method: string, url: string, body?: Record<string, unknown>) =>
    t.request(method, `/api/v3${url}`, { token: t.rootToken, body });

  it('a signed-out visitor is sent to sign in and back; a non-administrator gets 404', async () => {
    const anonymous = new WebClient(t);
    const member = new WebClient(t, '10.9.9.9');
    assert.equal((await member.signIn(plain.username, plain.password)).status, 302);
    assert.doesNotMatch((await member.get('/')).text, /Admin area/);
    assert.match((await root.get('/')).text, /href="\/admin">Admin area</);
    for (const path of [
      '/admin',
      '/admin/users',
      '/admin/users/new',
      `/admin/users/${plain.username}`,
      `/admin/users/${plain.username}/edit`,
      '/admin/projects?search=x',
      '/admin/runners',
      '/admin/runners/1',
      '/admin/hooks',
      '/admin/hooks/1',
    ]) {
      const away = await anonymous.get(path);
      assert.equal(away.status, 302, path);
      assert.equal(away.headers.location, `/users/sign_in?redirect_to=${encodeURIComponent(path)}`);
      const hidden = await member.get(path);
      assert.equal(hidden.status, 404, path);
      assert.match(hidden.text, /Page not found/);
    }
    // Posts too: with a valid form token, a non-administrator still changes nothing.
    await member.get('/');
    const blocked = await member.post(`/admin/users/${plain.username}/block`);
    assert.equal(blocked.status, 404);
    const hook = await member.post('/admin/hooks', { 'hook[url]': 'http://127.0.0.1:9/x' });
    assert.equal(hook.status, 404);
    // A signed-out browser with a valid (anonymous) form token is sent to sign in, and nothing changes.
    await anonymous.get('/users/sign_in');
    const signedOut = await anonymous.post(`/admin/users/${plain.username}/block`);
    assert.equal(signedOut.status, 302);
    assert.equal(signedOut.headers.location, '/users/sign_in?redirect_to=%2Fadmin');
    assert.equal((await api('GET', `/users/${plain.id}`)).body.state, 'active');
    assert.deepEqual((await api('GET', '/hooks')).body, []);
  });

  it('/admin shows counts, version, database engine, data dir and health', async () => {
    await createProject(t, { owner: plain, path: 'counted', visibility: 0 });
    const page = await root.get('/admin');
    assert.equal(page.status, 200);
    const text = visible(page.text);
    const users = (await api('GET', '/users?per_page=1')).headers['x-total'];
    const projects = (await api('GET', '/projects/all?per_page=1')).headers['x-total'];
    assert.match(text, new RegExp(`Users ${users} `));
    assert.match(text, new RegExp(`Projects ${projects} `));
    assert.match(text, /Groups 0 Runners 0 Builds 0 /);
    const { version } = (await import('../../src/lib/version.ts')) as { version: string };
    assert.ok(text.includes(`Labrador ${version} (GitLab 8.13.0 API v3)`), text);
    assert.match(text, process.env.LABRADOR_TEST_PG_URL ? /Database PostgreSQL/ : /Database SQLite/);
    assert.ok(text.includes(`Data directory ${t.config.dataDir}`));
    assert.match(text, /Health ok database ok, data directory ok/);
  });

  it('/admin/users creates, edits, blocks and unblocks through the API services', async () => {
    const list = await root.get('/admin/users?search=plainuser');
    assert.equal(list.status, 200);
    assert.match(list.text, /href="\/admin\/users\/plainuser">plainuser Name</);
    assert.doesNotMatch(list.text, /href="\/admin\/users\/root"/);

    await root.get('/admin/users/new');
    const created = await root.post('/admin/users', {
      'user[name]': 'Nora <New>',
      'user[username]': 'nora',
      'user[email]': 'nora@example.com',
      'user[password]': 'nora-password-1',
      'user[password_confirmation]': 'nora-password-1',
      'user[projects_limit]': '5',
      'user[can_create_group]': '1',
      'user[external]': '1',
    });
    assert.equal(created.status, 302, created.text);
    assert.equal(created.headers.location, '/admin/users/nora?done=created');
    const found = (await api('GET', '/users?username=nora')).body;
    assert.equal(found.length, 1);
    const id = found[0].id;
    let user = (await api('GET', `/users/${id}`)).body;
    assert.equal(user.name, 'Nora <New>');
    assert.equal(user.email, 'nora@example.com');
    assert.equal(user.external, true);
    assert.equal(user.is_admin, false);
    // An external user can create neither groups nor projects (the service's rule, not the form's).
    assert.equal(user.can_create_group, false);
    assert.equal(user.projects_limit, 0);
    const shown = await root.get('/admin/users/nora?done=created');
    assert.match(shown.text, /User was successfully created/);
    assert.match(shown.text, /<h1>Nora &lt;New><\/h1>/);

    // The same validation and messages as POST /users, shown on the form with what was typed.
    const taken = await root.post('/admin/users', {
      'user[name]': 'Other',
      'user[username]': 'other',
      'user[email]': 'nora@example.com',
      'user[password]': 'other-password-1',
      'user[password_confirmation]': 'other-password-1',
    });
    assert.equal(taken.status, 422);
    assert.match(taken.text, /Email has already been taken/);
    assert.match(taken.text, /name="user\[username\]" value="other"/);
    const blank = await root.post('/admin/users', { 'user[name]': 'No Email' });
    assert.equal(blank.status, 422);
    assert.match(
      blank.text,
      /Username, Email, Password can&#39;t be blank|Username, Email, Password can't be blank/,
    );
    const short = await root.post('/admin/users', {
      'user[name]': 'Shorty',
      'user[username]': 'shorty',
      'user[email]': 'shorty@example.com',
      'user[password]': 'short',
      'user[password_confirmation]': 'short',
    });
    assert.equal(short.status, 422);
    assert.match(short.text, /too short/);
    assert.equal((await api('GET', '/users?username=shorty')).body.length, 0);

    const edit = await root.get('/admin/users/nora/edit');
    assert.equal(edit.status, 200);
    assert.match(edit.text, /name="user\[email\]" value="nora@example.com"/);
    const saved = await root.post('/admin/users/nora', {
      'user[name]': 'Nora Renamed',
      'user[username]': 'nora2',
      'user[email]': 'nora2@example.com',
      'user[projects_limit]': '7',
      'user[can_create_group]': '1',
      'user[admin]': '1',
      'user[bio]': 'Edited in the admin area',
      'user[password]': '',
      'user[password_confirmation]': '',
    });
    assert.equal(saved.status, 302, saved.text);
    assert.equal(saved.headers.location, '/admin/users/nora2?done=updated');
    user = (await api('GET', `/users/${id}`)).body;
    assert.equal(user.name, 'Nora Renamed');
    assert.equal(user.username, 'nora2');
    assert.equal(user.email, 'nora2@example.com');
    assert.equal(user.is_admin, true);
    // External unticked: the limits the form sent apply.
    assert.equal(user.external, false);
    assert.equal(user.projects_limit, 7);
    assert.equal(user.can_create_group, true);
    assert.equal(user.bio, 'Edited in the admin area');
    // The password was left blank: unchanged.
    const session = await t.request('POST', '/api/v3/session', {
      body: { login: 'nora2', password: 'nora-password-1' },
    });
    assert.equal(session.status, 201);

    const clash = await root.post('/admin/users/nora2', {
      'user[name]': 'Nora Renamed',
      'user[username]': 'nora2',
      'user[email]': 'admin@example.com',
    });
    assert.equal(clash.status, 422);
    assert.match(clash.text, /Email has already been taken/);
    const mismatch = await root.post('/admin/users/nora2', {
      'user[name]': 'Nora Renamed',
      'user[username]': 'nora2',
      'user[email]': 'nora2@example.com',
      'user[password]': 'another-pass-1',
      'user[password_confirmation]': 'another-pass-2',
    });
    assert.equal(mismatch.status, 422);
    assert.equal((await api('GET', `/users/${id}`)).body.email, 'nora2@example.com');

    const block = await root.post('/admin/users/nora2/block');
    assert.equal(block.status, 302);
    assert.equal((await api('GET', `/users/${id}`)).body.state, 'blocked');
    const blockedPage = await root.get('/admin/users/nora2?done=blocked');
    assert.match(blockedPage.text, /Successfully blocked/);
    assert.match(blockedPage.text, /Unblock user/);
    assert.equal((await root.post('/admin/users/nora2/unblock')).status, 302);
    assert.equal((await api('GET', `/users/${id}`)).body.state, 'active');

    assert.equal((await root.get('/admin/users/nobody-here')).status, 404);
  });

  it('every admin form without its token answers 422 and changes nothing', async () => {
    const noToken = (url: string, form: Record<string, string> = {}) => root.request('POST', url, form);
    const hooksBefore = (await api('GET', '/hooks')).body.length;
    const runner = await t.request('POST', '/ci/api/v1/runners/register', {
      body: { token: await registrationToken(), description: 'csrf runner' },
    });
    assert.equal(runner.status, 201);
    const hook = await api('POST', '/hooks', { url: `${receiver.url}/csrf` });
    assert.equal(hook.status, 201);
    const tokenBefore = await registrationToken();
    for (const [url, form] of [
      ['/admin/users', { 'user[name]': 'X', 'user[username]': 'csrfuser', 'user[email]': 'x@example.com' }],
      [`/admin/users/${plain.username}`, { 'user[name]': 'Changed' }],
      [`/admin/users/${plain.username}/block`, {}],
      [`/admin/runners/${runner.body.id}/pause`, {}],
      [`/admin/runners/${runner.body.id}/delete`, {}],
      [`/admin/runners/${runner.body.id}`, { 'runner[description]': 'changed' }],
      ['/admin/runners/reset_token', {}],
      ['/admin/hooks', { 'hook[url]': 'http://127.0.0.1:9/nope' }],
      [`/admin/hooks/${hook.body.id}/test`, {}],
      [`/admin/hooks/${hook.body.id}/delete`, {}],
    ] as const) {
      const answer = await noToken(url, form);
      assert.equal(answer.status, 422, url);
      const forged = await root.request('POST', url, { ...form, authenticity_token: 'forged-token' });
      assert.equal(forged.status, 422, url);
    }
    assert.equal((await api('GET', '/users?username=csrfuser')).body.length, 0);
    const still = (await api('GET', `/users/${plain.id}`)).body;
    assert.equal(still.name, 'plainuser Name');
    assert.equal(still.state, 'active');
    const runnerNow = (await api('GET', `/runners/${runner.body.id}`)).body;
    assert.equal(runnerNow.active, true);
    assert.equal(runnerNow.description, 'csrf runner');
    assert.equal(await registrationToken(), tokenBefore);
    assert.equal((await api('GET', '/hooks')).body.length, hooksBefore + 1);
    assert.equal((await api('GET', `/hooks/${hook.body.id}/deliveries`)).body.length, 0);
    await api('DELETE', `/hooks/${hook.body.id}`);
    await api('DELETE', `/runners/${runner.body.id}`);
  });

  /** The shared registration token as /admin/runners shows it. */
  async function registrationToken(): Promise<string> {
    const page = await root.get('/admin/runners');
    const token = /id="registration-token" type="text" readonly value="([^"]+)"/i.exec(page.text)?.[1];
    assert.ok(token, 'the page shows the registration token');
    return token;
  }

  it('/admin/runners shows the token, statuses and contact; pause, resume, edit, reset and remove', async () => {
    const token = await registrationToken();
    const quiet = await t.request('POST', '/ci/api/v1/runners/register', {
      body: { token, description: 'quiet runner' },
    });
    assert.equal(quiet.status, 201);
    const busy = await t.request('POST', '/ci/api/v1/runners/register', {
      body: { token, description: 'busy runner', tag_list: 'linux, docker', info: { version: '1.7.0' } },
    });
    assert.equal(busy.status, 201);
    // The busy runner asks for work: its contact is recorded.
    const asked = await t.request('POST', '/ci/api/v1/builds/register.json', {
      body: { token: busy.body.token, info: { version: '1.7.0' } },
      headers: { 'user-agent': RUNNER_USER_AGENT },
    });
    assert.ok(asked.status === 204 || asked.status === 404, String(asked.status));

    const rowOf = (html: string, description: string) => {
      const row = html.split('<tr>').find((part) => part.includes(`>${description}</a>`));
      assert.ok(row, `a row for ${description}`);
      return visible(row);
    };
    let page = await root.get('/admin/runners');
    assert.match(page.text, /<code>http:\/\/labrador\.test\/ci<\/code>/);
    assert.match(page.text, /Runners \(2\)/);
    assert.match(rowOf(page.text, 'quiet runner'), /shared not connected never Pause Remove/);
    assert.match(
      rowOf(page.text, 'busy runner'),
      /shared online 1\.7\.0 linux, docker \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );

    assert.equal((await root.post(`/admin/runners/${busy.body.id}/pause`)).status, 302);
    assert.equal((await api('GET', `/runners/${busy.body.id}`)).body.active, false);
    page = await root.get('/admin/runners?done=paused');
    assert.match(page.text, /The runner was paused/);
    assert.match(rowOf(page.text, 'busy runner'), /shared paused/);
    const paused = await root.get('/admin/runners?scope=paused');
    assert.match(paused.text, /Runners \(1\)/);
    assert.match(paused.text, />busy runner</);
    assert.doesNotMatch(paused.text, />quiet runner</);
    assert.equal((await root.post(`/admin/runners/${busy.body.id}/resume`)).status, 302);
    assert.equal((await api('GET', `/runners/${busy.body.id}`)).body.active, true);

    const details = await root.get(`/admin/runners/${quiet.body.id}`);
    assert.equal(details.status, 200);
    assert.match(details.text, /<h1>quiet runner<\/h1>/);
    const edited = await root.post(`/admin/runners/${quiet.body.id}`, {
      'runner[description]': 'quiet, renamed',
      'runner[tag_list]': 'gpu,  arm ,gpu',
      'runner[active]': '1',
      'runner[locked]': '1',
    });
    assert.equal(edited.status, 302);
    const read = (await api('GET', `/runners/${quiet.body.id}`)).body;
    assert.equal(read.description, 'quiet, renamed');
    assert.deepEqual(read.tag_list, ['gpu', 'arm']);
    assert.equal(read.run_untagged, false);
    assert.equal(read.locked, true);
    // No tags and no untagged builds: the API's validation message, on the page.
    const refused = await root.post(`/admin/runners/${quiet.body.id}`, {
      'runner[description]': 'x',
      'runner[tag_list]': '',
      'runner[active]': '1',
    });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /can not be empty when runner is not allowed to pick untagged jobs/);
    assert.equal((await api('GET', `/runners/${quiet.body.id}`)).body.description, 'quiet, renamed');

    assert.equal((await root.post('/admin/runners/reset_token')).status, 302);
    const fresh = await registrationToken();
    assert.notEqual(fresh, token);
    const old = await t.request('POST', '/ci/api/v1/runners/register', { body: { token } });
    assert.equal(old.status, 403);
    const withNew = await t.request('POST', '/ci/api/v1/runners/register', { body: { token: fresh } });
    assert.equal(withNew.status, 201);

    for (const id of [quiet.body.id, busy.body.id, withNew.body.id]) {
      assert.equal((await root.post(`/admin/runners/${id}/delete`)).status, 302);
      assert.equal((await api('GET', `/runners/${id}`)).status, 404);
    }
    assert.match((await root.get('/admin/runners')).text, /No runners found/);
    assert.equal((await root.get('/admin/runners/999999')).status, 404);
  });

  it('/admin/hooks adds, tests and removes a system hook; its log shows attempts and resends', async () => {
    await root.get('/admin/hooks');
    const bad = await root.post('/admin/hooks', { 'hook[url]': 'not a url' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /URL is invalid/);
    assert.match(bad.text, /value="not a url"/);
    const added = await root.post('/admin/hooks', { 'hook[url]': `${receiver.url}/system` });
    assert.equal(added.status, 302);
    const hooks = (await api('GET', '/hooks')).body as Array<{ id: number; url: string }>;
    const hook = hooks.find((h) => h.url === `${receiver.url}/system`);
    assert.ok(hook, 'the API lists the hook');

    const before = receiver.received.length;
    assert.equal((await root.post(`/admin/hooks/${hook.id}/test`)).status, 302);
    await receiver.waitFor(before + 1);
    const delivered = await until('the log shows the delivery as delivered', async () => {
      const log = (await api('GET', `/hooks/${hook.id}/deliveries`)).body;
      return log.length === 1 && log[0].status === 'delivered' ? log[0] : undefined;
    });
    const page = await root.get(`/admin/hooks/${hook.id}`);
    assert.equal(page.status, 200);
    const text = visible(page.text);
    assert.match(text, /Deliveries \(1\)/);
    assert.match(text, new RegExp(`#${delivered.id} .* System Hook delivered .*HTTP 200 in \\d+ ms`));
    assert.match(page.text, /&quot;event_name&quot;|"event_name"/);

    assert.equal((await root.post(`/admin/hooks/${hook.id}/deliveries/${delivered.id}/resend`)).status, 302);
    await receiver.waitFor(before + 2);
    const log = (await api('GET', `/hooks/${hook.id}/deliveries`)).body;
    assert.equal(log.length, 2);
    assert.deepEqual(log[0].payload, delivered.payload);
    assert.equal((await root.post(`/admin/hooks/${hook.id}/deliveries/999999/resend`)).status, 404);

    assert.equal((await root.post(`/admin/hooks/${hook.id}/delete`)).status, 302);
    assert.equal((await api('GET', `/hooks/${hook.id}/deliveries`)).status, 404);
    assert.equal((await root.get(`/admin/hooks/${hook.id}`)).status, 404);
  });

  it('/admin/projects lists every project, searched and filtered by visibility', async () => {
    await createProject(t, { owner: plain, path: 'secret-one', visibility: 0 });
    await createProject(t, { owner: plain, path: 'open-one', visibility: 20 });
    const all = await root.get('/admin/projects');
    assert.match(all.text, /href="\/plainuser\/secret-one"/);
    assert.match(all.text, /href="\/plainuser\/open-one"/);
    const privateOnly = await root.get('/admin/projects?visibility=private&search=one');
    assert.match(privateOnly.text, /href="\/plainuser\/secret-one"/);
    assert.doesNotMatch(privateOnly.text, /href="\/plainuser\/open-one"/);
    assert.match(privateOnly.text, /<option value="private" selected>/);
    const none = await root.get('/admin/projects?search=no-such-thing');
    assert.match(none.text, /No projects found/);
    assert.equal((await root.get('/admin/projects?page=0')).status, 400);
  });
});

describe('pages: admin lists read a fixed number of statements per page', () => {
  let t: TestApp;
  let root: WebClient;
  let receiver: Receiver;
  let hookId: number;
  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    receiver = await startReceiver();
    root = new WebClient(t);
    assert.equal((await root.signIn('root', t.rootPassword)).status, 302);
    const hook = await t.request('POST', '/api/v3/hooks', {
      token: t.rootToken,
      body: { url: `${receiver.url}/count` },
    });
    hookId = hook.body.id;
  });
  after(async () => {
    await receiver?.close();
    await t?.close();
  });

  async function statementsFor(url: string): Promise<number> {
    let count = 0;
    t.server.deps.db.onQuery = () => {
      count += 1;
    };
    try {
      const page = await root.get(url);
      assert.equal(page.status, 200, url);
      return count;
    } finally {
      t.server.deps.db.onQuery = undefined;
    }
  }

  it('the same with one row as with a full page of 20', async () => {
    const urls = ['/admin', '/admin/users', '/admin/projects', '/admin/runners', `/admin/hooks/${hookId}`];
    const owner = await createUser(t, 'countowner');
    const token = /value="([^"]+)"/.exec(
      (await root.get('/admin/runners')).text.split('id="registration-token"')[1]!,
    )![1]!;
    const seed = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const suffix = `${Date.now().toString(36)}${i}`;
        await createUser(t, `count${suffix}`);
        await createProject(t, { owner, path: `count-${suffix}` });
        const runner = await t.request('POST', '/ci/api/v1/runners/register', { body: { token } });
        assert.equal(runner.status, 201);
        const queued = await t.request('GET', `/api/v3/hooks/${hookId}`, { token: t.rootToken });
        assert.equal(queued.status, 200);
      }
    };
    await seed(1);
    // The delivery worker shares the database handle: stopped, its statements cannot mix into the
    // counts (later deliveries then stay pending, which the pages show just the same).
    await t.server.hookWorker.drain();
    await t.server.hookWorker.stop();
    await root.get('/admin'); // the session's first use may write; measure afterwards
    const small: Array<[string, number]> = [];
    for (const url of urls) small.push([url, await statementsFor(url)]);
    await seed(24);
    for (const [url, count] of small) {
      const large = await statementsFor(url);
      assert.equal(large, count, `${url}: ${count} statements with 1 row, ${large} with a full page`);
      // 8 of their own, and the broadcast messages every page reads.
      assert.ok(large <= 9, `${url}: ${large} statements`);
      console.log(`# ${url}: ${large} statements`);
    }
    const runners = await root.get('/admin/runners');
    assert.match(runners.text, /Runners \(25\)/);
    assert.match(runners.text, /href="\/admin\/runners\?page=2"/);
  });
});

describe('pages: a registration token fixed by LABRADOR_RUNNER_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ LABRADOR_RUNNER_TOKEN: 'fixed-registration-token' });
    await stopClockWorkers(t);
  });
  after(async () => {
    await t?.close();
  });

  it('is shown, and a reset is refused on the page without changing it', async () => {
    const root = new WebClient(t);
    assert.equal((await root.signIn('root', t.rootPassword)).status, 302);
    const page = await root.get('/admin/runners');
    assert.match(page.text, /readonly value="fixed-registration-token"/i);
    assert.match(page.text, /set by LABRADOR_RUNNER_TOKEN/);
    assert.doesNotMatch(page.text, /Reset registration token/);
    const refused = await root.post('/admin/runners/reset_token');
    assert.equal(refused.status, 409);
    assert.match(refused.text, /role="alert">The registration token is set by LABRADOR_RUNNER_TOKEN/);
    const runner = await t.request('POST', '/ci/api/v1/runners/register', {
      body: { token: 'fixed-registration-token' },
    });
    assert.equal(runner.status, 201);
  });
});
