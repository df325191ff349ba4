// Access requests on the pages, checked against the API: a signed-in non-member of a project (and of a
// group) that takes requests sees "Request Access", asks, then sees "Withdraw Access Request" and can
// withdraw; the master sees the pending request on the members page and grants it at a level (the
// person becomes a member) or denies it; members and visitors see no button; a private project is 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addGroupMember,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { signedInClient, WebClient } from '../helpers/web.ts';

describe('pages: access requests', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: TestProject;
  let hidden: TestProject;
  let groupOwner: TestUser;
  let groupId: number;
  let base = '';

  const requesters = async (url: string, token: string) => {
    const response = await t.request('GET', url, { token });
    assert.equal(response.status, 200, response.text);
    return (response.body as Array<{ username: string }>).map((entry) => entry.username);
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'aprowner');
    project = await createProject(t, { owner, path: 'joinme', visibility: 20 });
    hidden = await createProject(t, { owner, path: 'secret', visibility: 0 });
    for (const id of [project.id, hidden.id]) {
      const enabled = await t.request('PUT', `/api/v4/projects/${id}`, {
        token: owner.token,
        body: { request_access_enabled: true },
      });
      assert.equal(enabled.status, 200, enabled.text);
    }
    groupOwner = await createUser(t, 'aprgroupowner');
    groupId = await createGroup(t, 'joingroup', 20);
    await addGroupMember(t, groupId, groupOwner.id, 50);
    const enabled = await t.request('PUT', `/api/v3/groups/${groupId}`, {
      token: groupOwner.token,
      body: { request_access_enabled: true },
    });
    assert.equal(enabled.status, 200, enabled.text);
    base = `/${project.fullPath}`;
  });
  after(() => t.close());

  it('a non-member asks and withdraws on the project page; members and visitors see no button', async () => {
    const asker = await createUser(t, 'aprasker');
    const web = await signedInClient(t, asker);
    const page = await web.get(base);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`action="${base}/project_members/request_access"`));
    assert.match(page.text, />Request Access</);
    const asked = await web.post(`${base}/project_members/request_access`);
    assert.equal(asked.status, 302, asked.text);
    assert.equal(asked.headers.location, `${base}?done=access_requested`);
    const after = await web.get(`${base}?done=access_requested`);
    assert.match(after.text, /Your request for access has been queued for review\./);
    assert.match(after.text, />Withdraw Access Request</);
    assert.deepEqual(await requesters(`/api/v4/projects/${project.id}/access_requests`, owner.token), [
      asker.username,
    ]);
    // Twice is refused, as the API refuses it.
    assert.equal((await web.post(`${base}/project_members/request_access`)).status, 400);

    const withdrawn = await web.post(`${base}/project_members/leave`);
    assert.equal(withdrawn.headers.location, `${base}?done=access_withdrawn`);
    assert.deepEqual(await requesters(`/api/v4/projects/${project.id}/access_requests`, owner.token), []);
    assert.match((await web.get(base)).text, />Request Access</);

    const member = await signedInClient(t, owner);
    assert.doesNotMatch((await member.get(base)).text, /Request Access/);
    assert.doesNotMatch((await new WebClient(t).get(base)).text, /Request Access/);
    // A private project stays hidden, its request path too.
    await web.get(base);
    assert.equal((await web.get(`/${hidden.fullPath}`)).status, 404);
    assert.equal((await web.post(`/${hidden.fullPath}/project_members/request_access`)).status, 404);
  });

  it('the master grants one request at a level and denies another on the members page', async () => {
    const granted = await createUser(t, 'aprgranted');
    const denied = await createUser(t, 'aprdenied');
    for (const user of [granted, denied]) {
      const web = await signedInClient(t, user);
      await web.get(base);
      assert.equal((await web.post(`${base}/project_members/request_access`)).status, 302);
    }
    const master = await signedInClient(t, owner);
    const members = await master.get(`${base}/project_members`);
    assert.equal(members.status, 200);
    assert.match(members.text, /Users requesting access to/);
    assert.match(members.text, /aprgranted/);
    assert.match(
      members.text,
      new RegExp(`action="${base}/project_members/${granted.id}/approve_access_request"`),
    );

    // Someone who does not manage members may not grant or deny.
    const other = await signedInClient(t, denied);
    await other.get(base);
    assert.equal(
      (
        await other.post(`${base}/project_members/${granted.id}/approve_access_request`, {
          access_level: '40',
        })
      ).status,
      403,
    );
    assert.equal((await other.post(`${base}/project_members/${granted.id}/deny_access_request`)).status, 404);

    const grant = await master.post(`${base}/project_members/${granted.id}/approve_access_request`, {
      access_level: '20',
    });
    assert.equal(grant.status, 302, grant.text);
    assert.equal(grant.headers.location, `${base}/project_members?done=access_granted`);
    const deny = await master.post(`${base}/project_members/${denied.id}/deny_access_request`);
    assert.equal(deny.headers.location, `${base}/project_members?done=access_denied`);
    assert.deepEqual(await requesters(`/api/v4/projects/${project.id}/access_requests`, owner.token), []);
    const member = await t.request('GET', `/api/v4/projects/${project.id}/members/${granted.id}`, {
      token: owner.token,
    });
    assert.equal(member.status, 200);
    assert.equal(member.body.access_level, 20);
    const notMember = await t.request('GET', `/api/v4/projects/${project.id}/members/${denied.id}`, {
      token: owner.token,
    });
    assert.equal(notMember.status, 404);
    const shown = await master.get(`${base}/project_members?done=access_granted`);
    assert.match(shown.text, /The access request was granted\./);
    assert.doesNotMatch(shown.text, /Users requesting access to/);
  });

  it('a group: ask on its page, the owner grants on its members page', async () => {
    const asker = await createUser(t, 'aprgroupasker');
    const web = await signedInClient(t, asker);
    const page = await web.get('/groups/joingroup');
    assert.equal(page.status, 200);
    assert.match(page.text, />Request Access</);
    const asked = await web.post('/groups/joingroup/group_members/request_access');
    assert.equal(asked.headers.location, '/groups/joingroup?done=access_requested');
    assert.match((await web.get('/groups/joingroup')).text, />Withdraw Access Request</);

    // The members list is readable by the requester, the requests are not.
    assert.doesNotMatch((await web.get('/groups/joingroup/group_members')).text, /Users requesting access/);
    const ownerWeb = await signedInClient(t, groupOwner);
    const members = await ownerWeb.get('/groups/joingroup/group_members');
    assert.match(members.text, /Users requesting access to/);
    assert.match(members.text, /<option value="50">Owner<\/option>/);
    const grant = await ownerWeb.post(`/groups/joingroup/group_members/${asker.id}/approve_access_request`, {
      access_level: '30',
    });
    assert.equal(grant.headers.location, '/groups/joingroup/group_members?done=access_granted');
    const member = await t.request('GET', `/api/v3/groups/${groupId}/members/${asker.id}`, {
      token: groupOwner.token,
    });
    assert.equal(member.status, 200);
    assert.equal(member.body.access_level, 30);
    assert.doesNotMatch((await web.get('/groups/joingroup')).text, /Request Access/);
  });
});
