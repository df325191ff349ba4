// Hostile input on the collaboration endpoints (issues, merge requests, notes, labels, milestones, award
// emoji, todos, subscriptions): ids and iids that are huge, negative or not numbers, pagination out of
// range, values of the wrong JSON type, malformed dates and long texts each get a 4xx with a JSON body in
// GitLab 8.13's shapes (or are taken as 8.13 took them), never a 500; refused writes store nothing.
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

describe('hostile input on the collaboration API', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let developer: TestUser;
  let project: TestProject;
  let hidden: TestProject;
  let api: string;
  let issue: { id: number; title: string };
  let mr: { id: number; title: string };
  let milestone: { id: number };
  let note: { id: number };

  const call = (method: string, url: string, body?: Record<string, unknown>, token = owner.token) =>
    t.request(method, url, { token, ...(body ? { body } : {}) });

  async function created(method: string, url: string, body: Record<string, unknown>) {
    const response = await call(method, url, body);
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'hostowner');
    stranger = await createUser(t, 'hoststranger');
    developer = await createUser(t, 'hostdev');
    project = await createProject(t, { owner, path: 'hostile', visibility: 20, commit: true });
    hidden = await createProject(t, { owner, path: 'hostile-hidden', commit: true });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    api = `/api/v3/projects/${project.id}`;
    await created('POST', `${api}/repository/branches`, { branch_name: 'feature', ref: 'master' });
    await created('POST', `${api}/repository/files`, {
      file_path: 'f.txt',
      branch_name: 'feature',
      content: 'f\n',
      commit_message: 'Add f',
    });
    issue = await created('POST', `${api}/issues`, { title: 'Target' });
    mr = await created('POST', `${api}/merge_requests`, {
      title: 'Feature',
      source_branch: 'feature',
      target_branch: 'master',
    });
    milestone = await created('POST', `${api}/milestones`, { title: 'M1' });
    note = await created('POST', `${api}/issues/${issue.id}/notes`, { body: 'hello' });
  });
  after(() => t.close());

  /** Every answer is below 500 and, when it has a body, JSON. */
  async function assertClientAnswer(method: string, url: string, body?: Record<string, unknown>) {
    const response = await call(method, url, body);
    assert.ok(
      response.status < 500,
      `${method} ${url} ${JSON.stringify(body)} → ${response.status} ${response.text}`,
    );
    if (response.text !== '') assert.doesNotThrow(() => JSON.parse(response.text), `${method} ${url}`);
    return response;
  }

  it('answers odd ids in paths with a 4xx, never a 500', async () => {
    for (const id of ['99999999999999999999', '-1', 'abc', '0', '1.5', '1e3', '2147483648']) {
      for (const path of [
        `/issues/${id}`,
        `/issues/${id}/notes`,
        `/issues/${issue.id}/notes/${id}`,
        `/issues/${id}/award_emoji`,
        `/merge_requests/${id}`,
        `/merge_request/${id}/changes`,
        `/merge_requests/${id}/versions/${id}`,
        `/milestones/${id}/issues`,
      ]) {
        const response = await assertClientAnswer('GET', `${api}${path}`);
        assert.ok(response.status === 400 || response.status === 404, `${path}: ${response.status}`);
      }
      await assertClientAnswer('PUT', `${api}/issues/${id}`, { title: 'x' });
      await assertClientAnswer('POST', `${api}/issues/${id}/notes`, { body: 'x' });
      await assertClientAnswer('DELETE', `/api/v3/todos/${id}`);
    }
  });

  it('reads pagination out of range as 8.13 did: defaults, or an empty page past the end', async () => {
    for (const list of ['/issues', '/merge_requests', '/milestones', `/issues/${issue.id}/notes`]) {
      for (const query of ['per_page=0', 'per_page=-1', 'per_page=1000000000', 'page=-1', 'page=abc']) {
        const response = await assertClientAnswer('GET', `${api}${list}?${query}`);
        assert.equal(response.status, 200);
        assert.ok(response.body.length >= 1, `${list}?${query}`);
      }
      const beyond = await assertClientAnswer('GET', `${api}${list}?page=99999999`);
      assert.deepEqual(beyond.body, []);
    }
  });

  it('refuses values of the wrong JSON type with Grape’s words, storing nothing', async () => {
    for (const value of [[], ['a', 'b'], { a: 1 }]) {
      const post = await assertClientAnswer('POST', `${api}/issues`, { title: 'T', labels: value });
      assert.deepEqual(post.body, { error: 'labels is invalid' });
      const put = await assertClientAnswer('PUT', `${api}/merge_requests/${mr.id}`, { title: value });
      assert.deepEqual(put.body, { error: 'title is invalid' });
    }
    const nullTitle = await assertClientAnswer('POST', `${api}/issues`, { title: null });
    assert.deepEqual(nullTitle.body, { message: '400 (Bad request) "title" not given' });
    const unknownState = await assertClientAnswer('PUT', `${api}/issues/${issue.id}`, {
      state_event: 'delete',
    });
    assert.deepEqual(unknownState.body, { error: 'state_event does not have a valid value' });
    const list = await call('GET', `${api}/issues?per_page=100`);
    assert.deepEqual(
      list.body.map((i: { title: string }) => i.title),
      ['Target'],
    );
  });

  it('takes a malformed due date as none, as ActiveRecord cast it', async () => {
    for (const due of ['2016-13-45', '2016-02-30', 'abc']) {
      const made = await assertClientAnswer('POST', `${api}/milestones`, {
        title: `Due ${due}`,
        due_date: due,
      });
      assert.equal(made.status, 201);
      assert.equal(made.body.due_date, null);
      const edited = await assertClientAnswer('PUT', `${api}/issues/${issue.id}`, { due_date: due });
      assert.equal(edited.body.due_date, null);
      const moved = await assertClientAnswer('PUT', `${api}/milestones/${milestone.id}`, { due_date: due });
      assert.equal(moved.body.due_date, null);
    }
  });

  it('refuses an issue or merge request title over 255 characters, counting characters', async () => {
    const long = 'x'.repeat(256);
    const tooLong = { message: { title: ['is too long (maximum is 255 characters)'] } };
    const emoji = '😀'.repeat(255); // 510 UTF-16 units, 255 characters: fits
    const fits = await assertClientAnswer('POST', `${api}/issues`, { title: emoji });
    assert.equal(fits.status, 201, fits.text);
    assert.equal(fits.body.title, emoji);
    const overIssue = await assertClientAnswer('POST', `${api}/issues`, { title: `${emoji}x` });
    assert.equal(overIssue.status, 400);
    assert.deepEqual(overIssue.body, tooLong);

    await created('POST', `${api}/repository/branches`, { branch_name: 'long', ref: 'feature' });
    const overMr = await assertClientAnswer('POST', `${api}/merge_requests`, {
      title: long,
      source_branch: 'long',
      target_branch: 'master',
    });
    assert.equal(overMr.status, 400);
    assert.deepEqual(overMr.body, tooLong);
    const edit = await assertClientAnswer('PUT', `${api}/merge_requests/${mr.id}`, { title: long });
    assert.equal(edit.status, 400);
    assert.deepEqual(edit.body, tooLong);
    const after = await call('GET', `${api}/merge_requests/${mr.id}`);
    assert.equal(after.body.title, mr.title);
    const opened = await call('GET', `${api}/merge_requests?state=opened`);
    assert.equal(opened.body.length, 1);
    const notes = await call('GET', `${api}/merge_requests/${mr.id}/notes`);
    assert.deepEqual(notes.body, []);
  });

  it('keeps hidden things hidden: another project, a confidential issue', async () => {
    const fork = await call(
      'POST',
      `${api}/merge_requests`,
      {
        title: 'Into hidden',
        source_branch: 'feature',
        target_branch: 'master',
        target_project_id: hidden.id,
      },
      developer.token,
    );
    assert.equal(fork.status, 404);
    assert.deepEqual(fork.body, { message: '404 Not found' }, 'a project the caller cannot read is unknown');
    const secret = await created('POST', `${api}/issues`, { title: 'Secret', confidential: true });
    const comment = await call('POST', `${api}/issues/${secret.id}/notes`, { body: 'peek' }, stranger.token);
    assert.deepEqual(comment.body, { message: '404 Note Not Found' });
    const award = await call(
      'POST',
      `${api}/issues/${secret.id}/award_emoji`,
      { name: 'tada' },
      stranger.token,
    );
    assert.equal(award.status, 404);
    const notes = await call('GET', `${api}/issues/${secret.id}/notes`);
    assert.deepEqual(notes.body, []);
    // A note named through another project's path is not found there.
    const noteOnOther = await call(
      'GET',
      `/api/v3/projects/${hidden.id}/issues/${issue.id}/notes/${note.id}`,
    );
    assert.deepEqual(noteOnOther.body, { message: '404 Not found' });
  });
});
