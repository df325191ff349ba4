// Workload steps for the CI API around builds: triggers (list, show, create, delete, a trigger call that
// runs a pipeline), so the query-plan test sees their SQL.
import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/app.ts';
import { commitFile, createUser } from '../helpers/factory.ts';
import { repositoryPath } from '../../src/git/repository.ts';
import type { WorkloadStep } from './workload.ts';

async function expect(
  t: TestApp,
  status: number,
  method: string,
  url: string,
  options: Parameters<TestApp['request']>[2] = {},
) {
  const response = await t.request(method, url, options);
  assert.equal(response.status, status, `${method} ${url}: ${response.text}`);
  return response;
}

export const ciApiWorkload: WorkloadStep[] = [
  {
    area: 'ci-api',
    name: 'triggers: create, list, show, a trigger call with variables, delete',
    async run(ctx) {
      const { t } = ctx;
      const owner = await createUser(t, 'wltrg');
      const as = { token: owner.token };
      const project = await expect(t, 201, 'POST', '/api/v3/projects', { ...as, body: { name: 'wltrg' } });
      const id = project.body.id;
      await commitFile(
        repositoryPath(t.config.dataDir, 'wltrg', 'wltrg'),
        '.gitlab-ci.yml',
        'a: {script: x}\n',
      );
      const trigger = await expect(t, 201, 'POST', `/api/v3/projects/${id}/triggers`, as);
      await expect(t, 201, 'POST', `/api/v3/projects/${id}/trigger/builds`, {
        body: { token: trigger.body.token, ref: 'master', variables: { A: 'b' } },
      });
      await expect(t, 200, 'GET', `/api/v3/projects/${id}/triggers`, as);
      await expect(t, 200, 'GET', `/api/v3/projects/${id}/triggers/${trigger.body.token}`, as);
      await expect(t, 200, 'DELETE', `/api/v3/projects/${id}/triggers/${trigger.body.token}`, as);
    },
  },
  {
    area: 'ci-api',
    name: 'commit statuses: report into a new and an existing pipeline, move, refuse, list with filters',
    async run(ctx) {
      const { t } = ctx;
      const owner = await createUser(t, 'wlcst');
      const as = { token: owner.token };
      const project = await expect(t, 201, 'POST', '/api/v3/projects', { ...as, body: { name: 'wlcst' } });
      const id = project.body.id;
      const sha = await commitFile(repositoryPath(t.config.dataDir, 'wlcst', 'wlcst'), 'a.txt', 'a\n');
      const url = `/api/v3/projects/${id}/statuses/${sha}`;
      await expect(t, 201, 'POST', url, { ...as, body: { state: 'pending', target_url: 'u' } });
      await expect(t, 201, 'POST', url, { ...as, body: { state: 'running' } });
      await expect(t, 400, 'POST', url, { ...as, body: { state: 'running' } });
      await expect(t, 201, 'POST', url, { ...as, body: { state: 'success' } });
      await expect(t, 201, 'POST', url, { ...as, body: { state: 'failed', ref: 'other', name: 'n' } });
      const list = `/api/v3/projects/${id}/repository/commits/${sha}/statuses`;
      await expect(t, 200, 'GET', list, as);
      await expect(t, 200, 'GET', `${list}?all=1&ref=master&stage=external&name=default`, as);
    },
  },
];
