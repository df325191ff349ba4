import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';

describe('POST /projects/:id/share', () => {
  let t: TestApp;
  let owner: TestUser;
  let dev: TestUser;
  let lead: TestUser; // master of the "partners" group
  let intern: TestUser; // guest of the "partners" group
  let outsider: TestUser;
  let project: TestProject;
  let partners: number;
  let hiddenGroup: number;
  let ownGroupProject: TestProject;
  let base: string;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'owner');
    dev = await createUser(t, 'dev');
    lead = await createUser(t, 'lead');
    intern = await createUser(t, 'intern');
    outsider = await createUser(t, 'outsider');
    project = await createProject(t, { owner, path: 'app', visibility: 0, commit: true });
    base = `/api/v3/projects/${project.id}/share`;
    await t.request('POST', `/api/v3/projects/${project.id}/members`, {
      token: owner.token,
      body: { user_id: dev.id, access_level: 30 },
    });
    const group = await t.request('POST', '/api/v3/groups', {
      token: lead.token,
      body: { name: 'Partners', path: 'partners', visibility_level: 20 },
    });
    partners = group.body.id;
    await t.request('POST', '/api/v3/groups/partners/members', {
      token: lead.token,
      body: { user_id: intern.id, access_level: 10 },
    });
    await t.request('PUT', `/api/v3/groups/partners/members/${lead.id}`, {
      token: lead.token,
      body: { access_level: 50 },
    });
    const hidden = await t.request('POST', '/api/v3/groups', {
      token: outsider.token,
      body: { name: 'Hidden', path: 'hidden', visibility_level: 0 },
    });
    hiddenGroup = hidden.body.id;
    ownGroupProject = await createProject(t, {
      owner: lead,
      namespace: 'partners',
      path: 'inhouse',
      visibility: 0,
    });
  });
  after(() => t.close());

  it('gives the group capped access: members reach the project at most at group_access', async () => {
    // Before the share the project is invisible to the group.
    assert.equal(
      (await t.request('GET', `/api/v3/projects/${project.id}/members`, { token: lead.token })).status,
      404,
    );
    const shared = await t.request('POST', base, {
      token: owner.token,
      body: { group_id: partners, group_access: 20, expires_at: '2099-12-31' },
    });
    assert.equal(shared.status, 201);
    assert.deepEqual(Object.keys(shared.body), [
      'id',
      'project_id',
      'group_id',
      'group_access',
      'expires_at',
    ]);
    assert.equal(shared.body.project_id, project.id);
    assert.equal(shared.body.group_id, partners);
    assert.equal(shared.body.group_access, 20);
    assert.equal(shared.body.expires_at, '2099-12-31');

    // The group owner now reads the project, but only as a reporter: no member management.
    assert.equal(
      (await t.request('GET', `/api/v3/projects/${project.id}/members`, { token: lead.token })).status,
      200,
    );
    assert.deepEqual(
      (
        await t.request('POST', `/api/v3/projects/${project.id}/members`, {
          token: lead.token,
          body: { user_id: outsider.id, access_level: 10 },
        })
      ).body,
      { message: '403 Forbidden' },
    );
    // A reporter may fork; the group's guest stays a guest (min(10, 20)) and may not.
    assert.equal(
      (await t.request('POST', `/api/v3/projects/fork/${project.id}`, { token: lead.token })).status,
      201,
    );
    assert.deepEqual(
      (await t.request('POST', `/api/v3/projects/fork/${project.id}`, { token: intern.token })).body,
      {
        message: { forked_from_project_id: ['is forbidden'] },
      },
    );
    const entity = await t.request('POST', `/api/v3/projects/${project.id}/star`, { token: owner.token });
    assert.deepEqual(entity.body.shared_with_groups, [
      { group_id: partners, group_name: 'Partners', group_access_level: 20 },
    ]);
  });

  it('refuses duplicates, bad levels, the own group and unknown or hidden groups with GitLab texts', async () => {
    const dup = await t.request('POST', base, {
      token: owner.token,
      body: { group_id: partners, group_access: 50 },
    });
    assert.equal(dup.status, 409);
    assert.deepEqual(dup.body, { message: 'Group already shared with this group' });
    const other = await t.request('POST', '/api/v3/groups', {
      token: owner.token,
      body: { name: 'Other', path: 'other' },
    });
    for (const level of [50, 0, 'x']) {
      const bad = await t.request('POST', base, {
        token: owner.token,
        body: { group_id: other.body.id, group_access: level },
      });
      assert.equal(bad.status, 409);
      assert.deepEqual(bad.body, { message: 'Group access is not included in the list' });
    }
    const own = await t.request('POST', `/api/v3/projects/${ownGroupProject.id}/share`, {
      token: lead.token,
      body: { group_id: partners, group_access: 30 },
    });
    assert.equal(own.status, 409);
    assert.deepEqual(own.body, { message: 'Project cannot be shared with the project it is in.' });
    for (const groupId of [hiddenGroup, 99999, 'abc']) {
      const missing = await t.request('POST', base, {
        token: owner.token,
        body: { group_id: groupId, group_access: 30 },
      });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: '404 Group Not Found' });
    }
    assert.deepEqual(
      (await t.request('POST', base, { token: owner.token, body: { group_access: 30 } })).body,
      {
        message: '400 (Bad request) "group_id" not given',
      },
    );
    assert.deepEqual(
      (await t.request('POST', base, { token: owner.token, body: { group_id: partners } })).body,
      {
        message: '400 (Bad request) "group_access" not given',
      },
    );
    const badDate = await t.request('POST', base, {
      token: owner.token,
      body: { group_id: other.body.id, group_access: 30, expires_at: '2016-02-30' },
    });
    assert.equal(badDate.status, 400);
  });

  it('needs master access (403) and project visibility (404)', async () => {
    assert.deepEqual(
      (await t.request('POST', base, { token: dev.token, body: { group_id: partners, group_access: 30 } }))
        .body,
      { message: '403 Forbidden' },
    );
    assert.deepEqual(
      (
        await t.request('POST', base, {
          token: outsider.token,
          body: { group_id: partners, group_access: 30 },
        })
      ).body,
      { message: '404 Project Not Found' },
    );
  });

  it('ignores a share once its expires_at has passed', async () => {
    const later = await createProject(t, { owner, path: 'later', visibility: 0 });
    const shared = await t.request('POST', `/api/v3/projects/${later.id}/share`, {
      token: owner.token,
      body: { group_id: partners, group_access: 30, expires_at: '2001-01-01' },
    });
    assert.equal(shared.status, 201);
    assert.equal(
      (await t.request('GET', `/api/v3/projects/${later.id}/members`, { token: lead.token })).status,
      404,
    );
  });
});
