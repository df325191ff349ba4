// v4's issue links: create (201, IssueLink entity) across projects by target_project_id and
// target_issue_iid, list (RelatedIssue: issue_link_id, link_type seen from each side), one link, delete
// (200), system notes on both issues; refusals: 400 (missing or bad input, self link), 403 (a guest, or
// no reporter role on the target's project), 404 (hidden project or issue, unknown iid, a link of
// another issue), 409 (a pair linked twice).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

describe('API v4 issue links', () => {
  let t: TestApp;
  let owner: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let second: TestProject;
  let secret: TestProject;

  const call = (method: string, url: string, token: string | undefined, body?: Record<string, unknown>) =>
    t.request(method, `/api/v4${url}`, { token, body });
  const newIssue = async (p: TestProject, title: string) => {
    const response = await call('POST', `/projects/${p.id}/issues`, owner.token, { title });
    assert.equal(response.status, 201, response.text);
    return response.body as { id: number; iid: number };
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'il_owner');
    guest = await createUser(t, 'il_guest');
    stranger = await createUser(t, 'il_stranger');
    project = await createProject(t, { owner, path: 'linked', visibility: 20 });
    second = await createProject(t, { owner, path: 'linked-two', visibility: 0 });
    secret = await createProject(t, { owner, path: 'linked-secret', visibility: 0 });
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    await addProjectMember(t, second.id, guest.id, AccessLevel.Reporter);
  });
  after(async () => t.close());

  it('links two issues across projects, lists from both sides and unlinks', async () => {
    // Make the ids and iids differ, so a mix-up shows.
    await newIssue(second, 'padding');
    await newIssue(second, 'padding');
    const a = await newIssue(project, 'A');
    const b = await newIssue(second, 'B');
    assert.notEqual(a.id, a.iid);

    const created = await call('POST', `/projects/${project.id}/issues/${a.iid}/links`, owner.token, {
      target_project_id: second.fullPath,
      target_issue_iid: b.iid,
      link_type: 'blocks',
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.link_type, 'blocks');
    assert.equal(created.body.source_issue.id, a.id);
    assert.equal(created.body.source_issue.iid, a.iid);
    assert.equal(created.body.target_issue.id, b.id);
    assert.equal(created.body.target_issue.project_id, second.id);

    const fromA = await call('GET', `/projects/${project.id}/issues/${a.iid}/links`, owner.token);
    assert.equal(fromA.status, 200, fromA.text);
    assert.equal(fromA.body.length, 1);
    assert.equal(fromA.body[0].id, b.id);
    assert.equal(fromA.body[0].iid, b.iid);
    assert.equal(fromA.body[0].link_type, 'blocks');
    assert.equal(typeof fromA.body[0].issue_link_id, 'number');
    assert.equal(typeof fromA.body[0].link_created_at, 'string');
    assert.equal(fromA.body[0].title, 'B');
    const linkId = fromA.body[0].issue_link_id;

    const fromB = await call('GET', `/projects/${second.id}/issues/${b.iid}/links`, owner.token);
    assert.deepEqual(
      fromB.body.map((r: { id: number; link_type: string; issue_link_id: number }) => [
        r.id,
        r.link_type,
        r.issue_link_id,
      ]),
      [[a.id, 'is_blocked_by', linkId]],
    );
    // The guest of the first project cannot read the second's issue: it is left out.
    const asGuestOfA = await call('GET', `/projects/${project.id}/issues/${a.iid}/links`, stranger.token);
    assert.deepEqual(asGuestOfA.body, []);

    const one = await call('GET', `/projects/${second.id}/issues/${b.iid}/links/${linkId}`, owner.token);
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.source_issue.id, a.id);

    const twice = await call('POST', `/projects/${second.id}/issues/${b.iid}/links`, owner.token, {
      target_project_id: project.id,
      target_issue_iid: a.iid,
    });
    assert.equal(twice.status, 409, twice.text);
    assert.deepEqual(twice.body, { message: 'Issue(s) already assigned' });

    const notes = await call('GET', `/projects/${second.id}/issues/${b.iid}/notes`, owner.token);
    assert.ok(
      notes.body.some(
        (n: { body: string; system: boolean }) =>
          n.system && n.body === `marked this issue as blocked by ${project.fullPath}#${a.iid}`,
      ),
      JSON.stringify(notes.body),
    );

    const otherIssue = await newIssue(project, 'C');
    const wrongIssue = await call(
      'GET',
      `/projects/${project.id}/issues/${otherIssue.iid}/links/${linkId}`,
      owner.token,
    );
    assert.equal(wrongIssue.status, 404);

    const removed = await call(
      'DELETE',
      `/projects/${project.id}/issues/${a.iid}/links/${linkId}`,
      owner.token,
    );
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body.target_issue.id, b.id);
    const empty = await call('GET', `/projects/${project.id}/issues/${a.iid}/links`, owner.token);
    assert.deepEqual(empty.body, []);
    const gone = await call('DELETE', `/projects/${project.id}/issues/${a.iid}/links/${linkId}`, owner.token);
    assert.equal(gone.status, 404);
  });

  it('relates issues of one project by default and turns is_blocked_by round', async () => {
    const a = await newIssue(project, 'R1');
    const b = await newIssue(project, 'R2');
    const related = await call('POST', `/projects/${project.id}/issues/${a.iid}/links`, owner.token, {
      target_project_id: project.id,
      target_issue_iid: b.iid,
    });
    assert.equal(related.status, 201, related.text);
    assert.equal(related.body.link_type, 'relates_to');
    const c = await newIssue(project, 'R3');
    const blocked = await call('POST', `/projects/${project.id}/issues/${a.iid}/links`, owner.token, {
      target_project_id: project.id,
      target_issue_iid: c.iid,
      link_type: 'is_blocked_by',
    });
    assert.equal(blocked.status, 201, blocked.text);
    assert.equal(blocked.body.source_issue.id, c.id);
    assert.equal(blocked.body.link_type, 'blocks');
    const list = await call('GET', `/projects/${project.id}/issues/${a.iid}/links`, owner.token);
    assert.deepEqual(
      list.body.map((r: { iid: number; link_type: string }) => [r.iid, r.link_type]),
      [
        [b.iid, 'relates_to'],
        [c.iid, 'is_blocked_by'],
      ],
    );
    const notes = await call('GET', `/projects/${project.id}/issues/${b.iid}/notes`, owner.token);
    assert.ok(
      notes.body.some((n: { body: string }) => n.body === `marked this issue as related to #${a.iid}`),
    );
  });

  it('refuses bad input, missing access and hidden issues', async () => {
    const a = await newIssue(project, 'X1');
    const b = await newIssue(second, 'X2');
    const hidden = await newIssue(secret, 'X3');
    const url = `/projects/${project.id}/issues/${a.iid}/links`;
    const missing = await call('POST', url, owner.token, { target_project_id: second.id });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'target_issue_iid is missing' });
    const badType = await call('POST', url, owner.token, {
      target_project_id: second.id,
      target_issue_iid: b.iid,
      link_type: 'duplicates',
    });
    assert.equal(badType.status, 400);
    assert.deepEqual(badType.body, { error: 'link_type does not have a valid value' });
    const self = await call('POST', url, owner.token, {
      target_project_id: project.id,
      target_issue_iid: a.iid,
    });
    assert.equal(self.status, 400);
    // The id of an issue is not its iid.
    const byId = await call('POST', url, owner.token, {
      target_project_id: second.id,
      target_issue_iid: b.id,
    });
    assert.equal(byId.status, 404, byId.text);
    const byGuest = await call('POST', url, guest.token, {
      target_project_id: second.id,
      target_issue_iid: b.iid,
    });
    assert.equal(byGuest.status, 403, byGuest.text);
    const toHidden = await call('POST', url, guest.token, {
      target_project_id: secret.id,
      target_issue_iid: hidden.iid,
    });
    assert.equal(toHidden.status, 404);
    assert.deepEqual(toHidden.body, { message: '404 Project Not Found' });
    const hiddenSource = await call(
      'GET',
      `/projects/${secret.id}/issues/${hidden.iid}/links`,
      stranger.token,
    );
    assert.equal(hiddenSource.status, 404);
    assert.deepEqual(hiddenSource.body, { message: '404 Project Not Found' });
    const unknownIssue = await call('GET', `/projects/${project.id}/issues/999999/links`, owner.token);
    assert.equal(unknownIssue.status, 404);
    const anonymous = await call('GET', url, undefined);
    assert.equal(anonymous.status, 401);
  });
});
