// Note#cross_reference_not_visible_for?: a `Mentioned in …` note whose mentioner the reader may not see
// (an issue of a private project, a confidential issue) is left out of the notes lists of v3 and v4 and
// of v4's discussions; who may see the mentioner sees it. The page's mentioners are read in one batch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';

describe('cross-reference notes hidden from who may not see the mentioner', () => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;
  let project: TestProject;
  let secret: TestProject;
  let mentioned: Record<string, any>;
  let fromSecret: Record<string, any>;
  let confidential: Record<string, any>;
  let plain: Record<string, any>;

  const api = async (method: string, url: string, user: TestUser, body?: Record<string, unknown>) => {
    const response = await t.request(method, url, { token: user.token, body });
    assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as any;
  };
  const newIssue = (target: TestProject, fields: Record<string, unknown>) =>
    api('POST', `/api/v3/projects/${target.id}/issues`, owner, fields);

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    owner = await createUser(t, 'owen');
    outsider = await createUser(t, 'outsider');
    project = await createProject(t, { owner, path: 'app', visibility: 20 });
    secret = await createProject(t, { owner, path: 'secret', visibility: 0 });
    mentioned = await newIssue(project, { title: 'Mentioned' });
    fromSecret = await newIssue(secret, {
      title: 'Private',
      description: `${project.fullPath}#${mentioned.iid}`,
    });
    confidential = await newIssue(project, {
      title: 'Quiet',
      confidential: true,
      description: `About #${mentioned.iid}`,
    });
    plain = await newIssue(project, { title: 'Open', description: `See #${mentioned.iid}` });
    await api('POST', `/api/v3/projects/${project.id}/issues/${mentioned.id}/notes`, owner, {
      body: 'A comment',
    });
  });
  after(async () => {
    t.server.deps.db.onQuery = undefined;
    await t?.close();
  });

  async function bodies(version: 'v3' | 'v4', user: TestUser): Promise<string[]> {
    const id = version === 'v3' ? mentioned.id : mentioned.iid;
    const notes = (await api(
      'GET',
      `/api/${version}/projects/${project.id}/issues/${id}/notes?per_page=100&sort=asc`,
      user,
    )) as Array<{ body: string }>;
    return notes.map((note) => note.body);
  }

  it('shows the owner every note, in v3 and v4', async () => {
    for (const version of ['v3', 'v4'] as const)
      assert.deepEqual(await bodies(version, owner), [
        `Mentioned in issue ${secret.fullPath}#${fromSecret.iid}`,
        `Mentioned in issue #${confidential.iid}`,
        `Mentioned in issue #${plain.iid}`,
        'A comment',
      ]);
  });

  it('leaves out, for an outsider, the notes of a private project’s issue and of a confidential issue', async () => {
    for (const version of ['v3', 'v4'] as const)
      assert.deepEqual(
        await bodies(version, outsider),
        [`Mentioned in issue #${plain.iid}`, 'A comment'],
        version,
      );
    const discussions = (await api(
      'GET',
      `/api/v4/projects/${project.id}/issues/${mentioned.iid}/discussions?per_page=100`,
      outsider,
    )) as Array<{ notes: Array<{ body: string }> }>;
    assert.deepEqual(
      discussions.map((thread) => thread.notes[0]!.body),
      [`Mentioned in issue #${plain.iid}`, 'A comment'],
    );
  });

  it('reads the mentioners of a page in a bounded number of statements, however many notes', async () => {
    const count = async () => {
      let queries = 0;
      t.server.deps.db.onQuery = () => queries++;
      await bodies('v4', outsider);
      t.server.deps.db.onQuery = undefined;
      return queries;
    };
    const before = await count();
    for (let i = 0; i < 5; i++)
      await newIssue(secret, { title: `More ${i}`, description: `${project.fullPath}#${mentioned.iid}` });
    for (let i = 0; i < 5; i++)
      await newIssue(project, { title: `Here ${i}`, description: `#${mentioned.iid}` });
    assert.equal(await count(), before);
    assert.equal((await bodies('v4', outsider)).length, 7);
  });
});
