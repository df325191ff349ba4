// X-Total, X-Total-Pages and the Link walk of the project lists stay exact while projects come, go,
// change visibility and are archived: the visible and administrators' totals are read from counters kept
// beside the projects table, the member part from the caller's memberships; a client that walks
// rel="next" from page 1 must meet every project of the list exactly once, and as many as X-Total said.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  type TestUser,
} from '../../helpers/factory.ts';

const PER_PAGE = 2;

describe('project list totals follow every change', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let member: TestUser;
  let external: TestUser;
  const ids: Record<string, number> = {};

  /** Walks rel="next" links from page 1; every page must carry the same, consistent totals. */
  async function walk(url: string, token: string): Promise<{ total: number; names: string[] }> {
    const separator = url.includes('?') ? '&' : '?';
    let next: string | undefined = `${url}${separator}per_page=${PER_PAGE}`;
    const names: string[] = [];
    let total: number | undefined;
    let pageNumber = 0;
    while (next) {
      pageNumber += 1;
      const r = await t.request('GET', next, { token });
      assert.equal(r.status, 200, `${next}: ${JSON.stringify(r.body)}`);
      const pageTotal = Number(r.headers['x-total']);
      if (total === undefined) total = pageTotal;
      assert.equal(pageTotal, total, `${next}: X-Total changed between pages`);
      assert.equal(r.headers['x-total-pages'], String(Math.ceil(total / PER_PAGE)), next);
      assert.equal(r.headers['x-page'], String(pageNumber));
      names.push(...r.body.map((p: { name: string }) => p.name));
      const link = /<([^>]+)>; rel="next"/.exec(String(r.headers.link))?.[1];
      assert.equal(r.headers['x-next-page'], link ? String(pageNumber + 1) : '');
      next = link ? link.replace(t.config.externalUrl, '') : undefined;
    }
    return { total: total!, names };
  }

  /** The list, walked page by page, holds exactly `expected` (in any order) and X-Total says so. */
  async function expectList(url: string, token: string, expected: string[]): Promise<void> {
    const { total, names } = await walk(url, token);
    assert.deepEqual([...names].sort(), [...expected].sort(), `${url}: projects listed`);
    assert.equal(total, expected.length, `${url}: X-Total`);
  }

  async function create(name: string, visibility: number): Promise<void> {
    const r = await t.request('POST', '/api/v3/projects', {
      token: owner.token,
      body: { name, visibility_level: visibility },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    ids[name] = r.body.id;
  }

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'totalsowner', { projectsLimit: 50 });
    viewer = await createUser(t, 'totalsviewer');
    member = await createUser(t, 'totalsmember');
    external = await createUser(t, 'totalsextern', { external: true });
    await create('pub1', 20);
    await create('pub2', 20);
    await create('int1', 10);
    await create('priv1', 0);
    await create('secret', 0);
    await addProjectMember(t, ids.secret, member.id, 30);
    const team = await createGroup(t, 'totalsteam', 0);
    await addGroupMember(t, team, member.id, 30);
    ids.teamwork = (await createProject(t, { owner, path: 'teamwork', namespace: 'totalsteam' })).id;
  });
  after(() => t.close());

  it('counts public, internal and the caller’s own private projects', async () => {
    await expectList('/api/v3/projects/visible', viewer.token, ['pub1', 'pub2', 'int1']);
    await expectList('/api/v3/projects/visible', member.token, [
      'pub1',
      'pub2',
      'int1',
      'secret',
      'teamwork',
    ]);
    await expectList('/api/v3/projects/visible', external.token, ['pub1', 'pub2']);
    await expectList('/api/v3/projects/visible', owner.token, ['pub1', 'pub2', 'int1', 'priv1', 'secret']);
    await expectList('/api/v3/projects/visible?order_by=name&sort=asc', member.token, [
      'pub1',
      'pub2',
      'int1',
      'secret',
      'teamwork',
    ]);
    await expectList('/api/v3/projects/visible?visibility=private', member.token, ['secret', 'teamwork']);
    await expectList('/api/v3/projects/visible?visibility=public', member.token, ['pub1', 'pub2']);
    await expectList('/api/v3/projects', member.token, ['secret', 'teamwork']);
    await expectList('/api/v3/projects/all', t.rootToken, [
      'pub1',
      'pub2',
      'int1',
      'priv1',
      'secret',
      'teamwork',
    ]);
  });

  it('follows creates and deletes', async () => {
    await create('pub3', 20);
    await create('priv2', 0);
    await expectList('/api/v3/projects/visible', viewer.token, ['pub1', 'pub2', 'pub3', 'int1']);
    await expectList('/api/v3/projects/all', t.rootToken, [
      'pub1',
      'pub2',
      'pub3',
      'int1',
      'priv1',
      'priv2',
      'secret',
      'teamwork',
    ]);
    for (const name of ['pub3', 'priv2']) {
      const r = await t.request('DELETE', `/api/v3/projects/${ids[name]}`, { token: owner.token });
      assert.equal(r.status, 200);
    }
    await expectList('/api/v3/projects/visible', viewer.token, ['pub1', 'pub2', 'int1']);
    await expectList('/api/v3/projects/visible', owner.token, ['pub1', 'pub2', 'int1', 'priv1', 'secret']);
  });

  it('follows archiving, with and without the archived filter', async () => {
    let r = await t.request('POST', `/api/v3/projects/${ids.pub2}/archive`, { token: owner.token });
    assert.equal(r.status, 201);
    r = await t.request('POST', `/api/v3/projects/${ids.secret}/archive`, { token: owner.token });
    assert.equal(r.status, 201);
    await expectList('/api/v3/projects/visible', viewer.token, ['pub1', 'pub2', 'int1']);
    await expectList('/api/v3/projects/visible?archived=true', viewer.token, ['pub2']);
    await expectList('/api/v3/projects/visible?archived=false', viewer.token, ['pub1', 'int1']);
    await expectList('/api/v3/projects/visible?archived=true', member.token, ['pub2', 'secret']);
    await expectList('/api/v3/projects/visible?archived=false', member.token, ['pub1', 'int1', 'teamwork']);
    await expectList('/api/v3/projects/all?archived=true', t.rootToken, ['pub2', 'secret']);
    for (const name of ['pub2', 'secret']) {
      r = await t.request('POST', `/api/v3/projects/${ids[name]}/unarchive`, { token: owner.token });
      assert.equal(r.status, 201);
    }
    await expectList('/api/v3/projects/visible?archived=true', member.token, []);
    await expectList('/api/v3/projects/visible?archived=false', member.token, [
      'pub1',
      'pub2',
      'int1',
      'secret',
      'teamwork',
    ]);
  });

  it('follows visibility changes', async () => {
    for (const [name, level] of [
      ['pub1', 0],
      ['priv1', 10],
      ['secret', 20],
    ] as const) {
      const r = await t.request('PUT', `/api/v3/projects/${ids[name]}`, {
        token: owner.token,
        body: { name, visibility_level: level },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    await expectList('/api/v3/projects/visible', viewer.token, ['pub2', 'int1', 'priv1', 'secret']);
    await expectList('/api/v3/projects/visible', external.token, ['pub2', 'secret']);
    await expectList('/api/v3/projects/visible', member.token, [
      'pub2',
      'int1',
      'priv1',
      'secret',
      'teamwork',
    ]);
    await expectList('/api/v3/projects/visible', owner.token, ['pub1', 'pub2', 'int1', 'priv1', 'secret']);
    await expectList('/api/v3/projects/visible?visibility=private', owner.token, ['pub1']);
  });

  it('follows a membership and a fork', async () => {
    await addProjectMember(t, ids.pub1, viewer.id, 20);
    await expectList('/api/v3/projects/visible', viewer.token, ['pub1', 'pub2', 'int1', 'priv1', 'secret']);
    const r = await t.request('POST', `/api/v3/projects/fork/${ids.secret}`, { token: viewer.token });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await expectList('/api/v3/projects/visible', external.token, ['pub2', 'secret', 'secret']);
    await expectList('/api/v3/projects', viewer.token, ['pub1', 'secret']);
  });

  it('follows a group deletion that takes its projects along', async () => {
    const doomed = await createGroup(t, 'totalsdoomed', 20);
    await createProject(t, { owner, path: 'gone1', namespace: 'totalsdoomed', visibility: 20 });
    await createProject(t, { owner, path: 'gone2', namespace: 'totalsdoomed', visibility: 0 });
    await expectList('/api/v3/projects/visible', external.token, ['pub2', 'secret', 'secret', 'gone1']);
    const r = await t.request('DELETE', `/api/v3/groups/${doomed}`, { token: t.rootToken });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await expectList('/api/v3/projects/visible', external.token, ['pub2', 'secret', 'secret']);
    const all = await walk('/api/v3/projects/all', t.rootToken);
    assert.equal(all.total, all.names.length);
    assert.ok(!all.names.includes('gone2'));
  });
});
