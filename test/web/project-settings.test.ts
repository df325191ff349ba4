// The project settings pages as a browser without script uses them: each form changes what the API then
// reads back, a developer is refused (403) and a stranger sees nothing (404), and a form sent without
// its token changes nothing (422).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { WebClient } from '../helpers/web.ts';
import { makeKey } from '../helpers/ssh.ts';
import { startReceiver } from '../helpers/receiver.ts';

describe('pages: project settings', () => {
  let t: TestApp;
  let owner: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let web: WebClient;
  let base: string;
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-settings-keys-'));
  const api = (path: string) =>
    t.request('GET', `/api/v3/projects/${project.id}${path}`, { token: owner.token });

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    owner = await createUser(t, 'olga');
    developer = await createUser(t, 'devon');
    stranger = await createUser(t, 'stan');
    project = await createProject(t, { owner, path: 'settled', commit: true });
    await addProjectMember(t, project.id, developer.id, 30);
    base = `/${project.fullPath}`;
    web = new WebClient(t);
    assert.equal((await web.signIn(owner.username, owner.password)).status, 302);
  });
  after(async () => {
    await t.close();
    fs.rmSync(keyDir, { recursive: true, force: true });
  });

  /** A signed-in client of another user. */
  const clientOf = async (user: TestUser) => {
    const client = new WebClient(t);
    assert.equal((await client.signIn(user.username, user.password)).status, 302);
    return client;
  };

  it('the Settings tab shows to masters only; the general form saves through the API service', async () => {
    const home = await web.get(base);
    assert.match(home.text, new RegExp(`href="${base}/edit"[^>]*>Settings<`));
    const asDeveloper = await (await clientOf(developer)).get(base);
    assert.equal(asDeveloper.status, 200);
    assert.doesNotMatch(asDeveloper.text, />Settings</);

    const edit = await web.get(`${base}/edit`);
    assert.equal(edit.status, 200);
    assert.match(edit.text, /<h1>General settings<\/h1>/);
    const form = {
      'project[name]': 'Settled Well',
      'project[path]': 'settled',
      'project[description]': 'New <b>words</b>',
      'project[default_branch]': 'master',
      'project[visibility_level]': '10',
      'project[issues_enabled]': '1',
      'project[builds_enabled]': '1',
    };
    // Without the form token: 422 and nothing changed.
    assert.equal((await web.request('POST', base, form)).status, 422);
    assert.equal((await api('')).body.description, 'About settled');

    const saved = await web.post(base, form);
    assert.equal(saved.status, 302);
    assert.equal(saved.headers.location, `${base}/edit?done=saved`);
    const read = (await api('')).body;
    assert.equal(read.name, 'Settled Well');
    assert.equal(read.description, 'New <b>words</b>');
    assert.equal(read.visibility_level, 10);
    assert.equal(read.issues_enabled, true);
    assert.equal(read.merge_requests_enabled, false);
    assert.equal(read.wiki_enabled, false);
    const again = await web.get(`${base}/edit?done=saved`);
    assert.match(again.text, /Project settings were saved/);
    assert.match(again.text, /New &lt;b>words&lt;\/b>/);

    // A bad path is refused on the form, with what was typed kept.
    const bad = await web.post(base, {
      ...form,
      'project[path]': '-bad path',
      'project[merge_requests_enabled]': '1',
    });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /Path can contain only letters/);
    assert.match(bad.text, /value="-bad path"/);
    assert.equal((await api('')).body.path, 'settled');
    // Back to private with the switches on, for the other tests.
    const reset = { ...form, 'project[visibility_level]': '0', 'project[merge_requests_enabled]': '1' };
    assert.equal((await web.post(base, reset)).status, 302);
  });

  it('archive, unarchive, transfer and delete are for owners, and delete needs the path typed', async () => {
    const group = await createGroup(t, 'movers');
    await addGroupMember(t, group, owner.id, 50);
    const doomed = await createProject(t, { owner, path: 'doomed', commit: true });
    const doomedBase = `/${doomed.fullPath}`;
    const read = () => t.request('GET', `/api/v3/projects/${doomed.id}`, { token: owner.token });

    await web.get(`${doomedBase}/edit`);
    assert.equal((await web.request('POST', `${doomedBase}/archive`, {})).status, 422);
    assert.equal((await read()).body.archived, false);
    assert.equal((await web.post(`${doomedBase}/archive`)).status, 302);
    assert.equal((await read()).body.archived, true);
    assert.match((await web.get(`${doomedBase}/edit`)).text, /Unarchive project/);
    assert.equal((await web.post(`${doomedBase}/unarchive`)).status, 302);
    assert.equal((await read()).body.archived, false);

    // A master who is not an owner may edit, but not archive.
    const master = await createUser(t, 'mara');
    await addProjectMember(t, doomed.id, master.id, 40);
    const asMaster = await clientOf(master);
    assert.equal((await asMaster.get(`${doomedBase}/edit`)).status, 200);
    assert.equal((await asMaster.post(`${doomedBase}/archive`)).status, 403);
    assert.equal((await read()).body.archived, false);

    const edit = await web.get(`${doomedBase}/edit`);
    assert.match(edit.text, new RegExp(`<option value="${group}">movers</option>`));
    assert.equal(
      (await web.request('POST', `${doomedBase}/transfer`, { new_namespace_id: String(group) })).status,
      422,
    );
    const moved = await web.post(`${doomedBase}/transfer`, { new_namespace_id: String(group) });
    assert.equal(moved.status, 302);
    assert.equal(moved.headers.location, '/movers/doomed/edit?done=transferred');
    assert.equal((await read()).body.path_with_namespace, 'movers/doomed');

    await web.get('/movers/doomed/edit');
    const wrong = await web.post('/movers/doomed/delete', { confirm_path: 'nope' });
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /Type the project's path, doomed, to confirm/);
    assert.equal((await read()).status, 200);
    assert.equal(
      (await web.request('POST', '/movers/doomed/delete', { confirm_path: 'doomed' })).status,
      422,
    );
    assert.equal((await read()).status, 200);
    const removed = await web.post('/movers/doomed/delete', { confirm_path: 'doomed' });
    assert.equal(removed.status, 302);
    assert.equal((await read()).status, 404);
  });

  it('members: add by username with a level and expiry, change, remove; share with a group', async () => {
    const members = () => api('/members');
    const level = async (username: string) =>
      (await members()).body.find((m: { username: string }) => m.username === username);
    await web.get(`${base}/project_members`);
    const form = { username: 'stan', access_level: '20', expires_at: '2099-01-31' };
    assert.equal((await web.request('POST', `${base}/project_members`, form)).status, 422);
    assert.equal(await level('stan'), undefined);
    const added = await web.post(`${base}/project_members`, form);
    assert.equal(added.status, 302);
    assert.equal(added.headers.location, `${base}/project_members?done=member`);
    assert.deepEqual(
      { level: (await level('stan')).access_level, expires: (await level('stan')).expires_at },
      { level: 20, expires: '2099-01-31' },
    );
    const unknown = await web.post(`${base}/project_members`, { ...form, username: 'nobody-here' });
    assert.equal(unknown.status, 422);
    assert.match(unknown.text, /User Not Found/);
    assert.match(unknown.text, /value="nobody-here"/);
    const badDate = await web.post(`${base}/project_members`, { ...form, expires_at: '2099-02-30' });
    assert.equal(badDate.status, 422);
    assert.match(badDate.text, /expires_at is invalid/);

    const page = await web.get(`${base}/project_members`);
    assert.match(page.text, /@stan/);
    assert.equal(
      (await web.request('POST', `${base}/project_members/${stranger.id}`, { access_level: '30' })).status,
      422,
    );
    assert.equal((await level('stan')).access_level, 20);
    assert.equal(
      (await web.post(`${base}/project_members/${stranger.id}`, { access_level: '30', expires_at: '' }))
        .status,
      302,
    );
    assert.deepEqual(
      { level: (await level('stan')).access_level, expires: (await level('stan')).expires_at },
      { level: 30, expires: null },
    );
    assert.equal(
      (await web.request('POST', `${base}/project_members/${stranger.id}/delete`, {})).status,
      422,
    );
    assert.notEqual(await level('stan'), undefined);
    assert.equal((await web.post(`${base}/project_members/${stranger.id}/delete`)).status, 302);
    assert.equal(await level('stan'), undefined);

    const group = await createGroup(t, 'sharers');
    await web.get(`${base}/project_members`);
    const share = { link_group: 'sharers', link_group_access: '20', expires_at: '' };
    assert.equal((await web.request('POST', `${base}/group_links`, share)).status, 422);
    assert.deepEqual((await api('')).body.shared_with_groups, []);
    assert.equal((await web.post(`${base}/group_links`, share)).status, 302);
    assert.deepEqual((await api('')).body.shared_with_groups, [
      { group_id: group, group_name: 'Group sharers', group_access_level: 20 },
    ]);
    const twice = await web.post(`${base}/group_links`, share);
    assert.equal(twice.status, 422);
    assert.match(twice.text, /already shared/);
  });

  it('protected branches: protect with developer rights, change them, unprotect', async () => {
    const branch = async () => (await api('/repository/branches/master')).body;
    await web.get(`${base}/protected_branches`);
    const form = { name: 'master', developers_can_push: '1' };
    assert.equal((await web.request('POST', `${base}/protected_branches`, form)).status, 422);
    assert.equal((await branch()).protected, false);
    assert.equal((await web.post(`${base}/protected_branches`, form)).status, 302);
    assert.deepEqual(
      [
        (await branch()).protected,
        (await branch()).developers_can_push,
        (await branch()).developers_can_merge,
      ],
      [true, true, false],
    );
    assert.equal(
      (await web.post(`${base}/protected_branches`, { name: 'master', developers_can_merge: '1' })).status,
      302,
    );
    assert.deepEqual(
      [(await branch()).developers_can_push, (await branch()).developers_can_merge],
      [false, true],
    );
    const page = await web.get(`${base}/protected_branches`);
    assert.match(page.text, /Unprotect master/);
    const missing = await web.post(`${base}/protected_branches`, { name: 'no-such-branch' });
    assert.equal(missing.status, 422);
    assert.match(missing.text, /Branch Not Found/);
    assert.equal(
      (await web.request('POST', `${base}/protected_branches/unprotect`, { name: 'master' })).status,
      422,
    );
    assert.equal((await branch()).protected, true);
    assert.equal((await web.post(`${base}/protected_branches/unprotect`, { name: 'master' })).status, 302);
    assert.equal((await branch()).protected, false);
  });

  it('webhooks: add (a bad URL is shown on the form), edit, test, the delivery log and resend, delete', async () => {
    const receiver = await startReceiver();
    try {
      const hooks = async () => (await api('/hooks')).body;
      await web.get(`${base}/hooks`);
      const bad = await web.post(`${base}/hooks`, { 'hook[url]': 'not a url', 'hook[issues_events]': '1' });
      assert.equal(bad.status, 422);
      assert.match(bad.text, /Invalid url given/);
      assert.match(bad.text, /value="not a url"/);
      const form = {
        'hook[url]': `${receiver.url}/first`,
        'hook[push_events]': '1',
        'hook[note_events]': '1',
      };
      assert.equal((await web.request('POST', `${base}/hooks`, form)).status, 422);
      assert.deepEqual(await hooks(), []);
      assert.equal((await web.post(`${base}/hooks`, form)).status, 302);
      const [hook] = await hooks();
      assert.deepEqual(
        [hook.url, hook.push_events, hook.note_events, hook.issues_events, hook.enable_ssl_verification],
        [`${receiver.url}/first`, true, true, false, false],
      );

      const edit = await web.get(`${base}/hooks/${hook.id}/edit`);
      assert.equal(edit.status, 200);
      assert.doesNotMatch(edit.text, /Recent deliveries/);
      const changed = { 'hook[url]': `${receiver.url}/second`, 'hook[build_events]': '1' };
      assert.equal((await web.request('POST', `${base}/hooks/${hook.id}`, changed)).status, 422);
      assert.equal((await hooks())[0].url, `${receiver.url}/first`);
      assert.equal((await web.post(`${base}/hooks/${hook.id}`, changed)).status, 302);
      const [saved] = await hooks();
      assert.deepEqual(
        [saved.url, saved.push_events, saved.build_events],
        [`${receiver.url}/second`, false, true],
      );

      // Test: 8.13's sample push of the default branch, to this hook whatever its switches.
      assert.equal((await web.request('POST', `${base}/hooks/${hook.id}/test`, {})).status, 422);
      const tested = await web.post(`${base}/hooks/${hook.id}/test`);
      assert.equal(tested.status, 302);
      assert.equal(tested.headers.location, `${base}/hooks/${hook.id}/edit?done=hook_tested`);
      await t.server.hookWorker.drain();
      const [received] = await receiver.waitFor(1);
      assert.equal(received.url, new URL(`${receiver.url}/second`).pathname);
      assert.equal(received.headers['x-gitlab-event'], 'Push Hook');
      assert.equal(received.body.ref, 'refs/heads/master');
      assert.equal(received.body.user_name, owner.name);
      // The repository has one commit: the sample is that commit.
      const head = (await api('/repository/branches/master')).body.commit.id;
      assert.deepEqual(
        received.body.commits.map((c: { id: string }) => c.id),
        [head],
      );
      assert.equal(received.body.total_commits_count, 1);
      assert.equal(received.body.after, head);

      // The delivery log and resend are the administrators', as in the API.
      assert.equal((await web.post(`${base}/hooks/${hook.id}/deliveries/1/resend`)).status, 403);
      const admin = new WebClient(t);
      assert.equal((await admin.signIn('root', t.rootPassword)).status, 302);
      const log = await admin.get(`${base}/hooks/${hook.id}/edit`);
      const delivery = /Resend delivery (\d+)/.exec(log.text);
      assert.ok(delivery, 'the delivery log lists the test delivery');
      assert.match(log.text, /HTTP 200/);
      assert.equal(
        (await admin.request('POST', `${base}/hooks/${hook.id}/deliveries/${delivery[1]}/resend`, {})).status,
        422,
      );
      assert.equal(
        (await admin.post(`${base}/hooks/${hook.id}/deliveries/${delivery[1]}/resend`)).status,
        302,
      );
      const deliveries = await t.request(
        'GET',
        `/api/v3/projects/${project.id}/hooks/${hook.id}/deliveries`,
        {
          token: t.rootToken,
        },
      );
      assert.equal(deliveries.body.length, 2);
      assert.deepEqual(deliveries.body[0].payload, deliveries.body[1].payload);
      await t.server.hookWorker.drain();
      assert.equal((await receiver.waitFor(2)).length, 2);

      await web.get(`${base}/hooks`);
      assert.equal((await web.request('POST', `${base}/hooks/${hook.id}/delete`, {})).status, 422);
      assert.equal((await hooks()).length, 1);
      assert.equal((await web.post(`${base}/hooks/${hook.id}/delete`)).status, 302);
      assert.deepEqual(await hooks(), []);
    } finally {
      await receiver.close();
    }
  });

  it('testing a webhook of a project without commits says so and sends nothing', async () => {
    const empty = await createProject(t, { owner, path: 'empty-one' });
    const hook = await t.request('POST', `/api/v3/projects/${empty.id}/hooks`, {
      token: owner.token,
      body: { url: 'http://127.0.0.1:9/never' },
    });
    assert.equal(hook.status, 201);
    await web.get(`/${empty.fullPath}/hooks`);
    const tested = await web.post(`/${empty.fullPath}/hooks/${hook.body.id}/test`);
    assert.equal(tested.status, 422);
    assert.match(tested.text, /Hook execution failed\. Ensure the project has commits\./);
    const deliveries = await t.request(
      'GET',
      `/api/v3/projects/${empty.id}/hooks/${hook.body.id}/deliveries`,
      {
        token: t.rootToken,
      },
    );
    assert.deepEqual(deliveries.body, []);
  });

  it('deploy keys: add (a bad key is shown on the form), remove', async () => {
    const keys = async () => (await api('/deploy_keys')).body;
    const key = makeKey(keyDir, 'deployer');
    await web.get(`${base}/deploy_keys`);
    const form = { 'deploy_key[title]': 'ci box', 'deploy_key[key]': key.publicKey };
    assert.equal((await web.request('POST', `${base}/deploy_keys`, form)).status, 422);
    assert.deepEqual(await keys(), []);
    const bad = await web.post(`${base}/deploy_keys`, {
      'deploy_key[title]': 'junk',
      'deploy_key[key]': 'ssh-rsa nonsense',
    });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /key/);
    assert.match(bad.text, /value="junk"/);
    assert.equal((await web.post(`${base}/deploy_keys`, form)).status, 302);
    const [added] = await keys();
    assert.deepEqual([added.title, added.key], ['ci box', key.publicKey]);
    assert.equal((await web.request('POST', `${base}/deploy_keys/${added.id}/disable`, {})).status, 422);
    assert.equal((await keys()).length, 1);
    await web.get(`${base}/deploy_keys`);
    assert.equal((await web.post(`${base}/deploy_keys/${added.id}/disable`)).status, 302);
    assert.deepEqual(await keys(), []);
  });

  it('variables: add (a duplicate key keeps the typed input), change, remove', async () => {
    const variables = async () => (await api('/variables')).body;
    await web.get(`${base}/variables`);
    const form = { 'variable[key]': 'DEPLOY_TOKEN', 'variable[value]': 's3cret' };
    assert.equal((await web.request('POST', `${base}/variables`, form)).status, 422);
    assert.deepEqual(await variables(), []);
    assert.equal((await web.post(`${base}/variables`, form)).status, 302);
    assert.deepEqual(await variables(), [{ key: 'DEPLOY_TOKEN', value: 's3cret' }]);
    const page = await web.get(`${base}/variables`);
    // Hidden until asked: inside a closed disclosure.
    assert.match(page.text, /<details><summary>Show and change the value of DEPLOY_TOKEN<\/summary>/);
    const twice = await web.post(`${base}/variables`, { ...form, 'variable[value]': 'other' });
    assert.equal(twice.status, 422);
    assert.match(twice.text, /Key has already been taken/);
    assert.match(twice.text, />other<\/textarea>/);
    const bad = await web.post(`${base}/variables`, { 'variable[key]': 'NO SPACES', 'variable[value]': 'x' });
    assert.equal(bad.status, 422);
    assert.match(
      bad.text,
      /can contain only letters, digits and &#39;_&#39;|can contain only letters, digits and '_'/,
    );

    assert.equal(
      (await web.request('POST', `${base}/variables/DEPLOY_TOKEN`, { 'variable[value]': 'new' })).status,
      422,
    );
    assert.deepEqual(await variables(), [{ key: 'DEPLOY_TOKEN', value: 's3cret' }]);
    assert.equal(
      (await web.post(`${base}/variables/DEPLOY_TOKEN`, { 'variable[value]': 'new' })).status,
      302,
    );
    assert.deepEqual(await variables(), [{ key: 'DEPLOY_TOKEN', value: 'new' }]);
    assert.equal((await web.request('POST', `${base}/variables/DEPLOY_TOKEN/delete`, {})).status, 422);
    assert.equal((await variables()).length, 1);
    assert.equal((await web.post(`${base}/variables/DEPLOY_TOKEN/delete`)).status, 302);
    assert.deepEqual(await variables(), []);
  });

  it('triggers: add one, the page shows the curl line with its token, revoke it', async () => {
    const triggers = async () => (await api('/triggers')).body;
    await web.get(`${base}/triggers`);
    assert.equal((await web.request('POST', `${base}/triggers`, {})).status, 422);
    assert.deepEqual(await triggers(), []);
    assert.equal((await web.post(`${base}/triggers`)).status, 302);
    const [trigger] = await triggers();
    const page = await web.get(`${base}/triggers?done=trigger`);
    assert.ok(
      page.text.includes(
        `-F token=${trigger.token} \\\n  -F ref=REF_NAME \\\n  http://labrador.test/api/v3/projects/${project.id}/trigger/builds`,
      ),
    );
    assert.equal((await web.request('POST', `${base}/triggers/${trigger.token}/delete`, {})).status, 422);
    assert.equal((await triggers()).length, 1);
    assert.equal((await web.post(`${base}/triggers/${trigger.token}/delete`)).status, 302);
    assert.deepEqual(await triggers(), []);
  });

  it('runners: the registration token and its reset; enable and disable a specific runner', async () => {
    const token = async () => (await api('')).body.runners_token as string;
    const before = await token();
    const page = await web.get(`${base}/runners`);
    assert.ok(page.text.includes(`<code id="runners-token">${before}</code>`));
    assert.ok(page.text.includes('<code>http://labrador.test/ci</code>'));
    assert.equal((await web.request('POST', `${base}/runners/reset_token`, {})).status, 422);
    assert.equal(await token(), before);
    assert.equal((await web.post(`${base}/runners/reset_token`)).status, 302);
    const after = await token();
    assert.notEqual(after, before);

    // One runner of this project, one of another project the owner manages.
    const other = await createProject(t, { owner, path: 'elsewhere' });
    const register = async (registration: string, description: string) => {
      const response = await t.request('POST', '/ci/api/v1/runners/register', {
        body: { token: registration, description },
      });
      assert.equal(response.status, 201);
      return response.body.id as number;
    };
    const own = await register(after, 'own runner');
    const foreign = await register(other.runners_token, 'borrowed runner');
    const runnerIds = async () =>
      ((await api('/runners')).body as Array<{ id: number }>)
        .map((runner) => runner.id)
        .sort((a, b) => a - b);
    assert.deepEqual(await runnerIds(), [own]);
    const listed = await web.get(`${base}/runners`);
    assert.match(listed.text, new RegExp(`Disable runner ${own} for this project`));
    assert.match(listed.text, new RegExp(`Enable runner ${foreign} for this project`));
    assert.equal((await web.request('POST', `${base}/runners`, { runner_id: String(foreign) })).status, 422);
    assert.deepEqual(await runnerIds(), [own]);
    assert.equal((await web.post(`${base}/runners`, { runner_id: String(foreign) })).status, 302);
    assert.deepEqual(
      await runnerIds(),
      [own, foreign].sort((a, b) => a - b),
    );
    await web.get(`${base}/runners`);
    assert.equal((await web.request('POST', `${base}/runners/${foreign}/disable`, {})).status, 422);
    assert.equal((await web.post(`${base}/runners/${foreign}/disable`)).status, 302);
    assert.deepEqual(await runnerIds(), [own]);
    // The last project of a runner is kept (the API's refusal, shown on the page).
    const last = await web.post(`${base}/runners/${own}/disable`);
    assert.equal(last.status, 422);
    assert.match(last.text, /Only one project associated with the runner/);
  });

  it('pipelines settings: timeout, coverage regex and public builds', async () => {
    await web.get(`${base}/pipelines/settings`);
    const form = { build_timeout_in_minutes: '30', build_coverage_regex: '\\d+\\.\\d+% covered' };
    assert.equal((await web.request('POST', `${base}/pipelines/settings`, form)).status, 422);
    assert.equal((await api('')).body.public_builds, true);
    assert.equal((await web.post(`${base}/pipelines/settings`, form)).status, 302);
    assert.equal((await api('')).body.public_builds, false);
    const page = await web.get(`${base}/pipelines/settings`);
    assert.match(page.text, /name="build_timeout_in_minutes" min="10" value="30"/);
    assert.ok(page.text.includes('value="\\d+\\.\\d+% covered"'));
    const bad = await web.post(`${base}/pipelines/settings`, {
      build_timeout_in_minutes: '5',
      build_coverage_regex: '(unclosed',
      public_builds: '1',
    });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /Build timeout needs to be a whole number of minutes from 10/);
    assert.match(bad.text, /Build coverage regex is not a valid regular expression/);
    assert.match(bad.text, /value="\(unclosed"/);
    assert.equal((await api('')).body.public_builds, false);
    assert.equal((await web.post(`${base}/pipelines/settings`, { ...form, public_builds: '1' })).status, 302);
    assert.equal((await api('')).body.public_builds, true);
  });

  it('the list pages run a fixed number of queries, however long their lists', async () => {
    const counted = await createProject(t, { owner, path: 'counted', commit: true });
    const countedBase = `/${counted.fullPath}`;
    const tails = ['/project_members', '/hooks', '/variables', '/triggers', '/deploy_keys', '/runners'];
    const queriesOf = async (url: string) => {
      let count = 0;
      t.server.deps.db.onQuery = () => {
        count += 1;
      };
      try {
        assert.equal((await web.get(url)).status, 200, url);
      } finally {
        t.server.deps.db.onQuery = undefined;
      }
      return count;
    };
    const add = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const user = await createUser(t, `counted${i}`);
        await addProjectMember(t, counted.id, user.id, 20);
        const body = { url: `http://127.0.0.1:9/hook${i}`, key: `KEY_${i}`, value: 'v' };
        for (const resource of ['hooks', 'variables', 'triggers']) {
          const created = await t.request('POST', `/api/v3/projects/${counted.id}/${resource}`, {
            token: owner.token,
            body,
          });
          assert.equal(created.status, 201);
        }
        const key = makeKey(keyDir, `counted${i}`);
        const deployKey = await t.request('POST', `/api/v3/projects/${counted.id}/deploy_keys`, {
          token: owner.token,
          body: { title: `key ${i}`, key: key.publicKey },
        });
        assert.equal(deployKey.status, 201);
      }
    };
    // Measured: 4 queries a page (5 for runners) with one row or with eight.
    await add(0, 1);
    const few = [];
    for (const tail of tails) few.push(await queriesOf(`${countedBase}${tail}`));
    await add(1, 8);
    const many = [];
    for (const tail of tails) many.push(await queriesOf(`${countedBase}${tail}`));
    assert.deepEqual(many, few);
  });

  it('a developer is refused every settings page and form (403); a stranger sees none (404)', async () => {
    const pages = [
      '/edit',
      '/project_members',
      '/protected_branches',
      '/hooks',
      '/deploy_keys',
      '/variables',
      '/triggers',
      '/runners',
      '/pipelines/settings',
    ];
    const forms = [
      '',
      '/archive',
      '/unarchive',
      '/transfer',
      '/delete',
      '/project_members',
      `/project_members/${owner.id}`,
      `/project_members/${owner.id}/delete`,
      '/group_links',
      '/protected_branches',
      '/protected_branches/unprotect',
      '/hooks',
      '/deploy_keys',
      '/variables',
      '/triggers',
      '/runners',
      '/runners/reset_token',
      '/pipelines/settings',
    ];
    const asDeveloper = await clientOf(developer);
    const asStranger = await clientOf(stranger);
    await asDeveloper.get(base);
    await asStranger.get('/');
    const seen = await t.request('GET', `/api/v3/projects/${project.id}`, { token: stranger.token });
    assert.equal(seen.status, 404, JSON.stringify(seen.body));
    for (const path of pages) {
      assert.equal((await asDeveloper.get(`${base}${path}`)).status, 403, path);
      assert.equal((await asStranger.get(`${base}${path}`)).status, 404, path);
    }
    for (const path of forms) {
      assert.equal((await asDeveloper.post(`${base}${path}`, { confirm_path: 'settled' })).status, 403, path);
      assert.equal((await asStranger.post(`${base}${path}`, { confirm_path: 'settled' })).status, 404, path);
    }
    // Signed out: asked to sign in.
    const anonymous = await new WebClient(t).get(`${base}/edit`);
    assert.equal(anonymous.status, 302);
    assert.match(String(anonymous.headers.location), /^\/users\/sign_in\?redirect_to=/);
    assert.equal((await api('')).status, 200);
  });
});
