// The project settings pages as a browser without script uses them: each form changes what the API then
// reads back, a developer is refused (403) and a stranger sees nothing (404), and a form sent without
// its token changes nothing (422).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
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

describe('pages: project settings', () => {
  let t: TestApp;
  let owner: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let web: WebClient;
  let base: string;
  const api = (path: string) =>
    t.request('GET', `/api/v3/projects/${project.id}${path}`, { token: owner.token });

  before(async () => {
    t = await startTestApp();
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

  it('a developer is refused every settings page and form (403); a stranger sees none (404)', async () => {
    const pages = ['/edit'];
    const forms = ['', '/archive', '/unarchive', '/transfer', '/delete'];
    const asDeveloper = await clientOf(developer);
    const asStranger = await clientOf(stranger);
    await asDeveloper.get(base);
    await asStranger.get('/');
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
