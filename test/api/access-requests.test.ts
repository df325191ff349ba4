// Access requests over HTTP, v3 and v4 side by side: a signed-in non-member asks (once), masters and
// owners list, approve (the requester becomes a member at the given level) or deny; requesters withdraw
// their own and never count as members before approval.
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

describe('access requests', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: TestProject;
  let groupId: number;
  let groupOwner: TestUser;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'arowner');
    project = await createProject(t, { owner, path: 'askme', visibility: 20 });
    const enabled = await t.request('PUT', `/api/v4/projects/${project.id}`, {
      token: owner.token,
      body: { request_access_enabled: true },
    });
    assert.equal(enabled.status, 200, enabled.text);
    groupOwner = await createUser(t, 'argroupowner');
    groupId = await createGroup(t, 'askgroup', 20);
    await addGroupMember(t, groupId, groupOwner.id, 50);
    const groupEnabled = await t.request('PUT', `/api/v3/groups/${groupId}`, {
      token: groupOwner.token,
      body: { request_access_enabled: true },
    });
    assert.equal(groupEnabled.status, 200, groupEnabled.text);
  });
  after(() => t.close());

  for (const version of ['v3', 'v4'] as const) {
    it(`${version}: a project request is listed, refused twice, hidden from members, approved`, async () => {
      const asker = await createUser(t, `asker_${version}`);
      const base = `/api/${version}/projects/${project.id}/access_requests`;
      const asked = await t.request('POST', base, { token: asker.token });
      assert.equal(asked.status, 201, asked.text);
      assert.equal(asked.body.id, asker.id);
      assert.equal(asked.body.username, asker.username);
      assert.match(asked.body.requested_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      if (version === 'v4') assert.equal(asked.body.locked, false);
      else assert.equal('locked' in asked.body, false);

      const again = await t.request('POST', base, { token: asker.token });
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, { message: { user_id: ['already exists in source'] } });

      // Not a member yet: the member list leaves them out, and the project's members-only reads refuse.
      const members = await t.request('GET', `/api/${version}/projects/${project.id}/members`, {
        token: owner.token,
      });
      assert.ok(!members.body.some((m: { id: number }) => m.id === asker.id));

      assert.equal((await t.request('GET', base, { token: asker.token })).status, 403);
      const list = await t.request('GET', base, { token: owner.token });
      assert.equal(list.status, 200);
      assert.equal(list.headers['x-total'], '1');
      assert.deepEqual(
        list.body.map((r: { id: number }) => r.id),
        [asker.id],
      );

      assert.equal(
        (await t.request('PUT', `${base}/${asker.id}/approve`, { token: asker.token })).status,
        403,
      );
      const badLevel = await t.request('PUT', `${base}/${asker.id}/approve`, {
        token: owner.token,
        body: { access_level: 50 },
      });
      assert.equal(badLevel.status, 400);
      const notANumber = await t.request('PUT', `${base}/${asker.id}/approve`, {
        token: owner.token,
        body: { access_level: 'lots' },
      });
      assert.equal(notANumber.status, 400);
      assert.equal((await t.request('PUT', `${base}/999999/approve`, { token: owner.token })).status, 404);

      const approved = await t.request('PUT', `${base}/${asker.id}/approve`, {
        token: owner.token,
        body: { access_level: 20 },
      });
      assert.equal(approved.status, 201, approved.text);
      assert.equal(approved.body.id, asker.id);
      assert.equal(approved.body.access_level, 20);
      const member = await t.request('GET', `/api/${version}/projects/${project.id}/members/${asker.id}`, {
        token: owner.token,
      });
      assert.equal(member.body.access_level, 20);
      assert.equal((await t.request('GET', base, { token: owner.token })).body.length, 0);
      // A member cannot ask again.
      assert.equal((await t.request('POST', base, { token: asker.token })).status, 403);
    });

    it(`${version}: a group request defaults to developer on approval; deny and withdraw`, async () => {
      const base = `/api/${version}/groups/${groupId}/access_requests`;
      const first = await createUser(t, `gfirst_${version}`);
      const second = await createUser(t, `gsecond_${version}`);
      const third = await createUser(t, `gthird_${version}`);
      for (const user of [first, second, third]) {
        assert.equal((await t.request('POST', base, { token: user.token })).status, 201);
      }
      const list = await t.request('GET', `${base}?per_page=2`, { token: groupOwner.token });
      assert.equal(list.status, 200);
      assert.equal(list.headers['x-total'], '3');
      assert.equal(list.body.length, 2);

      const approved = await t.request('PUT', `${base}/${first.id}/approve`, { token: groupOwner.token });
      assert.equal(approved.status, 201);
      assert.equal(approved.body.access_level, 30);

      // Someone else's request: only managers may deny it.
      assert.equal((await t.request('DELETE', `${base}/${second.id}`, { token: third.token })).status, 403);
      const denied = await t.request('DELETE', `${base}/${second.id}`, { token: groupOwner.token });
      assert.equal(denied.status, version === 'v3' ? 200 : 204);
      if (version === 'v3') {
        assert.equal(denied.body.user_id, second.id);
        assert.equal(denied.body.source_id, groupId);
        assert.equal(denied.body.source_type, 'Namespace');
      }
      const withdrawn = await t.request('DELETE', `${base}/${third.id}`, { token: third.token });
      assert.equal(withdrawn.status, version === 'v3' ? 200 : 204);
      assert.equal((await t.request('DELETE', `${base}/${third.id}`, { token: third.token })).status, 404);
      assert.equal((await t.request('GET', base, { token: groupOwner.token })).body.length, 0);
    });
  }

  it('refuses requests where they are off, to hidden projects, and without a token', async () => {
    const closedOwner = await createUser(t, 'closedowner');
    const closed = await createProject(t, { owner: closedOwner, path: 'closed', visibility: 20 });
    const hidden = await createProject(t, { owner: closedOwner, path: 'hidden', visibility: 0 });
    const asker = await createUser(t, 'closedasker');
    assert.equal(
      (await t.request('POST', `/api/v3/projects/${closed.id}/access_requests`, { token: asker.token }))
        .status,
      403,
    );
    const notFound = await t.request('POST', `/api/v4/projects/${hidden.id}/access_requests`, {
      token: asker.token,
    });
    assert.equal(notFound.status, 404);
    assert.deepEqual(notFound.body, { message: '404 Project Not Found' });
    assert.equal((await t.request('GET', `/api/v3/projects/${closed.id}/access_requests`)).status, 401);
    assert.equal(
      (await t.request('POST', `/api/v3/projects/${project.id}/access_requests`, { token: owner.token }))
        .status,
      403,
    );
  });
});
