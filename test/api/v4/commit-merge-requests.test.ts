// v4's GET /projects/:id/repository/commits/:sha/merge_requests over HTTP: the MRs whose commits hold
// the commit (open and, once merged, still), none for the commit an MR only starts from, 404 for an
// unknown commit and for a project the caller may not see.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProjectTeam, type ProjectTeam } from '../../helpers/factory.ts';
import { openTopicMergeRequest } from '../../helpers/merge-requests.ts';

describe('API v4 a commit’s merge requests', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let base: string;
  let topic: { iid: number; sha: string };
  let start: string;

  const get = (url: string, token: string) => t.request('GET', url, { token });

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'traced', {
      owner: 'tara',
      developer: 'tom',
      reporter: 'tess',
      stranger: 'tim',
    });
    base = `/api/v4/projects/${team.project.id}/repository/commits`;
    const master = await get(
      `/api/v4/projects/${team.project.id}/repository/branches/master`,
      team.owner.token,
    );
    start = master.body.commit.id;
    topic = await openTopicMergeRequest(t, team.developer.token, team.project.id);
  });
  after(async () => t.close());

  it('lists the merge requests holding the commit, for whoever reads them', async () => {
    const found = await get(`${base}/${topic.sha}/merge_requests`, team.reporter.token);
    assert.equal(found.status, 200, found.text);
    assert.deepEqual(
      found.body.map((mr: { iid: number; title: string }) => [mr.iid, mr.title]),
      [[topic.iid, 'Topic']],
    );
    assert.equal(found.headers['x-total'], '1');
    // A branch name resolves to its commit as everywhere else.
    const byName = await get(`${base}/topic/merge_requests`, team.reporter.token);
    assert.equal(byName.body.length, 1);

    const from = await get(`${base}/${start}/merge_requests`, team.reporter.token);
    assert.deepEqual([from.status, from.body], [200, []]);

    const merged = await t.request(
      'PUT',
      `/api/v4/projects/${team.project.id}/merge_requests/${topic.iid}/merge`,
      { token: team.owner.token },
    );
    assert.equal(merged.status, 200, merged.text);
    const again = await get(`${base}/${topic.sha}/merge_requests`, team.owner.token);
    assert.deepEqual(
      again.body.map((mr: { state: string }) => mr.state),
      ['merged'],
    );
    // Merged, its base is the merge's first parent: the commit it started from is still not its own.
    const fromMerged = await get(`${base}/${start}/merge_requests`, team.owner.token);
    assert.deepEqual([fromMerged.status, fromMerged.body], [200, []]);
  });

  it('answers 404 for an unknown commit and a hidden project', async () => {
    const unknown = await get(`${base}/${'0'.repeat(40)}/merge_requests`, team.owner.token);
    assert.deepEqual([unknown.status, unknown.body], [404, { message: '404 Commit Not Found' }]);
    const hidden = await get(`${base}/${topic.sha}/merge_requests`, team.stranger.token);
    assert.deepEqual([hidden.status, hidden.body], [404, { message: '404 Project Not Found' }]);
  });
});
