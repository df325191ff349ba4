// v4's project milestones: the Milestone entity (start_date, expired, web_url), the list's filters
// (state, iids[], title, search) and pagination, one, create, edit (state_event), delete (204, its
// issues keep going without it), its issues and merge requests, and the refusals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProjectTeam, type ProjectTeam } from '../../helpers/factory.ts';
import { openTopicMergeRequest } from '../../helpers/merge-requests.ts';

describe('API v4 milestones', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let base: string;

  const call = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token, body });
  const titles = (body: Array<{ title: string }>) => body.map((milestone) => milestone.title);

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'planned', {
      owner: 'mia',
      developer: 'max',
      reporter: 'mel',
      stranger: 'moe',
    });
    base = `/api/v4/projects/${team.project.id}/milestones`;
  });
  after(async () => t.close());

  it('creates, filters, reads, edits and deletes milestones', async () => {
    const past = await call('POST', base, team.owner.token, {
      title: 'v1.0',
      description: 'First release',
      due_date: '2020-01-31',
      start_date: '2020-01-01',
    });
    assert.equal(past.status, 201, past.text);
    assert.deepEqual(Object.keys(past.body), [
      'id',
      'iid',
      'project_id',
      'title',
      'description',
      'state',
      'created_at',
      'updated_at',
      'due_date',
      'start_date',
      'expired',
      'web_url',
    ]);
    assert.equal(past.body.start_date, '2020-01-01');
    assert.equal(past.body.expired, true);
    assert.equal(past.body.web_url, `${t.config.externalUrl}/mia/planned/milestones/${past.body.iid}`);
    const next = await call('POST', base, team.owner.token, { title: 'v2.0', due_date: '2999-12-31' });
    assert.equal(next.body.expired, false);
    const third = await call('POST', base, team.owner.token, { title: 'Someday' });

    const closed = await call('PUT', `${base}/${past.body.id}`, team.owner.token, { state_event: 'close' });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.body.state, 'closed');

    const all = await call('GET', base, team.reporter.token);
    assert.deepEqual(titles(all.body), ['Someday', 'v2.0', 'v1.0']);
    assert.deepEqual(titles((await call('GET', `${base}?state=active`, team.reporter.token)).body), [
      'Someday',
      'v2.0',
    ]);
    assert.deepEqual(titles((await call('GET', `${base}?state=closed`, team.reporter.token)).body), ['v1.0']);
    const byIids = await call(
      'GET',
      `${base}?iids[]=${past.body.iid}&iids[]=${third.body.iid}`,
      team.reporter.token,
    );
    assert.deepEqual(titles(byIids.body), ['Someday', 'v1.0']);
    assert.deepEqual(titles((await call('GET', `${base}?title=v2.0`, team.reporter.token)).body), ['v2.0']);
    assert.deepEqual(titles((await call('GET', `${base}?search=RELEASE`, team.reporter.token)).body), [
      'v1.0',
    ]);
    const paged = await call('GET', `${base}?per_page=2&page=2`, team.reporter.token);
    assert.deepEqual(titles(paged.body), ['v1.0']);
    assert.equal(paged.headers['x-total'], '3');

    assert.deepEqual((await call('GET', `${base}/${past.body.id}`, team.reporter.token)).body, closed.body);

    const issue = await call('POST', `/api/v3/projects/${team.project.id}/issues`, team.owner.token, {
      title: 'Planned work',
      milestone_id: third.body.id,
    });
    assert.equal(issue.status, 201, issue.text);
    const issues = await call('GET', `${base}/${third.body.id}/issues`, team.reporter.token);
    assert.equal(issues.status, 200, issues.text);
    assert.deepEqual(
      issues.body.map((item: { id: number }) => item.id),
      [issue.body.id],
    );
    // v4's Issue entity, not v3's: `opened`, references, task_completion_status.
    assert.equal(issues.body[0].state, 'opened');
    assert.deepEqual(issues.body[0].references, {
      short: `#${issue.body.iid}`,
      relative: `#${issue.body.iid}`,
      full: `${team.project.fullPath}#${issue.body.iid}`,
    });
    assert.equal(issues.body[0].closed_by, null);
    assert.deepEqual(issues.body[0].task_completion_status, { count: 0, completed_count: 0 });

    const mr = await openTopicMergeRequest(t, team.developer.token, team.project.id);
    const set = await call(
      'PUT',
      `/api/v3/projects/${team.project.id}/merge_requests/${mr.id}`,
      team.owner.token,
      {
        milestone_id: third.body.id,
      },
    );
    assert.equal(set.status, 200, set.text);
    const mrs = await call('GET', `${base}/${third.body.id}/merge_requests`, team.reporter.token);
    assert.equal(mrs.status, 200, mrs.text);
    assert.deepEqual(
      mrs.body.map((item: { iid: number }) => item.iid),
      [mr.iid],
    );
    // v4's MergeRequestBasic: references, draft, detailed_merge_status, merged_by.
    assert.equal(mrs.body[0].state, 'opened');
    assert.equal(mrs.body[0].references.full, `${team.project.fullPath}!${mr.iid}`);
    assert.equal(mrs.body[0].draft, false);
    assert.equal(typeof mrs.body[0].detailed_merge_status, 'string');
    assert.equal(mrs.body[0].merged_by, null);
    assert.deepEqual(
      (await call('GET', `${base}/${past.body.id}/merge_requests`, team.reporter.token)).body,
      [],
    );

    const deleted = await call('DELETE', `${base}/${third.body.id}`, team.owner.token);
    assert.equal(deleted.status, 204);
    assert.equal((await call('GET', `${base}/${third.body.id}`, team.owner.token)).status, 404);
    const kept = await call(
      'GET',
      `/api/v3/projects/${team.project.id}/issues/${issue.body.id}`,
      team.owner.token,
    );
    assert.equal(kept.status, 200);
    assert.equal(kept.body.milestone, null);
  });

  it('refuses bad parameters, writes below master and hidden projects', async () => {
    const missing = await call('POST', base, team.owner.token, {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'title is missing' });
    assert.equal((await call('GET', `${base}?state=sideways`, team.owner.token)).status, 400);
    assert.equal((await call('GET', `${base}?iids[]=x`, team.owner.token)).status, 400);
    assert.equal((await call('POST', base, team.developer.token, { title: 'Mine' })).status, 403);
    assert.equal((await call('GET', base, team.stranger.token)).status, 404);
    assert.equal((await call('GET', `${base}/99999`, team.owner.token)).status, 404);
    const taken = await call('POST', base, team.owner.token, { title: 'v2.0' });
    assert.equal(taken.status, 400);
  });
});
