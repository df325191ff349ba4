// Debian's python-gitlab 3.12 against a listening Labrador on what v4's part two added lately: a squash
// merge (`mr.merge(squash=True)`) and a rebase (`mr.rebase()`, then the MR read with
// include_rebase_in_progress), group labels and milestones, issue links, a pipeline made with variables
// and its variables read back, and the jobs of a runner that took one through the runner API.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createGroup, createProject, createUser } from '../helpers/factory.ts';
import { branchWithFile } from '../helpers/merge-requests.ts';
import { Runner17 } from '../helpers/runner-v4-client.ts';
import { startClientApp, type ClientApp } from './client-app.ts';
import { PYTHON, pythonGitlabSkip } from './python-gitlab-client.ts';

const SCRIPT = path.join(import.meta.dirname, 'python_gitlab_merge_requests.py');

describe(
  'python-gitlab 3.12 on squash, rebase, group plans, issue links, pipeline variables, runner jobs',
  { skip: pythonGitlabSkip },
  () => {
    let app: ClientApp;

    before(async () => {
      app = await startClientApp();
    });
    after(() => app.t.close());

    it('squashes, rebases, plans, links and reads what CI did', async () => {
      const { t } = app;
      const admin = await createUser(t, 'pyadmin', { admin: true });
      const groupId = await createGroup(t, 'pyplans');
      const project = await createProject(t, { owner: admin, path: 'pymrs', commit: true });
      const api = `/api/v4/projects/${project.id}`;
      const write = async (branch: string, file: string, content: string) => {
        const written = await t.request('POST', `/api/v3/projects/${project.id}/repository/files`, {
          token: admin.token,
          body: { file_path: file, branch_name: branch, content, commit_message: `Write ${file}` },
        });
        assert.equal(written.status, 201, written.text);
      };
      const open = async (branch: string, title: string) => {
        const created = await t.request('POST', `${api}/merge_requests`, {
          token: admin.token,
          body: { source_branch: branch, target_branch: 'master', title },
        });
        assert.equal(created.status, 201, created.text);
        return created.body.iid as number;
      };
      await write('master', '.gitlab-ci.yml', 'test:\n  script: echo ok\n');
      const runner = new Runner17(app.url);
      assert.equal((await runner.register(project.runners_token!)).status, 201);
      const job = await runner.requestJob();
      assert.equal(job?.job_info.name, 'test');

      await branchWithFile(t, admin.token, project.id, 'squashme', 'a.txt', 'a\n');
      await write('squashme', 'b.txt', 'b\n');
      const squashIid = await open('squashme', 'Squash me');
      await branchWithFile(t, admin.token, project.id, 'behind', 'behind.txt', 'behind\n');
      const rebaseIid = await open('behind', 'Rebase me');
      const issues: number[] = [];
      for (const title of ['Linked from', 'Linked to']) {
        const issue = await t.request('POST', `${api}/issues`, { token: admin.token, body: { title } });
        issues.push(issue.body.iid);
      }

      const { stdout, stderr } = await promisify(execFile)(PYTHON, [SCRIPT], {
        env: {
          PATH: process.env.PATH,
          GITLAB_URL: app.url,
          GITLAB_TOKEN: admin.token,
          PROJECT_ID: String(project.id),
          GROUP_ID: String(groupId),
          SQUASH_IID: String(squashIid),
          REBASE_IID: String(rebaseIid),
          ISSUE_IID: String(issues[0]),
          OTHER_ISSUE_IID: String(issues[1]),
          RUNNER_ID: String(runner.id),
        },
      });
      assert.equal(stderr, '');
      assert.deepEqual(JSON.parse(stdout), {
        squashed: ['merged', true, 'Squash me'],
        squash_parents: 1,
        rebase: { rebase_in_progress: false },
        rebased: [false, null],
        group_labels: ['py-group-label'],
        group_milestones: ['py-group-1.0'],
        linked: [issues[0], issues[1]],
        links: [issues[1]],
        variables: [['PY_VAR', 'from python', 'env_var']],
        runner_jobs: [['test', 'running', project.id]],
      });
      // The rebase put the branch on master, which the squash merge had moved.
      const [master, behind] = await Promise.all(
        ['master', 'behind'].map(async (branch) => {
          const found = await t.request('GET', `${api}/repository/branches/${branch}`, {
            token: admin.token,
          });
          return found.body.commit;
        }),
      );
      assert.deepEqual(behind.parent_ids, [master.id]);
    });
  },
);
