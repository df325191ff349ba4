// Notes, award emoji, subscriptions and todos on merge requests over HTTP, through the same services as issues:
// notes at 8.13's paths with their `note` hook (the MR under `merge_request`) and `commented on` event,
// an emoji-only note that becomes an award, awards on the MR and on its notes, and the counts and the
// subscription the MergeRequest entity shows.
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
import { openTopicMergeRequest } from '../../helpers/merge-requests.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { MERGE_REQUEST_HOOK_KEYS, NOTE_KEYS } from '../../helpers/entity-keys.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

describe('merge request notes, awards and subscriptions', () => {
  let t: TestApp;
  let owner: TestUser;
  let developer: TestUser;
  let project: TestProject;
  let receiver: Receiver;
  let mr: { id: number; iid: number; sha: string; web_url: string };
  let base: string;

  const call = (method: string, url: string, token: string, body: Record<string, unknown> = {}) =>
    t.request(method, url, { token, body });
  const read = async (token = owner.token) => {
    const response = await call('GET', base, token);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'mrcolowner');
    developer = await createUser(t, 'mrcoldev');
    project = await createProject(t, { owner, path: 'mrcol', commit: true });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    const edit = await call('PUT', `/api/v3/projects/${project.id}`, owner.token, {
      name: 'mrcol',
      default_branch: 'master',
    });
    assert.equal(edit.status, 200, edit.text);
    receiver = await startReceiver();
    const hook = await call('POST', `/api/v3/projects/${project.id}/hooks`, owner.token, {
      url: receiver.url,
      note_events: true,
      push_events: false,
    });
    assert.equal(hook.status, 201, hook.text);
    mr = await openTopicMergeRequest(t, developer.token, project.id);
    base = `/api/v3/projects/${project.id}/merge_requests/${mr.id}`;
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('comments: create, list, read, edit, delete, with the note hook and event', async () => {
    const before = await read();
    assert.equal(before.user_notes_count, 0);
    assert.equal(before.subscribed, false);

    const created = await call('POST', `${base}/notes`, owner.token, { body: 'Looks good' });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body), NOTE_KEYS);
    assert.equal(created.body.noteable_type, 'MergeRequest');
    assert.equal(created.body.noteable_id, mr.id);
    assert.equal(created.body.author.username, owner.username);
    const noteUrl = `${base}/notes/${created.body.id}`;

    const list = await call('GET', `${base}/notes`, developer.token);
    assert.deepEqual(list.body, [created.body]);
    assert.equal(list.headers['x-total'], '1');
    assert.deepEqual((await call('GET', noteUrl, developer.token)).body, created.body);
    // A note of the MR is not a note of another noteable.
    const elsewhere = await call(
      'GET',
      `/api/v3/projects/${project.id}/merge_requests/999999/notes`,
      owner.token,
    );
    assert.equal(elsewhere.status, 404);

    // The commenter now takes part (subscribed), and the MR counts the note.
    const after = await read();
    assert.equal(after.user_notes_count, 1);
    assert.equal(after.subscribed, true);
    assert.ok(after.updated_at >= before.updated_at);

    await t.server.hookWorker.drain();
    const hook = receiver.received.find((h) => h.body.object_kind === 'note');
    assert.ok(hook, 'a note hook');
    assert.equal(hook.headers['x-gitlab-event'], 'Note Hook');
    assert.deepEqual(Object.keys(hook.body), [
      'object_kind',
      'user',
      'project_id',
      'project',
      'object_attributes',
      'repository',
      'merge_request',
    ]);
    assert.equal(hook.body.object_attributes.noteable_type, 'MergeRequest');
    assert.equal(hook.body.object_attributes.url, `${mr.web_url}#note_${created.body.id}`);
    assert.deepEqual(Object.keys(hook.body.merge_request), MERGE_REQUEST_HOOK_KEYS);
    assert.equal(hook.body.merge_request.id, mr.id);
    assert.equal(hook.body.merge_request.last_commit.id, mr.sha);
    assert.match(hook.body.merge_request.updated_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);

    const events = await call('GET', `/api/v3/projects/${project.id}/events`, owner.token);
    const commented = events.body.find((e: { target_type: string }) => e.target_type === 'Note');
    assert.equal(commented?.target_id, created.body.id);
    assert.equal(commented?.author_username, owner.username);

    const forbidden = await call('PUT', noteUrl, developer.token, { body: 'not mine' });
    assert.equal(forbidden.status, 403, forbidden.text);
    const edited = await call('PUT', noteUrl, owner.token, { body: 'Looks great' });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.body, 'Looks great');
    const missingBody = await call('POST', `${base}/notes`, owner.token, {});
    assert.equal(missingBody.status, 400);

    const deleted = await call('DELETE', noteUrl, owner.token);
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.body, 'Looks great');
    assert.equal((await call('GET', noteUrl, owner.token)).status, 404);
    assert.equal((await read()).user_notes_count, 0);
  });

  it('awards emoji to the merge request and its notes; an emoji-only note becomes an award', async () => {
    const thumb = await call('POST', `${base}/notes`, owner.token, { body: ':+1:' });
    assert.equal(thumb.status, 201, thumb.text);
    assert.equal(thumb.body.name, 'thumbsup');
    assert.equal(thumb.body.awardable_type, 'MergeRequest');
    assert.equal(thumb.body.awardable_id, mr.id);

    // The author may not vote on their own MR; other emoji are fine.
    const ownVote = await call('POST', `${base}/award_emoji`, developer.token, { name: 'thumbsdown' });
    assert.equal(ownVote.status, 404, ownVote.text);
    const tada = await call('POST', `${base}/award_emoji`, developer.token, { name: 'tada' });
    assert.equal(tada.status, 201, tada.text);
    const awards = await call('GET', `${base}/award_emoji`, owner.token);
    assert.deepEqual(
      awards.body.map((a: { name: string }) => a.name),
      ['thumbsup', 'tada'],
    );
    const notMine = await call('DELETE', `${base}/award_emoji/${tada.body.id}`, owner.token);
    assert.equal(notMine.status, 401, notMine.text);

    const note = await call('POST', `${base}/notes`, owner.token, { body: 'A note to award' });
    const onNote = await call('POST', `${base}/notes/${note.body.id}/award_emoji`, developer.token, {
      name: 'thumbsup',
    });
    assert.equal(onNote.status, 201, onNote.text);
    assert.equal(onNote.body.awardable_type, 'Note');
    assert.equal(onNote.body.awardable_id, note.body.id);
    const noteAwards = await call('GET', `${base}/notes/${note.body.id}/award_emoji`, owner.token);
    assert.deepEqual(
      noteAwards.body.map((a: { id: number }) => a.id),
      [onNote.body.id],
    );

    const shown = await read();
    assert.equal(shown.upvotes, 1);
    assert.equal(shown.downvotes, 0);
    const listed = await call('GET', `/api/v3/projects/${project.id}/merge_requests`, owner.token);
    const inList = listed.body.find((m: { id: number }) => m.id === mr.id);
    assert.deepEqual(inList, shown);
  });

  it('subscribes and unsubscribes, participants counting as subscribed', async () => {
    const url = `${base}/subscription`;
    // The author takes part: already subscribed.
    assert.equal((await call('POST', url, developer.token)).status, 304);
    const off = await call('DELETE', url, developer.token);
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.subscribed, false);
    assert.equal(off.body.id, mr.id);
    assert.equal((await call('DELETE', url, developer.token)).status, 304);
    const on = await call('POST', url, developer.token);
    assert.equal(on.status, 201, on.text);
    assert.equal(on.body.subscribed, true);
    assert.equal((await read(developer.token)).subscribed, true);
    assert.equal(
      (await call('POST', `/api/v3/projects/${project.id}/merge_requests/999999/subscription`, owner.token))
        .status,
      404,
    );
    // 8.13 answered at the deprecated singular path too, as it did for the other MR routes.
    const singular = `/api/v3/projects/${project.id}/merge_request/${mr.id}/subscription`;
    const offAgain = await call('DELETE', singular, developer.token);
    assert.equal(offAgain.status, 200, offAgain.text);
    assert.equal(offAgain.body.subscribed, false);
    assert.equal((await call('DELETE', singular, developer.token)).status, 304);
    const onAgain = await call('POST', singular, developer.token);
    assert.equal(onAgain.status, 201, onAgain.text);
    assert.equal(onAgain.body.subscribed, true);
  });
  it('marks a todo on the merge request, listed with the MergeRequest entity', async () => {
    const marked = await call('POST', `${base}/todo`, owner.token);
    assert.equal(marked.status, 201, marked.text);
    assert.equal(marked.body.action_name, 'marked');
    assert.equal(marked.body.target_type, 'MergeRequest');
    assert.equal(marked.body.body, 'Topic');
    assert.equal(marked.body.target_url, mr.web_url);
    assert.deepEqual(marked.body.target, await read());
    assert.equal((await call('POST', `${base}/todo`, owner.token)).status, 304);
    const todos = await call('GET', '/api/v3/todos', owner.token);
    assert.deepEqual(todos.body, [marked.body]);
  });

  it('gives the new assignee an `assigned` todo, as 8.13’s TodoService did (not for assigning oneself)', async () => {
    const assigned = await call('PUT', base, developer.token, { assignee_id: owner.id });
    assert.equal(assigned.status, 200, assigned.text);
    const todos = await call('GET', '/api/v3/todos?action=assigned', owner.token);
    assert.equal(todos.body.length, 1, todos.text);
    assert.equal(todos.body[0].action_name, 'assigned');
    assert.equal(todos.body[0].target_type, 'MergeRequest');
    assert.equal(todos.body[0].target.id, mr.id);
    assert.equal(todos.body[0].author.id, developer.id);
    const self = await call('PUT', base, developer.token, { assignee_id: developer.id });
    assert.equal(self.status, 200, self.text);
    const own = await call('GET', '/api/v3/todos?action=assigned', developer.token);
    assert.deepEqual(own.body, []);
  });
});
