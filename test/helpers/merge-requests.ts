// Branches and merge requests made through the API, as a client makes them: each commit is a push with
// its event, hooks and pipeline, which the tests of merge requests and their pages build on.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';

/** A branch off master with one commit writing `file` (`Write <file> on <branch>`), by `token`'s user. */
export async function branchWithFile(
  t: TestApp,
  token: string,
  projectId: number,
  branch: string,
  file: string,
  content: string,
): Promise<void> {
  const created = await t.request('POST', `/api/v3/projects/${projectId}/repository/branches`, {
    token,
    body: { branch_name: branch, ref: 'master' },
  });
  assert.equal(created.status, 201, created.text);
  const written = await t.request('POST', `/api/v3/projects/${projectId}/repository/files`, {
    token,
    body: { file_path: file, branch_name: branch, content, commit_message: `Write ${file} on ${branch}` },
  });
  assert.equal(written.status, 201, written.text);
}

/** The merge request "Topic" of a branch `topic` that adds topic.txt, into master, by `token`'s user. */
export async function openTopicMergeRequest(
  t: TestApp,
  token: string,
  projectId: number,
): Promise<{ id: number; iid: number; sha: string; web_url: string }> {
  await branchWithFile(t, token, projectId, 'topic', 'topic.txt', 'topic\n');
  const created = await t.request('POST', `/api/v3/projects/${projectId}/merge_requests`, {
    token,
    body: { source_branch: 'topic', target_branch: 'master', title: 'Topic' },
  });
  assert.equal(created.status, 201, created.text);
  return created.body;
}
