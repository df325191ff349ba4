// Debian's python-gitlab 3.12 against a listening Labrador on v4's pipeline schedules: create, add a
// variable, change the cron through `save()`, get, take ownership, delete a variable, list, a bad cron's
// GitlabCreateError, delete.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createProjectTeam } from '../helpers/factory.ts';
import { startClientApp, type ClientApp } from './client-app.ts';
import { PYTHON, pythonGitlabSkip } from './python-gitlab-client.ts';

const SCRIPT = path.join(import.meta.dirname, 'python_gitlab_schedules.py');

describe('python-gitlab 3.12 on v4 pipeline schedules', { skip: pythonGitlabSkip }, () => {
  let app: ClientApp;

  before(async () => {
    app = await startClientApp();
  });
  after(() => app.t.close());

  it('creates, changes, owns and deletes a schedule and its variable', async () => {
    const team = await createProjectTeam(app.t, 'pysched', {
      owner: 'pyschedowner',
      developer: 'pyscheddev',
      reporter: 'pyschedrep',
      stranger: 'pyschedstranger',
    });
    const { stdout, stderr } = await promisify(execFile)(PYTHON, [SCRIPT], {
      env: {
        PATH: process.env.PATH,
        GITLAB_URL: app.url,
        GITLAB_TOKEN: team.owner.token,
        PROJECT_ID: String(team.project.id),
      },
    });
    assert.equal(stderr, '');
    assert.deepEqual(JSON.parse(stdout), {
      cron: '30 2 * * *',
      next_hour: '02:30',
      variable_keys: ['DEPLOY'],
      listed: ['nightly'],
      bad: [400, "{'cron': ['is invalid syntax']}"],
      remaining: 0,
    });
  });
});
