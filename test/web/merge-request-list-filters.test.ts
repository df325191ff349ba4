// The merge request list's filters as 8.13's filter links name them (`label_name[]`, `author_id`,
// `milestone_title`, `sort`): the list shows only what matches, each state tab counts with the filters,
// and the tabs' links keep them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProjectTeam, type TestProject, type TestUser } from '../helpers/factory.ts';
import { branchWithFile } from '../helpers/merge-requests.ts';
import { signedInClient, type WebClient } from '../helpers/web.ts';

describe('pages: merge request list filters', () => {
  let t: TestApp;
  let owner: TestUser;
  let developer: TestUser;
  let project: TestProject;
  let web: WebClient;
  let base = '';

  async function open(token: string, branch: string, title: string, labels = '') {
    await branchWithFile(t, owner.token, project.id, branch, `${branch}.txt`, `${branch}\n`);
    const created = await t.request('POST', `/api/v3/projects/${project.id}/merge_requests`, {
      token,
      body: { source_branch: branch, target_branch: 'master', title, labels },
    });
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  const titles = (html: string) => [...html.matchAll(/<strong>([^<]*)<\/strong><\/a>/g)].map((m) => m[1]);

  before(async () => {
    t = await startTestApp();
    ({ owner, developer, project } = await createProjectTeam(t, 'filtered', {
      owner: 'fiona',
      developer: 'dev',
      reporter: 'rita',
      stranger: 'stan',
    }));
    base = `/${project.fullPath}/merge_requests`;
    await open(owner.token, 'bug-one', 'Fix the first bug', 'bug');
    await open(developer.token, 'bug-two', 'Fix the second bug', 'bug,ui');
    await open(developer.token, 'feature', 'Add a feature');
    web = await signedInClient(t, owner);
  });
  after(() => t.close());

  it('lists only the labelled ones and counts each tab with the filter', async () => {
    const page = await web.get(`${base}?label_name[]=bug`);
    assert.equal(page.status, 200);
    assert.deepEqual(titles(page.text).sort(), ['Fix the first bug', 'Fix the second bug']);
    assert.match(page.text, /Open <span class="badge">2<\/span>/);
    // Every label named must be there.
    const both = await web.get(`${base}?label_name[]=bug&label_name[]=ui`);
    assert.deepEqual(titles(both.text), ['Fix the second bug']);
    // The tabs keep the filter.
    assert.match(page.text, /href="[^"]*merge_requests\?label_name=bug&amp;state=merged"/);
  });

  it('filters by author and sorts oldest first', async () => {
    const mine = await web.get(`${base}?author_id=${developer.id}&sort=created_asc`);
    assert.deepEqual(titles(mine.text), ['Fix the second bug', 'Add a feature']);
    const unknown = await web.get(`${base}?author_id=999999`);
    assert.deepEqual(titles(unknown.text), []);
    const everything = await web.get(base);
    assert.deepEqual(titles(everything.text), ['Add a feature', 'Fix the second bug', 'Fix the first bug']);
  });
});
