// v4's discussions on issues and merge requests: earlier notes are threads of their own, a new thread,
// a reply (which turns an individual note into a thread), edit and delete of a thread's note, resolving
// a merge request's thread (and refusing an issue's), threads surviving a restart, and the refusals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProjectTeam, type ProjectTeam } from '../../helpers/factory.ts';
import { openTopicMergeRequest } from '../../helpers/merge-requests.ts';

describe('API v4 discussions', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let issueBase: string;
  let mrBase: string;

  const call = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token, body });

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'threads', {
      owner: 'tina',
      developer: 'theo',
      reporter: 'tom',
      stranger: 'tess',
    });
    const issue = await call('POST', `/api/v3/projects/${team.project.id}/issues`, team.owner.token, {
      title: 'Threaded',
    });
    issueBase = `/api/v4/projects/${team.project.id}/issues/${issue.body.iid}`;
    const mr = await openTopicMergeRequest(t, team.developer.token, team.project.id);
    mrBase = `/api/v4/projects/${team.project.id}/merge_requests/${mr.iid}`;
  });
  after(async () => t.close());

  it('shows a plain note as its own thread and turns it into one on a reply', async () => {
    const note = await call('POST', `${issueBase}/notes`, team.reporter.token, { body: 'Plain' });
    assert.equal(note.status, 201, note.text);
    const list = await call('GET', `${issueBase}/discussions`, team.reporter.token);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.length, 1);
    const [thread] = list.body;
    assert.match(thread.id, /^[0-9a-f]{40}$/);
    assert.equal(thread.individual_note, true);
    assert.deepEqual(thread.notes, [note.body]);

    const reply = await call('POST', `${issueBase}/discussions/${thread.id}/notes`, team.owner.token, {
      body: 'A reply',
    });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.type, 'DiscussionNote');
    assert.equal(reply.body.resolvable, false);
    const read = await call('GET', `${issueBase}/discussions/${thread.id}`, team.reporter.token);
    assert.equal(read.body.individual_note, false);
    assert.deepEqual(
      read.body.notes.map((n: { body: string; type: string }) => [n.body, n.type]),
      [
        ['Plain', 'DiscussionNote'],
        ['A reply', 'DiscussionNote'],
      ],
    );
    // Issue threads cannot be resolved.
    const resolve = await call(
      'PUT',
      `${issueBase}/discussions/${thread.id}/notes/${reply.body.id}`,
      team.owner.token,
      {
        resolved: true,
      },
    );
    assert.equal(resolve.status, 400, resolve.text);
  });

  it('starts, resolves and reopens a merge request thread, which survives a restart', async () => {
    const started = await call('POST', `${mrBase}/discussions`, team.reporter.token, {
      body: 'Rename this?',
    });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.individual_note, false);
    const [first] = started.body.notes;
    assert.equal(first.type, 'DiscussionNote');
    assert.equal(first.resolvable, true);
    assert.equal(first.resolved, false);
    assert.equal(first.resolved_by, null);
    const id = started.body.id;

    const reply = await call('POST', `${mrBase}/discussions/${id}/notes`, team.developer.token, {
      body: 'Done',
    });
    assert.equal(reply.status, 201, reply.text);
    const edited = await call(
      'PUT',
      `${mrBase}/discussions/${id}/notes/${reply.body.id}`,
      team.developer.token,
      {
        body: 'Done now',
      },
    );
    assert.equal(edited.body.body, 'Done now');

    // A reporter who did not write the thread and does not own the MR may not resolve it.
    const other = await call('POST', `${mrBase}/discussions`, team.developer.token, { body: 'Mine' });
    const refused = await call('PUT', `${mrBase}/discussions/${other.body.id}`, team.reporter.token, {
      resolved: true,
    });
    assert.equal(refused.status, 403);

    const resolved = await call('PUT', `${mrBase}/discussions/${id}?resolved=true`, team.developer.token);
    assert.equal(resolved.status, 200, resolved.text);
    for (const note of resolved.body.notes) {
      assert.equal(note.resolved, true);
      assert.equal(note.resolved_by.username, 'theo');
      assert.ok(note.resolved_at);
    }

    await t.restart();
    const again = await call('GET', `${mrBase}/discussions/${id}`, team.owner.token);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, resolved.body);
    const all = await call('GET', `${mrBase}/discussions?per_page=1&page=2`, team.owner.token);
    assert.equal(all.headers['x-total'], '2');
    assert.equal(all.body[0].id, other.body.id);

    const reopened = await call('PUT', `${mrBase}/discussions/${id}`, team.owner.token, { resolved: false });
    assert.equal(reopened.body.notes[0].resolved, false);
    assert.equal(reopened.body.notes[0].resolved_by, null);

    const gone = await call(
      'DELETE',
      `${mrBase}/discussions/${id}/notes/${reply.body.id}`,
      team.developer.token,
    );
    assert.equal(gone.status, 204);
    const left = await call('GET', `${mrBase}/discussions/${id}`, team.owner.token);
    assert.equal(left.body.notes.length, 1);
  });

  it('threads comments on a commit, the v3 comments among them', async () => {
    const commits = await call(
      'GET',
      `/api/v4/projects/${team.project.id}/repository/commits`,
      team.owner.token,
    );
    const sha = commits.body[0].id;
    const base = `/api/v4/projects/${team.project.id}/repository/commits/${sha}/discussions`;
    const comment = await call(
      'POST',
      `/api/v4/projects/${team.project.id}/repository/commits/${sha}/comments`,
      team.owner.token,
      {
        note: 'Old style',
      },
    );
    assert.equal(comment.status, 201, comment.text);
    const started = await call('POST', base, team.developer.token, { body: 'Why this?' });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.notes[0].noteable_type, 'Commit');
    assert.equal(started.body.notes[0].noteable_iid, null);
    assert.equal(started.body.notes[0].resolvable, false);
    const reply = await call('POST', `${base}/${started.body.id}/notes`, team.owner.token, {
      body: 'Because',
    });
    assert.equal(reply.status, 201, reply.text);
    const list = await call('GET', base, team.reporter.token);
    assert.deepEqual(
      list.body.map((thread: { individual_note: boolean; notes: Array<{ body: string }> }) => [
        thread.individual_note,
        thread.notes.map((note) => note.body),
      ]),
      [
        [true, ['Old style']],
        [false, ['Why this?', 'Because']],
      ],
    );
    assert.equal(
      (await call('PUT', `${base}/${started.body.id}`, team.owner.token, { resolved: true })).status,
      404,
    );
    assert.equal(
      (
        await call(
          'GET',
          `/api/v4/projects/${team.project.id}/repository/commits/${'0'.repeat(40)}/discussions`,
          team.owner.token,
        )
      ).status,
      404,
    );
  });

  it('refuses a missing body, an unknown thread and hidden projects', async () => {
    const missing = await call('POST', `${issueBase}/discussions`, team.owner.token, {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'body is missing' });
    const unknown = await call('GET', `${issueBase}/discussions/${'a'.repeat(40)}`, team.owner.token);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: '404 Discussion Not Found' });
    const junk = await call('POST', `${issueBase}/discussions/nothex/notes`, team.owner.token, { body: 'x' });
    assert.equal(junk.status, 404);
    assert.equal((await call('GET', `${issueBase}/discussions`, team.stranger.token)).status, 404);
    assert.equal((await call('GET', `${mrBase}/discussions`, team.stranger.token)).status, 404);
  });
});
