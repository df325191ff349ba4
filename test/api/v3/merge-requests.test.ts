// Merge requests over HTTP as GitLab 8.13 answered them, on real repositories: create (in a project and
// from a fork), list and read at both path forms, edit and close, and merge: a two-parent commit with
// 8.13's message that a `git clone` sees, 406 on a conflict with nothing written, 409 on a stale sha,
// 401 on a protected branch, and concurrent merges that never lose a commit. Hooks and events follow;
// closes_issues names the issues its description and commits close, which the merge closes.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  addProtectedBranch,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../../helpers/git.ts';
import { branchWithFile as createBranchWithFile } from '../../helpers/merge-requests.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { MERGE_REQUEST_HOOK_KEYS } from '../../helpers/entity-keys.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const MR_KEYS = [
  'id',
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'target_branch',
  'source_branch',
  'upvotes',
  'downvotes',
  'author',
  'assignee',
  'source_project_id',
  'target_project_id',
  'labels',
  'work_in_progress',
  'milestone',
  'merge_when_build_succeeds',
  'merge_status',
  'sha',
  'merge_commit_sha',
  'subscribed',
  'user_notes_count',
  'should_remove_source_branch',
  'force_remove_source_branch',
  'web_url',
];

const HOOK_ATTRIBUTE_KEYS = [...MERGE_REQUEST_HOOK_KEYS, 'url', 'action'];

describe('merge requests', () => {
  let t: TestApp;
  let http: string;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let reporter: TestUser;
  let project: TestProject;
  let receiver: Receiver;
  let mrs: string;

  const call = (method: string, url: string, body: Record<string, unknown> = {}, token = developer.token) =>
    t.request(method, url, { token, body });
  const sha = async (repo: string, ref: string) =>
    (await client.run(['--git-dir', repo, 'rev-parse', '--verify', '-q', ref])).stdout.trim();

  const branchWithFile = (
    projectId: number,
    branch: string,
    file: string,
    content: string,
    token = developer.token,
  ) => createBranchWithFile(t, token, projectId, branch, file, content);

  async function openMergeRequest(branch: string, title = `Merge ${branch}`, description?: string) {
    const response = await call('POST', mrs, {
      source_branch: branch,
      target_branch: 'master',
      title,
      ...(description ? { description } : {}),
    });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  before(async () => {
    t = await startTestApp();
    http = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'mrowner');
    developer = await createUser(t, 'mrdev');
    reporter = await createUser(t, 'mrreporter');
    project = await createProject(t, { owner, path: 'reviewed', commit: true });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
    const edit = await t.request('PUT', `/api/v3/projects/${project.id}`, {
      token: owner.token,
      body: { name: 'reviewed', default_branch: 'master' },
    });
    assert.equal(edit.status, 200, edit.text);
    receiver = await startReceiver();
    const hook = await t.request('POST', `/api/v3/projects/${project.id}/hooks`, {
      token: owner.token,
      body: { url: receiver.url, merge_requests_events: true, push_events: false },
    });
    assert.equal(hook.status, 201, hook.text);
    mrs = `/api/v3/projects/${project.id}/merge_requests`;
  });
  after(async () => {
    client.close();
    await receiver.close();
    await t.close();
  });

  it('creates a merge request within a project and shows it at both path forms and in the list', async () => {
    await branchWithFile(project.id, 'feature-a', 'a.txt', 'a\n');
    const head = await sha(project.repoPath, 'refs/heads/feature-a');
    const created = await openMergeRequest('feature-a', 'Add a', 'Adds a.');
    assert.deepEqual(Object.keys(created), MR_KEYS);
    assert.equal(created.project_id, project.id);
    assert.equal(created.source_project_id, project.id);
    assert.equal(created.target_project_id, project.id);
    assert.equal(created.state, 'opened');
    assert.equal(created.merge_status, 'unchecked');
    assert.equal(created.sha, head);
    assert.equal(created.author.username, developer.username);
    assert.equal(created.work_in_progress, false);
    assert.equal(
      created.web_url,
      `${t.config.externalUrl}/${project.fullPath}/merge_requests/${created.iid}`,
    );

    for (const form of ['merge_requests', 'merge_request']) {
      const one = await call('GET', `/api/v3/projects/${project.id}/${form}/${created.id}`);
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(one.body, created);
    }
    const byIid = await call('GET', `${mrs}?iid=${created.iid}`);
    assert.deepEqual(
      byIid.body.map((mr: { id: number }) => mr.id),
      [created.id],
    );
    assert.equal(byIid.headers['x-total'], '1');
    const commits = await call('GET', `${mrs}/${created.id}/commits`);
    assert.equal(commits.status, 200);
    assert.deepEqual(
      commits.body.map((commit: { id: string }) => commit.id),
      [head],
    );
    const changes = await call('GET', `/api/v3/projects/${project.id}/merge_request/${created.id}/changes`);
    assert.equal(changes.status, 200);
    assert.deepEqual(
      changes.body.changes.map((change: { new_path: string; new_file: boolean }) => [
        change.new_path,
        change.new_file,
      ]),
      [['a.txt', true]],
    );

    await t.server.hookWorker.drain();
    const open = receiver.received.find((hook) => hook.body.object_attributes?.action === 'open');
    assert.ok(open, 'an open hook');
    assert.equal(open.headers['x-gitlab-event'], 'Merge Request Hook');
    assert.deepEqual(Object.keys(open.body), [
      'object_kind',
      'user',
      'project',
      'object_attributes',
      'repository',
    ]);
    assert.deepEqual(Object.keys(open.body.object_attributes), HOOK_ATTRIBUTE_KEYS);
    assert.equal(open.body.object_attributes.last_commit.id, head);
    assert.match(open.body.object_attributes.created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  });

  it('answers 8.13’s errors for bad creates', async () => {
    await branchWithFile(project.id, 'feature-errors', 'e.txt', 'e\n');
    const missing = await call('POST', mrs, { source_branch: 'feature-errors', target_branch: 'master' });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { message: '400 (Bad request) "title" not given' });
    const same = await call('POST', mrs, { source_branch: 'master', target_branch: 'master', title: 'x' });
    assert.equal(same.status, 422);
    assert.deepEqual(same.body, { error: ['You can not use same project/branch for source and target'] });
    await openMergeRequest('feature-errors', 'Errors');
    const twin = await call('POST', mrs, {
      source_branch: 'feature-errors',
      target_branch: 'master',
      title: 'x',
    });
    assert.equal(twin.status, 409);
    assert.deepEqual(twin.body, {
      message: ['Cannot Create: This merge request already exists: ["Errors"]'],
    });
    const byReporter = await call(
      'POST',
      mrs,
      { source_branch: 'feature-errors', target_branch: 'master', title: 'y' },
      reporter.token,
    );
    assert.equal(byReporter.status, 403);
    const anonymous = await t.request('GET', mrs);
    assert.equal(anonymous.status, 401);
  });

  it('merges: a two-parent commit with 8.13’s message that a clone sees, an accepted event and a merge hook', async () => {
    await branchWithFile(project.id, 'feature-merge', 'm.txt', 'm\n');
    const mr = await openMergeRequest('feature-merge', 'Merge me', 'Why it matters.');
    const before = await sha(project.repoPath, 'refs/heads/master');
    const merged = await call('PUT', `/api/v3/projects/${project.id}/merge_request/${mr.id}/merge`, {
      sha: mr.sha,
      should_remove_source_branch: 'true',
    });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.state, 'merged');
    assert.equal(merged.body.should_remove_source_branch, true);
    const after = await sha(project.repoPath, 'refs/heads/master');
    assert.equal(merged.body.merge_commit_sha, after);

    const dir = path.join(client.home, `clone-${Date.now()}`);
    await client.ok(['clone', '-q', repoUrl(http, project.fullPath, owner.username, owner.password), dir]);
    const [parents, ...message] = (await client.ok(['log', '-1', '--format=%P%n%B'], dir))
      .trimEnd()
      .split('\n');
    assert.deepEqual(parents.split(' '), [before, mr.sha]);
    assert.equal(
      message.join('\n'),
      `Merge branch 'feature-merge' into 'master'\n\nMerge me\n\nWhy it matters.\n\nSee merge request !${mr.iid}`,
    );
    assert.equal(await sha(project.repoPath, 'refs/heads/feature-merge'), '', 'source branch removed');
    // What it brought stays readable after the merge, as 8.13's stored diff kept it.
    const mrPath = `/api/v3/projects/${project.id}/merge_requests/${mr.id}`;
    const commits = await call('GET', `${mrPath}/commits`);
    assert.deepEqual(
      commits.body.map((commit: { id: string }) => commit.id),
      [mr.sha],
    );
    const changes = await call('GET', `${mrPath}/changes`);
    assert.deepEqual(
      changes.body.changes.map((change: { new_path: string }) => change.new_path),
      ['m.txt'],
    );

    const events = await t.request('GET', `/api/v3/projects/${project.id}/events`, { token: owner.token });
    const accepted = events.body.find(
      (event: { action_name: string; target_id: number }) =>
        event.action_name === 'accepted' && event.target_id === mr.id,
    );
    assert.ok(accepted, 'an accepted event');
    assert.equal(accepted.target_type, 'MergeRequest');
    await t.server.hookWorker.drain();
    const hook = receiver.received.find(
      (delivery) =>
        delivery.body.object_attributes?.action === 'merge' && delivery.body.object_attributes.id === mr.id,
    );
    assert.ok(hook, 'a merge hook');
    assert.equal(hook.body.object_attributes.state, 'merged');
    assert.equal(hook.body.object_attributes.merge_commit_sha, after);

    const again = await call('PUT', `${mrs}/${mr.id}/merge`);
    assert.equal(again.status, 405);
    assert.deepEqual(again.body, { message: '405 Method Not Allowed' });
  });

  it('refuses a conflicting merge with 406 and writes nothing; then 405 once known', async () => {
    await branchWithFile(project.id, 'clash-one', 'clash.txt', 'one\n');
    await branchWithFile(project.id, 'clash-two', 'clash.txt', 'two\n');
    const first = await openMergeRequest('clash-one');
    const second = await openMergeRequest('clash-two');
    assert.equal((await call('PUT', `${mrs}/${first.id}/merge`)).status, 200);
    const before = await sha(project.repoPath, 'refs/heads/master');
    const refused = await call('PUT', `${mrs}/${second.id}/merge`);
    assert.equal(refused.status, 406);
    assert.deepEqual(refused.body, { message: 'Branch cannot be merged' });
    assert.equal(await sha(project.repoPath, 'refs/heads/master'), before);
    const shown = await call('GET', `${mrs}/${second.id}`);
    assert.equal(shown.body.merge_status, 'cannot_be_merged');
    assert.equal(shown.body.state, 'opened');
    assert.equal((await call('PUT', `${mrs}/${second.id}/merge`)).status, 405);
  });

  it('answers 409 for a stale sha, and 405 for work in progress', async () => {
    await branchWithFile(project.id, 'stale', 's.txt', 's\n');
    const mr = await openMergeRequest('stale');
    const before = await sha(project.repoPath, 'refs/heads/master');
    const stale = await call('PUT', `${mrs}/${mr.id}/merge`, { sha: '1'.repeat(40) });
    assert.equal(stale.status, 409);
    assert.deepEqual(stale.body, { message: `SHA does not match HEAD of source branch: ${mr.sha}` });
    assert.equal(await sha(project.repoPath, 'refs/heads/master'), before);

    await branchWithFile(project.id, 'wip', 'w.txt', 'w\n');
    const wip = await openMergeRequest('wip', 'WIP: not yet');
    assert.equal(wip.work_in_progress, true);
    assert.equal((await call('PUT', `${mrs}/${wip.id}/merge`)).status, 405);
  });

  it('sees a push to the source branch: new sha, merge_status unchecked again', async () => {
    await branchWithFile(project.id, 'moving', 'mv.txt', '1\n');
    const mr = await openMergeRequest('moving');
    const written = await call('PUT', `/api/v3/projects/${project.id}/repository/files`, {
      file_path: 'mv.txt',
      branch_name: 'moving',
      content: '2\n',
      commit_message: 'Again',
    });
    assert.equal(written.status, 200, written.text);
    const shown = await call('GET', `${mrs}/${mr.id}`);
    assert.equal(shown.body.sha, await sha(project.repoPath, 'refs/heads/moving'));
    assert.notEqual(shown.body.sha, mr.sha);
    const stale = await call('PUT', `${mrs}/${mr.id}/merge`, { sha: mr.sha });
    assert.equal(stale.status, 409);
    await t.server.hookWorker.drain();
    const update = receiver.received.find(
      (hook) => hook.body.object_attributes?.id === mr.id && hook.body.object_attributes.action === 'update',
    );
    assert.ok(update, 'an update hook for the push');
    assert.equal(update.body.object_attributes.oldrev, mr.sha);
    assert.equal(update.body.object_attributes.last_commit.id, shown.body.sha);
  });

  it('edits, closes and reopens; only owners delete', async () => {
    await branchWithFile(project.id, 'edited', 'ed.txt', 'ed\n');
    const mr = await openMergeRequest('edited');
    const renamed = await call('PUT', `${mrs}/${mr.id}`, { title: 'Renamed', assignee_id: owner.id });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.title, 'Renamed');
    assert.equal(renamed.body.assignee.username, owner.username);
    const source = await call('PUT', `${mrs}/${mr.id}`, { source_branch: 'other' });
    assert.deepEqual([source.status, source.body], [400, { message: 'Source branch cannot be changed' }]);
    const bad = await call('PUT', `${mrs}/${mr.id}`, { state_event: 'explode' });
    assert.deepEqual([bad.status, bad.body], [400, { error: 'state_event does not have a valid value' }]);
    const closed = await call('PUT', `/api/v3/projects/${project.id}/merge_request/${mr.id}`, {
      state_event: 'close',
    });
    assert.equal(closed.body.state, 'closed');
    assert.deepEqual(
      (await call('GET', `${mrs}?state=closed`)).body.map((row: { id: number }) => row.id),
      [mr.id],
    );
    const reopened = await call('PUT', `${mrs}/${mr.id}`, { state_event: 'reopen' });
    assert.equal(reopened.body.state, 'reopened');
    const opened = await call('GET', `${mrs}?state=opened&per_page=100`);
    assert.ok(opened.body.some((row: { id: number; state: string }) => row.id === mr.id));

    assert.equal((await call('DELETE', `${mrs}/${mr.id}`)).status, 403);
    const deleted = await call('DELETE', `${mrs}/${mr.id}`, {}, owner.token);
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.id, mr.id);
    assert.equal((await call('GET', `${mrs}/${mr.id}`)).status, 404);
    assert.equal((await call('DELETE', `${mrs}/999999`, {}, owner.token)).status, 403);
  });

  it('lets a developer merge into an unprotected branch only (401 on a protected one)', async () => {
    await addProtectedBranch(t, project.id, 'master');
    try {
      await branchWithFile(project.id, 'guarded', 'g.txt', 'g\n');
      const mr = await openMergeRequest('guarded');
      const before = await sha(project.repoPath, 'refs/heads/master');
      const refused = await call('PUT', `${mrs}/${mr.id}/merge`);
      assert.deepEqual([refused.status, refused.body], [401, { message: '401 Unauthorized' }]);
      assert.equal(await sha(project.repoPath, 'refs/heads/master'), before);
      const byMaster = await call('PUT', `${mrs}/${mr.id}/merge`, {}, owner.token);
      assert.equal(byMaster.status, 200, byMaster.text);
      assert.equal(byMaster.body.state, 'merged');
    } finally {
      await t.server.deps.db.kysely
        .deleteFrom('protected_branches')
        .where('project_id', '=', project.id)
        .execute();
    }
  });

  it('never loses a commit when merges race each other', async () => {
    const branches = ['race-1', 'race-2', 'race-3'];
    const opened = [];
    for (const branch of branches) {
      await branchWithFile(project.id, branch, `${branch}.txt`, `${branch}\n`);
      opened.push(await openMergeRequest(branch));
    }
    // Each MR twice at once: one merge of each wins the lock; the twin sees it locked or merged.
    const answers = await Promise.all(
      [...opened, ...opened].map((mr) => call('PUT', `${mrs}/${mr.id}/merge`)),
    );
    for (const answer of answers) assert.ok([200, 405].includes(answer.status), answer.text);
    const master = await sha(project.repoPath, 'refs/heads/master');
    for (const mr of opened) {
      const shown = (await call('GET', `${mrs}/${mr.id}`)).body;
      assert.equal(shown.state, 'merged', JSON.stringify(shown));
      const contained = await client.run([
        '--git-dir',
        project.repoPath,
        'merge-base',
        '--is-ancestor',
        shown.merge_commit_sha,
        master,
      ]);
      assert.equal(contained.code, 0, `${shown.merge_commit_sha} is on master`);
    }
  });

  it('lists the issues it closes, and closes them when merged', async () => {
    const issue = async (title: string) => {
      const created = await call('POST', `/api/v3/projects/${project.id}/issues`, { title });
      assert.equal(created.status, 201, created.text);
      return created.body as { id: number; iid: number };
    };
    const [described, committed, mentioned] = [await issue('A'), await issue('B'), await issue('C')];
    await call('POST', `/api/v3/projects/${project.id}/repository/branches`, {
      branch_name: 'closing',
      ref: 'master',
    });
    const written = await call('POST', `/api/v3/projects/${project.id}/repository/files`, {
      file_path: 'closing.txt',
      branch_name: 'closing',
      content: 'c\n',
      commit_message: `Fixes #${committed.iid}`,
    });
    assert.equal(written.status, 201, written.text);
    const mr = await openMergeRequest(
      'closing',
      'Close things',
      `Closes #${described.iid}, and see #${mentioned.iid}`,
    );
    const closes = `${mrs}/${mr.id}/closes_issues`;
    const listed = await call('GET', closes);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.map((i: { id: number }) => i.id),
      [described.id, committed.id],
    );
    assert.equal(listed.headers['x-total'], '2');
    const one = await call('GET', `/api/v3/projects/${project.id}/issues/${described.id}`);
    assert.deepEqual(listed.body[0], one.body);
    const paged = await call('GET', `${closes}?per_page=1&page=2`);
    assert.deepEqual(
      paged.body.map((i: { id: number }) => i.id),
      [committed.id],
    );

    const merged = await call('PUT', `${mrs}/${mr.id}/merge`, {}, owner.token);
    assert.equal(merged.body.state, 'merged', merged.text);
    const state = async (id: number) =>
      (await call('GET', `/api/v3/projects/${project.id}/issues/${id}`)).body.state;
    assert.deepEqual(
      [await state(described.id), await state(committed.id), await state(mentioned.id)],
      ['closed', 'closed', 'opened'],
    );
    // Closed by the merge request (PostMergeService), not by the merge commit whose message repeats
    // the description: one status note each, naming the MR.
    for (const closed of [described, committed]) {
      const notes = await call('GET', `/api/v3/projects/${project.id}/issues/${closed.id}/notes`);
      assert.deepEqual(
        // Less 8.13's cross-reference notes (`Mentioned in merge request !N`), which a mention also writes.
        notes.body
          .filter((n: { system: boolean; body: string }) => n.system && !n.body.startsWith('Mentioned in '))
          .map((n: { body: string }) => n.body),
        [`Status changed to closed by merge request !${mr.iid}`],
      );
    }
    // After the merge, it still names what it closed.
    const after = await call('GET', closes);
    assert.deepEqual(
      after.body.map((i: { id: number }) => i.id),
      [described.id, committed.id],
    );
  });

  it('creates a merge request from a fork to its source and merges it', async () => {
    const forker = await createUser(t, 'mrforker');
    await addProjectMember(t, project.id, forker.id, AccessLevel.Reporter);
    const forked = await t.request('POST', `/api/v3/projects/fork/${project.id}`, { token: forker.token });
    assert.equal(forked.status, 201, forked.text);
    const fork = forked.body;
    await branchWithFile(fork.id, 'from-fork', 'fork.txt', 'fork\n', forker.token);
    const forkRepo = path.join(path.dirname(project.repoPath), '..', forker.username, `${fork.path}.git`);
    const head = await sha(forkRepo, 'refs/heads/from-fork');

    // A target the caller cannot see is hidden; one that is not the source's parent is refused.
    const hidden = await call(
      'POST',
      mrs,
      { source_branch: 'master', target_branch: 'master', title: 'x', target_project_id: fork.id },
      owner.token,
    );
    assert.deepEqual([hidden.status, hidden.body], [404, { message: '404 Not found' }]);
    const other = await createProject(t, { owner, path: 'unrelated', commit: true });
    const notFork = await call(
      'POST',
      mrs,
      { source_branch: 'master', target_branch: 'master', title: 'x', target_project_id: other.id },
      owner.token,
    );
    assert.deepEqual(
      [notFork.status, notFork.body],
      [422, { error: ['Source project is not a fork of the target project'] }],
    );
    const created = await call(
      'POST',
      `/api/v3/projects/${fork.id}/merge_requests`,
      {
        source_branch: 'from-fork',
        target_branch: 'master',
        title: 'From a fork',
        target_project_id: project.id,
      },
      forker.token,
    );
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.project_id, project.id);
    assert.equal(created.body.source_project_id, fork.id);
    assert.equal(created.body.sha, head);
    // The fork's head is in the target under GitLab's ref (every MR has one), and no staging ref is left.
    const refs = await client.ok([
      '--git-dir',
      project.repoPath,
      'for-each-ref',
      '--format=%(refname) %(objectname)',
      'refs/merge-requests/',
    ]);
    const lines = refs.trim().split('\n');
    assert.ok(lines.includes(`refs/merge-requests/${created.body.iid}/head ${head}`), refs);
    assert.ok(!lines.some((line) => line.includes('/fetched/')), refs);
    // Its `open` hook, queued with the insert, names the fork's commit.
    await t.server.hookWorker.drain();
    const open = receiver.received.find(
      (hook) =>
        hook.body.object_attributes?.action === 'open' && hook.body.object_attributes.id === created.body.id,
    );
    assert.equal(open?.body.object_attributes.last_commit.id, head);
    assert.equal(open?.body.object_attributes.source.path_with_namespace, `${forker.username}/${fork.path}`);
    const commits = await call('GET', `${mrs}/${created.body.id}/commits`, {}, owner.token);
    assert.deepEqual(
      commits.body.map((commit: { id: string }) => commit.id),
      [head],
    );
    const merged = await call('PUT', `${mrs}/${created.body.id}/merge`, { sha: head }, owner.token);
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.state, 'merged');
    const contained = await client.run([
      '--git-dir',
      project.repoPath,
      'merge-base',
      '--is-ancestor',
      head,
      'refs/heads/master',
    ]);
    assert.equal(contained.code, 0);
  });
});
