// v4's POST /projects/:id/repository/commits/:sha/revert over HTTP: the new commit (201) on the branch,
// GitLab's 400 for a revert that would change nothing or conflicts, and the refusals of bad input and
// of callers who may not push.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProjectTeam, type ProjectTeam } from '../../helpers/factory.ts';

const CANNOT =
  'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, ' +
  'or a more recent commit may have updated some of its content.';

describe('API v4 commit revert', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let files: string;
  let commits: string;

  const write = async (action: 'create' | 'update', content: string, message: string) => {
    const made = await t.request('POST', commits, {
      token: team.developer.token,
      body: {
        branch: 'master',
        commit_message: message,
        actions: [{ action, file_path: 'notes.txt', content }],
      },
    });
    assert.equal(made.status, 201, made.text);
    return made.body.id as string;
  };
  const revert = (sha: string, token: string, body: Record<string, unknown> = { branch: 'master' }) =>
    t.request('POST', `${commits}/${sha}/revert`, { token, body });
  const file = async () =>
    (await t.request('GET', `${files}/notes.txt/raw?ref=master`, { token: team.owner.token })).text;

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'undone', {
      owner: 'uma',
      developer: 'ugo',
      reporter: 'ula',
      stranger: 'uri',
    });
    commits = `/api/v4/projects/${team.project.id}/repository/commits`;
    files = `/api/v4/projects/${team.project.id}/repository/files`;
  });
  after(async () => t.close());

  it('reverts a commit onto the branch, and refuses one already reverted or in conflict', async () => {
    await write('create', 'one\n', 'Add notes');
    const second = await write('update', 'one\ntwo\n', 'Add two');
    const reverted = await revert(second, team.developer.token);
    assert.equal(reverted.status, 201, reverted.text);
    assert.equal(reverted.body.title, 'Revert "Add two"');
    assert.equal(reverted.body.message, `Revert "Add two"\n\nThis reverts commit ${second}.\n`);
    assert.equal(reverted.body.author_email, team.developer.email);
    assert.equal(await file(), 'one\n');
    const branch = await t.request('GET', `/api/v4/projects/${team.project.id}/repository/branches/master`, {
      token: team.owner.token,
    });
    assert.equal(branch.body.commit.id, reverted.body.id);

    const again = await revert(second, team.developer.token);
    assert.deepEqual([again.status, again.body], [400, { message: CANNOT }]);

    // A later change to the same line: the revert of the earlier change conflicts.
    const third = await write('update', 'uno\n', 'Say it in Italian');
    await write('update', 'eins\n', 'Say it in German');
    const conflict = await revert(third, team.developer.token);
    assert.deepEqual([conflict.status, conflict.body], [400, { message: CANNOT }]);
    assert.equal(await file(), 'eins\n');
  });

  it('refuses bad input and callers who may not push', async () => {
    const head = (await t.request('GET', `${commits}/master`, { token: team.owner.token })).body.id as string;
    const missing = await revert(head, team.developer.token, {});
    assert.deepEqual([missing.status, missing.body], [400, { error: 'branch is missing' }]);
    const noBranch = await revert(head, team.developer.token, { branch: 'nowhere' });
    assert.deepEqual([noBranch.status, noBranch.body], [404, { message: '404 Branch Not Found' }]);
    const noCommit = await revert('0'.repeat(40), team.developer.token);
    assert.deepEqual([noCommit.status, noCommit.body], [404, { message: '404 Commit Not Found' }]);
    const reporter = await revert(head, team.reporter.token);
    assert.equal(reporter.status, 403);
    const stranger = await revert(head, team.stranger.token);
    assert.deepEqual([stranger.status, stranger.body], [404, { message: '404 Project Not Found' }]);
  });
});
