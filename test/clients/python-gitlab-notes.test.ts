// Debian's python-gitlab 3.12 against a listening Labrador on v4's notes, discussions (resolving a merge
// request thread through `thread.save()`), award emoji on a note, labels (create, subscribe, get by
// name), milestones (create, close, list by state, a milestone's issues), an issue's participants and
// todos (mark, list, mark all done).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createProjectTeam } from '../helpers/factory.ts';
import { openTopicMergeRequest } from '../helpers/merge-requests.ts';
import { startClientApp, type ClientApp } from './client-app.ts';
import { PYTHON, pythonGitlabSkip } from './python-gitlab-client.ts';

const SCRIPT = path.join(import.meta.dirname, 'python_gitlab_notes.py');

describe('python-gitlab 3.12 on v4 notes and friends', { skip: pythonGitlabSkip }, () => {
  let app: ClientApp;

  before(async () => {
    app = await startClientApp();
  });
  after(() => app.t.close());

  it('comments, threads, awards, labels, plans and keeps todos', async () => {
    const team = await createProjectTeam(app.t, 'pynotes', {
      owner: 'pyowner',
      developer: 'pydev',
      reporter: 'pyrep',
      stranger: 'pystranger',
    });
    const issue = await app.t.request('POST', `/api/v3/projects/${team.project.id}/issues`, {
      token: team.owner.token,
      body: { title: 'From a client' },
    });
    assert.equal(issue.status, 201, issue.text);
    const mr = await openTopicMergeRequest(app.t, team.developer.token, team.project.id);
    const { stdout, stderr } = await promisify(execFile)(PYTHON, [SCRIPT], {
      env: {
        PATH: process.env.PATH,
        GITLAB_URL: app.url,
        GITLAB_TOKEN: team.owner.token,
        PROJECT_ID: String(team.project.id),
        ISSUE_IID: String(issue.body.iid),
        MR_IID: String(mr.iid),
      },
    });
    assert.equal(stderr, '');
    assert.deepEqual(JSON.parse(stdout), {
      notes: ['Edited from python'],
      note_iid: issue.body.iid,
      awards: ['tada'],
      award_type: 'Note',
      thread_notes: 2,
      resolved: [true, true],
      label: { subscribed: true, priority: 1 },
      closed_milestones: ['py-1.0'],
      milestone_issues: [[issue.body.iid, 'opened', `#${issue.body.iid}`]],
      participants: ['pyowner'],
      todos: [['Issue', 'pending']],
      todos_after: 0,
    });
  });
});
