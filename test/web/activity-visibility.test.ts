// What activity shows to whom: the project's activity page and the dashboard's hide an event about a
// confidential issue (and a comment on it) from who may not read that issue, as 8.13's pages did, while
// the events API of the same project lists every event with the title of what it is about (a merge
// request's and a comment's too).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { WebClient } from '../helpers/web.ts';
import { AccessLevel } from '../../src/domain/types.ts';

const SECRET = 'Leaked signing key in CI logs';
const OPEN = 'Typo on the front page';
const MR_TITLE = 'Speed up the build';

describe('activity: who sees which events', () => {
  let t: TestApp;
  let owner: TestUser;
  let guest: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let project: TestProject;

  const api = (method: string, url: string, body: Record<string, unknown> = {}) =>
    t.request(method, url, { token: owner.token, body });
  const pageText = async (user: TestUser, path: string) => {
    const web = new WebClient(t);
    assert.equal((await web.signIn(user.username, user.password)).status, 302);
    const page = await web.get(path);
    assert.equal(page.status, 200, page.text);
    return page.text;
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'olive');
    guest = await createUser(t, 'gus');
    reporter = await createUser(t, 'remy');
    stranger = await createUser(t, 'sten');
    project = await createProject(t, { owner, path: 'shown', commit: true, visibility: 20 });
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
    const secret = await api('POST', `/api/v3/projects/${project.id}/issues`, {
      title: SECRET,
      confidential: true,
    });
    assert.equal(secret.status, 201, secret.text);
    const note = await api('POST', `/api/v3/projects/${project.id}/issues/${secret.body.id}/notes`, {
      body: 'rotating it now',
    });
    assert.equal(note.status, 201, note.text);
    assert.equal((await api('POST', `/api/v3/projects/${project.id}/issues`, { title: OPEN })).status, 201);
    const branch = await api('POST', `/api/v3/projects/${project.id}/repository/branches`, {
      branch_name: 'faster',
      ref: 'master',
    });
    assert.equal(branch.status, 201, branch.text);
    const file = await api('POST', `/api/v3/projects/${project.id}/repository/files`, {
      file_path: 'speed.txt',
      branch_name: 'faster',
      content: 'fast\n',
      commit_message: 'Faster',
    });
    assert.equal(file.status, 201, file.text);
    const mr = await api('POST', `/api/v3/projects/${project.id}/merge_requests`, {
      source_branch: 'faster',
      target_branch: 'master',
      title: MR_TITLE,
    });
    assert.equal(mr.status, 201, mr.text);
    const mrNote = await api('POST', `/api/v3/projects/${project.id}/merge_requests/${mr.body.id}/notes`, {
      body: 'looks good',
    });
    assert.equal(mrNote.status, 201, mrNote.text);
  });
  after(async () => {
    await t.close();
  });

  it('hides a confidential issue and the comments on it from a stranger and a guest, not a reporter', async () => {
    const path = `/${project.fullPath}/activity`;
    for (const user of [stranger, guest]) {
      const text = await pageText(user, path);
      assert.ok(!text.includes(SECRET), `${user.username} sees the confidential issue`);
      assert.ok(text.includes(OPEN), `${user.username} misses the open issue`);
      assert.ok(text.includes(MR_TITLE), `${user.username} misses the merge request`);
    }
    const text = await pageText(reporter, path);
    // Opened, and commented on: the issue and the comment each name it.
    assert.equal(text.split(SECRET).length - 1, 2);
  });

  it('hides it on the dashboard of a guest member too', async () => {
    const guestText = await pageText(guest, '/dashboard/activity');
    assert.ok(guestText.includes(OPEN));
    assert.ok(!guestText.includes(SECRET));
    assert.ok((await pageText(reporter, '/dashboard/activity')).includes(SECRET));
  });

  it("gives every event its target's title through the API, merge requests and comments included", async () => {
    const events = await api('GET', `/api/v3/projects/${project.id}/events?per_page=100`);
    assert.equal(events.status, 200);
    const titles = (events.body as Array<{ target_type: string | null; target_title: string | null }>)
      .filter((event) => event.target_type !== null)
      .map((event) => `${event.target_type}: ${event.target_title}`)
      .sort();
    assert.deepEqual(
      titles,
      [
        `Issue: ${OPEN}`,
        `Issue: ${SECRET}`,
        `MergeRequest: ${MR_TITLE}`,
        `Note: ${MR_TITLE}`,
        `Note: ${SECRET}`,
      ].sort(),
    );
  });
});
