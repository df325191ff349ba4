// DELETE /api/v4/users/:id as GitLab since 9.0: the user's issues, merge requests, notes and award emoji
// move to the ghost user (made once, blocked, not deletable), unless hard_delete=true takes them with
// the user; v3's delete keeps 8.13's behaviour (they go with the user).
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

describe('API v4 user deletion and the ghost user', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: TestProject;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'owner');
    project = await createProject(t, { owner, path: 'shared', commit: true, visibility: 20 });
  });
  after(() => t.close());

  /** A developer of the project who opens an issue, comments, awards an emoji and opens a merge request. */
  async function contributor(username: string) {
    const user = await createUser(t, username);
    await addProjectMember(t, project.id, user.id, 30);
    const api = `/api/v3/projects/${project.id}`;
    const issue = await t.request('POST', `${api}/issues`, {
      token: user.token,
      body: { title: `by ${username}` },
    });
    assert.equal(issue.status, 201, issue.text);
    const note = await t.request('POST', `${api}/issues/${issue.body.id}/notes`, {
      token: user.token,
      body: { body: `note by ${username}` },
    });
    assert.equal(note.status, 201, note.text);
    const award = await t.request('POST', `${api}/issues/${issue.body.id}/award_emoji`, {
      token: user.token,
      body: { name: 'smile' },
    });
    assert.equal(award.status, 201, award.text);
    const branch = await t.request('POST', `${api}/repository/branches`, {
      token: user.token,
      body: { branch_name: `topic-${username}`, ref: 'master' },
    });
    assert.equal(branch.status, 201, branch.text);
    const mr = await t.request('POST', `${api}/merge_requests`, {
      token: user.token,
      body: { source_branch: `topic-${username}`, target_branch: 'master', title: `mr by ${username}` },
    });
    assert.equal(mr.status, 201, mr.text);
    return { user, issueId: issue.body.id, noteId: note.body.id, mrId: mr.body.id };
  }

  const issueOf = (id: number) =>
    t.request('GET', `/api/v3/projects/${project.id}/issues/${id}`, { token: owner.token });

  it('moves contributions to the ghost user (204); the ghost is blocked and cannot be deleted', async () => {
    const { user, issueId, noteId, mrId } = await contributor('leaver');
    const deleted = await t.request('DELETE', `/api/v4/users/${user.id}`, { token: t.rootToken });
    assert.equal(deleted.status, 204);
    assert.equal((await t.request('GET', `/api/v4/users/${user.id}`, { token: t.rootToken })).status, 404);

    const issue = await issueOf(issueId);
    assert.equal(issue.status, 200);
    assert.equal(issue.body.author.username, 'ghost');
    assert.equal(issue.body.author.name, 'Ghost User');
    const notes = await t.request('GET', `/api/v3/projects/${project.id}/issues/${issueId}/notes`, {
      token: owner.token,
    });
    const note = notes.body.find((n: { id: number }) => n.id === noteId);
    assert.equal(note.author.username, 'ghost');
    const awards = await t.request('GET', `/api/v3/projects/${project.id}/issues/${issueId}/award_emoji`, {
      token: owner.token,
    });
    assert.deepEqual(
      awards.body.map((a: { name: string; user: { username: string } }) => [a.name, a.user.username]),
      [['smile', 'ghost']],
    );
    const mr = await t.request('GET', `/api/v3/projects/${project.id}/merge_requests/${mrId}`, {
      token: owner.token,
    });
    assert.equal(mr.body.author.username, 'ghost');

    const ghost = await t.request('GET', '/api/v4/users?username=ghost', { token: t.rootToken });
    assert.equal(ghost.body.length, 1);
    assert.equal(ghost.body[0].state, 'blocked');
    const refused = await t.request('DELETE', `/api/v4/users/${ghost.body[0].id}`, { token: t.rootToken });
    assert.equal(refused.status, 403);

    // A second deletion reuses the same ghost, even where the ghost already gave the same emoji.
    const second = await contributor('leaver2');
    await t.request('POST', `/api/v3/projects/${project.id}/issues/${issueId}/award_emoji`, {
      token: second.user.token,
      body: { name: 'smile' },
    });
    assert.equal(
      (await t.request('DELETE', `/api/v4/users/${second.user.id}`, { token: t.rootToken })).status,
      204,
    );
    assert.equal((await issueOf(second.issueId)).body.author.id, ghost.body[0].id);
    const after = await t.request('GET', `/api/v3/projects/${project.id}/issues/${issueId}/award_emoji`, {
      token: owner.token,
    });
    assert.equal(after.body.length, 1);
    const ghosts = await t.request('GET', '/api/v4/users?search=ghost', { token: t.rootToken });
    assert.equal(ghosts.body.length, 1);
  });

  it('hard_delete=true takes the contributions with the user; v3 always does', async () => {
    const hard = await contributor('hardleaver');
    const deleted = await t.request('DELETE', `/api/v4/users/${hard.user.id}?hard_delete=true`, {
      token: t.rootToken,
    });
    assert.equal(deleted.status, 204);
    assert.equal((await issueOf(hard.issueId)).status, 404);
    const old = await contributor('oldleaver');
    assert.equal(
      (await t.request('DELETE', `/api/v3/users/${old.user.id}`, { token: t.rootToken })).status,
      200,
    );
    assert.equal((await issueOf(old.issueId)).status, 404);
    assert.equal(
      (await t.request('DELETE', `/api/v4/users/${old.user.id}`, { token: t.rootToken })).status,
      404,
    );
    const notAdmin = await t.request('DELETE', `/api/v4/users/${owner.id}`, { token: owner.token });
    assert.equal(notAdmin.status, 403);
  });
});
