// v4's participants of an issue and a merge request: author, assignee, then commenters and emoji awarders
// in the order they joined, each once, as UserBasic; blocked users left out; a hidden project is a 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProjectTeam,
  createUser,
  type ProjectTeam,
  type TestUser,
} from '../../helpers/factory.ts';
import { openTopicMergeRequest } from '../../helpers/merge-requests.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const USER_BASIC_KEYS = ['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url'];

describe('API v4 participants', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let commenter: TestUser;
  let issueIid: number;
  let mr: { id: number; iid: number };

  const call = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token, body });
  const base = () => `/api/v4/projects/${team.project.id}`;
  const usernames = (body: Array<{ username: string }>) => body.map((user) => user.username);

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'partaken', {
      owner: 'paula',
      developer: 'pete',
      reporter: 'pia',
      stranger: 'pavel',
    });
    commenter = await createUser(t, 'percy');
    await addProjectMember(t, team.project.id, commenter.id, AccessLevel.Reporter);
    const issue = await call('POST', `${base()}/issues`, team.reporter.token, {
      title: 'Who is in',
      assignee_ids: [team.developer.id],
    });
    assert.equal(issue.status, 201, issue.text);
    issueIid = issue.body.iid;
    mr = await openTopicMergeRequest(t, team.developer.token, team.project.id);
  });
  after(async () => t.close());

  it('lists author, assignee, commenters and awarders of an issue, each once', async () => {
    const url = `${base()}/issues/${issueIid}`;
    for (const [user, body] of [
      [commenter, 'Me too'],
      [team.owner, 'Looking'],
      [commenter, 'Still me'],
      [team.developer, 'On it'],
    ] as const) {
      assert.equal((await call('POST', `${url}/notes`, user.token, { body })).status, 201);
    }
    const award = await call('POST', `${url}/award_emoji`, team.owner.token, { name: 'thumbsup' });
    assert.equal(award.status, 201, award.text);

    const response = await call('GET', `${url}/participants`, team.reporter.token);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers['content-type'], 'application/json');
    assert.deepEqual(usernames(response.body), ['pia', 'pete', 'percy', 'paula']);
    assert.deepEqual(Object.keys(response.body[0]), USER_BASIC_KEYS);
    assert.equal(response.body[0].id, team.reporter.id);
    assert.equal(response.body[0].state, 'active');
    assert.equal(response.body[0].web_url, `${t.config.externalUrl}/pia`);
  });

  it('lists a merge request’s participants, and leaves blocked users out', async () => {
    const url = `${base()}/merge_requests/${mr.iid}`;
    const before = await call('GET', `${url}/participants`, team.owner.token);
    assert.equal(before.status, 200, before.text);
    assert.deepEqual(usernames(before.body), ['pete']);

    assert.equal((await call('POST', `${url}/notes`, commenter.token, { body: 'LGTM' })).status, 201);
    const award = await call('POST', `${url}/award_emoji`, team.reporter.token, { name: 'tada' });
    assert.equal(award.status, 201, award.text);
    assert.deepEqual(usernames((await call('GET', `${url}/participants`, team.owner.token)).body), [
      'pete',
      'percy',
      'pia',
    ]);

    const blocked = await call('POST', `/api/v4/users/${commenter.id}/block`, t.rootToken);
    assert.equal(blocked.status, 201, blocked.text);
    assert.deepEqual(usernames((await call('GET', `${url}/participants`, team.owner.token)).body), [
      'pete',
      'pia',
    ]);
  });

  it('answers 404 for a project the caller cannot see and an unknown iid, 401 without a token', async () => {
    const hidden = await call('GET', `${base()}/issues/${issueIid}/participants`, team.stranger.token);
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    const hiddenMr = await call(
      'GET',
      `${base()}/merge_requests/${mr.iid}/participants`,
      team.stranger.token,
    );
    assert.equal(hiddenMr.status, 404);
    const missing = await call('GET', `${base()}/issues/999999/participants`, team.owner.token);
    assert.equal(missing.status, 404);
    const missingMr = await call('GET', `${base()}/merge_requests/999999/participants`, team.owner.token);
    assert.equal(missingMr.status, 404);
    const anonymous = await t.request('GET', `${base()}/issues/${issueIid}/participants`);
    assert.equal(anonymous.status, 401);
  });
});
