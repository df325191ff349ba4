// The wiki pages as a browser without script uses them, checked against the v4 API and the hooks: a
// developer creates, edits (with a message), renames and a master deletes a page through the forms; the
// page renders its Markdown with links between pages; history, the page list and git access; who sees
// what (reporters read, developers write, a stranger of a private project and a wiki that is off: 404).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProjectTeam, type ProjectTeam, type TestUser } from '../helpers/factory.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { signedInClient, WebClient } from '../helpers/web.ts';

describe('pages: wikis', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let receiver: Receiver;
  let base = '';

  const signedIn = (user: TestUser) => signedInClient(t, user);
  const api = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, `/api/v4/projects/${team.project.id}${url}`, { token, body });

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'wikipages', {
      owner: 'wpowner',
      developer: 'wpdev',
      reporter: 'wpreporter',
      stranger: 'wpstranger',
    });
    base = `/${team.project.fullPath}`;
    receiver = await startReceiver();
    const hook = await api('POST', '/hooks', team.owner.token, { url: receiver.url, wiki_page_events: true });
    assert.equal(hook.status, 201, hook.text);
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('a developer creates, edits and renames pages in the forms; the API and the hooks see each write', async () => {
    const web = await signedIn(team.developer);
    assert.equal((await web.get(`${base}/wikis`)).headers.location, `${base}/wikis/home`);
    // A page that is not there yet is the form that writes it, for who may write.
    const missing = await web.get(`${base}/wikis/home`);
    assert.equal(missing.status, 200);
    assert.match(missing.text, /name="wiki\[title\]" value="home"/);
    assert.match(missing.text, /aria-current="page"[^>]*>Wiki</);
    const form = await web.get(`${base}/wikis/new`);
    assert.equal(form.status, 200);
    assert.match(form.text, /Create page/);

    const made = await web.post(`${base}/wikis`, {
      'wiki[title]': 'home',
      'wiki[format]': 'markdown',
      'wiki[content]': '# Welcome\n\nSee [[Setup Guide]] and [the rules](rules).',
      'wiki[message]': 'First page',
    });
    assert.equal(made.status, 302, made.text);
    assert.equal(made.headers.location, `${base}/wikis/home?done=updated`);
    const shown = await web.get(`${base}/wikis/home?done=updated`);
    assert.equal(shown.status, 200);
    assert.match(shown.text, /Wiki was successfully updated\./);
    assert.match(shown.text, /<h1[^>]*>Welcome<\/h1>/);
    assert.match(shown.text, new RegExp(`href="${base}/wikis/Setup-Guide"`));
    assert.match(shown.text, new RegExp(`href="${base}/wikis/rules"`));
    assert.match(shown.text, /last edited by/);
    assert.match(shown.text, />Edit</);
    assert.doesNotMatch(shown.text, />Delete</, 'deleting is for masters');

    const duplicate = await web.post(`${base}/wikis`, { 'wiki[title]': 'Home', 'wiki[content]': 'again' });
    assert.equal(duplicate.status, 200);
    assert.match(duplicate.text, /A page with that title already exists/);
    const blank = await web.post(`${base}/wikis`, { 'wiki[title]': 'Empty', 'wiki[content]': '' });
    assert.match(blank.text, /Content can&#39;t be blank|Content can't be blank/);

    const edit = await web.get(`${base}/wikis/home/edit`);
    assert.equal(edit.status, 200);
    const lastSha = /name="wiki\[last_commit_sha\]" value="([0-9a-f]{40})"/.exec(edit.text)?.[1];
    assert.ok(lastSha, 'the form carries the page version it edits');
    const updated = await web.post(`${base}/wikis/home`, {
      'wiki[title]': 'home',
      'wiki[format]': 'markdown',
      'wiki[content]': 'Welcome, updated',
      'wiki[message]': 'Say more',
      'wiki[last_commit_sha]': lastSha,
    });
    assert.equal(updated.status, 302, updated.text);
    const page = await api('GET', '/wikis/home', team.reporter.token);
    assert.equal(page.body.content, 'Welcome, updated');

    // The same old form again: someone edited the page meanwhile.
    const stale = await web.post(`${base}/wikis/home`, {
      'wiki[title]': 'home',
      'wiki[content]': 'Lost edit',
      'wiki[last_commit_sha]': lastSha,
    });
    assert.equal(stale.status, 200);
    assert.match(stale.text, /Someone edited the page the same time you did/);

    await web.post(`${base}/wikis`, { 'wiki[title]': 'Setup Guide', 'wiki[content]': 'Step one' });
    const renamed = await web.post(`${base}/wikis/Setup-Guide`, {
      'wiki[title]': 'Install Guide',
      'wiki[content]': 'Step one, two',
    });
    assert.equal(renamed.headers.location, `${base}/wikis/Install-Guide?done=updated`);
    const list = await api('GET', '/wikis', team.reporter.token);
    assert.deepEqual(
      list.body.map((entry: { slug: string }) => entry.slug),
      ['Install-Guide', 'home'],
    );

    const history = await web.get(`${base}/wikis/home/history`);
    assert.equal(history.status, 200);
    assert.match(history.text, /Say more/);
    assert.match(history.text, /First page/);
    assert.ok(history.text.indexOf('Say more') < history.text.indexOf('First page'), 'newest first');
    const firstSha = [...history.text.matchAll(/version_id=([0-9a-f]{40})/g)].map((m) => m[1]);
    assert.equal(firstSha.length, 1, 'the newest version links to the page itself');
    const old = await web.get(`${base}/wikis/home?version_id=${firstSha[0]}`);
    assert.match(old.text, /This is an old version of this page/);
    assert.match(old.text, /See /);
    assert.equal((await web.get(`${base}/wikis/home?version_id=${'0'.repeat(40)}`)).status, 404);

    const pages = await web.get(`${base}/wikis/pages`);
    assert.equal(pages.status, 200);
    assert.match(
      pages.text,
      new RegExp(`href="${base}/wikis/Install-Guide">Install Guide</a> <small>\\(markdown\\)`),
    );
    assert.match(pages.text, /Last edited/);

    const access = await web.get(`${base}/wikis/git_access`);
    assert.equal(access.status, 200);
    assert.match(access.text, new RegExp(`${team.project.fullPath}\\.wiki\\.git`));

    await t.server.hookWorker.drain();
    const received = await receiver.waitFor(4);
    assert.deepEqual(
      received
        .map((hook) => `${hook.body.object_attributes.action} ${hook.body.object_attributes.slug}`)
        .sort(),
      ['create Setup-Guide', 'create home', 'update Install-Guide', 'update home'],
    );
    const update = received.find((hook) => hook.body.object_attributes.message === 'Say more');
    assert.equal(update?.body.user.username, team.developer.username);
  });

  it('a master deletes a page; the list no longer has it and the hook says delete', async () => {
    const master = await signedIn(team.owner);
    const shown = await master.get(`${base}/wikis/Install-Guide`);
    assert.match(shown.text, /name="_method" value="delete"/);
    const developer = await signedIn(team.developer);
    await developer.get(`${base}/wikis/Install-Guide`);
    const refused = await developer.post(`${base}/wikis/Install-Guide`, { _method: 'delete' });
    assert.equal(refused.status, 404);
    const deleted = await master.post(`${base}/wikis/Install-Guide`, { _method: 'delete' });
    assert.equal(deleted.status, 302);
    assert.equal(deleted.headers.location, `${base}/wikis/home?done=deleted`);
    assert.match(
      (await master.get(deleted.headers.location as string)).text,
      /Page was successfully deleted/,
    );
    const gone = await api('GET', '/wikis/Install-Guide', team.reporter.token);
    assert.equal(gone.status, 404);
    await t.server.hookWorker.drain();
    const received = await receiver.waitFor(5);
    assert.ok(received.some((hook) => hook.body.object_attributes.action === 'delete'));
  });

  it('reporters read but do not write; strangers and visitors of a private project do not see it', async () => {
    const reporter = await signedIn(team.reporter);
    const home = await reporter.get(`${base}/wikis/home`);
    assert.equal(home.status, 200);
    assert.doesNotMatch(home.text, />Edit</);
    assert.equal((await reporter.get(`${base}/wikis/pages`)).status, 200);
    assert.equal((await reporter.get(`${base}/wikis/home/edit`)).status, 404);
    assert.equal((await reporter.get(`${base}/wikis/home/history`)).status, 404);
    const missing = await reporter.get(`${base}/wikis/nothing-here`);
    assert.equal(missing.status, 200);
    assert.match(missing.text, /You are not allowed to create wiki pages/);
    const refused = await reporter.post(`${base}/wikis`, { 'wiki[title]': 'x', 'wiki[content]': 'y' });
    assert.equal(refused.status, 404);
    const edited = await reporter.post(`${base}/wikis/home`, { 'wiki[content]': 'vandal' });
    assert.equal(edited.status, 404);
    assert.equal((await api('GET', '/wikis/home', team.reporter.token)).body.content, 'Welcome, updated');

    const stranger = await signedIn(team.stranger);
    for (const path of [
      '/wikis',
      '/wikis/home',
      '/wikis/pages',
      '/wikis/git_access',
      '/wikis/home/history',
    ]) {
      assert.equal((await stranger.get(`${base}${path}`)).status, 404, path);
    }
    const visitor = new WebClient(t);
    const asked = await visitor.get(`${base}/wikis/home`);
    assert.equal(asked.status, 302);
    assert.match(String(asked.headers.location), /^\/users\/sign_in/);
  });

  it('a wiki that is off has no tab and no pages', async () => {
    const web = await signedIn(team.owner);
    assert.match((await web.get(base)).text, />Wiki</);
    const off = await t.request('PUT', `/api/v4/projects/${team.project.id}`, {
      token: team.owner.token,
      body: { wiki_enabled: false },
    });
    assert.equal(off.status, 200, off.text);
    assert.doesNotMatch((await web.get(base)).text, />Wiki</);
    assert.equal((await web.get(`${base}/wikis/home`)).status, 404);
    assert.equal((await web.get(`${base}/wikis/pages`)).status, 404);
    await t.request('PUT', `/api/v4/projects/${team.project.id}`, {
      token: team.owner.token,
      body: { wiki_enabled: true },
    });
  });
});
