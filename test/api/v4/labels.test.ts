// v4's project labels: the Label entity (id, text_color, description_html, priority, is_project_label,
// counts only with with_counts), search and pagination, one by id or name, create, edit, delete (204),
// subscribe/unsubscribe (201, then 304), and the refusals (400 missing, 403 guests' writes, 404 hidden).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProjectTeam, type ProjectTeam } from '../../helpers/factory.ts';

describe('API v4 labels', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let base: string;

  const call = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token, body });

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'labelled', {
      owner: 'lena',
      developer: 'leo',
      reporter: 'lisa',
      stranger: 'luke',
    });
    base = `/api/v4/projects/${team.project.id}/labels`;
  });
  after(async () => t.close());

  it('creates, lists, reads, edits and deletes labels', async () => {
    const bug = await call('POST', base, team.reporter.token, {
      name: 'bug',
      color: '#FF0000',
      description: 'Something *broke*',
      priority: 2,
    });
    assert.equal(bug.status, 201, bug.text);
    assert.deepEqual(bug.body, {
      id: bug.body.id,
      name: 'bug',
      color: '#FF0000',
      description: 'Something *broke*',
      description_html: '<p>Something <em>broke</em></p>',
      text_color: '#FFFFFF',
      subscribed: false,
      priority: 2,
      is_project_label: true,
    });
    const docs = await call('POST', base, team.owner.token, { name: 'docs', color: '#eee' });
    assert.equal(docs.body.text_color, '#1F1E24');
    assert.equal(docs.body.priority, null);

    const issue = await call('POST', `/api/v3/projects/${team.project.id}/issues`, team.owner.token, {
      title: 'Crash',
      labels: 'bug',
    });
    assert.equal(issue.status, 201, issue.text);

    const list = await call('GET', `${base}?with_counts=true`, team.developer.token);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.map((label: { name: string; open_issues_count: number }) => [
        label.name,
        label.open_issues_count,
      ]),
      [
        ['bug', 1],
        ['docs', 0],
      ],
    );
    const page = await call('GET', `${base}?per_page=1&page=2`, team.developer.token);
    assert.deepEqual(
      page.body.map((label: { name: string }) => label.name),
      ['docs'],
    );
    assert.equal(page.headers['x-total'], '2');
    assert.equal('open_issues_count' in page.body[0], false);
    const searched = await call('GET', `${base}?search=DOC`, team.developer.token);
    assert.deepEqual(
      searched.body.map((label: { name: string }) => label.name),
      ['docs'],
    );

    assert.deepEqual((await call('GET', `${base}/${bug.body.id}`, team.developer.token)).body, bug.body);
    assert.deepEqual((await call('GET', `${base}/bug`, team.developer.token)).body, bug.body);

    const edited = await call('PUT', `${base}/${bug.body.id}`, team.reporter.token, {
      new_name: 'defect',
      priority: null,
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.name, 'defect');
    assert.equal(edited.body.priority, null);
    const older = await call('PUT', base, team.reporter.token, { name: 'docs', color: '#000000' });
    assert.equal(older.status, 200, older.text);
    assert.equal(older.body.color, '#000000');

    const deleted = await call('DELETE', `${base}/docs`, team.reporter.token);
    assert.equal(deleted.status, 204);
    assert.equal((await call('GET', `${base}/docs`, team.reporter.token)).status, 404);
  });

  it('subscribes and unsubscribes', async () => {
    const label = await call('POST', base, team.owner.token, { name: 'watch', color: '#00FF00' });
    const url = `${base}/${label.body.id}`;
    const on = await call('POST', `${url}/subscribe`, team.developer.token);
    assert.equal(on.status, 201, on.text);
    assert.equal(on.body.subscribed, true);
    assert.equal((await call('POST', `${url}/subscribe`, team.developer.token)).status, 304);
    assert.equal((await call('GET', url, team.owner.token)).body.subscribed, false);
    const off = await call('POST', `${base}/watch/unsubscribe`, team.developer.token);
    assert.equal(off.status, 201, off.text);
    assert.equal(off.body.subscribed, false);
    assert.equal((await call('POST', `${url}/unsubscribe`, team.developer.token)).status, 304);
  });

  it('refuses missing parameters, bad colours, outsiders and duplicates', async () => {
    const missing = await call('POST', base, team.owner.token, { name: 'x' });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'color is missing' });
    const badColor = await call('POST', base, team.owner.token, { name: 'x', color: 'red' });
    assert.equal(badColor.status, 400);
    await call('POST', base, team.owner.token, { name: 'dup', color: '#123' });
    assert.equal((await call('POST', base, team.owner.token, { name: 'dup', color: '#123' })).status, 409);
    assert.equal((await call('GET', base, team.stranger.token)).status, 404);
    assert.equal((await call('POST', base, team.stranger.token, { name: 'y', color: '#123' })).status, 404);
    assert.equal((await call('GET', `${base}/nothing`, team.owner.token)).status, 404);
  });
});
