// The start page, explore, user and group pages: who sees which projects, search, sort, pages, and
// what a signed-out visitor of something hidden meets.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addGroupMember, createGroup, createProject, createUser, type TestUser } from '../helpers/factory.ts';
import { WebClient } from '../helpers/web.ts';

describe('pages: project lists', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'pat', { name: 'Pat <Owner>' });
    stranger = await createUser(t, 'sam');
    await createProject(t, { owner, path: 'open-one', visibility: 20 });
    await createProject(t, { owner, path: 'inside-one', visibility: 10 });
    await createProject(t, { owner, path: 'secret-one', visibility: 0 });
    await t.server.deps.db.kysely
      .updateTable('projects')
      .set({ description: '<script>alert(1)</script> & more' })
      .where('path', '=', 'open-one')
      .execute();
    await addGroupMember(t, await createGroup(t, 'hidden-team', 0), owner.id, 50);
    await createProject(t, { owner, path: 'team-tool', namespace: 'hidden-team', visibility: 0 });
  });
  after(() => t.close());

  it('signed out, / lists only the public projects, escaped, with a sign-in link', async () => {
    const page = await new WebClient(t).get('/');
    assert.equal(page.status, 200);
    assert.match(page.text, /href="\/pat\/open-one"/);
    assert.doesNotMatch(page.text, /inside-one|secret-one|team-tool/);
    assert.match(page.text, /&lt;script>alert\(1\)&lt;\/script> &amp; more/);
    assert.doesNotMatch(page.text, /<script>alert/);
    assert.match(page.text, /href="\/users\/sign_in\?redirect_to=%2F"/);
  });

  it('signed in, / lists your projects; explore adds internal ones; starred has its own tab', async () => {
    const web = new WebClient(t);
    await web.signIn(owner.username, owner.password);
    const home = await web.get('/');
    for (const path of ['pat/open-one', 'pat/inside-one', 'pat/secret-one', 'hidden-team/team-tool']) {
      assert.match(home.text, new RegExp(`href="/${path}"`));
    }
    const other = new WebClient(t);
    await other.signIn(stranger.username, stranger.password);
    const mine = await other.get('/');
    assert.match(mine.text, /not a member of any project/);
    const explore = await other.get('/explore/projects');
    assert.match(explore.text, /pat\/open-one/);
    assert.match(explore.text, /pat\/inside-one/);
    assert.doesNotMatch(explore.text, /secret-one|team-tool/);
    const apiStar = await t.request('POST', `/api/v3/projects/${encodeURIComponent('pat/open-one')}/star`, {
      token: stranger.token,
    });
    assert.equal(apiStar.status, 201);
    const starred = await other.get('/dashboard/projects/starred');
    assert.match(starred.text, /href="\/pat\/open-one"/);
    assert.doesNotMatch(starred.text, /inside-one/);
  });

  it('explore searches, sorts by name and pages through', async () => {
    const many = await createUser(t, 'lister');
    for (let i = 0; i < 23; i++) {
      await createProject(t, { owner: many, path: `zz-${String(i).padStart(2, '0')}`, visibility: 20 });
    }
    const web = new WebClient(t);
    const found = await web.get('/explore/projects?search=zz-1');
    assert.equal((found.text.match(/href="\/lister\/zz-1\d"/g) ?? []).length, 10);
    const byName = await web.get('/explore/projects?search=zz-&sort=name_asc');
    const names = [...byName.text.matchAll(/href="\/lister\/(zz-\d\d)"/g)].map((m) => m[1]);
    assert.equal(names.length, 20);
    assert.deepEqual(names, [...names].sort());
    assert.match(byName.text, /href="\/explore\/projects\?search=zz-&amp;sort=name_asc&amp;page=2"/);
    const second = await web.get('/explore/projects?search=zz-&sort=name_asc&page=2');
    assert.deepEqual(
      [...second.text.matchAll(/href="\/lister\/(zz-\d\d)"/g)].map((m) => m[1]),
      ['zz-20', 'zz-21', 'zz-22'],
    );
    assert.equal((await web.get('/explore/projects?page=0')).status, 400);
    assert.equal((await web.get('/explore/projects?page=abc')).status, 400);
  });

  it('the user page answers at the API web_url path with the projects the visitor may see', async () => {
    const user = await t.request('GET', `/api/v3/users/${owner.id}`, { token: t.rootToken });
    const path = new URL(user.body.web_url).pathname;
    assert.equal(path, '/pat');
    const page = await new WebClient(t).get(path);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Pat &lt;Owner><\/h1>/);
    assert.match(page.text, /pat\/open-one/);
    assert.doesNotMatch(page.text, /inside-one|secret-one/);
    assert.equal((await new WebClient(t).get('/u/pat')).headers.location, '/pat');
    assert.equal((await new WebClient(t).get('/no-such-user')).status, 404);
  });

  it('a private group: 404 for a stranger, sign in and back for a visitor, its projects for a member', async () => {
    const anonymous = await new WebClient(t).get('/groups/hidden-team');
    assert.equal(anonymous.status, 302);
    assert.equal(anonymous.headers.location, '/users/sign_in?redirect_to=%2Fgroups%2Fhidden-team');
    const other = new WebClient(t);
    await other.signIn(stranger.username, stranger.password);
    assert.equal((await other.get('/groups/hidden-team')).status, 404);
    const member = new WebClient(t);
    await member.get('/users/sign_in?redirect_to=%2Fgroups%2Fhidden-team');
    const back = await member.post('/users/sign_in', {
      'user[login]': owner.username,
      'user[password]': owner.password,
      redirect_to: '/groups/hidden-team',
    });
    assert.equal(back.headers.location, '/groups/hidden-team');
    const page = await member.get('/groups/hidden-team');
    assert.equal(page.status, 200);
    assert.match(page.text, /href="\/hidden-team\/team-tool"/);
  });
});
