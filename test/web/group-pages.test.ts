// The group pages as a browser without script uses them, checked against the API: the viewer's groups and
// explore (never a group hidden from the visitor), the new group form (the group then exists through
// GET /groups, its creator its owner; a taken path is refused in words; no token, nothing made), and a
// group's members page (owners add and remove through the members service, others only read, a hidden
// group is 404).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addGroupMember, createGroup, createProject, createUser, type TestUser } from '../helpers/factory.ts';
import { WebClient } from '../helpers/web.ts';

describe('pages: groups', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let privateId: number;

  const signedIn = async (user: TestUser) => {
    const web = new WebClient(t);
    assert.equal((await web.signIn(user.username, user.password)).status, 302);
    return web;
  };
  const groupNames = (html: string) =>
    [...html.matchAll(/<a href="\/groups\/([^"/]+)"><strong>/g)].map((match) => match[1]).sort();
  const apiMembers = async (groupId: number) => {
    const response = await t.request('GET', `/api/v3/groups/${groupId}/members`, { token: owner.token });
    assert.equal(response.status, 200);
    return (response.body as Array<{ username: string; access_level: number }>).map(
      (row) => `${row.username}:${row.access_level}`,
    );
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'gwen', { canCreateGroup: true });
    member = await createUser(t, 'mo');
    stranger = await createUser(t, 'sid', { canCreateGroup: false });
    privateId = await createGroup(t, 'inner', 0);
    await addGroupMember(t, privateId, owner.id, 50);
    await addGroupMember(t, privateId, member.id, 30);
    await createGroup(t, 'town', 20);
    await createGroup(t, 'office', 10);
    await createProject(t, { owner, namespace: 'inner', path: 'plans', visibility: 0 });
  });
  after(() => t.close());

  it('lists my groups, and explore lists only the groups a visitor may see', async () => {
    const web = await signedIn(member);
    const mine = await web.get('/dashboard/groups');
    assert.equal(mine.status, 200);
    assert.deepEqual(groupNames(mine.text), ['inner']);
    assert.deepEqual(groupNames((await web.get('/explore/groups')).text), ['inner', 'office', 'town']);
    const strangerWeb = await signedIn(stranger);
    assert.deepEqual(groupNames((await strangerWeb.get('/dashboard/groups')).text), []);
    assert.deepEqual(groupNames((await strangerWeb.get('/explore/groups')).text), ['office', 'town']);
    assert.deepEqual(groupNames((await new WebClient(t).get('/explore/groups')).text), ['town']);
    assert.deepEqual(groupNames((await web.get('/explore/groups?search=OFF')).text), ['office']);
    const anonymous = await new WebClient(t).get('/dashboard/groups');
    assert.equal(anonymous.status, 302);
  });

  it('creates a group in the form; the API lists it with its creator as owner', async () => {
    const web = await signedIn(owner);
    const form = await web.get('/groups/new');
    assert.equal(form.status, 200);
    assert.match(form.text, /name="group\[path\]"/);
    const fields = {
      'group[name]': 'Rocket Team',
      'group[path]': 'rockets',
      'group[description]': 'We build <rockets> **fast**',
      'group[visibility_level]': '10',
    };
    const forged = await web.request('POST', '/groups', { ...fields, authenticity_token: 'forged' });
    assert.equal(forged.status, 422);
    const none = await t.request('GET', '/api/v3/groups?search=rockets', { token: owner.token });
    assert.deepEqual(none.body, []);

    const created = await web.post('/groups', fields);
    assert.equal(created.status, 302);
    assert.equal(created.headers.location, '/groups/rockets?done=created');
    const listed = await t.request('GET', '/api/v3/groups?search=rockets', { token: owner.token });
    assert.equal(listed.body.length, 1);
    assert.equal(listed.body[0].name, 'Rocket Team');
    assert.equal(listed.body[0].description, 'We build <rockets> **fast**');
    assert.equal(listed.body[0].visibility_level, 10);
    assert.deepEqual(await apiMembers(listed.body[0].id), ['gwen:50']);
    const page = await web.get(created.headers.location!);
    assert.equal(page.status, 200);
    assert.match(page.text, /role="status">Group 'Rocket Team' was successfully created\.</);
    // The description is Markdown, its HTML escaped.
    assert.match(page.text, /<p>We build &lt;rockets&gt; <strong>fast<\/strong><\/p>/);
    assert.doesNotMatch((await web.get('/groups/rockets')).text, /successfully created/);
    assert.match(page.text, /href="\/groups\/rockets\/group_members"/);

    const again = await web.post('/groups', { ...fields, 'group[name]': 'Other name' });
    assert.equal(again.status, 422);
    // In words, not the API's Ruby-printed hash ({:path=>[…]}).
    assert.match(again.text, /Path has already been taken/);
    assert.doesNotMatch(again.text, /=&gt;|\{:/);
    assert.match(again.text, /value="Other name"/);
    const still = await t.request('GET', '/api/v3/groups?search=rockets', { token: owner.token });
    assert.equal(still.body.length, 1);
  });

  it('refuses the form to a user who may not create groups', async () => {
    const web = await signedIn(stranger);
    assert.equal((await web.get('/groups/new')).status, 403);
    await web.get('/explore/groups');
    const posted = await web.post('/groups', { 'group[name]': 'Nope', 'group[path]': 'nope' });
    assert.equal(posted.status, 403);
    const none = await t.request('GET', '/api/v3/groups?search=nope', { token: t.rootToken });
    assert.deepEqual(none.body, []);
  });

  it('lets owners add and remove members; others only read; hidden groups are 404', async () => {
    const newcomer = await createUser(t, 'nia');
    const ownerWeb = await signedIn(owner);
    const page = await ownerWeb.get('/groups/inner/group_members');
    assert.equal(page.status, 200);
    assert.match(page.text, /2 members of Group inner/);
    assert.match(page.text, /Add to group/);

    const forged = await ownerWeb.request('POST', '/groups/inner/group_members', {
      authenticity_token: 'forged',
      username: 'nia',
      access_level: '20',
    });
    assert.equal(forged.status, 422);
    assert.deepEqual((await apiMembers(privateId)).sort(), ['gwen:50', 'mo:30']);

    const added = await ownerWeb.post('/groups/inner/group_members', { username: 'nia', access_level: '20' });
    assert.equal(added.status, 302);
    assert.deepEqual((await apiMembers(privateId)).sort(), ['gwen:50', 'mo:30', 'nia:20']);
    const unknown = await ownerWeb.post('/groups/inner/group_members', {
      username: 'nobody',
      access_level: '20',
    });
    assert.equal(unknown.status, 422);
    assert.match(unknown.text, /User Not Found/i);

    const memberWeb = await signedIn(member);
    const readOnly = await memberWeb.get('/groups/inner/group_members');
    assert.equal(readOnly.status, 200);
    assert.match(readOnly.text, /@nia/);
    assert.doesNotMatch(readOnly.text, /Add to group|Remove nia/);
    const refused = await memberWeb.post(`/groups/inner/group_members/${newcomer.id}/delete`);
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Forbidden/);
    assert.equal((await apiMembers(privateId)).length, 3);

    await ownerWeb.get('/groups/inner/group_members');
    const removed = await ownerWeb.post(`/groups/inner/group_members/${newcomer.id}/delete`);
    assert.equal(removed.status, 302);
    assert.deepEqual((await apiMembers(privateId)).sort(), ['gwen:50', 'mo:30']);

    const strangerWeb = await signedIn(stranger);
    assert.equal((await strangerWeb.get('/groups/inner/group_members')).status, 404);
    assert.equal((await strangerWeb.post('/groups/inner/group_members', { username: 'sid' })).status, 404);
    assert.equal((await apiMembers(privateId)).length, 2);
    const anonymous = await new WebClient(t).get('/groups/inner/group_members');
    assert.equal(anonymous.status, 302);
  });
});
