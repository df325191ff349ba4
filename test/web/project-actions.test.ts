// The project page's Star and Fork buttons as a browser without script uses them, checked through the
// API: toggle_star stars then unstars (star_count), the fork form lists namespaces and makes the fork
// (forked_from_project, a "Forked from" line), and refusals: hidden projects 404, a fork into a
// namespace that already holds the path is refused on the page, posts without the form token 422 and
// change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { WebClient } from '../helpers/web.ts';

describe('pages: star and fork', () => {
  let t: TestApp;
  let owner: TestUser;
  let fan: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let secret: TestProject;

  const api = (method: string, url: string, token = owner.token) => t.request(method, url, { token });
  const signedIn = async (user: TestUser) => {
    const web = new WebClient(t);
    assert.equal((await web.signIn(user.username, user.password)).status, 302);
    return web;
  };
  const starCount = async (id: number) => {
    const shown = await api('GET', `/api/v3/projects/${id}`);
    assert.equal(shown.status, 200);
    return shown.body.star_count as number;
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'stella');
    fan = await createUser(t, 'fanny');
    stranger = await createUser(t, 'strom');
    project = await createProject(t, { owner, path: 'shiny', visibility: 20, commit: true });
    secret = await createProject(t, { owner, path: 'vault', visibility: 0, commit: true });
  });
  after(() => t.close());

  it('toggle_star stars the project, and a second press takes the star back', async () => {
    const web = await signedIn(fan);
    const page = await web.get(`/${project.fullPath}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /action="\/stella\/shiny\/toggle_star"/);
    assert.match(page.text, /aria-pressed="false">☆ Star<\/button>/);

    const starred = await web.post(`/${project.fullPath}/toggle_star`);
    assert.equal(starred.status, 302);
    assert.equal(starred.headers.location, '/stella/shiny');
    assert.equal(await starCount(project.id), 1);
    const after = await web.get(`/${project.fullPath}`);
    assert.match(after.text, /aria-pressed="true">★ Unstar<\/button>/);
    assert.match(after.text, /aria-label="Stars">1<\/span>/);

    assert.equal((await web.post(`/${project.fullPath}/toggle_star`)).status, 302);
    assert.equal(await starCount(project.id), 0);
  });

  it('a star without the form token, or from a signed-out browser, changes nothing', async () => {
    const web = await signedIn(fan);
    await web.get(`/${project.fullPath}`);
    const forged = await web.post(`/${project.fullPath}/toggle_star`, { authenticity_token: 'forged' });
    assert.equal(forged.status, 422);
    const anonymous = new WebClient(t);
    const page = await anonymous.get(`/${project.fullPath}`);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /toggle_star/);
    assert.equal((await anonymous.post(`/${project.fullPath}/toggle_star`)).status, 401);
    assert.equal(await starCount(project.id), 0);
  });

  it('a project the viewer may not see answers 404 to star and fork, and nothing is made', async () => {
    const web = await signedIn(stranger);
    await web.get('/');
    assert.equal((await web.post(`/${secret.fullPath}/toggle_star`)).status, 404);
    assert.equal((await web.get(`/${secret.fullPath}/forks/new`)).status, 404);
    assert.equal((await web.post(`/${secret.fullPath}/forks`, { namespace_key: '' })).status, 404);
    assert.equal(await starCount(secret.id), 0);
    const owned = await api('GET', '/api/v3/projects/owned', stranger.token);
    assert.equal(owned.status, 200);
    assert.deepEqual(owned.body, []);
  });

  it('forks into a chosen namespace, opens the fork, and the fork says where it came from', async () => {
    const web = await signedIn(fan);
    const page = await web.get(`/${project.fullPath}`);
    assert.match(page.text, /href="\/stella\/shiny\/forks\/new"/);
    const form = await web.get(`/${project.fullPath}/forks/new`);
    assert.equal(form.status, 200);
    assert.match(form.text, /Fork to fanny<\/button>/);
    const namespaceId = /name="namespace_key" value="(\d+)"/.exec(form.text)?.[1];
    assert.ok(namespaceId);

    const forked = await web.post(`/${project.fullPath}/forks`, { namespace_key: namespaceId });
    assert.equal(forked.status, 302, forked.text);
    assert.equal(forked.headers.location, '/fanny/shiny?done=forked');
    const shown = await api('GET', '/api/v3/projects/fanny%2Fshiny', fan.token);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.forked_from_project.path_with_namespace, 'stella/shiny');
    assert.equal(shown.body.default_branch, 'master');

    const fork = await web.get(String(forked.headers.location));
    assert.equal(fork.status, 200);
    assert.match(fork.text, /The project was successfully forked\./);
    assert.match(fork.text, /Forked from <a href="\/stella\/shiny">stella Name \/ shiny<\/a>/);
    assert.match(fork.text, /README\.md/);
    const source = await web.get(`/${project.fullPath}`);
    assert.match(source.text, /aria-label="Forks">1<\/span>/);

    // The namespace now holds the path: the second fork is refused on the form, and nothing is made.
    const again = await web.post(`/${project.fullPath}/forks`, { namespace_key: namespaceId });
    assert.equal(again.status, 422);
    assert.match(again.text, /The project could not be forked: .*has already been taken/);
    const list = await api('GET', `/api/v3/projects/${project.id}`);
    assert.equal(list.body.forks_count, 1);
  });

  it('a fork into a namespace the viewer may not create projects in is refused on the page', async () => {
    const web = await signedIn(stranger);
    await web.get(`/${project.fullPath}/forks/new`);
    const ownerNamespace = await api('GET', '/api/v3/namespaces?search=stella');
    const id = String(ownerNamespace.body.find((n: { path: string }) => n.path === 'stella').id);
    const refused = await web.post(`/${project.fullPath}/forks`, { namespace_key: id });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Target Namespace Not Found/);
    const none = await api('GET', '/api/v3/projects/strom%2Fshiny', stranger.token);
    assert.equal(none.status, 404);
  });
});
