// v4's notes on issues and merge requests by iid: the v4 Note entity (type, noteable_iid, project_id,
// resolvable, confidential/internal), order_by and sort, one note, create (201; an emoji-only body stays
// a comment), edit, delete (204), and the refusals: 400 body is missing, 404 for a hidden project or a
// note of another noteable, 403 for another user's edit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProjectTeam, type ProjectTeam } from '../../helpers/factory.ts';
import { openTopicMergeRequest } from '../../helpers/merge-requests.ts';

describe('API v4 notes', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let issueIid: number;
  let issueId: number;
  let mr: { id: number; iid: number };

  const call = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token, body });
  const issueNotes = () => `/api/v4/projects/${team.project.id}/issues/${issueIid}/notes`;

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'noted', {
      owner: 'nora',
      developer: 'ned',
      reporter: 'nils',
      stranger: 'nell',
    });
    const issue = await call('POST', `/api/v3/projects/${team.project.id}/issues`, team.owner.token, {
      title: 'Broken',
    });
    assert.equal(issue.status, 201, issue.text);
    issueIid = issue.body.iid;
    issueId = issue.body.id;
    mr = await openTopicMergeRequest(t, team.developer.token, team.project.id);
  });
  after(async () => t.close());

  it('creates, lists in order, reads, edits and deletes a note on an issue', async () => {
    const first = await call('POST', issueNotes(), team.developer.token, { body: 'First' });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers['content-type'], 'application/json');
    assert.deepEqual(Object.keys(first.body), [
      'id',
      'type',
      'body',
      'attachment',
      'author',
      'created_at',
      'updated_at',
      'system',
      'noteable_id',
      'noteable_type',
      'project_id',
      'resolvable',
      'confidential',
      'internal',
      'noteable_iid',
      'commands_changes',
    ]);
    assert.equal(first.body.type, null);
    assert.equal(first.body.noteable_type, 'Issue');
    assert.equal(first.body.noteable_id, issueId);
    assert.equal(first.body.noteable_iid, issueIid);
    assert.equal(first.body.project_id, team.project.id);
    assert.equal(first.body.resolvable, false);
    assert.equal(first.body.author.username, 'ned');
    const emoji = await call('POST', issueNotes(), team.owner.token, { body: ':+1:' });
    assert.equal(emoji.status, 201, emoji.text);
    assert.equal(emoji.body.body, ':+1:');

    const newest = await call('GET', issueNotes(), team.reporter.token);
    assert.equal(newest.status, 200, newest.text);
    assert.deepEqual(
      newest.body.map((note: { body: string }) => note.body),
      [':+1:', 'First'],
    );
    assert.equal(newest.headers['x-total'], '2');
    const oldest = await call(
      'GET',
      `${issueNotes()}?sort=asc&order_by=updated_at&per_page=1`,
      team.reporter.token,
    );
    assert.deepEqual(
      oldest.body.map((note: { body: string }) => note.body),
      ['First'],
    );
    assert.equal(oldest.headers['x-total-pages'], '2');
    const badSort = await call('GET', `${issueNotes()}?sort=sideways`, team.reporter.token);
    assert.equal(badSort.status, 400);
    assert.deepEqual(badSort.body, { error: 'sort does not have a valid value' });

    const one = await call('GET', `${issueNotes()}/${first.body.id}`, team.reporter.token);
    assert.deepEqual(one.body, first.body);

    const edited = await call('PUT', `${issueNotes()}/${first.body.id}`, team.developer.token, {
      body: 'Edited',
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.body, 'Edited');
    const othersEdit = await call('PUT', `${issueNotes()}/${first.body.id}`, team.reporter.token, {
      body: 'x',
    });
    assert.equal(othersEdit.status, 403);

    const deleted = await call('DELETE', `${issueNotes()}/${first.body.id}`, team.developer.token);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal((await call('GET', `${issueNotes()}/${first.body.id}`, team.owner.token)).status, 404);
  });

  it('notes a merge request by iid and keeps each noteable to its own notes', async () => {
    const url = `/api/v4/projects/${team.project.id}/merge_requests/${mr.iid}/notes`;
    const created = await call('POST', url, team.owner.token, { body: 'LGTM' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.noteable_type, 'MergeRequest');
    assert.equal(created.body.noteable_id, mr.id);
    assert.equal(created.body.noteable_iid, mr.iid);
    const list = await call('GET', url, team.developer.token);
    assert.deepEqual(list.body, [created.body]);
    // The MR's note is not a note of the issue.
    assert.equal((await call('GET', `${issueNotes()}/${created.body.id}`, team.owner.token)).status, 404);
  });

  it('refuses a missing body, hidden projects and unknown noteables', async () => {
    const missing = await call('POST', issueNotes(), team.developer.token, {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'body is missing' });
    const hidden = await call('GET', issueNotes(), team.stranger.token);
    assert.equal(hidden.status, 404);
    assert.equal(typeof hidden.body.message, 'string');
    const hiddenPost = await call('POST', issueNotes(), team.stranger.token, { body: 'hi' });
    assert.equal(hiddenPost.status, 404);
    const noIssue = await call(
      'GET',
      `/api/v4/projects/${team.project.id}/issues/9999/notes`,
      team.owner.token,
    );
    assert.equal(noIssue.status, 404);
    const anonymous = await t.request('POST', issueNotes(), { body: { body: 'hi' } });
    assert.equal(anonymous.status, 401);
  });
});
