// v4's squash and rebase of merge requests on real repositories, without a work tree: `squash` kept on
// create and edit, `squash: true` on merge writes one commit of the merged tree on the target head
// (authored by the MR's author, committed by the merger, the title or squash_commit_message as its
// message) and merges it; the rebase replays the source branch on the target head (authors kept), moves
// the branch as a push (a pipeline unless skip_ci), leaves merge_error on a conflict, and refuses who may
// not push to the source branch (403). And X-Total of a project's list from the kept counts by state.
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
import { branchWithFile } from '../../helpers/merge-requests.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

describe('API v4 merge request squash and rebase', () => {
  let t: TestApp;
  let owner: TestUser;
  let author: TestUser;
  let reporter: TestUser;
  let project: TestProject;

  const api = (path: string) => `/api/v4/projects/${project.id}${path}`;
  const writeFile = async (user: TestUser, branch: string, file: string, content: string) => {
    const written = await t.request('POST', `/api/v3/projects/${project.id}/repository/files`, {
      token: user.token,
      body: { file_path: file, branch_name: branch, content, commit_message: `Write ${file} on ${branch}` },
    });
    assert.equal(written.status, 201, written.text);
  };
  const editFile = async (branch: string, file: string, content: string) => {
    const edited = await t.request('PUT', `/api/v3/projects/${project.id}/repository/files`, {
      token: owner.token,
      body: { file_path: file, branch_name: branch, content, commit_message: `Edit ${file} on ${branch}` },
    });
    assert.equal(edited.status, 200, edited.text);
  };
  const head = async (branch: string): Promise<string> => {
    const found = await t.request('GET', api(`/repository/branches/${branch}`), { token: owner.token });
    assert.equal(found.status, 200, found.text);
    return found.body.commit.id;
  };
  const commit = async (sha: string) => {
    const found = await t.request('GET', api(`/repository/commits/${sha}`), { token: owner.token });
    assert.equal(found.status, 200, found.text);
    return found.body;
  };
  const open = async (source: string, title: string, extra: Record<string, unknown> = {}) => {
    const created = await t.request('POST', api('/merge_requests'), {
      token: author.token,
      body: { source_branch: source, target_branch: 'master', title, ...extra },
    });
    assert.equal(created.status, 201, created.text);
    return created.body;
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'olga');
    author = await createUser(t, 'arno', { name: 'Arno Author' });
    reporter = await createUser(t, 'remy');
    project = await createProject(t, { owner, path: 'squashy', commit: true });
    await addProjectMember(t, project.id, author.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
  });
  after(async () => t.close());

  it('keeps squash on create and edit', async () => {
    await branchWithFile(t, owner.token, project.id, 'keep', 'keep.txt', 'keep\n');
    const mr = await open('keep', 'Keep', { squash: true });
    assert.equal(mr.squash, true);
    assert.equal(mr.squash_commit_sha, null);
    const edited = await t.request('PUT', api(`/merge_requests/${mr.iid}`), {
      token: owner.token,
      body: { squash: false },
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.squash, false);
    const again = await t.request('PUT', api(`/merge_requests/${mr.iid}`), {
      token: owner.token,
      body: { squash: 'true' },
    });
    assert.equal(again.body.squash, true);
    const closed = await t.request('PUT', api(`/merge_requests/${mr.iid}`), {
      token: owner.token,
      body: { state_event: 'close' },
    });
    assert.equal(closed.body.state, 'closed');
  });

  it('squashes two commits into one on the target head, then merges it', async () => {
    await branchWithFile(t, author.token, project.id, 'two', 'one.txt', 'one\n');
    await writeFile(author, 'two', 'two.txt', 'two\n');
    const mr = await open('two', 'Two files', { description: 'Both of them' });
    assert.equal(mr.squash, false);
    const target = await head('master');
    const merged = await t.request('PUT', api(`/merge_requests/${mr.iid}/merge`), {
      token: owner.token,
      body: { squash: true },
    });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.state, 'merged');
    assert.equal(merged.body.squash, true);
    assert.match(merged.body.squash_commit_sha, /^[0-9a-f]{40}$/);
    assert.notEqual(merged.body.squash_commit_sha, mr.sha);
    assert.equal(merged.body.merge_commit_sha, await head('master'));
    const merge = await commit(merged.body.merge_commit_sha);
    assert.deepEqual(merge.parent_ids, [target, merged.body.squash_commit_sha]);
    assert.match(merge.message, /^Merge branch 'two' into 'master'/);
    const squash = await commit(merged.body.squash_commit_sha);
    assert.deepEqual(squash.parent_ids, [target]);
    assert.equal(squash.message.trim(), 'Two files');
    assert.equal(squash.author_name, 'Arno Author');
    assert.equal(squash.author_email, author.email);
    assert.equal(squash.committer_email, owner.email);
    // The squash's tree is the merge's: both files, and nothing else changes with the merge.
    const diff = await t.request('GET', api(`/repository/commits/${merged.body.squash_commit_sha}/diff`), {
      token: owner.token,
    });
    assert.deepEqual(diff.body.map((file: { new_path: string }) => file.new_path).sort(), [
      'one.txt',
      'two.txt',
    ]);
    const tree = await t.request(
      'GET',
      api(`/repository/compare?from=${merged.body.squash_commit_sha}&to=${merged.body.merge_commit_sha}`),
      { token: owner.token },
    );
    assert.deepEqual(tree.body.diffs, []);
    const shown = await t.request('GET', api(`/merge_requests/${mr.iid}`), { token: owner.token });
    assert.equal(shown.body.squash_commit_sha, merged.body.squash_commit_sha);
  });

  it('takes squash_commit_message, and keeps a lone commit that already says it', async () => {
    await branchWithFile(t, author.token, project.id, 'told', 'told.txt', 'told\n');
    await writeFile(author, 'told', 'told-2.txt', 'told\n');
    const told = await open('told', 'Told', { squash: true });
    const merged = await t.request('PUT', api(`/merge_requests/${told.iid}/merge`), {
      token: owner.token,
      body: { squash_commit_message: 'One commit\n\nsaid so' },
    });
    assert.equal(merged.status, 200, merged.text);
    const squash = await commit(merged.body.squash_commit_sha);
    assert.equal(squash.message.trim(), 'One commit\n\nsaid so');

    await branchWithFile(t, author.token, project.id, 'lone', 'lone.txt', 'lone\n');
    const lone = await open('lone', 'Write lone.txt on lone', { squash: true });
    const kept = await t.request('PUT', api(`/merge_requests/${lone.iid}/merge`), { token: owner.token });
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.body.squash_commit_sha, lone.sha);
    assert.deepEqual((await commit(kept.body.merge_commit_sha)).parent_ids[1], lone.sha);
  });

  it('rebases the source branch onto the target head, keeping authors, with a pipeline', async () => {
    await writeFile(owner, 'master', '.gitlab-ci.yml', 'test:\n  script: echo ok\n');
    await branchWithFile(t, author.token, project.id, 'behind', 'behind-1.txt', '1\n');
    await writeFile(author, 'behind', 'behind-2.txt', '2\n');
    const mr = await open('behind', 'Behind');
    const before = await head('behind');
    await writeFile(owner, 'master', 'ahead.txt', 'ahead\n');
    const target = await head('master');

    const refused = await t.request('PUT', api(`/merge_requests/${mr.iid}/rebase`), {
      token: reporter.token,
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.message, '403 Forbidden  - Cannot push to source branch');

    const rebased = await t.request('PUT', api(`/merge_requests/${mr.iid}/rebase`), { token: owner.token });
    assert.equal(rebased.status, 202, rebased.text);
    assert.deepEqual(rebased.body, { rebase_in_progress: false });
    const after = await head('behind');
    assert.notEqual(after, before);
    const second = await commit(after);
    assert.equal(second.message.trim(), 'Write behind-2.txt on behind');
    assert.equal(second.author_email, author.email);
    assert.equal(second.committer_email, owner.email);
    const first = await commit(second.parent_ids[0]);
    assert.equal(first.message.trim(), 'Write behind-1.txt on behind');
    assert.deepEqual(first.parent_ids, [target]);
    const shown = await t.request('GET', api(`/merge_requests/${mr.iid}?include_rebase_in_progress=true`), {
      token: owner.token,
    });
    assert.equal(shown.body.rebase_in_progress, false);
    assert.equal(shown.body.merge_error, null);
    assert.equal(shown.body.sha, after);
    const pipelines = await t.request('GET', api(`/pipelines?sha=${after}`), { token: owner.token });
    assert.equal(pipelines.body.length, 1, pipelines.text);

    // Once more on a newer target, with skip_ci: the branch moves, no pipeline comes.
    await writeFile(owner, 'master', 'ahead-2.txt', 'ahead\n');
    const skipped = await t.request('PUT', api(`/merge_requests/${mr.iid}/rebase`), {
      token: author.token,
      body: { skip_ci: true },
    });
    assert.equal(skipped.status, 202, skipped.text);
    const moved = await head('behind');
    assert.notEqual(moved, after);
    const none = await t.request('GET', api(`/pipelines?sha=${moved}`), { token: owner.token });
    assert.deepEqual(none.body, []);

    // Already on the target head: nothing moves.
    const idle = await t.request('PUT', api(`/merge_requests/${mr.iid}/rebase`), { token: owner.token });
    assert.equal(idle.status, 202, idle.text);
    assert.equal(await head('behind'), moved);
  });

  it('leaves the branch and a merge_error when the rebase conflicts', async () => {
    await writeFile(owner, 'master', 'clash.txt', 'base\n');
    await branchWithFile(t, author.token, project.id, 'clash', 'other.txt', 'other\n');
    await editFile('clash', 'clash.txt', 'ours\n');
    await editFile('master', 'clash.txt', 'theirs\n');
    const mr = await open('clash', 'Clash');
    const before = await head('clash');
    const rebased = await t.request('PUT', api(`/merge_requests/${mr.iid}/rebase`), { token: owner.token });
    assert.equal(rebased.status, 202, rebased.text);
    assert.equal(await head('clash'), before);
    const shown = await t.request('GET', api(`/merge_requests/${mr.iid}`), { token: owner.token });
    assert.equal(shown.body.merge_error, 'Rebase failed. Please rebase locally');
    const missing = await t.request('PUT', api('/merge_requests/999/rebase'), { token: owner.token });
    assert.equal(missing.status, 404, missing.text);
  });

  it('counts a project list from the kept counts, by state', async () => {
    const other = await createProject(t, { owner, path: 'counted', commit: true });
    const list = (query: Record<string, string>) =>
      t.request('GET', `/api/v4/projects/${other.id}/merge_requests?${new URLSearchParams(query)}`, {
        token: owner.token,
      });
    const totals = async () =>
      Object.fromEntries(
        await Promise.all(
          ['all', 'opened', 'closed', 'merged'].map(async (state) => [
            state,
            Number((await list({ state })).headers['x-total']),
          ]),
        ),
      );
    const iids: number[] = [];
    for (const branch of ['c1', 'c2', 'c3']) {
      await branchWithFile(t, owner.token, other.id, branch, `${branch}.txt`, `${branch}\n`);
      const created = await t.request('POST', `/api/v4/projects/${other.id}/merge_requests`, {
        token: owner.token,
        body: { source_branch: branch, target_branch: 'master', title: branch },
      });
      iids.push(created.body.iid);
    }
    assert.deepEqual(await totals(), { all: 3, opened: 3, closed: 0, merged: 0 });
    const mrPath = (iid: number) => `/api/v4/projects/${other.id}/merge_requests/${iid}`;
    await t.request('PUT', mrPath(iids[0]!), { token: owner.token, body: { state_event: 'close' } });
    const merged = await t.request('PUT', `${mrPath(iids[1]!)}/merge`, { token: owner.token });
    assert.equal(merged.status, 200, merged.text);
    assert.deepEqual(await totals(), { all: 3, opened: 1, closed: 1, merged: 1 });
    await t.request('PUT', mrPath(iids[0]!), { token: owner.token, body: { state_event: 'reopen' } });
    assert.deepEqual(await totals(), { all: 3, opened: 2, closed: 0, merged: 1 });
    const deleted = await t.request('DELETE', mrPath(iids[2]!), { token: owner.token });
    assert.equal(deleted.status, 204, deleted.text);
    assert.deepEqual(await totals(), { all: 2, opened: 1, closed: 0, merged: 1 });
    // A filtered list is still counted on its rows.
    const filtered = await list({ source_branch: 'c1' });
    assert.equal(filtered.headers['x-total'], '1');
  });
});
