// v4's group labels and group milestones: CRUD and subscriptions on /groups/:id/labels, with_counts
// over the group's projects, CRUD and the issue and MR lists of /groups/:id/milestones; a group's label
// and milestone listed and usable by its projects' issues and merge requests (include_ancestor_groups
// default true), never by another group's project; refusals (401, 403 for a guest's write, 404 for a
// hidden group, 409 for a taken title, 400 for bad input).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addGroupMember,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

describe('API v4 group labels and milestones', () => {
  let t: TestApp;
  let owner: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let groupId: number;
  let hiddenGroupId: number;
  let project: TestProject;
  let other: TestProject;

  const call = (method: string, url: string, token: string | undefined, body?: Record<string, unknown>) =>
    t.request(method, `/api/v4${url}`, { token, body });

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'gl_owner');
    reporter = await createUser(t, 'gl_reporter');
    guest = await createUser(t, 'gl_guest');
    stranger = await createUser(t, 'gl_stranger');
    groupId = await createGroup(t, 'labelgroup', 0);
    hiddenGroupId = await createGroup(t, 'hiddenlabels', 0);
    await addGroupMember(t, groupId, owner.id, AccessLevel.Owner);
    await addGroupMember(t, groupId, reporter.id, AccessLevel.Reporter);
    await addGroupMember(t, groupId, guest.id, AccessLevel.Guest);
    await addGroupMember(t, hiddenGroupId, owner.id, AccessLevel.Owner);
    project = await createProject(t, { owner, path: 'inlabelgroup', namespace: 'labelgroup', commit: true });
    other = await createProject(t, { owner, path: 'elsewhere', namespace: 'hiddenlabels', commit: true });
  });
  after(async () => t.close());

  it('creates, lists, reads, edits and deletes group labels', async () => {
    const bug = await call('POST', `/groups/${groupId}/labels`, reporter.token, {
      name: 'g-bug',
      color: '#FF0000',
      description: 'Group *bug*',
    });
    assert.equal(bug.status, 201, bug.text);
    assert.deepEqual(bug.body, {
      id: bug.body.id,
      name: 'g-bug',
      color: '#FF0000',
      description: 'Group *bug*',
      description_html: '<p>Group <em>bug</em></p>',
      text_color: '#FFFFFF',
      subscribed: false,
      priority: null,
      is_project_label: false,
    });
    const taken = await call('POST', `/groups/labelgroup/labels`, owner.token, {
      name: 'g-bug',
      color: '#000',
    });
    assert.equal(taken.status, 409, taken.text);
    assert.deepEqual(taken.body, { message: 'Label already exists' });
    const badColor = await call('POST', `/groups/${groupId}/labels`, owner.token, {
      name: 'x',
      color: 'red',
    });
    assert.equal(badColor.status, 400, badColor.text);
    const missing = await call('POST', `/groups/${groupId}/labels`, owner.token, { name: 'x' });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'color is missing' });
    const byGuest = await call('POST', `/groups/${groupId}/labels`, guest.token, {
      name: 'y',
      color: '#000',
    });
    assert.equal(byGuest.status, 403, byGuest.text);
    const hidden = await call('GET', `/groups/${hiddenGroupId}/labels`, stranger.token);
    assert.equal(hidden.status, 404, hidden.text);
    assert.deepEqual(hidden.body, { message: '404 Group Not Found' });
    const anonymous = await call('GET', `/groups/${groupId}/labels`, undefined);
    assert.equal(anonymous.status, 401);

    await call('POST', `/groups/${groupId}/labels`, owner.token, { name: 'g-docs', color: '#eee' });
    const list = await call('GET', `/groups/${groupId}/labels?per_page=1`, guest.token);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.headers['x-total'], '2');
    assert.deepEqual(
      list.body.map((label: { name: string }) => label.name),
      ['g-bug'],
    );
    const searched = await call('GET', `/groups/${groupId}/labels?search=DOC`, guest.token);
    assert.deepEqual(
      searched.body.map((label: { name: string }) => label.name),
      ['g-docs'],
    );
    const byName = await call('GET', `/groups/${groupId}/labels/g-docs`, guest.token);
    assert.equal(byName.status, 200, byName.text);
    const byId = await call('GET', `/groups/${groupId}/labels/${bug.body.id}`, guest.token);
    assert.equal(byId.body.name, 'g-bug');
    const unknown = await call('GET', `/groups/${groupId}/labels/nope`, guest.token);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: '404 Label Not Found' });

    const edited = await call('PUT', `/groups/${groupId}/labels/g-docs`, reporter.token, {
      new_name: 'g-documentation',
      color: '#00FF00',
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.name, 'g-documentation');
    assert.equal(edited.body.color, '#00FF00');
    const older = await call('PUT', `/groups/${groupId}/labels`, reporter.token, {
      name: 'g-documentation',
      description: 'docs',
    });
    assert.equal(older.body.description, 'docs');
    const noChange = await call('PUT', `/groups/${groupId}/labels/g-bug`, reporter.token, {});
    assert.equal(noChange.status, 400);
    const deleted = await call('DELETE', `/groups/${groupId}/labels/g-documentation`, reporter.token);
    assert.equal(deleted.status, 204);
    assert.equal((await call('GET', `/groups/${groupId}/labels/g-documentation`, guest.token)).status, 404);
  });

  it("lets the group's projects list and carry its labels, counted per project", async () => {
    const shared = await call('POST', `/groups/${groupId}/labels`, owner.token, {
      name: 'shared',
      color: '#123',
    });
    const own = await call('POST', `/projects/${project.id}/labels`, owner.token, {
      name: 'local',
      color: '#456',
    });
    assert.equal(own.status, 201, own.text);

    const labels = await call('GET', `/projects/${project.id}/labels`, owner.token);
    assert.equal(labels.status, 200, labels.text);
    const names = labels.body.map((label: { name: string }) => label.name);
    assert.ok(names.includes('shared') && names.includes('local'), names.join());
    assert.equal(labels.body.find((l: { name: string }) => l.name === 'shared').is_project_label, false);
    const ownOnly = await call(
      'GET',
      `/projects/${project.id}/labels?include_ancestor_groups=false`,
      owner.token,
    );
    assert.deepEqual(
      ownOnly.body.map((label: { name: string }) => label.name),
      ['local'],
    );
    const one = await call('GET', `/projects/${project.id}/labels/${shared.body.id}`, owner.token);
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.name, 'shared');
    // Edits through the project reach only its own labels.
    const editThere = await call('PUT', `/projects/${project.id}/labels/shared`, owner.token, {
      color: '#000',
    });
    assert.equal(editThere.status, 404, editThere.text);

    const issue = await call('POST', `/projects/${project.id}/issues`, owner.token, {
      title: 'Shared',
      labels: 'shared,local',
    });
    assert.equal(issue.status, 201, issue.text);
    assert.deepEqual(issue.body.labels, ['local', 'shared']);
    // No project label of that name was made.
    const afterIssue = await call(
      'GET',
      `/projects/${project.id}/labels?include_ancestor_groups=false`,
      owner.token,
    );
    assert.deepEqual(
      afterIssue.body.map((label: { name: string }) => label.name),
      ['local'],
    );
    const filtered = await call('GET', `/projects/${project.id}/issues?labels=shared`, owner.token);
    assert.deepEqual(
      filtered.body.map((i: { iid: number }) => i.iid),
      [issue.body.iid],
    );
    const counted = await call('GET', `/groups/${groupId}/labels/shared?with_counts=true`, owner.token);
    assert.equal(counted.body.open_issues_count, 1);
    assert.equal(counted.body.closed_issues_count, 0);
    const inProject = await call('GET', `/projects/${project.id}/labels?with_counts=true`, owner.token);
    assert.equal(inProject.body.find((l: { name: string }) => l.name === 'shared').open_issues_count, 1);

    // Another group's project makes its own label of that title.
    const elsewhere = await call('POST', `/projects/${other.id}/issues`, owner.token, {
      title: 'Elsewhere',
      labels: 'shared',
    });
    assert.equal(elsewhere.status, 201, elsewhere.text);
    const otherLabels = await call('GET', `/projects/${other.id}/labels`, owner.token);
    assert.equal(otherLabels.body.length, 1);
    assert.equal(otherLabels.body[0].is_project_label, true);
    assert.notEqual(otherLabels.body[0].id, shared.body.id);
  });

  it('subscribes to a group label on the group and through a project', async () => {
    const label = await call('POST', `/groups/${groupId}/labels`, owner.token, {
      name: 'watch',
      color: '#321',
    });
    const on = await call('POST', `/groups/${groupId}/labels/watch/subscribe`, guest.token);
    assert.equal(on.status, 201, on.text);
    assert.equal(on.body.subscribed, true);
    assert.equal((await call('POST', `/groups/${groupId}/labels/watch/subscribe`, guest.token)).status, 304);
    const seen = await call('GET', `/projects/${project.id}/labels/${label.body.id}`, guest.token);
    assert.equal(seen.body.subscribed, true);
    const off = await call('POST', `/projects/${project.id}/labels/watch/unsubscribe`, guest.token);
    assert.equal(off.status, 201, off.text);
    assert.equal(off.body.subscribed, false);
    const again = await call('POST', `/groups/${groupId}/labels/${label.body.id}/unsubscribe`, guest.token);
    assert.equal(again.status, 304);
  });

  it('creates, lists, edits and deletes group milestones and lists their issues and MRs', async () => {
    const first = await call('POST', `/groups/${groupId}/milestones`, reporter.token, {
      title: 'G1',
      description: 'first',
      due_date: '2000-01-01',
    });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(first.body, {
      id: first.body.id,
      iid: 1,
      group_id: groupId,
      title: 'G1',
      description: 'first',
      state: 'active',
      created_at: first.body.created_at,
      updated_at: first.body.updated_at,
      due_date: '2000-01-01',
      start_date: null,
      expired: true,
      web_url: `${t.config.externalUrl}/groups/labelgroup/-/milestones/1`,
    });
    const second = await call('POST', `/groups/${groupId}/milestones`, owner.token, { title: 'G2' });
    assert.equal(second.body.iid, 2);
    const taken = await call('POST', `/groups/${groupId}/milestones`, owner.token, { title: 'G2' });
    assert.equal(taken.status, 400, taken.text);
    const byGuest = await call('POST', `/groups/${groupId}/milestones`, guest.token, { title: 'G3' });
    assert.equal(byGuest.status, 403);
    const badState = await call('GET', `/groups/${groupId}/milestones?state=bogus`, owner.token);
    assert.equal(badState.status, 400);
    assert.equal((await call('GET', `/groups/${hiddenGroupId}/milestones`, stranger.token)).status, 404);

    const list = await call('GET', `/groups/${groupId}/milestones`, guest.token);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.map((m: { title: string }) => m.title),
      ['G2', 'G1'],
    );
    const byIid = await call('GET', `/groups/${groupId}/milestones?iids[]=1`, guest.token);
    assert.deepEqual(
      byIid.body.map((m: { title: string }) => m.title),
      ['G1'],
    );
    const closed = await call('PUT', `/groups/${groupId}/milestones/${second.body.id}`, reporter.token, {
      state_event: 'close',
    });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.body.state, 'closed');
    const active = await call('GET', `/groups/${groupId}/milestones?state=active`, guest.token);
    assert.deepEqual(
      active.body.map((m: { title: string }) => m.title),
      ['G1'],
    );
    const issue = await call('POST', `/projects/${project.id}/issues`, owner.token, {
      title: 'On the group milestone',
      milestone_id: first.body.id,
    });
    assert.equal(issue.status, 201, issue.text);
    assert.equal(issue.body.milestone.id, first.body.id);
    const foreign = await call('POST', `/projects/${other.id}/issues`, owner.token, {
      title: 'Not its milestone',
      milestone_id: first.body.id,
    });
    assert.equal(foreign.status, 201, foreign.text);
    assert.equal(foreign.body.milestone, null);
    const byTitle = await call('GET', `/projects/${project.id}/issues?milestone=G1`, owner.token);
    assert.deepEqual(
      byTitle.body.map((i: { iid: number }) => i.iid),
      [issue.body.iid],
    );

    await call('POST', `/projects/${project.id}/repository/branches`, owner.token, {
      branch: 'feature',
      ref: 'master',
    });
    await call('POST', `/projects/${project.id}/repository/files/feature.txt`, owner.token, {
      branch: 'feature',
      content: 'x',
      commit_message: 'Feature',
    });
    const mr = await call('POST', `/projects/${project.id}/merge_requests`, owner.token, {
      source_branch: 'feature',
      target_branch: 'master',
      title: 'Feature',
      milestone_id: first.body.id,
    });
    assert.equal(mr.status, 201, mr.text);
    assert.equal(mr.body.milestone.id, first.body.id);

    const issues = await call('GET', `/groups/${groupId}/milestones/${first.body.id}/issues`, guest.token);
    assert.equal(issues.status, 200, issues.text);
    assert.deepEqual(
      issues.body.map((i: { id: number }) => i.id),
      [issue.body.id],
    );
    const mrs = await call(
      'GET',
      `/groups/${groupId}/milestones/${first.body.id}/merge_requests`,
      owner.token,
    );
    assert.equal(mrs.status, 200, mrs.text);
    assert.deepEqual(
      mrs.body.map((m: { iid: number }) => m.iid),
      [mr.body.iid],
    );
    const strangerIssues = await call(
      'GET',
      `/groups/${hiddenGroupId}/milestones/${first.body.id}/issues`,
      stranger.token,
    );
    assert.equal(strangerIssues.status, 404);

    const deleted = await call('DELETE', `/groups/${groupId}/milestones/${first.body.id}`, reporter.token);
    assert.equal(deleted.status, 204);
    const reread = await call('GET', `/projects/${project.id}/issues/${issue.body.iid}`, owner.token);
    assert.equal(reread.body.milestone, null);
    assert.equal(
      (await call('GET', `/groups/${groupId}/milestones/${first.body.id}`, guest.token)).status,
      404,
    );
  });
});
