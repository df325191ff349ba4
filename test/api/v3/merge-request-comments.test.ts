// The deprecated merge request comments at both path forms (`merge_request/` and `merge_requests/`), as
// go-gitlab and node-gitlab call them: the MRNote shape, oldest first and paginated, the `"note" not
// given` 400, 8.13.12's access (hidden project 404, guest of a private project 403), and a comment that
// is a real note: it shows under …/notes, counts in user_notes_count, and fires the note hook.
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
import { until } from '../../helpers/wait.ts';
import { AccessLevel } from '../../../src/domain/types.ts';
import { USER_BASIC_KEYS } from '../../helpers/entity-keys.ts';

describe('merge request comments (deprecated v3 routes)', () => {
  let t: TestApp;
  let owner: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let receiver: Receiver;
  let mr: { id: number; web_url: string };

  const call = (method: string, url: string, token: string, body: Record<string, unknown> = {}) =>
    t.request(method, url, { token, body });
  const comments = (form: string, id = mr.id) => `/api/v3/projects/${project.id}/${form}/${id}/comments`;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'mrcmowner');
    guest = await createUser(t, 'mrcmguest');
    stranger = await createUser(t, 'mrcmstranger');
    project = await createProject(t, { owner, path: 'mrcm', commit: true });
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    receiver = await startReceiver();
    const hook = await call('POST', `/api/v3/projects/${project.id}/hooks`, owner.token, {
      url: receiver.url,
      note_events: true,
      push_events: false,
    });
    assert.equal(hook.status, 201, hook.text);
    mr = await openTopicMergeRequest(t, owner.token, project.id);
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('posts at both path forms and lists oldest first in the MRNote shape, paginated', async () => {
    const first = await call('POST', comments('merge_requests'), owner.token, { note: 'First' });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(Object.keys(first.body), ['note', 'author']);
    assert.equal(first.body.note, 'First');
    assert.deepEqual(Object.keys(first.body.author), USER_BASIC_KEYS);
    assert.equal(first.body.author.username, owner.username);
    const second = await call('POST', comments('merge_request'), owner.token, { note: 'Second' });
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.note, 'Second');

    for (const form of ['merge_requests', 'merge_request']) {
      const list = await call('GET', comments(form), owner.token);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.map((c: { note: string }) => c.note),
        ['First', 'Second'],
      );
      assert.deepEqual(Object.keys(list.body[0]), ['note', 'author']);
      assert.equal(list.headers['x-total'], '2');
    }
    const page = await call('GET', `${comments('merge_requests')}?per_page=1&page=2`, owner.token);
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(
      page.body.map((c: { note: string }) => c.note),
      ['Second'],
    );
    assert.equal(page.headers['x-total'], '2');
    assert.equal(page.headers['x-total-pages'], '2');
    assert.equal(page.headers['x-page'], '2');
    assert.equal(page.headers['x-prev-page'], '1');
    assert.match(String(page.headers.link), /rel="first"/);

    // They are notes of the MR like any other: listed under …/notes and counted.
    const notes = await call(
      'GET',
      `/api/v3/projects/${project.id}/merge_requests/${mr.id}/notes`,
      owner.token,
    );
    assert.deepEqual(
      notes.body.map((n: { body: string; noteable_type: string }) => [n.body, n.noteable_type]),
      [
        ['First', 'MergeRequest'],
        ['Second', 'MergeRequest'],
      ],
    );
    const read = await call('GET', `/api/v3/projects/${project.id}/merge_requests/${mr.id}`, owner.token);
    assert.equal(read.body.user_notes_count, 2);
  });

  it('fires the note hook and records the commented event', async () => {
    const posted = await call('POST', comments('merge_request'), owner.token, { note: 'Hooked' });
    assert.equal(posted.status, 201, posted.text);
    await t.server.hookWorker.drain();
    const hook = await until('the note hook of the comment', () =>
      receiver.received.find(
        (h) => h.body.object_kind === 'note' && h.body.object_attributes.note === 'Hooked',
      ),
    );
    assert.equal(hook.headers['x-gitlab-event'], 'Note Hook');
    assert.equal(hook.body.object_attributes.noteable_type, 'MergeRequest');
    assert.equal(hook.body.object_attributes.noteable_id, mr.id);
    assert.equal(hook.body.merge_request.id, mr.id);
    assert.equal(hook.body.object_attributes.url, `${mr.web_url}#note_${hook.body.object_attributes.id}`);
    const events = await call('GET', `/api/v3/projects/${project.id}/events`, owner.token);
    const commented = events.body.find(
      (e: { target_type: string; target_id: number }) =>
        e.target_type === 'Note' && e.target_id === hook.body.object_attributes.id,
    );
    assert.equal(commented?.action_name, 'commented on');
  });

  it('answers 400 without a note, 404 for an unknown MR, hidden project or another project', async () => {
    for (const form of ['merge_requests', 'merge_request']) {
      const missing = await call('POST', comments(form), owner.token, {});
      assert.equal(missing.status, 400, missing.text);
      assert.deepEqual(missing.body, { message: '400 (Bad request) "note" not given' });
      const unknown = await call('GET', comments(form, 999999), owner.token);
      assert.equal(unknown.status, 404, unknown.text);
      assert.deepEqual(unknown.body, { message: '404 Not found' });
      const unknownPost = await call('POST', comments(form, 999999), owner.token, { note: 'x' });
      assert.equal(unknownPost.status, 404, unknownPost.text);
    }
    // The private project is hidden from a non-member: 404 whether reading or writing.
    const hidden = await call('GET', comments('merge_requests'), stranger.token);
    assert.equal(hidden.status, 404, hidden.text);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    const hiddenPost = await call('POST', comments('merge_request'), stranger.token, { note: 'x' });
    assert.equal(hiddenPost.status, 404, hiddenPost.text);
    // An MR id of another project is not found through this one.
    const other = await createProject(t, { owner, path: 'mrcmother', commit: true });
    const otherRead = await call(
      'GET',
      `/api/v3/projects/${other.id}/merge_requests/${mr.id}/comments`,
      owner.token,
    );
    assert.equal(otherRead.status, 404, otherRead.text);
  });

  it('refuses a guest of the private project (8.13.12 find_merge_request_with_access): 403', async () => {
    const before = await call('GET', comments('merge_requests'), owner.token);
    for (const form of ['merge_requests', 'merge_request']) {
      const read = await call('GET', comments(form), guest.token);
      assert.equal(read.status, 403, read.text);
      assert.deepEqual(read.body, { message: '403 Forbidden' });
      const write = await call('POST', comments(form), guest.token, { note: 'sneaky' });
      assert.equal(write.status, 403, write.text);
    }
    const afterwards = await call('GET', comments('merge_requests'), owner.token);
    assert.equal(afterwards.headers['x-total'], before.headers['x-total']);
  });

  it('turns an emoji-only comment into an award on the MR', async () => {
    const thumb = await call('POST', comments('merge_requests'), owner.token, { note: ':tada:' });
    assert.equal(thumb.status, 201, thumb.text);
    assert.deepEqual(thumb.body.note, ':tada:');
    const awards = await call(
      'GET',
      `/api/v3/projects/${project.id}/merge_requests/${mr.id}/award_emoji`,
      owner.token,
    );
    assert.ok(awards.body.some((a: { name: string }) => a.name === 'tada'));
    const again = await call('POST', comments('merge_requests'), owner.token, { note: ':tada:' });
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { message: 'Failed to save note {:name=>["has already been taken"]}' });
  });
});
