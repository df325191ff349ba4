// v4's todos: mark an issue and a merge request by iid (201, then 304), the list in v4's Todo entity
// with its filters, mark one done (201) and all done (204), and the refusals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProjectTeam, type ProjectTeam } from '../../helpers/factory.ts';
import { openTopicMergeRequest } from '../../helpers/merge-requests.ts';

describe('API v4 todos', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let issue: { id: number; iid: number; web_url: string };
  let mr: { id: number; iid: number };

  const call = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token, body });

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'todone', {
      owner: 'otto',
      developer: 'olga',
      reporter: 'oleg',
      stranger: 'oona',
    });
    const created = await call('POST', `/api/v3/projects/${team.project.id}/issues`, team.owner.token, {
      title: 'Do it',
    });
    issue = created.body;
    mr = await openTopicMergeRequest(t, team.developer.token, team.project.id);
  });
  after(async () => t.close());

  it('marks an issue and a merge request as todos, lists, filters and finishes them', async () => {
    const url = `/api/v4/projects/${team.project.id}/issues/${issue.iid}/todo`;
    const marked = await call('POST', url, team.reporter.token);
    assert.equal(marked.status, 201, marked.text);
    assert.equal(marked.body.target_type, 'Issue');
    assert.equal(marked.body.target.iid, issue.iid);
    assert.equal(marked.body.target_url, issue.web_url);
    // The target is v4's Issue entity.
    assert.equal(marked.body.target.state, 'opened');
    assert.equal(marked.body.target.references.full, `otto/todone#${issue.iid}`);
    assert.equal(marked.body.target.closed_at, null);
    assert.equal(marked.body.action_name, 'marked');
    assert.equal(marked.body.state, 'pending');
    assert.equal(marked.body.project.id, team.project.id);
    assert.equal(marked.body.project.path_with_namespace, `otto/todone`);
    assert.equal(marked.body.author.username, 'oleg');
    assert.ok(marked.body.updated_at);
    assert.equal((await call('POST', url, team.reporter.token)).status, 304);
    const mrTodo = await call(
      'POST',
      `/api/v4/projects/${team.project.id}/merge_requests/${mr.iid}/todo`,
      team.reporter.token,
    );
    assert.equal(mrTodo.status, 201, mrTodo.text);
    assert.equal(mrTodo.body.target_type, 'MergeRequest');
    assert.equal(mrTodo.body.target.iid, mr.iid);
    assert.equal(mrTodo.body.target.state, 'opened');
    assert.equal(mrTodo.body.target.references.short, `!${mr.iid}`);
    assert.equal(mrTodo.body.target_url, `${t.config.externalUrl}/otto/todone/merge_requests/${mr.iid}`);

    const all = await call('GET', '/api/v4/todos', team.reporter.token);
    assert.deepEqual(
      all.body.map((todo: { id: number }) => todo.id),
      [mrTodo.body.id, marked.body.id],
    );
    const issuesOnly = await call('GET', '/api/v4/todos?type=Issue', team.reporter.token);
    assert.deepEqual(issuesOnly.body, [marked.body]);
    assert.equal((await call('GET', '/api/v4/todos', team.owner.token)).body.length, 0);

    const done = await call('POST', `/api/v4/todos/${marked.body.id}/mark_as_done`, team.reporter.token);
    assert.equal(done.status, 201, done.text);
    assert.equal(done.body.state, 'done');
    const doneList = await call('GET', '/api/v4/todos?state=done', team.reporter.token);
    assert.deepEqual(
      doneList.body.map((todo: { id: number }) => todo.id),
      [marked.body.id],
    );
    const allDone = await call('POST', '/api/v4/todos/mark_as_done', team.reporter.token);
    assert.equal(allDone.status, 204);
    assert.equal((await call('GET', '/api/v4/todos', team.reporter.token)).body.length, 0);
  });

  it('refuses hidden projects, other users’ todos and anonymous callers', async () => {
    const url = `/api/v4/projects/${team.project.id}/issues/${issue.iid}/todo`;
    assert.equal((await call('POST', url, team.stranger.token)).status, 404);
    const mine = await call('POST', url, team.developer.token);
    assert.equal(mine.status, 201, mine.text);
    const theirs = await call('POST', `/api/v4/todos/${mine.body.id}/mark_as_done`, team.reporter.token);
    assert.equal(theirs.status, 404);
    assert.equal((await t.request('GET', '/api/v4/todos')).status, 401);
  });
});
