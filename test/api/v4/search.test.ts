// v4's search over HTTP: the instance's, a group's and a project's scopes (projects, issues, merge
// requests, milestones, users), Grape's refusals of a missing or unknown parameter, pagination, and that
// nothing of a project the caller may not read ever appears: not its issues, not confidential ones.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addGroupMember,
  createGroup,
  createProject,
  createProjectTeam,
  type ProjectTeam,
  type TestProject,
} from '../../helpers/factory.ts';
import { openTopicMergeRequest } from '../../helpers/merge-requests.ts';

describe('API v4 search', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let open: TestProject;
  let herd: TestProject;
  let groupId: number;

  const get = (url: string, token?: string) => t.request('GET', url, { token });
  const titles = (body: Array<{ title: string }>) => body.map((item) => item.title).sort();
  const issue = async (
    projectId: number,
    token: string,
    title: string,
    extra: Record<string, unknown> = {},
  ) => {
    const created = await t.request('POST', `/api/v4/projects/${projectId}/issues`, {
      token,
      body: { title, ...extra },
    });
    assert.equal(created.status, 201, created.text);
  };

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'quarry', {
      owner: 'sara',
      developer: 'sid',
      reporter: 'sue',
      stranger: 'stan',
    });
    const id = team.project.id;
    await issue(id, team.owner.token, 'Zebra crossing broken');
    await issue(id, team.owner.token, 'Zebra secret', { confidential: true });
    await issue(id, team.owner.token, 'Unrelated');
    await openTopicMergeRequest(t, team.developer.token, id);
    const milestone = await t.request('POST', `/api/v4/projects/${id}/milestones`, {
      token: team.owner.token,
      body: { title: 'Zebra release' },
    });
    assert.equal(milestone.status, 201, milestone.text);
    // The stranger's own public project, with an issue of the same words.
    open = await createProject(t, { owner: team.stranger, path: 'openzoo', visibility: 20, commit: true });
    await issue(open.id, team.stranger.token, 'Zebra in public');
    // A private group with one project, of which only sara is a member.
    groupId = await createGroup(t, 'herd', 0);
    await addGroupMember(t, groupId, team.owner.id, 50);
    herd = await createProject(t, { owner: team.owner, path: 'stable', namespace: 'herd', commit: true });
    await issue(herd.id, team.owner.token, 'Zebra in the herd');
  });
  after(async () => t.close());

  it('refuses a missing or unknown parameter as Grape does, and a caller without a token', async () => {
    const none = await get('/api/v4/search', team.owner.token);
    assert.equal(none.status, 400);
    assert.deepEqual(none.body, { error: 'search is missing, scope is missing' });
    const noScope = await get('/api/v4/search?search=zebra', team.owner.token);
    assert.deepEqual([noScope.status, noScope.body], [400, { error: 'scope is missing' }]);
    const blank = await get('/api/v4/search?scope=issues&search=', team.owner.token);
    assert.deepEqual([blank.status, blank.body], [400, { error: 'search is missing' }]);
    const unknown = await get('/api/v4/search?scope=wikis&search=zebra', team.owner.token);
    assert.deepEqual([unknown.status, unknown.body], [400, { error: 'scope does not have a valid value' }]);
    // A project has no `projects` scope, a group no `users` one.
    const projectScope = await get(
      `/api/v4/projects/${team.project.id}/search?scope=projects&search=a`,
      team.owner.token,
    );
    assert.deepEqual(projectScope.body, { error: 'scope does not have a valid value' });
    const groupUsers = await get(`/api/v4/groups/${groupId}/search?scope=users&search=a`, team.owner.token);
    assert.equal(groupUsers.status, 400);
    const tooLong = await get(`/api/v4/search?scope=issues&search=${'z'.repeat(2000)}`, team.owner.token);
    assert.equal(tooLong.status, 400);
    const anonymous = await get('/api/v4/search?scope=projects&search=quarry');
    assert.equal(anonymous.status, 401);
  });

  it('finds issues only where the caller may read them, confidential ones only for those who may', async () => {
    const owner = await get('/api/v4/search?scope=issues&search=zebra', team.owner.token);
    assert.equal(owner.status, 200, owner.text);
    assert.deepEqual(titles(owner.body), ['Zebra crossing broken', 'Zebra in the herd', 'Zebra secret']);
    assert.equal(owner.headers['x-total'], '3');
    assert.equal(owner.body[0].project_id !== undefined && owner.body[0].iid !== undefined, true);

    const stranger = await get('/api/v4/search?scope=issues&search=zebra', team.stranger.token);
    assert.deepEqual(titles(stranger.body), ['Zebra in public']);
    const hidden = await get(
      `/api/v4/projects/${team.project.id}/search?scope=issues&search=zebra`,
      team.stranger.token,
    );
    assert.deepEqual([hidden.status, hidden.body], [404, { message: '404 Project Not Found' }]);

    const developer = await get(
      `/api/v4/projects/${team.project.id}/search?scope=issues&search=ZEBRA`,
      team.developer.token,
    );
    assert.deepEqual(titles(developer.body), ['Zebra crossing broken', 'Zebra secret']);

    // Paginated as every list: one per page, the totals and the next page.
    const paged = await get(
      `/api/v4/projects/${team.project.id}/search?scope=issues&search=zebra&per_page=1`,
      team.owner.token,
    );
    assert.equal(paged.body.length, 1);
    assert.equal(paged.headers['x-total'], '2');
    assert.equal(paged.headers['x-total-pages'], '2');
    assert.equal(paged.headers['x-next-page'], '2');
  });

  it('searches merge requests and milestones of a project, a group and the instance', async () => {
    const mrs = await get(
      `/api/v4/projects/${team.project.id}/search?scope=merge_requests&search=topic`,
      team.reporter.token,
    );
    assert.equal(mrs.status, 200, mrs.text);
    assert.deepEqual(titles(mrs.body), ['Topic']);
    assert.equal(mrs.body[0].source_branch, 'topic');
    const mine = await get('/api/v4/search?scope=merge_requests&search=topic', team.developer.token);
    assert.deepEqual(titles(mine.body), ['Topic']);
    const theirs = await get('/api/v4/search?scope=merge_requests&search=topic', team.stranger.token);
    assert.deepEqual(theirs.body, []);
    assert.equal(theirs.headers['x-total'], '0');

    const milestones = await get('/api/v4/search?scope=milestones&search=zebra', team.reporter.token);
    assert.deepEqual(titles(milestones.body), ['Zebra release']);
    assert.equal(milestones.body[0].project_id, team.project.id);
    assert.equal(milestones.body[0].web_url, `${t.config.externalUrl}/sara/quarry/milestones/1`);
    const strangerMilestones = await get('/api/v4/search?scope=milestones&search=zebra', team.stranger.token);
    assert.deepEqual(strangerMilestones.body, []);

    const group = await get(`/api/v4/groups/${groupId}/search?scope=issues&search=zebra`, team.owner.token);
    assert.deepEqual(titles(group.body), ['Zebra in the herd']);
    const groupHidden = await get(
      `/api/v4/groups/${groupId}/search?scope=issues&search=zebra`,
      team.stranger.token,
    );
    assert.equal(groupHidden.status, 404);
  });

  it('searches projects the caller sees and users', async () => {
    const owner = await get('/api/v4/search?scope=projects&search=quarry', team.owner.token);
    assert.deepEqual(
      owner.body.map((p: { path_with_namespace: string }) => p.path_with_namespace),
      ['sara/quarry'],
    );
    assert.equal('permissions' in owner.body[0], false);
    const stranger = await get('/api/v4/search?scope=projects&search=quarry', team.stranger.token);
    assert.deepEqual(stranger.body, []);
    const inGroup = await get(
      `/api/v4/groups/${groupId}/search?scope=projects&search=stab`,
      team.owner.token,
    );
    assert.deepEqual(
      inGroup.body.map((p: { path_with_namespace: string }) => p.path_with_namespace),
      ['herd/stable'],
    );

    const users = await get('/api/v4/search?scope=users&search=sar', team.stranger.token);
    assert.deepEqual(
      users.body.map((u: { username: string }) => u.username),
      ['sara'],
    );
    assert.deepEqual(Object.keys(users.body[0]).sort(), [
      'avatar_url',
      'id',
      'locked',
      'name',
      'state',
      'username',
      'web_url',
    ]);
  });
});
