// v4's award emoji on issues and merge requests by iid and on their notes: award (201), list, one,
// remove (204, the owner only), and the refusals (400 name is missing, 404 hidden project or note of
// another noteable, 404 an unknown emoji).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProjectTeam, type ProjectTeam } from '../../helpers/factory.ts';
import { openTopicMergeRequest } from '../../helpers/merge-requests.ts';

describe('API v4 award emoji', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let issueBase: string;
  let mrBase: string;
  let issueId: number;

  const call = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token, body });

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'awarded', {
      owner: 'ava',
      developer: 'abe',
      reporter: 'amy',
      stranger: 'axel',
    });
    const issue = await call('POST', `/api/v3/projects/${team.project.id}/issues`, team.owner.token, {
      title: 'Vote',
    });
    issueId = issue.body.id;
    issueBase = `/api/v4/projects/${team.project.id}/issues/${issue.body.iid}`;
    const mr = await openTopicMergeRequest(t, team.developer.token, team.project.id);
    mrBase = `/api/v4/projects/${team.project.id}/merge_requests/${mr.iid}`;
  });
  after(async () => t.close());

  it('awards, lists, reads and removes an issue award', async () => {
    const award = await call('POST', `${issueBase}/award_emoji`, team.reporter.token, { name: 'thumbsup' });
    assert.equal(award.status, 201, award.text);
    assert.equal(award.body.name, 'thumbsup');
    assert.equal(award.body.awardable_type, 'Issue');
    assert.equal(award.body.awardable_id, issueId);
    assert.equal(award.body.user.username, 'amy');
    const list = await call('GET', `${issueBase}/award_emoji`, team.developer.token);
    assert.deepEqual(list.body, [award.body]);
    assert.equal(list.headers['x-total'], '1');
    const one = await call('GET', `${issueBase}/award_emoji/${award.body.id}`, team.developer.token);
    assert.deepEqual(one.body, award.body);
    const notTheirs = await call('DELETE', `${issueBase}/award_emoji/${award.body.id}`, team.developer.token);
    assert.equal(notTheirs.status, 401);
    const removed = await call('DELETE', `${issueBase}/award_emoji/${award.body.id}`, team.reporter.token);
    assert.equal(removed.status, 204);
    assert.equal((await call('GET', `${issueBase}/award_emoji`, team.developer.token)).body.length, 0);
  });

  it('awards a merge request and a note of it', async () => {
    const mrAward = await call('POST', `${mrBase}/award_emoji`, team.owner.token, { name: 'tada' });
    assert.equal(mrAward.status, 201, mrAward.text);
    assert.equal(mrAward.body.awardable_type, 'MergeRequest');
    const note = await call('POST', `${mrBase}/notes`, team.developer.token, { body: 'Ready' });
    const noteAward = await call('POST', `${mrBase}/notes/${note.body.id}/award_emoji`, team.owner.token, {
      name: 'heart',
    });
    assert.equal(noteAward.status, 201, noteAward.text);
    assert.equal(noteAward.body.awardable_type, 'Note');
    assert.equal(noteAward.body.awardable_id, note.body.id);
    const listed = await call('GET', `${mrBase}/notes/${note.body.id}/award_emoji`, team.reporter.token);
    assert.deepEqual(listed.body, [noteAward.body]);
    // The MR's note is not a note of the issue.
    const wrong = await call('GET', `${issueBase}/notes/${note.body.id}/award_emoji`, team.owner.token);
    assert.equal(wrong.status, 404);
  });

  it('refuses a missing name, an unknown emoji and hidden projects', async () => {
    const missing = await call('POST', `${issueBase}/award_emoji`, team.owner.token, {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'name is missing' });
    const unknown = await call('POST', `${issueBase}/award_emoji`, team.owner.token, { name: 'nope_nope' });
    assert.equal(unknown.status, 404);
    assert.equal((await call('GET', `${issueBase}/award_emoji`, team.stranger.token)).status, 404);
    assert.equal((await call('GET', `${issueBase}/award_emoji/999999`, team.owner.token)).status, 404);
  });
});
