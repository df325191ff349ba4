// The merge request area's part of the workload: create, list in every order and state, read, edit,
// close and reopen, commits, changes, merge (with its push processing) and delete.
import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/app.ts';
import type { WorkloadContext, WorkloadStep } from './workload.ts';

async function expect(
  ctx: WorkloadContext,
  status: number,
  method: string,
  url: string,
  options: Parameters<TestApp['request']>[2] = {},
) {
  const response = await ctx.t.request(method, url, { token: ctx.t.rootToken, ...options });
  assert.equal(response.status, status, `${method} ${url}: ${response.text}`);
  return response;
}

export const mergeRequestWorkload: WorkloadStep[] = [
  {
    area: 'merge-requests',
    name: 'open, list, edit, merge and delete merge requests',
    async run(ctx) {
      const project = await expect(ctx, 201, 'POST', '/api/v3/projects', { body: { name: 'wlmr' } });
      const id = project.body.id;
      const repo = `/api/v3/projects/${id}/repository`;
      await expect(ctx, 201, 'POST', `${repo}/files`, {
        body: { file_path: 'README', branch_name: 'master', content: 'r', commit_message: 'init' },
      });
      for (const branch of ['wl-one', 'wl-two']) {
        await expect(ctx, 201, 'POST', `${repo}/branches`, { body: { branch_name: branch, ref: 'master' } });
        await expect(ctx, 201, 'POST', `${repo}/files`, {
          body: { file_path: branch, branch_name: branch, content: branch, commit_message: branch },
        });
      }
      const mrs = `/api/v3/projects/${id}/merge_requests`;
      const one = await expect(ctx, 201, 'POST', mrs, {
        body: { source_branch: 'wl-one', target_branch: 'master', title: 'One' },
      });
      const two = await expect(ctx, 201, 'POST', mrs, {
        body: { source_branch: 'wl-two', target_branch: 'master', title: 'Two', assignee_id: 1 },
      });
      for (const query of [
        '',
        '?state=opened',
        '?state=merged&order_by=updated_at&sort=asc',
        `?iid=${one.body.iid}`,
        '?page=2&per_page=1',
      ]) {
        await expect(ctx, 200, 'GET', `${mrs}${query}`);
      }
      await expect(ctx, 200, 'GET', `/api/v3/projects/${id}/merge_request/${one.body.id}`);
      await expect(ctx, 200, 'GET', `${mrs}/${one.body.id}/commits`);
      await expect(ctx, 200, 'GET', `${mrs}/${one.body.id}/changes`);
      await expect(ctx, 200, 'PUT', `${mrs}/${two.body.id}`, {
        body: { title: 'Two!', state_event: 'close' },
      });
      await expect(ctx, 200, 'PUT', `${mrs}/${two.body.id}`, { body: { state_event: 'reopen' } });
      await expect(ctx, 200, 'PUT', `${mrs}/${one.body.id}/merge`, { body: { sha: one.body.sha } });
      await expect(ctx, 200, 'DELETE', `${mrs}/${two.body.id}`);
    },
  },
];
