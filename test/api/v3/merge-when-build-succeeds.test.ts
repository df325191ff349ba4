// merge_when_build_succeeds over HTTP with a runner speaking the runner protocol: PUT …/merge with the
// flag while the head pipeline runs answers the MR, still open, and merges nothing; the runner's success
// merges it (a two-parent commit on master that git shows), even across a restart in between; its
// failure leaves it open with the flag on;
// POST …/cancel_merge_when_build_succeeds turns the flag off (201), so a later success merges nothing;
// with no active pipeline the flag is ignored and the merge happens at once. Enabling and cancelling
// leave 8.13's system notes; a push to the source branch resets an armed merge.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addProjectMember, createUser, type TestUser } from '../../helpers/factory.ts';
import { commitFiles, pipelinesOf, startCiProject, type CiProject } from '../../helpers/ci.ts';
import { RunnerClient } from '../../helpers/runner-client.ts';
import { until } from '../../helpers/wait.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const REGISTRATION_TOKEN = 'mwbs-registration-token';
// Branches other than master get one job; master (where merges land) gets none, so the runner's queue
// holds only the pipelines of the merge requests' heads.
const CI_CONFIG = 'test: {script: run-tests, except: [master]}\n';

describe('merge when build succeeds', () => {
  let ci: CiProject;
  let runner: RunnerClient;
  let reporter: TestUser;
  let mrs: string;

  const call = (method: string, url: string, body: Record<string, unknown> = {}, token = ci.owner.token) =>
    ci.t.request(method, url, { token, body });
  const rev = async (ref: string) =>
    (await ci.client.ok(['--git-dir', ci.project.repoPath, 'rev-parse', '--verify', ref])).trim();

  /** Pushes a branch off master with one commit; answers its head and its (pending) pipeline. */
  async function pushBranch(branch: string) {
    await ci.client.ok(['checkout', '-q', '-B', branch, 'origin/master'], ci.work);
    const head = await commitFiles(ci.client, ci.work, { [`${branch}.txt`]: `${branch}\n` }, `Add ${branch}`);
    await ci.client.ok(['push', '-q', 'origin', branch], ci.work);
    const pipeline = (await pipelinesOf(ci.t, ci.project.id)).find((p) => p.ref === branch && p.sha === head);
    assert.equal(pipeline?.status, 'pending');
    return { head, pipeline: pipeline! };
  }

  async function openMergeRequest(branch: string) {
    const created = await call('POST', mrs, {
      source_branch: branch,
      target_branch: 'master',
      title: branch,
    });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: number; iid: number };
  }

  /** The runner takes the next job (that of `branch`), starts it and finishes it as `state`. */
  async function runJob(branch: string, state: 'success' | 'failed') {
    const job = await runner.requestJob();
    assert.equal(job?.ref, branch);
    assert.equal((await runner.update(job!, 'running', 'running\n')).status, 200);
    assert.equal((await runner.update(job!, state, `${state}\n`)).status, 200);
  }

  const mergeRequest = async (id: number) => {
    const response = await call('GET', `${mrs}/${id}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };

  const systemNotes = async (id: number) => {
    const response = await call('GET', `${mrs}/${id}/notes?per_page=100`);
    assert.equal(response.status, 200, response.text);
    return (response.body as Array<{ body: string; system: boolean }>)
      .filter((note) => note.system)
      .map((note) => note.body);
  };

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'mwbs');
    runner = new RunnerClient(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
    reporter = await createUser(ci.t, 'mwbsreporter');
    await addProjectMember(ci.t, ci.project.id, reporter.id, AccessLevel.Reporter);
    await ci.push({ '.gitlab-ci.yml': CI_CONFIG, 'README.md': 'readme\n' }, 'Start');
    mrs = `/api/v3/projects/${ci.project.id}/merge_requests`;
  });
  after(() => ci.close());

  it('waits for the running pipeline, then merges when it succeeds', async () => {
    const { head } = await pushBranch('green');
    const mr = await openMergeRequest('green');
    const masterBefore = await rev('refs/heads/master');

    const waiting = await call('PUT', `${mrs}/${mr.id}/merge`, {
      merge_when_build_succeeds: 'true',
      merge_commit_message: 'Merged once green',
    });
    assert.equal(waiting.status, 200, waiting.text);
    assert.equal(waiting.body.state, 'opened');
    assert.equal(waiting.body.merge_when_build_succeeds, true);
    assert.equal(waiting.body.merge_commit_sha, null);
    assert.equal(await rev('refs/heads/master'), masterBefore);

    await runJob('green', 'success');
    const merged = await until('the merge after the pipeline succeeded', async () => {
      const body = await mergeRequest(mr.id);
      return body.state === 'merged' ? body : undefined;
    });
    const master = await rev('refs/heads/master');
    assert.equal(merged.merge_commit_sha, master);
    assert.equal(merged.merge_when_build_succeeds, false);
    assert.equal(await rev(`${master}^1`), masterBefore);
    assert.equal(await rev(`${master}^2`), head);
    const message = await ci.client.ok([
      '--git-dir',
      ci.project.repoPath,
      'log',
      '-1',
      '--format=%B',
      master,
    ]);
    assert.equal(message.trim(), 'Merged once green');
    const author = await ci.client.ok([
      '--git-dir',
      ci.project.repoPath,
      'log',
      '-1',
      '--format=%an',
      master,
    ]);
    assert.equal(author.trim(), ci.owner.name);
  });

  it('leaves the merge request open, flag on, when the pipeline fails', async () => {
    const { pipeline } = await pushBranch('red');
    const mr = await openMergeRequest('red');
    const masterBefore = await rev('refs/heads/master');
    const waiting = await call('PUT', `${mrs}/${mr.id}/merge`, { merge_when_build_succeeds: true });
    assert.equal(waiting.status, 200, waiting.text);
    assert.equal(waiting.body.merge_when_build_succeeds, true);

    await runJob('red', 'failed');
    const failed = await call('GET', `/api/v3/projects/${ci.project.id}/pipelines/${pipeline.id}`);
    assert.equal(failed.body.status, 'failed');
    // Whatever a success would have owed is performed by now.
    await ci.t.server.autoMergeWorker.drain();
    const after = await mergeRequest(mr.id);
    assert.equal(after.state, 'opened');
    assert.equal(after.merge_when_build_succeeds, true);
    assert.equal(after.merge_commit_sha, null);
    assert.equal(await rev('refs/heads/master'), masterBefore);
  });

  it('cancels the automatic merge (201), so a later success merges nothing', async () => {
    const { pipeline } = await pushBranch('cancelled');
    const mr = await openMergeRequest('cancelled');
    const cancel = `${mrs}/${mr.id}/cancel_merge_when_build_succeeds`;
    const nothingToCancel = await call('POST', cancel);
    assert.equal(nothingToCancel.status, 201, nothingToCancel.text);
    assert.deepEqual(nothingToCancel.body, {
      message: "Can't cancel the automatic merge",
      status: 'error',
      http_status: 406,
    });
    const waiting = await call('PUT', `${mrs}/${mr.id}/merge`, { merge_when_build_succeeds: 'yes' });
    assert.equal(waiting.body.merge_when_build_succeeds, true);

    // A reporter may neither merge nor cancel; the old path form answers too.
    const refused = await call('POST', cancel, {}, reporter.token);
    assert.equal(refused.status, 401, refused.text);
    assert.deepEqual(refused.body, { message: '401 Unauthorized' });
    const cancelled = await call(
      'POST',
      `/api/v3/projects/${ci.project.id}/merge_request/${mr.id}/cancel_merge_when_build_succeeds`,
    );
    assert.equal(cancelled.status, 201, cancelled.text);
    assert.deepEqual(cancelled.body, { status: 'success' });
    assert.equal((await mergeRequest(mr.id)).merge_when_build_succeeds, false);
    assert.deepEqual(await systemNotes(mr.id), [
      `Enabled an automatic merge when the build for ${pipeline.sha} succeeds`,
      'Canceled the automatic merge',
    ]);

    const masterBefore = await rev('refs/heads/master');
    await runJob('cancelled', 'success');
    const succeeded = await call('GET', `/api/v3/projects/${ci.project.id}/pipelines/${pipeline.id}`);
    assert.equal(succeeded.body.status, 'success');
    await ci.t.server.autoMergeWorker.drain();
    const after = await mergeRequest(mr.id);
    assert.equal(after.state, 'opened');
    assert.equal(await rev('refs/heads/master'), masterBefore);
  });

  it('merges at once when no pipeline of the head is active', async () => {
    // The pipeline of `cancelled` has succeeded: nothing to wait for.
    const list = await call('GET', `${mrs}?state=opened`);
    const open = list.body.find((mr: { source_branch: string }) => mr.source_branch === 'cancelled');
    const merged = await call('PUT', `${mrs}/${open.id}/merge`, { merge_when_build_succeeds: true });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.state, 'merged');
    assert.equal(merged.body.merge_commit_sha, await rev('refs/heads/master'));
  });

  it('resets an armed merge when the source branch is pushed to (8.13 RefreshService)', async () => {
    const { head } = await pushBranch('rearmed');
    const mr = await openMergeRequest('rearmed');
    const waiting = await call('PUT', `${mrs}/${mr.id}/merge`, {
      merge_when_build_succeeds: true,
      should_remove_source_branch: true,
    });
    assert.equal(waiting.body.merge_when_build_succeeds, true);
    assert.equal(waiting.body.should_remove_source_branch, true);

    const newHead = await commitFiles(ci.client, ci.work, { 'again.txt': 'again\n' }, 'Push again');
    await ci.client.ok(['push', '-q', 'origin', 'rearmed'], ci.work);
    const reset = await mergeRequest(mr.id);
    assert.equal(reset.sha, newHead);
    assert.equal(reset.merge_when_build_succeeds, false);
    // The merge's own params went with it, as reset_merge_when_build_succeeds dropped them.
    assert.equal(reset.should_remove_source_branch, false);
    // The push notes its commit (RefreshService#comment_mr_with_commits) and nothing about the reset.
    const notes = await systemNotes(mr.id);
    assert.equal(notes.length, 2, JSON.stringify(notes));
    assert.equal(notes[0], `Enabled an automatic merge when the build for ${head} succeeds`);
    assert.ok(notes[1]!.startsWith(`Added 1 commit:\n\n* ${newHead.slice(0, 8)} - Push again\n\n`), notes[1]);

    // Both heads' pipelines succeed; nothing is owed, so nothing merges.
    await runJob('rearmed', 'success');
    await runJob('rearmed', 'success');
    assert.equal(await runner.requestJob(), null);
    await ci.t.server.autoMergeWorker.drain();
    assert.equal((await mergeRequest(mr.id)).state, 'opened');
  });

  it('keeps the merge owed across a restart between the success and the merge', async () => {
    const { head } = await pushBranch('durable');
    const mr = await openMergeRequest('durable');
    const waiting = await call('PUT', `${mrs}/${mr.id}/merge`, { merge_when_build_succeeds: true });
    assert.equal(waiting.body.merge_when_build_succeeds, true);
    // No worker performs the merge in this process: only what the pipeline's success committed remains.
    await ci.t.server.autoMergeWorker.stop();
    await runJob('durable', 'success');
    assert.equal((await mergeRequest(mr.id)).state, 'opened');
    // Last in this file: the restarted app answers injected requests but no longer listens for git.
    await ci.t.restart();
    const merged = await until('the owed merge after the restart', async () => {
      const body = await mergeRequest(mr.id);
      return body.state === 'merged' ? body : undefined;
    });
    assert.equal(await rev(`${merged.merge_commit_sha}^2`), head);
    assert.equal(merged.merge_commit_sha, await rev('refs/heads/master'));
  });
});
