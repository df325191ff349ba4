// Debian's python-gitlab 3.12 against a listening Labrador on v4's environments and deployments: create,
// edit through `save()`, get, a duplicate's GitlabCreateError, deployments created and one's status
// changed through `save()`, listed by iid for one environment, one, the environment's last deployment,
// `stop()`, the stopped and searched lists, delete.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createProjectTeam } from '../helpers/factory.ts';
import { startClientApp, type ClientApp } from './client-app.ts';
import { PYTHON, pythonGitlabSkip } from './python-gitlab-client.ts';

const SCRIPT = path.join(import.meta.dirname, 'python_gitlab_environments.py');

describe('python-gitlab 3.12 on v4 environments and deployments', { skip: pythonGitlabSkip }, () => {
  let app: ClientApp;

  before(async () => {
    app = await startClientApp();
  });
  after(() => app.t.close());

  it('creates, edits, deploys to, stops and deletes an environment', async () => {
    const team = await createProjectTeam(app.t, 'pyenv', {
      owner: 'pyenvowner',
      developer: 'pyenvdev',
      reporter: 'pyenvrep',
      stranger: 'pyenvstranger',
    });
    const sha = execFileSync('git', ['--git-dir', team.project.repoPath, 'rev-parse', 'master'])
      .toString()
      .trim();
    const { stdout, stderr } = await promisify(execFile)(PYTHON, [SCRIPT], {
      env: {
        PATH: process.env.PATH,
        GITLAB_URL: app.url,
        GITLAB_TOKEN: team.owner.token,
        PROJECT_ID: String(team.project.id),
        SHA: sha,
      },
    });
    assert.equal(stderr, '');
    assert.deepEqual(JSON.parse(stdout), {
      external_url: 'https://staging2.example.com',
      slug: 'staging',
      tier: 'staging',
      duplicate: [400, "{'name': ['has already been taken']}"],
      iids: [2, 1],
      status: 'success',
      deployment_env: 'staging',
      last_iid: 2,
      stopped: ['staging'],
      searched: ['staging'],
      remaining: 0,
      second_user: 'pyenvowner',
    });
  });
});
