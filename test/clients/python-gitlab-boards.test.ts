// Debian's python-gitlab 3.12 against a listening Labrador on v4's issue boards: `project.boards`
// create, get, rename through `save()`, list and delete; `board.lists` create, reorder through `save()`,
// list, a missing label's GitlabCreateError, and delete.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createProjectTeam } from '../helpers/factory.ts';
import { startClientApp, type ClientApp } from './client-app.ts';
import { PYTHON, pythonGitlabSkip } from './python-gitlab-client.ts';

const SCRIPT = path.join(import.meta.dirname, 'python_gitlab_boards.py');

describe('python-gitlab 3.12 on v4 issue boards', { skip: pythonGitlabSkip }, () => {
  let app: ClientApp;

  before(async () => {
    app = await startClientApp();
  });
  after(() => app.t.close());

  it('creates, renames, lists and deletes boards and their lists', async () => {
    const team = await createProjectTeam(app.t, 'pyboard', {
      owner: 'pyboardowner',
      developer: 'pyboarddev',
      reporter: 'pyboardrep',
      stranger: 'pyboardstranger',
    });
    const labelIds: number[] = [];
    for (const name of ['To Do', 'Doing']) {
      const label = await app.t.request('POST', `/api/v4/projects/${team.project.id}/labels`, {
        token: team.owner.token,
        body: { name, color: '#336699' },
      });
      assert.equal(label.status, 201, label.text);
      labelIds.push(label.body.id);
    }
    // The project's first board, as the board page makes it, so the one made here may be deleted.
    const first = await app.t.request('POST', `/api/v4/projects/${team.project.id}/boards`, {
      token: team.owner.token,
      body: { name: 'Development' },
    });
    assert.equal(first.status, 201, first.text);
    const { stdout, stderr } = await promisify(execFile)(PYTHON, [SCRIPT], {
      env: {
        PATH: process.env.PATH,
        GITLAB_URL: app.url,
        GITLAB_TOKEN: team.owner.token,
        PROJECT_ID: String(team.project.id),
        LABEL_IDS: labelIds.join(','),
      },
    });
    assert.equal(stderr, '');
    assert.deepEqual(JSON.parse(stdout), {
      positions: [
        ['Doing', 0],
        ['To Do', 1],
      ],
      renamed: 'Sprint 2',
      project: team.project.id,
      bad: [400, "{'error': 'Label not found!'}"],
      remaining: ['Doing'],
      names: ['Development', 'Sprint 2'],
      left: 1,
    });
  });
});
