import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { ISSUE_COLUMNS, ISSUE_KEYS, MILESTONE_KEYS, USER_BASIC_KEYS } from '../../helpers/entity-keys.ts';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('issues API', () => {
  let t: TestApp;
  let owner: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let admin: TestUser;
  let project: TestProject;
  let publicProject: TestProject;
  let groupId: number;
  let groupProject: TestProject;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'issowner');
    reporter = await createUser(t, 'issreporter');
    guest = await createUser(t, 'issguest');
    stranger = await createUser(t, 'issstranger');
    admin = await createUser(t, 'issadmin', { admin: true });
    project = await createProject(t, { owner, path: 'tracker' });
    publicProject = await createProject(t, { owner, path: 'open-tracker', visibility: 20 });
    await addProjectMember(t, project.id, reporter.id, 20);
    await addProjectMember(t, project.id, guest.id, 10);
    await addProjectMember(t, publicProject.id, reporter.id, 20);
    groupId = await createGroup(t, 'issgroup', 0);
    groupProject = await createProject(t, { owner, path: 'grouped', namespace: 'issgroup' });
    await addGroupMember(t, groupId, owner.id, 50);
    await addGroupMember(t, groupId, guest.id, 10);
  });
  after(() => t.close());

  const issuesOf = (p: TestProject) => `/api/v3/projects/${p.id}/issues`;
  const create = (p: TestProject, user: TestUser, body: Record<string, unknown>) =>
    t.request('POST', issuesOf(p), { token: user.token, body });

  it('creates an issue with every field and reads it back', async () => {
    const milestone = await t.request('POST', `/api/v3/projects/${project.id}/milestones`, {
      token: owner.token,
      body: { title: 'v1.0' },
    });
    assert.equal(milestone.status, 201);
    const created = await create(project, owner, {
      title: 'Crash on start',
      description: 'It crashes',
      assignee_id: reporter.id,
      milestone_id: milestone.body.id,
      labels: 'bug, urgent,bug',
      due_date: '2016-11-30',
    });
    assert.equal(created.status, 201);
    const issue = created.body;
    assert.deepEqual(Object.keys(issue), ISSUE_KEYS);
    assert.equal(issue.iid, 1);
    assert.equal(issue.project_id, project.id);
    assert.equal(issue.title, 'Crash on start');
    assert.equal(issue.description, 'It crashes');
    assert.equal(issue.state, 'opened');
    assert.match(issue.created_at, ISO_MS);
    assert.deepEqual(issue.labels, ['bug', 'urgent']);
    assert.equal(issue.milestone.title, 'v1.0');
    assert.deepEqual(Object.keys(issue.milestone), MILESTONE_KEYS);
    assert.deepEqual(Object.keys(issue.assignee), USER_BASIC_KEYS);
    assert.equal(issue.assignee.username, reporter.username);
    assert.equal(issue.author.username, owner.username);
    assert.equal(issue.subscribed, true);
    assert.equal(issue.user_notes_count, 0);
    assert.equal(issue.upvotes, 0);
    assert.equal(issue.downvotes, 0);
    assert.equal(issue.due_date, '2016-11-30');
    assert.equal(issue.confidential, false);
    assert.equal(issue.web_url, `http://labrador.test/${project.fullPath}/issues/1`);

    const read = await t.request('GET', `${issuesOf(project)}/${issue.id}`, { token: owner.token });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, issue);
    // The reporter is the assignee: subscribed as a participant too.
    const asAssignee = await t.request('GET', `${issuesOf(project)}/${issue.id}`, { token: reporter.token });
    assert.equal(asAssignee.body.subscribed, true);
    const asGuest = await t.request('GET', `${issuesOf(project)}/${issue.id}`, { token: guest.token });
    assert.equal(asGuest.body.subscribed, false);

    // Missing labels were created with GitLab's default colour.
    const labels = await t.request('GET', `/api/v3/projects/${project.id}/labels`, { token: owner.token });
    assert.deepEqual(
      labels.body.map((l: { name: string; color: string }) => [l.name, l.color]),
      [
        ['bug', '#428BCA'],
        ['urgent', '#428BCA'],
      ],
    );
  });

  it('refuses bad input with GitLab bodies', async () => {
    const missing = await create(project, owner, { description: 'no title' });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { message: '400 (Bad request) "title" not given' });
    const long = await create(project, owner, { title: 'x'.repeat(256) });
    assert.equal(long.status, 400);
    assert.deepEqual(long.body, { message: { title: ['is too long (maximum is 255 characters)'] } });
    const nobody = await t.request('POST', issuesOf(project), { body: { title: 'anonymous' } });
    assert.equal(nobody.status, 401);
    const noSuch = await t.request('GET', `${issuesOf(project)}/99999`, { token: owner.token });
    assert.equal(noSuch.status, 404);
    assert.deepEqual(noSuch.body, { message: '404 Not found' });
    const created = await create(project, owner, { title: 'for state events' });
    const badEvent = await t.request('PUT', `${issuesOf(project)}/${created.body.id}`, {
      token: owner.token,
      body: { state_event: 'explode' },
    });
    assert.equal(badEvent.status, 400);
    assert.deepEqual(badEvent.body, { error: 'state_event does not have a valid value' });
  });

  it('drops admin-only fields from guests and lets authors edit their own issues', async () => {
    const created = await create(project, guest, {
      title: 'Guest idea',
      assignee_id: owner.id,
      labels: 'guestlabel',
      due_date: '2017-01-01',
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.assignee, null);
    assert.deepEqual(created.body.labels, []);
    assert.equal(created.body.due_date, null);
    const edited = await t.request('PUT', `${issuesOf(project)}/${created.body.id}`, {
      token: guest.token,
      body: { title: 'Guest idea, refined', state_event: 'close' },
    });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.title, 'Guest idea, refined');
    assert.equal(edited.body.state, 'closed');
    // Another guest's issue is not the guest's to edit.
    const other = await create(project, owner, { title: 'Owner thing' });
    const refused = await t.request('PUT', `${issuesOf(project)}/${other.body.id}`, {
      token: guest.token,
      body: { title: 'mine now' },
    });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { message: '403 Forbidden' });
  });

  it('closes and reopens through state_event, with system notes and open_issues_count', async () => {
    const before = await t.request('GET', `/api/v3/projects/${publicProject.id}`, { token: owner.token });
    const created = await create(publicProject, owner, { title: 'Toggle me' });
    const url = `${issuesOf(publicProject)}/${created.body.id}`;
    const opened = await t.request('GET', `/api/v3/projects/${publicProject.id}`, { token: owner.token });
    assert.equal(opened.body.open_issues_count, before.body.open_issues_count + 1);
    const closed = await t.request('PUT', url, { token: reporter.token, body: { state_event: 'close' } });
    assert.equal(closed.body.state, 'closed');
    const afterClose = await t.request('GET', `/api/v3/projects/${publicProject.id}`, { token: owner.token });
    assert.equal(afterClose.body.open_issues_count, before.body.open_issues_count);
    const again = await t.request('PUT', url, { token: reporter.token, body: { state_event: 'close' } });
    assert.equal(again.status, 200);
    const reopened = await t.request('PUT', url, { token: reporter.token, body: { state_event: 'reopen' } });
    assert.equal(reopened.body.state, 'reopened');
    const notes = await t.request('GET', `${url}/notes`, { token: owner.token });
    assert.deepEqual(
      notes.body.map((n: { body: string; system: boolean }) => [n.body, n.system]),
      [
        ['Status changed to closed', true],
        ['Status changed to reopened', true],
      ],
    );
    // state=opened includes reopened issues.
    const openList = await t.request(
      'GET',
      `${issuesOf(publicProject)}?state=opened&iid=${created.body.iid}`,
      {
        token: owner.token,
      },
    );
    assert.deepEqual(
      openList.body.map((i: { id: number }) => i.id),
      [created.body.id],
    );
  });

  it('edits labels, assignee and milestone with 8.13 system notes', async () => {
    const created = await create(project, owner, { title: 'Label me', labels: 'one' });
    const url = `${issuesOf(project)}/${created.body.id}`;
    const edited = await t.request('PUT', url, {
      token: owner.token,
      body: { labels: 'two,three', assignee_id: reporter.id },
    });
    assert.deepEqual(edited.body.labels, ['three', 'two']);
    assert.equal(edited.body.assignee.id, reporter.id);
    const cleared = await t.request('PUT', url, { token: owner.token, body: { labels: '', assignee_id: 0 } });
    assert.deepEqual(cleared.body.labels, []);
    assert.equal(cleared.body.assignee, null);
    const notes = await t.request('GET', `${url}/notes`, { token: owner.token });
    const bodies: string[] = notes.body.map((n: { body: string }) => n.body);
    // IssuableBaseService#update's order: the labels' note before the assignee's.
    assert.match(bodies[0]!, /^Added ~\d+ ~\d+ and removed ~\d+ labels$/);
    assert.equal(bodies[1], `Reassigned to @${reporter.username}`);
    assert.match(bodies[2]!, /^Removed ~\d+ ~\d+ labels$/);
    assert.equal(bodies[3], 'Assignee removed');
  });

  it('filters, orders and paginates the project list', async () => {
    const fresh = await createProject(t, { owner, path: 'paged' });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const made = await create(fresh, owner, { title: `Issue ${i}`, labels: i % 2 === 0 ? 'even' : 'odd' });
      ids.push(made.body.id);
    }
    await t.request('PUT', `${issuesOf(fresh)}/${ids[1]}`, {
      token: owner.token,
      body: { state_event: 'close' },
    });
    const page = await t.request('GET', `${issuesOf(fresh)}?per_page=2&page=2`, { token: owner.token });
    assert.equal(page.status, 200);
    assert.deepEqual(
      page.body.map((i: { id: number }) => i.id),
      [ids[2], ids[1]],
    );
    assert.equal(page.headers['x-total'], '5');
    assert.equal(page.headers['x-total-pages'], '3');
    assert.equal(page.headers['x-page'], '2');
    assert.equal(page.headers['x-per-page'], '2');
    assert.equal(page.headers['x-next-page'], '3');
    assert.equal(page.headers['x-prev-page'], '1');
    assert.match(String(page.headers.link), /rel="next"/);
    const asc = await t.request('GET', `${issuesOf(fresh)}?sort=asc&order_by=updated_at`, {
      token: owner.token,
    });
    assert.deepEqual(
      asc.body.map((i: { id: number }) => i.id),
      [ids[0], ids[2], ids[3], ids[4], ids[1]],
    );
    const closed = await t.request('GET', `${issuesOf(fresh)}?state=closed`, { token: owner.token });
    assert.deepEqual(
      closed.body.map((i: { id: number }) => i.id),
      [ids[1]],
    );
    assert.equal(closed.headers['x-total'], '1');
    const opened = await t.request('GET', `${issuesOf(fresh)}?state=opened`, { token: owner.token });
    assert.equal(opened.headers['x-total'], '4');
    const labelled = await t.request('GET', `${issuesOf(fresh)}?labels=odd`, { token: owner.token });
    assert.deepEqual(
      labelled.body.map((i: { id: number }) => i.id),
      [ids[3], ids[1]],
    );
    assert.equal(labelled.headers['x-total'], '2');
    const any = await t.request('GET', `${issuesOf(fresh)}?labels=odd,even`, { token: owner.token });
    assert.equal(any.body.length, 5);
    const byIid = await t.request('GET', `${issuesOf(fresh)}?iid=3`, { token: owner.token });
    assert.deepEqual(
      byIid.body.map((i: { id: number }) => i.id),
      [ids[2]],
    );
  });

  it('hides confidential issues from guests and non-members (404, 403 to an edit), not from authors and reporters', async () => {
    const secret = await create(publicProject, owner, { title: 'Secret', confidential: 'true' });
    assert.equal(secret.body.confidential, true);
    const url = `${issuesOf(publicProject)}/${secret.body.id}`;
    for (const user of [stranger, guest]) {
      const hidden = await t.request('GET', url, { token: user.token });
      assert.equal(hidden.status, 404, user.username);
      assert.deepEqual(hidden.body, { message: '404 Not found' });
      // 8.13.12's PUT finds the issue in the project, then authorizes the update: 403.
      const edit = await t.request('PUT', url, { token: user.token, body: { title: 'x' } });
      assert.equal(edit.status, 403);
      const list = await t.request('GET', `${issuesOf(publicProject)}?per_page=100`, { token: user.token });
      assert.ok(!list.body.some((i: { id: number }) => i.id === secret.body.id));
    }
    for (const user of [owner, reporter, admin]) {
      const seen = await t.request('GET', url, { token: user.token });
      assert.equal(seen.status, 200, user.username);
    }
    // A stranger's own confidential issue stays visible to them.
    const own = await create(publicProject, stranger, { title: 'Mine', confidential: true });
    assert.equal(own.status, 201);
    const ownRead = await t.request('GET', `${issuesOf(publicProject)}/${own.body.id}`, {
      token: stranger.token,
    });
    assert.equal(ownRead.status, 200);
    const listed = await t.request('GET', `${issuesOf(publicProject)}?per_page=100`, {
      token: stranger.token,
    });
    assert.ok(listed.body.some((i: { id: number }) => i.id === own.body.id));
    // Hidden projects are 404 whatever the issue.
    const privateRead = await t.request('GET', issuesOf(project), { token: stranger.token });
    assert.equal(privateRead.status, 404);
    assert.deepEqual(privateRead.body, { message: '404 Project Not Found' });
  });

  it('honours issues_enabled', async () => {
    const off = await createProject(t, { owner, path: 'no-issues', visibility: 20 });
    const made = await create(off, owner, { title: 'Before' });
    await t.server.deps.db.kysely
      .updateTable('projects')
      .set({ issues_enabled: 0 })
      .where('id', '=', off.id)
      .execute();
    const list = await t.request('GET', issuesOf(off), { token: owner.token });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, []);
    const one = await t.request('GET', `${issuesOf(off)}/${made.body.id}`, { token: owner.token });
    assert.equal(one.status, 404);
    const created = await create(off, owner, { title: 'After' });
    assert.equal(created.status, 403);
  });

  it('deletes for owners and administrators only, answering the row', async () => {
    const created = await create(project, reporter, { title: 'Doomed' });
    const url = `${issuesOf(project)}/${created.body.id}`;
    const master = await createUser(t, 'issmaster');
    await addProjectMember(t, project.id, master.id, 40);
    for (const user of [reporter, master]) {
      const refused = await t.request('DELETE', url, { token: user.token });
      assert.equal(refused.status, 403, user.username);
    }
    const missing = await t.request('DELETE', `${issuesOf(project)}/999999`, { token: owner.token });
    assert.equal(missing.status, 403);
    const deleted = await t.request('DELETE', url, { token: owner.token });
    assert.equal(deleted.status, 200);
    assert.deepEqual(Object.keys(deleted.body), ISSUE_COLUMNS);
    assert.equal(deleted.body.id, created.body.id);
    assert.match(deleted.body.deleted_at, ISO_MS);
    const gone = await t.request('GET', url, { token: owner.token });
    assert.equal(gone.status, 404);
    // The number is never handed out again.
    const next = await create(project, owner, { title: 'After the deleted one' });
    assert.equal(next.body.iid, created.body.iid + 1);
  });

  it('moves an issue to another project', async () => {
    const source = await createProject(t, { owner, path: 'move-from' });
    const target = await createProject(t, { owner, path: 'move-to' });
    await create(target, owner, { title: 'Already there' });
    await t.request('POST', `/api/v3/projects/${target.id}/labels`, {
      token: owner.token,
      body: { name: 'shared', color: '#FF0000' },
    });
    const created = await create(source, owner, { title: 'Wanderer', labels: 'shared,local' });
    const url = `${issuesOf(source)}/${created.body.id}`;
    await t.request('POST', `${url}/notes`, { token: owner.token, body: { body: 'a comment' } });
    const same = await t.request('POST', `${url}/move`, {
      token: owner.token,
      body: { to_project_id: source.id },
    });
    assert.equal(same.status, 400);
    assert.deepEqual(same.body, { message: 'Cannot move issue to project it originates from!' });
    const missing = await t.request('POST', `${url}/move`, { token: owner.token, body: {} });
    assert.deepEqual(missing.body, { message: '400 (Bad request) "to_project_id" not given' });
    const hidden = await t.request('POST', `${url}/move`, {
      token: owner.token,
      body: { to_project_id: 999999 },
    });
    assert.equal(hidden.status, 404);
    const noRights = await t.request('POST', `${url}/move`, {
      token: owner.token,
      body: { to_project_id: publicProject.id },
    });
    assert.equal(noRights.status, 201); // the owner administers both
    const moved = noRights.body;
    assert.equal(moved.project_id, publicProject.id);
    assert.notEqual(moved.id, created.body.id);
    assert.deepEqual(moved.labels, []);
    const old = await t.request('GET', url, { token: owner.token });
    assert.equal(old.body.state, 'closed');
    const oldNotes = await t.request('GET', `${url}/notes`, { token: owner.token });
    assert.ok(
      oldNotes.body.some(
        (n: { body: string }) => n.body === `Moved to ${publicProject.fullPath}#${moved.iid}`,
      ),
    );
    const newNotes = await t.request('GET', `${issuesOf(publicProject)}/${moved.id}/notes`, {
      token: owner.token,
    });
    assert.deepEqual(
      newNotes.body.map((n: { body: string }) => n.body),
      ['a comment', `Moved from ${source.fullPath}#${created.body.iid}`],
    );
    const twice = await t.request('POST', `${url}/move`, {
      token: owner.token,
      body: { to_project_id: target.id },
    });
    assert.equal(twice.status, 400);
    const second = await create(source, owner, { title: 'Labelled', labels: 'shared' });
    const toTarget = await t.request('POST', `${issuesOf(source)}/${second.body.id}/move`, {
      token: owner.token,
      body: { to_project_id: target.id },
    });
    assert.equal(toTarget.status, 201);
    assert.deepEqual(toTarget.body.labels, ['shared']);
    assert.equal(toTarget.body.iid, 2);
    const reporterMove = await t.request('POST', `${issuesOf(publicProject)}/${moved.id}/move`, {
      token: reporter.token,
      body: { to_project_id: target.id },
    });
    assert.equal(reporterMove.status, 404); // reporter cannot read the target
  });

  it('lists the caller’s own issues and a group’s issues', async () => {
    const mine = await create(groupProject, guest, { title: 'Guest in group', labels: '' });
    const other = await create(groupProject, owner, { title: 'Owner in group', confidential: true });
    const own = await t.request('GET', '/api/v3/issues?per_page=100', { token: guest.token });
    assert.equal(own.status, 200);
    assert.ok(own.body.every((i: { author: { id: number } }) => i.author.id === guest.id));
    assert.ok(own.body.some((i: { id: number }) => i.id === mine.body.id));
    const group = await t.request('GET', `/api/v3/groups/${groupId}/issues`, { token: guest.token });
    assert.equal(group.status, 200);
    assert.deepEqual(
      group.body.map((i: { id: number }) => i.id),
      [mine.body.id],
    );
    const asOwner = await t.request('GET', `/api/v3/groups/issgroup/issues`, { token: owner.token });
    assert.deepEqual(
      asOwner.body.map((i: { id: number }) => i.id),
      [other.body.id, mine.body.id],
    );
    const hiddenGroup = await t.request('GET', `/api/v3/groups/${groupId}/issues`, { token: stranger.token });
    assert.equal(hiddenGroup.status, 404);
    assert.deepEqual(hiddenGroup.body, { message: '404 Group Not Found' });
    await t.request('PUT', `${issuesOf(groupProject)}/${mine.body.id}`, {
      token: owner.token,
      body: { state_event: 'close' },
    });
    const openOnly = await t.request('GET', `/api/v3/groups/${groupId}/issues`, { token: owner.token });
    assert.deepEqual(
      openOnly.body.map((i: { id: number }) => i.id),
      [other.body.id],
    );
    const all = await t.request('GET', `/api/v3/groups/${groupId}/issues?state=all`, { token: owner.token });
    assert.equal(all.body.length, 2);
  });

  it('gives 50 concurrent creates 50 distinct iids', async () => {
    const race = await createProject(t, { owner, path: 'iid-race' });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => create(race, owner, { title: `Racer ${i}` })),
    );
    for (const result of results) assert.equal(result.status, 201);
    const iids = results.map((r) => r.body.iid as number).sort((a, b) => a - b);
    assert.deepEqual(
      iids,
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const project = await t.request('GET', `/api/v3/projects/${race.id}`, { token: owner.token });
    assert.equal(project.body.open_issues_count, 50);
  });
});
