// v4's merge requests beside v3's, on real repositories: addressed by iid (ids and iids made to differ
// over two projects), the v4 MergeRequest entity (draft, detailed_merge_status, references, merged_by,
// head_pipeline, diff_refs), the list filters (source/target branch, wip, labels, author, state), the
// caller's and a group's lists, commits, changes, diffs, pipelines, versions and closes_issues, and the
// merge with its refusals: 401 for who may not merge, 405 for a draft or a merged MR, 406 on a conflict,
// 409 on a stale sha; subscribe/unsubscribe, delete (204).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { branchWithFile } from '../../helpers/merge-requests.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

describe('API v4 merge requests', () => {
  let t: TestApp;
  let owner: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let first: TestProject;
  let second: TestProject;
  let grouped: TestProject;

  const mrs = (project: TestProject) => `/api/v4/projects/${project.id}/merge_requests`;
  const open = async (project: TestProject, body: Record<string, unknown>) => {
    const response = await t.request('POST', mrs(project), { token: owner.token, body });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'mira');
    reporter = await createUser(t, 'rafa');
    stranger = await createUser(t, 'sven');
    await createGroup(t, 'guild');
    first = await createProject(t, { owner, path: 'first', commit: true });
    second = await createProject(t, { owner, path: 'second', commit: true });
    grouped = await createProject(t, { owner, path: 'grouped', namespace: 'guild', commit: true });
    await addProjectMember(t, grouped.id, owner.id, AccessLevel.Owner);
    await addProjectMember(t, second.id, reporter.id, AccessLevel.Reporter);
    const defaulted = await t.request('PUT', `/api/v4/projects/${second.id}`, {
      token: owner.token,
      body: { default_branch: 'master' },
    });
    assert.equal(defaulted.status, 200, defaulted.text);
    // Two MRs in `first` before any in `second`: `second`'s !1 has the id 3.
    for (const branch of ['a', 'b']) {
      await branchWithFile(t, owner.token, first.id, branch, `${branch}.txt`, `${branch}\n`);
      await open(first, { source_branch: branch, target_branch: 'master', title: `First ${branch}` });
    }
    await branchWithFile(t, owner.token, grouped.id, 'g', 'g.txt', 'g\n');
    await open(grouped, { source_branch: 'g', target_branch: 'master', title: 'Draft: in the group' });
    await branchWithFile(t, owner.token, second.id, 'topic', '.gitlab-ci.yml', 'test:\n  script: echo ok\n');
    await branchWithFile(t, owner.token, second.id, 'wip', 'wip.txt', 'wip\n');
    await branchWithFile(t, owner.token, second.id, 'clash', 'clash.txt', 'theirs\n');
  });
  after(async () => t.close());

  it('opens an MR in the v4 shape, addressed by its iid, never its id', async () => {
    const issue = await t.request('POST', `/api/v4/projects/${second.id}/issues`, {
      token: owner.token,
      body: { title: 'Needs CI' },
    });
    const mr = await open(second, {
      source_branch: 'topic',
      target_branch: 'master',
      title: 'Add CI',
      description: `Closes #${issue.body.iid}`,
      labels: ['ci'],
      assignee_ids: [owner.id],
    });
    assert.equal(mr.iid, 1);
    assert.notEqual(mr.id, mr.iid);
    assert.equal(mr.project_id, second.id);
    assert.equal(mr.state, 'opened');
    assert.equal(mr.draft, false);
    assert.equal(mr.work_in_progress, false);
    assert.equal(mr.merge_when_pipeline_succeeds, false);
    assert.deepEqual(mr.references, { short: '!1', relative: '!1', full: `${second.fullPath}!1` });
    assert.equal(mr.reference, '!1');
    assert.equal(mr.web_url, `${t.config.externalUrl}/${second.fullPath}/merge_requests/1`);
    assert.deepEqual(
      mr.assignees.map((user: any) => user.username),
      ['mira'],
    );
    assert.equal(mr.source_project_id, second.id);
    assert.equal(mr.target_project_id, second.id);
    assert.equal(mr.merged_by, null);
    assert.match(mr.sha, /^[0-9a-f]{40}$/);
    // The single MR: its head pipeline (the push of .gitlab-ci.yml made one) and diff_refs.
    assert.equal(mr.head_pipeline.sha, mr.sha);
    assert.equal(mr.head_pipeline.ref, 'topic');
    assert.equal(mr.diff_refs.head_sha, mr.sha);
    assert.match(mr.diff_refs.base_sha, /^[0-9a-f]{40}$/);
    assert.equal(mr.user.can_merge, true);

    const byId = await t.request('GET', `${mrs(second)}/${mr.id}`, { token: owner.token });
    assert.equal(byId.status, 404);
    assert.deepEqual(byId.body, { message: '404 Merge Request Not Found' });
    const other = await t.request('GET', `${mrs(first)}/1`, { token: owner.token });
    assert.equal(other.body.title, 'First a');

    const reporterView = await t.request('GET', `${mrs(second)}/1`, { token: reporter.token });
    assert.equal(reporterView.status, 200);
    assert.equal(reporterView.body.user.can_merge, false);

    const pipelines = await t.request('GET', `${mrs(second)}/1/pipelines`, { token: owner.token });
    assert.equal(pipelines.status, 200);
    assert.deepEqual(
      pipelines.body.map((pipeline: any) => pipeline.id),
      [mr.head_pipeline.id],
    );
    const closes = await t.request('GET', `${mrs(second)}/1/closes_issues`, { token: owner.token });
    assert.deepEqual(
      closes.body.map((closed: any) => [closed.iid, closed.title]),
      [[issue.body.iid, 'Needs CI']],
    );
  });

  it('reads commits, changes, diffs and versions by iid', async () => {
    const commits = await t.request('GET', `${mrs(second)}/1/commits`, { token: owner.token });
    assert.equal(commits.status, 200);
    assert.deepEqual(
      commits.body.map((commit: any) => commit.title),
      ['Write .gitlab-ci.yml on topic'],
    );
    assert.ok('web_url' in commits.body[0]);
    const changes = await t.request('GET', `${mrs(second)}/1/changes`, { token: owner.token });
    assert.deepEqual(
      changes.body.changes.map((change: any) => change.new_path),
      ['.gitlab-ci.yml'],
    );
    const diffs = await t.request('GET', `${mrs(second)}/1/diffs`, { token: owner.token });
    assert.equal(diffs.body[0].new_path, '.gitlab-ci.yml');
    assert.equal(diffs.headers['x-total'], '1');
    const versions = await t.request('GET', `${mrs(second)}/1/versions`, { token: owner.token });
    assert.equal(versions.status, 200);
    assert.equal(versions.body.length, 1);
    const version = await t.request('GET', `${mrs(second)}/1/versions/${versions.body[0].id}`, {
      token: owner.token,
    });
    assert.equal(version.body.diffs[0].new_path, '.gitlab-ci.yml');
    const noVersion = await t.request('GET', `${mrs(second)}/1/versions/999999`, { token: owner.token });
    assert.equal(noVersion.status, 404);
  });

  it('filters lists by branch, wip, labels, author and state; the caller and a group', async () => {
    await open(second, { source_branch: 'wip', target_branch: 'master', title: 'WIP: not yet' });
    const titles = async (url: string, token = owner.token) => {
      const response = await t.request('GET', url, { token });
      assert.equal(response.status, 200, response.text);
      return response.body.map((mr: any) => mr.title);
    };
    assert.deepEqual(await titles(mrs(second)), ['WIP: not yet', 'Add CI']);
    assert.deepEqual(await titles(`${mrs(second)}?source_branch=topic`), ['Add CI']);
    assert.deepEqual(await titles(`${mrs(second)}?target_branch=nope`), []);
    assert.deepEqual(await titles(`${mrs(second)}?wip=yes`), ['WIP: not yet']);
    assert.deepEqual(await titles(`${mrs(second)}?wip=no`), ['Add CI']);
    assert.deepEqual(await titles(`${mrs(second)}?labels=ci`), ['Add CI']);
    assert.deepEqual(await titles(`${mrs(second)}?author_id=${reporter.id}`), []);
    assert.deepEqual(await titles(`${mrs(second)}?iids[]=2`), ['WIP: not yet']);
    assert.deepEqual(await titles(`${mrs(second)}?state=merged`), []);
    const draft = await t.request('GET', `${mrs(second)}/2`, { token: owner.token });
    assert.equal(draft.body.draft, true);
    assert.equal(draft.body.detailed_merge_status, 'draft_status');

    assert.deepEqual(await titles('/api/v4/merge_requests?search=first&sort=asc'), ['First a', 'First b']);
    assert.deepEqual(await titles('/api/v4/merge_requests?scope=assigned_to_me'), ['Add CI']);
    assert.deepEqual(await titles('/api/v4/merge_requests', reporter.token), []);
    assert.deepEqual(await titles('/api/v4/merge_requests?scope=all', reporter.token), [
      'WIP: not yet',
      'Add CI',
    ]);
    assert.deepEqual(await titles('/api/v4/groups/guild/merge_requests'), ['Draft: in the group']);
    const bad = await t.request('GET', `${mrs(second)}?wip=maybe`, { token: owner.token });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { error: 'wip does not have a valid value' });
    const hidden = await t.request('GET', mrs(second), { token: stranger.token });
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
  });

  it('merges with the refusals in order: 401, 405, 409, then merged by its merger', async () => {
    const refused = await t.request('PUT', `${mrs(second)}/1/merge`, { token: reporter.token });
    assert.equal(refused.status, 401);
    const draft = await t.request('PUT', `${mrs(second)}/2/merge`, { token: owner.token });
    assert.equal(draft.status, 405);
    assert.deepEqual(draft.body, { message: '405 Method Not Allowed' });
    const stale = await t.request('PUT', `${mrs(second)}/1/merge`, {
      token: owner.token,
      body: { sha: '0'.repeat(40) },
    });
    assert.equal(stale.status, 409);
    assert.match(stale.body.message, /^SHA does not match HEAD of source branch/);
    const before = (await t.request('GET', `${mrs(second)}/1`, { token: owner.token })).body;
    const merged = await t.request('PUT', `${mrs(second)}/1/merge`, {
      token: owner.token,
      body: { sha: before.sha, merge_commit_message: 'Merge CI in', should_remove_source_branch: true },
    });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.state, 'merged');
    assert.equal(merged.body.merged_by.username, 'mira');
    assert.ok(Date.parse(merged.body.merged_at) > 0);
    assert.match(merged.body.merge_commit_sha, /^[0-9a-f]{40}$/);
    assert.equal(merged.body.detailed_merge_status, 'not_open');
    const commit = await t.request(
      'GET',
      `/api/v4/projects/${second.id}/repository/commits/${merged.body.merge_commit_sha}`,
      { token: owner.token },
    );
    assert.equal(commit.body.message.trim(), 'Merge CI in');
    assert.deepEqual(commit.body.parent_ids.length, 2);
    const branch = await t.request('GET', `/api/v4/projects/${second.id}/repository/branches/topic`, {
      token: owner.token,
    });
    assert.equal(branch.status, 404);
    const again = await t.request('PUT', `${mrs(second)}/1/merge`, { token: owner.token });
    assert.equal(again.status, 405);
    const listed = await t.request('GET', `${mrs(second)}?state=merged`, { token: owner.token });
    assert.deepEqual(
      listed.body.map((mr: any) => [mr.iid, mr.merged_by?.username]),
      [[1, 'mira']],
    );
    // Merging closed the issue the description named.
    const issue = await t.request('GET', `/api/v4/projects/${second.id}/issues/1`, { token: owner.token });
    assert.equal(issue.body.state, 'closed');
  });

  it('answers 406 for a conflict, with nothing merged', async () => {
    const ours = await t.request('POST', `/api/v4/projects/${second.id}/repository/files/clash.txt`, {
      token: owner.token,
      body: { branch: 'master', content: 'ours\n', commit_message: 'Ours' },
    });
    assert.equal(ours.status, 201, ours.text);
    const mr = await open(second, { source_branch: 'clash', target_branch: 'master', title: 'Clash' });
    const conflict = await t.request('PUT', `${mrs(second)}/${mr.iid}/merge`, { token: owner.token });
    assert.equal(conflict.status, 406, conflict.text);
    assert.deepEqual(conflict.body, { message: 'Branch cannot be merged' });
    const after = await t.request('GET', `${mrs(second)}/${mr.iid}`, { token: owner.token });
    assert.equal(after.body.state, 'opened');
    assert.equal(after.body.merge_status, 'cannot_be_merged');
    assert.equal(after.body.has_conflicts, true);
  });

  it('edits, closes with closed_by, subscribes, and deletes (204)', async () => {
    const closed = await t.request('PUT', `${mrs(second)}/2`, {
      token: owner.token,
      body: { state_event: 'close', title: 'WIP: shelved' },
    });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.body.state, 'closed');
    assert.equal(closed.body.title, 'WIP: shelved');
    assert.equal(closed.body.closed_by.username, 'mira');
    const reopened = await t.request('PUT', `${mrs(second)}/2`, {
      token: owner.token,
      body: { state_event: 'reopen' },
    });
    assert.equal(reopened.body.state, 'opened');
    assert.equal(reopened.body.closed_by, null);

    const on = await t.request('POST', `${mrs(second)}/2/subscribe`, { token: reporter.token });
    assert.equal(on.status, 201);
    assert.equal(on.body.subscribed, true);
    const again = await t.request('POST', `${mrs(second)}/2/subscribe`, { token: reporter.token });
    assert.equal(again.status, 304);
    const off = await t.request('POST', `${mrs(second)}/2/unsubscribe`, { token: reporter.token });
    assert.equal(off.body.subscribed, false);
    const stats = await t.request('GET', `${mrs(second)}/2/time_stats`, { token: reporter.token });
    assert.equal(stats.body.total_time_spent, 0);

    const missing = await t.request('POST', mrs(second), { token: owner.token, body: { title: 'x' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'source_branch is missing, target_branch is missing' });

    const deleted = await t.request('DELETE', `${mrs(second)}/2`, { token: owner.token });
    assert.equal(deleted.status, 204);
    const gone = await t.request('GET', `${mrs(second)}/2`, { token: owner.token });
    assert.equal(gone.status, 404);
    const kept = await t.request('GET', `${mrs(first)}/2`, { token: owner.token });
    assert.equal(kept.status, 200);
  });
});
