// Label and milestone pages as a browser without script uses them, checked against the API: lists,
// the new forms for who may (reporters for labels, masters for milestones), a milestone with its
// issues, closing a milestone, refusals shown in the form, and who sees what.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { signedInClient, WebClient } from '../helpers/web.ts';

describe('pages: labels and milestones', () => {
  let t: TestApp;
  let owner: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let base = '';

  const signedIn = (user: TestUser) => signedInClient(t, user);
  const api = async (url: string) => {
    const response = await t.request('GET', `/api/v3/projects/${project.id}${url}`, { token: owner.token });
    assert.equal(response.status, 200);
    return response.body as Array<Record<string, any>>;
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'lena');
    reporter = await createUser(t, 'rory');
    stranger = await createUser(t, 'sam');
    project = await createProject(t, { owner, path: 'planned', visibility: 0 });
    await addProjectMember(t, project.id, reporter.id, 20);
    base = `/${project.fullPath}`;
  });
  after(() => t.close());

  it('a reporter creates a label in the form; the API lists it; a duplicate is refused in the form', async () => {
    const web = await signedIn(reporter);
    const list = await web.get(`${base}/labels`);
    assert.equal(list.status, 200);
    assert.match(list.text, /New label/);
    assert.equal((await web.get(`${base}/labels/new`)).status, 200);
    const made = await web.post(`${base}/labels`, {
      'label[title]': 'needs <review>',
      'label[color]': '#00ff00',
      'label[description]': 'Look again',
    });
    assert.equal(made.status, 302);
    const labels = await api('/labels');
    assert.deepEqual(
      labels.map((label) => [label.name, label.color, label.description]),
      [['needs <review>', '#00ff00', 'Look again']],
    );
    assert.match((await web.get(`${base}/labels`)).text, /needs &lt;review>/);
    const again = await web.post(`${base}/labels`, {
      'label[title]': 'needs <review>',
      'label[color]': '#00ff00',
    });
    assert.equal(again.status, 422);
    assert.match(again.text, /Label already exists/);
    const badColor = await web.post(`${base}/labels`, { 'label[title]': 'odd', 'label[color]': 'green' });
    assert.equal(badColor.status, 422);
    assert.match(badColor.text, /Color must be a valid color code/);
    assert.equal((await api('/labels')).length, 1);
  });

  it('a master creates a milestone, sees its issues, and closes it; a reporter may not', async () => {
    const reporterWeb = await signedIn(reporter);
    assert.doesNotMatch((await reporterWeb.get(`${base}/milestones`)).text, /New milestone/);
    assert.equal((await reporterWeb.get(`${base}/milestones/new`)).status, 404);

    const web = await signedIn(owner);
    await web.get(`${base}/milestones/new`);
    const badDate = await web.post(`${base}/milestones`, {
      'milestone[title]': 'v1',
      'milestone[due_date]': '2026-02-31',
    });
    assert.equal(badDate.status, 422);
    assert.match(badDate.text, /Due date is not a date/);
    const made = await web.post(`${base}/milestones`, {
      'milestone[title]': 'v1',
      'milestone[description]': 'The *first* one',
      'milestone[due_date]': '2026-12-24',
    });
    assert.equal(made.status, 302);
    const [milestone] = await api('/milestones');
    assert.equal(milestone.title, 'v1');
    assert.equal(milestone.due_date, '2026-12-24');
    assert.equal(made.headers.location, `${base}/milestones/${milestone.iid}`);
    const taken = await web.post(`${base}/milestones`, { 'milestone[title]': 'v1' });
    assert.equal(taken.status, 422);
    assert.match(taken.text, /Title has already been taken/);

    const issue = await t.request('POST', `/api/v3/projects/${project.id}/issues`, {
      token: owner.token,
      body: { title: 'Planned work', milestone_id: milestone.id },
    });
    assert.equal(issue.status, 201);
    const page = await reporterWeb.get(`${base}/milestones/${milestone.iid}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<em>first<\/em>/);
    assert.match(page.text, new RegExp(`href="${base}/issues/${issue.body.iid}"`));
    assert.doesNotMatch(page.text, /Close milestone/);

    const closed = await web.post(`${base}/milestones/${milestone.iid}`, {
      'milestone[state_event]': 'close',
    });
    assert.equal(closed.status, 302);
    assert.equal((await api('/milestones'))[0].state, 'closed');
    const openList = await web.get(`${base}/milestones`);
    assert.match(openList.text, /Open <span class="badge">0<\/span>/);
    assert.match(openList.text, /Closed <span class="badge">1<\/span>/);
    assert.match((await web.get(`${base}/milestones?state=closed`)).text, /v1/);
  });

  it('strangers get 404, visitors sign in, and posts without the token change nothing', async () => {
    const strangerWeb = await signedIn(stranger);
    for (const url of [
      `${base}/labels`,
      `${base}/milestones`,
      `${base}/milestones/1`,
      `${base}/labels/new`,
    ]) {
      assert.equal((await strangerWeb.get(url)).status, 404, url);
    }
    const visitor = await new WebClient(t).get(`${base}/milestones`);
    assert.equal(visitor.status, 302);
    const web = await signedIn(owner);
    assert.equal((await web.get(`${base}/milestones/999`)).status, 404);
    const forged = await web.request('POST', `${base}/labels`, {
      'label[title]': 'forged',
      'label[color]': '#000000',
    });
    assert.equal(forged.status, 422);
    assert.equal((await api('/labels')).length, 1);
  });
});
