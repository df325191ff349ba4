// A merge killed with SIGKILL at any moment, then the server started again on the same data dir and
// database: the merge is either complete (the target branch holds the merge commit, the MR is merged
// with its `accepted` event) or undone (the branch unchanged, the MR open and mergeable again). Never
// an MR left locked, merged without its commit, or a branch moved under an open MR. The kill lands at a
// different moment each round; every round accepts either outcome and asserts the invariant.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createInstance, spawnLabrador, type Instance, type LabradorProcess } from '../helpers/process.ts';

interface Answer {
  status: number;
  body: any;
}

/** Rounds with a kill, spread over the time an uninterrupted merge took on this machine. */
const KILL_ROUNDS = 8;

describe('a merge interrupted by SIGKILL', () => {
  let instance: Instance;
  let server: LabradorProcess;

  async function call(method: string, path: string, body?: unknown): Promise<Answer> {
    const response = await fetch(`${server.url}/api/v3${path}`, {
      method,
      headers: { 'private-token': instance.rootToken, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  async function expectStatus(method: string, path: string, status: number, body?: unknown) {
    const answer = await call(method, path, body);
    assert.equal(answer.status, status, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async function branchHead(projectId: number, branch: string): Promise<string> {
    const found = await expectStatus('GET', `/projects/${projectId}/repository/branches/${branch}`, 200);
    return found.commit.id as string;
  }

  before(async () => {
    instance = await createInstance();
    server = await spawnLabrador(instance.env).ready();
  });
  after(async () => {
    await server?.kill();
    await instance?.remove();
  });

  it('is either complete or undone after a restart, whenever the kill lands', async () => {
    const project = await expectStatus('POST', '/projects', 201, { name: 'crash-merges' });
    const files = `/projects/${project.id}/repository/files`;
    await expectStatus('POST', files, 201, {
      file_path: 'README.md',
      branch_name: 'master',
      content: 'start\n',
      commit_message: 'Start',
    });
    /** A source branch with one new file, and its MR into master. */
    async function openMergeRequest(branch: string) {
      await expectStatus('POST', `/projects/${project.id}/repository/branches`, 201, {
        branch_name: branch,
        ref: 'master',
      });
      await expectStatus('POST', files, 201, {
        file_path: `${branch}.txt`,
        branch_name: branch,
        content: `${branch}\n`,
        commit_message: `Add ${branch}`,
      });
      return expectStatus('POST', `/projects/${project.id}/merge_requests`, 201, {
        source_branch: branch,
        target_branch: 'master',
        title: `Merge ${branch}`,
      });
    }
    // An uninterrupted merge first: how long one takes here places the kills before, in and after it.
    const first = await openMergeRequest('feature-first');
    const started = Date.now();
    await expectStatus('PUT', `/projects/${project.id}/merge_requests/${first.id}/merge`, 200);
    const mergeMs = Date.now() - started;
    const outcomes: string[] = [];
    for (let round = 0; round < KILL_ROUNDS; round++) {
      const branch = `feature-${round}`;
      // Geometric: most kills land early, where a warm merge (faster than the first) does its work.
      const delay = Math.round((mergeMs * 1.2 * (2 ** round - 1)) / (2 ** (KILL_ROUNDS - 1) - 1));
      const mr = await openMergeRequest(branch);
      const targetBefore = await branchHead(project.id, 'master');
      const sourceHead = await branchHead(project.id, branch);

      // The kill's moment is the fault injected, not a wait for anything: each outcome is accepted below.
      const merging = call('PUT', `/projects/${project.id}/merge_requests/${mr.id}/merge`).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, delay));
      server.signal('SIGKILL');
      const exited = await server.exited;
      assert.equal(exited.signal, 'SIGKILL', server.stderr);
      await merging;
      server = await spawnLabrador(instance.env).ready();

      const after = await expectStatus('GET', `/projects/${project.id}/merge_requests/${mr.id}`, 200);
      const targetAfter = await branchHead(project.id, 'master');
      const events = await expectStatus('GET', `/projects/${project.id}/events?per_page=100`, 200);
      const accepted = (
        events as Array<{ action_name: string; target_type: string; target_id: number }>
      ).filter(
        (event) =>
          event.action_name === 'accepted' &&
          event.target_type === 'MergeRequest' &&
          event.target_id === mr.id,
      );
      if (after.state === 'merged') {
        assert.equal(after.merge_commit_sha, targetAfter, 'the merged MR names the target head');
        const merge = await expectStatus(
          'GET',
          `/projects/${project.id}/repository/commits/${targetAfter}`,
          200,
        );
        assert.deepEqual(merge.parent_ids, [targetBefore, sourceHead], 'the merge commit joins both heads');
        assert.equal(accepted.length, 1, 'one merge event');
        outcomes.push('merged');
      } else {
        assert.ok(['opened', 'reopened'].includes(after.state), `state ${after.state} after the restart`);
        assert.equal(targetAfter, targetBefore, 'an open MR has not moved its target branch');
        assert.equal(accepted.length, 0, 'no merge event');
        // Undone, not stuck: the merge can be done again.
        const merged = await expectStatus(
          'PUT',
          `/projects/${project.id}/merge_requests/${mr.id}/merge`,
          200,
        );
        assert.equal(merged.state, 'merged');
        assert.equal(await branchHead(project.id, 'master'), merged.merge_commit_sha);
        outcomes.push('undone');
      }
    }
    assert.equal(outcomes.length, KILL_ROUNDS, outcomes.join(', '));
  });
});
