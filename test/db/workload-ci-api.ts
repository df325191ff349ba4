// Workload steps for the CI API around builds: triggers (list, show, create, delete, a trigger call that
// runs a pipeline), so the query-plan test sees their SQL.
import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/app.ts';
import { commitFile, createUser } from '../helpers/factory.ts';
import { repositoryPath } from '../../src/git/repository.ts';
import { registerRunner, runnerRegistrationToken } from '../../src/services/ci/runners.ts';
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
  {
    area: 'ci-api',
    name: 'runners: lists with scopes, details, settings, enable, disable, remove',
    async run(ctx) {
      const { t } = ctx;
      const deps = t.server.deps;
      const owner = await createUser(t, 'wlrnr');
      const as = { token: owner.token };
      const root = { token: t.rootToken };
      const first = await expect(t, 201, 'POST', '/api/v3/projects', { ...as, body: { name: 'wlrnr1' } });
      const second = await expect(t, 201, 'POST', '/api/v3/projects', { ...as, body: { name: 'wlrnr2' } });
      const info = {};
      const shared = await registerRunner(deps, { token: await runnerRegistrationToken(deps), info });
      const runner = await registerRunner(deps, { token: first.body.runners_token, info });
      for (const scope of ['', '?scope=active', '?scope=paused', '?scope=online']) {
        await expect(t, 200, 'GET', `/api/v3/runners${scope}`, as);
      }
      for (const scope of ['', '?scope=specific', '?scope=shared', '?scope=online']) {
        await expect(t, 200, 'GET', `/api/v3/runners/all${scope}`, root);
        await expect(t, 200, 'GET', `/api/v3/projects/${first.body.id}/runners${scope}`, as);
      }
      await expect(t, 200, 'GET', `/api/v3/runners/${runner.id}`, as);
      await expect(t, 200, 'GET', `/api/v3/runners/${shared.id}`, as);
      await expect(t, 200, 'PUT', `/api/v3/runners/${runner.id}`, {
        ...as,
        body: { tag_list: 'a', locked: true },
      });
      await expect(t, 403, 'PUT', `/api/v3/runners/${shared.id}`, { ...as, body: { description: 'x' } });
      await expect(t, 403, 'POST', `/api/v3/projects/${second.body.id}/runners`, {
        ...as,
        body: { runner_id: runner.id },
      });
      await expect(t, 200, 'PUT', `/api/v3/runners/${runner.id}`, { ...as, body: { locked: false } });
      await expect(t, 201, 'POST', `/api/v3/projects/${second.body.id}/runners`, {
        ...as,
        body: { runner_id: runner.id },
      });
      await expect(t, 403, 'DELETE', `/api/v3/runners/${runner.id}`, as);
      await expect(t, 200, 'DELETE', `/api/v3/projects/${second.body.id}/runners/${runner.id}`, as);
      await expect(t, 403, 'DELETE', `/api/v3/projects/${first.body.id}/runners/${runner.id}`, as);
      await expect(t, 200, 'DELETE', `/api/v3/runners/${runner.id}`, as);
      await expect(t, 200, 'DELETE', `/api/v3/runners/${shared.id}`, root);
    },
  },
];
