// The issues area's part of the workload: every issue, label, milestone, note, award, subscription and
// todo route once or more, as a member and as an administrator.
import assert from 'node:assert/strict';
import type { WorkloadContext, WorkloadStep } from './workload.ts';

async function expect(
  ctx: WorkloadContext,
  status: number,
  method: string,
  url: string,
  options: Parameters<WorkloadContext['t']['request']>[2] = {},
) {
  const response = await ctx.t.request(method, url, { token: ctx.t.rootToken, ...options });
  assert.equal(response.status, status, `${method} ${url}: ${response.text}`);
  return response;
}

export const issuesWorkload: WorkloadStep[] = [
  {
    area: 'issues',
    name: 'issues, labels, milestones, notes, awards, subscriptions, todos',
    async run(ctx) {
      const project = await expect(ctx, 201, 'POST', '/api/v3/projects', {
        body: { name: 'wlissues', visibility_level: 20 },
      });
      const base = `/api/v3/projects/${project.body.id}`;
      const milestone = await expect(ctx, 201, 'POST', `${base}/milestones`, { body: { title: 'M1' } });
      await expect(ctx, 201, 'POST', `${base}/labels`, { body: { name: 'bug', color: '#f00' } });
      const first = await expect(ctx, 201, 'POST', `${base}/issues`, {
        body: { title: 'One', labels: 'bug,new', milestone_id: milestone.body.id, confidential: true },
      });
      const second = await expect(ctx, 201, 'POST', `${base}/issues`, { body: { title: 'Two' } });
      const issue = `${base}/issues/${first.body.id}`;
      await expect(ctx, 200, 'PUT', issue, {
        body: { state_event: 'close', labels: 'bug', assignee_id: 1, title: 'One!' },
      });
      await expect(ctx, 200, 'PUT', issue, { body: { state_event: 'reopen', milestone_id: 0 } });
      for (const query of [
        '',
        '?page=2&per_page=1',
        '?state=opened',
        '?state=closed&order_by=updated_at&sort=asc',
        '?labels=bug',
        '?milestone=M1',
        '?milestone=No+Milestone',
        `?iid=${second.body.iid}`,
      ]) {
        await expect(ctx, 200, 'GET', `${base}/issues${query}`);
        await expect(ctx, 200, 'GET', `${base}/issues${query}`, { token: ctx.users.wl1!.token });
      }
      await expect(ctx, 200, 'GET', '/api/v3/issues?state=opened&labels=bug');
      await expect(ctx, 200, 'GET', issue);
      const note = await expect(ctx, 201, 'POST', `${issue}/notes`, { body: { body: 'Hi' } });
      await expect(ctx, 200, 'GET', `${issue}/notes?per_page=2&page=2`);
      await expect(ctx, 200, 'GET', `${issue}/notes/${note.body.id}`);
      await expect(ctx, 200, 'PUT', `${issue}/notes/${note.body.id}`, { body: { body: 'Hello' } });
      const award = await expect(ctx, 201, 'POST', `${issue}/award_emoji`, { body: { name: 'tada' } });
      await expect(ctx, 201, 'POST', `${issue}/notes/${note.body.id}/award_emoji`, {
        body: { name: 'heart' },
      });
      await expect(ctx, 200, 'GET', `${issue}/award_emoji`);
      await expect(ctx, 200, 'GET', `${issue}/notes/${note.body.id}/award_emoji`);
      await expect(ctx, 200, 'DELETE', `${issue}/award_emoji/${award.body.id}`);
      await expect(ctx, 201, 'POST', `${issue}/notes`, { body: { body: ':+1:' } });
      await expect(ctx, 200, 'DELETE', `${issue}/notes/${note.body.id}`);
      await expect(ctx, 200, 'DELETE', `${issue}/subscription`);
      await expect(ctx, 201, 'POST', `${issue}/subscription`);
      await expect(ctx, 201, 'POST', `${base}/labels/bug/subscription`);
      const todo = await expect(ctx, 201, 'POST', `${issue}/todo`);
      await expect(ctx, 200, 'GET', '/api/v3/todos');
      await expect(ctx, 200, 'GET', '/api/v3/todos?action=marked&type=Issue');
      await expect(ctx, 200, 'DELETE', `/api/v3/todos/${todo.body.id}`);
      await expect(ctx, 200, 'DELETE', '/api/v3/todos');
      await expect(ctx, 200, 'GET', `${base}/labels`);
      await expect(ctx, 200, 'PUT', `${base}/labels`, { body: { name: 'new', color: '#0f0' } });
      await expect(ctx, 200, 'GET', `${base}/milestones?state=active`);
      await expect(ctx, 200, 'GET', `${base}/milestones/${milestone.body.id}/issues`);
      await expect(ctx, 200, 'PUT', `${base}/milestones/${milestone.body.id}`, {
        body: { state_event: 'close' },
      });
      await expect(ctx, 200, 'GET', `${base}/events`);
      const other = await expect(ctx, 201, 'POST', '/api/v3/projects', { body: { name: 'wlissues2' } });
      await expect(ctx, 201, 'POST', `${base}/issues/${second.body.id}/move`, {
        body: { to_project_id: other.body.id },
      });
      await expect(ctx, 200, 'DELETE', issue);
      await expect(ctx, 200, 'DELETE', `${base}/labels`, { body: { name: 'bug' } });
    },
  },
];
