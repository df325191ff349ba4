// API v4's projects resource beside v3's: the one GET /projects and its filters (anonymous callers see
// public projects), the ProjectWithAccess / BasicProjectDetails shapes field by field, create (query
// string parameters too, as python-gitlab sends them), edit, delete 202, fork, forks, star, archive, share
// and transfer, with each refusal.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';

const PROJECT_KEYS = [
  'id',
  'description',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'created_at',
  'default_branch',
  'tag_list',
  'topics',
  'ssh_url_to_repo',
  'http_url_to_repo',
  'web_url',
  'readme_url',
  'forks_count',
  'avatar_url',
  'star_count',
  'last_activity_at',
  'namespace',
  '_links',
  'packages_enabled',
  'empty_repo',
  'archived',
  'visibility',
];

describe('API v4 projects', () => {
  let t: TestApp;
  let owner: TestUser;
  let dev: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let admin: TestUser;
  let open: TestProject;
  let inner: TestProject;
  let hidden: TestProject;
  let groupId: number;

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    owner = await createUser(t, 'owner', { projectsLimit: 100 });
    dev = await createUser(t, 'dev', { projectsLimit: 100 });
    guest = await createUser(t, 'guest');
    outsider = await createUser(t, 'outsider', { projectsLimit: 100 });
    admin = await createUser(t, 'boss', { admin: true });
    open = await createProject(t, { owner, path: 'open', visibility: 20, commit: true });
    inner = await createProject(t, { owner, path: 'inner', visibility: 10 });
    hidden = await createProject(t, { owner, path: 'hidden', visibility: 0 });
    await addProjectMember(t, hidden.id, dev.id, 30);
    await addProjectMember(t, hidden.id, guest.id, 10);
    groupId = await createGroup(t, 'crew', 20);
    await addGroupMember(t, groupId, owner.id, 50);
    await addGroupMember(t, groupId, dev.id, 30);
  });
  after(() => t.close());

  const get = (url: string, user?: TestUser) => t.request('GET', `/api/v4${url}`, { token: user?.token });
  const ids = (body: { id: number }[]) => body.map((p) => p.id).sort((a, b) => a - b);

  it('GET /projects/:id: ProjectWithAccess field by field, in GitLab’s order', async () => {
    const response = await get(`/projects/${open.id}`, owner);
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    const body = response.body;
    assert.deepEqual(Object.keys(body).slice(0, PROJECT_KEYS.length), PROJECT_KEYS);
    const base = t.config.externalUrl;
    assert.equal(body.id, open.id);
    assert.equal(body.description, 'About open');
    assert.equal(body.name, 'open');
    assert.equal(body.name_with_namespace, 'owner Name / open');
    assert.equal(body.path_with_namespace, 'owner/open');
    assert.equal(body.default_branch, 'master');
    assert.deepEqual(body.tag_list, []);
    assert.deepEqual(body.topics, []);
    assert.equal(body.http_url_to_repo, `${base}/owner/open.git`);
    assert.equal(body.web_url, `${base}/owner/open`);
    assert.match(body.ssh_url_to_repo, /owner\/open\.git$/);
    assert.equal(body.readme_url, null);
    assert.equal(body.forks_count, 0);
    assert.equal(body.star_count, 0);
    assert.deepEqual(body.namespace, {
      id: body.namespace.id,
      name: 'owner Name',
      path: 'owner',
      kind: 'user',
      full_path: 'owner',
      parent_id: null,
      avatar_url: body.namespace.avatar_url,
      web_url: `${base}/owner`,
    });
    const api = `${base}/api/v4/projects/${open.id}`;
    assert.deepEqual(body._links, {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    });
    assert.equal(body.visibility, 'public');
    assert.equal(body.archived, false);
    assert.equal(body.empty_repo, true);
    assert.deepEqual(Object.keys(body.owner), [
      'id',
      'username',
      'name',
      'state',
      'locked',
      'avatar_url',
      'web_url',
    ]);
    assert.equal(body.owner.username, 'owner');
    assert.equal(body.issues_enabled, true);
    assert.equal(body.jobs_enabled, true);
    assert.equal(body.issues_access_level, 'enabled');
    assert.equal(body.public_jobs, true);
    assert.equal(body.only_allow_merge_if_pipeline_succeeds, false);
    assert.equal(body.open_issues_count, 0);
    assert.equal(typeof body.runners_token, 'string');
    assert.equal(body.creator_id, owner.id);
    assert.equal(body.import_status, 'none');
    assert.deepEqual(body.shared_with_groups, []);
    assert.deepEqual(body.permissions, {
      project_access: {
        access_level: 40,
        notification_level: body.permissions.project_access.notification_level,
      },
      group_access: null,
    });
    // v3's names are not v4's.
    for (const v3Only of ['public', 'visibility_level', 'builds_enabled', 'public_builds']) {
      assert.equal(v3Only in body, false, v3Only);
    }
    // By path, and the runners token only for masters.
    const byPath = await get(`/projects/${encodeURIComponent('owner/open')}`, outsider);
    assert.equal(byPath.body.id, open.id);
    assert.equal(byPath.body.runners_token, undefined);
    assert.deepEqual(byPath.body.permissions, { project_access: null, group_access: null });
  });

  it('GET /projects/:id without a token: ProjectDetails of public projects, 404 for the others', async () => {
    const response = await get(`/projects/${open.id}`);
    assert.equal(response.status, 200);
    assert.equal(response.body.id, open.id);
    assert.equal(response.body.permissions, undefined);
    assert.equal(response.body._links, undefined);
    assert.equal(response.body.namespace.path, 'owner');
    for (const project of [inner, hidden]) {
      const refused = await get(`/projects/${project.id}`);
      assert.equal(refused.status, 404);
      assert.deepEqual(refused.body, { message: '404 Project Not Found' });
    }
    assert.equal((await get(`/projects/${hidden.id}`, outsider)).status, 404);
    // A guest of a private project reads it but not its code.
    const asGuest = await get(`/projects/${hidden.id}`, guest);
    assert.equal(asGuest.status, 200);
    assert.equal(asGuest.body.default_branch, undefined);
    assert.equal(asGuest.body.permissions.project_access.access_level, 10);
  });

  it('GET /projects: what the caller may see, public ones without a token, admins everything', async () => {
    const anonymous = await get('/projects');
    assert.equal(anonymous.status, 200);
    assert.deepEqual(ids(anonymous.body), [open.id]);
    assert.equal(anonymous.body[0].permissions, undefined);
    assert.equal(anonymous.headers['x-total'], '1');
    const asOutsider = await get('/projects', outsider);
    assert.deepEqual(
      ids(asOutsider.body),
      [open.id, inner.id].sort((a, b) => a - b),
    );
    assert.ok(asOutsider.body.every((p: { permissions?: unknown }) => p.permissions));
    const asDev = await get('/projects', dev);
    assert.deepEqual(
      ids(asDev.body),
      [open.id, inner.id, hidden.id].sort((a, b) => a - b),
    );
    const asAdmin = await get('/projects?per_page=100', admin);
    assert.ok(ids(asAdmin.body).includes(hidden.id));
    // Lists leave the runners token out.
    assert.equal(asAdmin.body[0].runners_token, undefined);
  });

  it('GET /projects: owned, membership, starred, min_access_level, visibility, search, simple, order', async () => {
    assert.deepEqual(ids((await get('/projects?membership=true', dev)).body), [hidden.id]);
    assert.deepEqual(ids((await get('/projects?owned=true', dev)).body), []);
    assert.equal((await get('/projects?owned=true', owner)).body.length, 3);
    assert.deepEqual(ids((await get('/projects?min_access_level=30', dev)).body), [hidden.id]);
    assert.deepEqual(ids((await get('/projects?min_access_level=30', guest)).body), []);
    assert.deepEqual(ids((await get('/projects?min_access_level=10', guest)).body), [hidden.id]);
    assert.deepEqual(ids((await get('/projects?visibility=internal', dev)).body), [inner.id]);
    assert.deepEqual(ids((await get('/projects?search=INN', dev)).body), [inner.id]);
    assert.equal((await get('/projects?search=owner&search_namespaces=true', dev)).body.length, 3);
    assert.equal((await get('/projects?search=owner', dev)).body.length, 0);
    const star = await t.request('POST', `/api/v4/projects/${inner.id}/star`, { token: dev.token });
    assert.equal(star.status, 201);
    assert.deepEqual(ids((await get('/projects?starred=true', dev)).body), [inner.id]);
    const simple = await get('/projects?simple=true&order_by=name&sort=asc', dev);
    assert.deepEqual(
      simple.body.map((p: { path: string }) => p.path),
      ['hidden', 'inner', 'open'],
    );
    assert.equal(simple.body[0]._links, undefined);
    assert.equal(simple.body[0].namespace.kind, 'user');
    const byId = await get('/projects?order_by=id&sort=desc', dev);
    assert.deepEqual(
      byId.body.map((p: { id: number }) => p.id),
      [hidden.id, inner.id, open.id],
    );
    for (const [query, name] of [
      ['order_by=stars', 'order_by'],
      ['sort=up', 'sort'],
      ['visibility=secret', 'visibility'],
      ['min_access_level=25', 'min_access_level'],
    ]) {
      const refused = await get(`/projects?${query}`, dev);
      assert.equal(refused.status, 400, query);
      assert.deepEqual(refused.body, { error: `${name} does not have a valid value` });
    }
    const unstar = await t.request('POST', `/api/v4/projects/${inner.id}/unstar`, { token: dev.token });
    assert.equal(unstar.status, 201);
    assert.equal(unstar.body.star_count, 0);
    assert.equal(
      (await t.request('POST', `/api/v4/projects/${inner.id}/unstar`, { token: dev.token })).status,
      304,
    );
  });

  it('GET /projects: pages with Link headers that keep every filter', async () => {
    const page = await get('/projects?per_page=1&page=2&order_by=name&sort=asc&simple=true', dev);
    assert.equal(page.status, 200);
    assert.equal(page.body.length, 1);
    assert.equal(page.body[0].path, 'inner');
    assert.equal(page.headers['x-total'], '3');
    assert.equal(page.headers['x-total-pages'], '3');
    assert.equal(page.headers['x-next-page'], '3');
    assert.equal(page.headers['x-prev-page'], '1');
    const link = String(page.headers.link);
    assert.match(link, /order_by=name&page=3&per_page=1&simple=true&sort=asc>; rel="next"/);
    assert.match(link, /\/api\/v4\/projects\?/);
  });

  it('GET /users/:user_id/projects: by id or username, what the caller may see', async () => {
    assert.deepEqual(ids((await get(`/users/${owner.id}/projects`)).body), [open.id]);
    assert.equal((await get('/users/owner/projects', dev)).body.length, 3);
    assert.equal((await get('/users/nobody-at-all/projects', dev)).status, 404);
  });

  it('POST /projects: v4 names, in the query string too; 400s; POST /projects/user/:id', async () => {
    const created = await t.request(
      'POST',
      '/api/v4/projects?name=Made&visibility=internal&jobs_enabled=false&public_jobs=false&default_branch=main',
      { token: outsider.token },
    );
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.path, 'made');
    assert.equal(created.body.visibility, 'internal');
    assert.equal(created.body.jobs_enabled, false);
    assert.equal(created.body.public_jobs, false);
    assert.equal(created.body.default_branch, 'main');
    assert.equal(typeof created.body.runners_token, 'string');
    const inGroup = await t.request('POST', '/api/v4/projects', {
      token: owner.token,
      body: { path: 'tool', namespace_id: groupId, issues_enabled: false },
    });
    assert.equal(inGroup.status, 201, inGroup.text);
    assert.equal(inGroup.body.name, 'tool');
    assert.equal(inGroup.body.namespace.kind, 'group');
    assert.equal(inGroup.body.namespace.web_url, `${t.config.externalUrl}/groups/crew`);
    assert.equal(inGroup.body.owner, undefined);
    assert.equal(inGroup.body._links.issues, undefined);
    assert.equal(inGroup.body.open_issues_count, undefined);
    const missing = await t.request('POST', '/api/v4/projects', { token: owner.token, body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, {
      error: 'name, path are missing, at least one parameter must be provided',
    });
    const taken = await t.request('POST', '/api/v4/projects', {
      token: outsider.token,
      body: { name: 'Made' },
    });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body.message.name, ['has already been taken']);
    const badVisibility = await t.request('POST', '/api/v4/projects', {
      token: outsider.token,
      body: { name: 'x', visibility: 'everyone' },
    });
    assert.deepEqual(badVisibility.body, { error: 'visibility does not have a valid value' });
    assert.equal((await t.request('POST', '/api/v4/projects', { body: { name: 'x' } })).status, 401);
    const forUser = await t.request('POST', `/api/v4/projects/user/${guest.id}`, {
      token: admin.token,
      body: { name: 'Given', visibility: 'public' },
    });
    assert.equal(forUser.status, 201, forUser.text);
    assert.equal(forUser.body.path_with_namespace, 'guest/given');
    assert.equal(forUser.body.visibility, 'public');
    const notAdmin = await t.request('POST', `/api/v4/projects/user/${guest.id}`, {
      token: owner.token,
      body: { name: 'Given2' },
    });
    assert.equal(notAdmin.status, 403);
  });

  it('PUT /projects/:id: masters edit, owners rename; DELETE: owners, 202, then 404', async () => {
    const project = await createProject(t, { owner, path: 'editable', visibility: 10 });
    await addProjectMember(t, project.id, dev.id, 40);
    const edited = await t.request('PUT', `/api/v4/projects/${project.id}`, {
      token: dev.token,
      body: { description: 'New words', jobs_enabled: false },
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.description, 'New words');
    assert.equal(edited.body.jobs_enabled, false);
    const rename = await t.request('PUT', `/api/v4/projects/${project.id}`, {
      token: dev.token,
      body: { name: 'Renamed' },
    });
    assert.equal(rename.status, 403);
    const visibility = await t.request('PUT', `/api/v4/projects/${project.id}?visibility=private`, {
      token: owner.token,
    });
    assert.equal(visibility.status, 200);
    assert.equal(visibility.body.visibility, 'private');
    const nothing = await t.request('PUT', `/api/v4/projects/${project.id}`, {
      token: owner.token,
      body: {},
    });
    assert.equal(nothing.status, 400);
    assert.match(nothing.body.error, /are missing, at least one parameter must be provided$/);
    assert.equal(
      (
        await t.request('PUT', `/api/v4/projects/${project.id}`, {
          token: outsider.token,
          body: { description: 'x' },
        })
      ).status,
      404,
    );
    assert.equal(
      (await t.request('DELETE', `/api/v4/projects/${project.id}`, { token: dev.token })).status,
      403,
    );
    const deleted = await t.request('DELETE', `/api/v4/projects/${project.id}`, { token: owner.token });
    assert.equal(deleted.status, 202);
    assert.deepEqual(deleted.body, { message: '202 Accepted' });
    assert.equal((await get(`/projects/${project.id}`, owner)).status, 404);
  });

  it('POST /projects/:id/fork with name, path and namespace; GET /projects/:id/forks', async () => {
    const fork = await t.request('POST', `/api/v4/projects/${open.id}/fork`, {
      token: outsider.token,
      body: { name: 'My Open', path: 'my-open' },
    });
    assert.equal(fork.status, 201, fork.text);
    assert.equal(fork.body.path_with_namespace, 'outsider/my-open');
    assert.equal(fork.body.name, 'My Open');
    assert.equal(fork.body.forked_from_project.id, open.id);
    assert.equal(fork.body.forked_from_project.forks_count, 1);
    assert.equal(fork.body.forked_from_project.path_with_namespace, 'owner/open');
    const intoGroup = await t.request('POST', `/api/v4/projects/${open.id}/fork?namespace_path=crew`, {
      token: owner.token,
    });
    assert.equal(intoGroup.status, 201, intoGroup.text);
    assert.equal(intoGroup.body.path_with_namespace, 'crew/open');
    const refused = await t.request('POST', `/api/v4/projects/${open.id}/fork`, {
      token: outsider.token,
      body: { namespace_id: groupId },
    });
    assert.equal(refused.status, 404);
    assert.deepEqual(refused.body, { message: '404 Target Namespace Not Found' });
    const forks = await get(`/projects/${open.id}/forks`);
    assert.equal(forks.status, 200);
    assert.deepEqual(
      ids(forks.body),
      [fork.body.id, intoGroup.body.id].sort((a, b) => a - b),
    );
    assert.equal(forks.headers['x-total'], '2');
    assert.equal((await get(`/projects/${hidden.id}/forks`, outsider)).status, 404);
  });

  it('archive and unarchive: owners, 201; star: 201 then 304', async () => {
    const archived = await t.request('POST', `/api/v4/projects/${inner.id}/archive`, { token: owner.token });
    assert.equal(archived.status, 201);
    assert.equal(archived.body.archived, true);
    assert.deepEqual(ids((await get('/projects?archived=true', dev)).body), [inner.id]);
    const back = await t.request('POST', `/api/v4/projects/${inner.id}/unarchive`, { token: owner.token });
    assert.equal(back.status, 201);
    assert.equal(back.body.archived, false);
    assert.equal(
      (await t.request('POST', `/api/v4/projects/${hidden.id}/archive`, { token: dev.token })).status,
      403,
    );
    assert.equal(
      (await t.request('POST', `/api/v4/projects/${hidden.id}/archive`, { token: outsider.token })).status,
      404,
    );
    const star = await t.request('POST', `/api/v4/projects/${open.id}/star`, { token: guest.token });
    assert.equal(star.status, 201);
    assert.equal(star.body.star_count, 1);
    const again = await t.request('POST', `/api/v4/projects/${open.id}/star`, { token: guest.token });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal((await t.request('POST', `/api/v4/projects/${open.id}/star`)).status, 401);
  });

  it('share (201) and unshare (204, then 404); shared_with_groups in v4’s shape', async () => {
    const project = await createProject(t, { owner, path: 'shareable', visibility: 0 });
    const shared = await t.request('POST', `/api/v4/projects/${project.id}/share`, {
      token: owner.token,
      body: { group_id: groupId, group_access: 30, expires_at: '2999-01-01' },
    });
    assert.equal(shared.status, 201, shared.text);
    assert.deepEqual(shared.body, {
      id: shared.body.id,
      project_id: project.id,
      group_id: groupId,
      group_access: 30,
      expires_at: '2999-01-01',
    });
    const read = await get(`/projects/${project.id}`, owner);
    assert.deepEqual(read.body.shared_with_groups, [
      {
        group_id: groupId,
        group_name: 'Group crew',
        group_full_path: 'crew',
        group_access_level: 30,
        expires_at: '2999-01-01',
      },
    ]);
    const missing = await t.request('POST', `/api/v4/projects/${project.id}/share`, {
      token: owner.token,
      body: { group_id: groupId },
    });
    assert.deepEqual(missing.body, { error: 'group_access is missing' });
    const unshared = await t.request('DELETE', `/api/v4/projects/${project.id}/share/${groupId}`, {
      token: owner.token,
      body: {},
    });
    assert.equal(unshared.status, 204);
    assert.equal(unshared.text, '');
    const again = await t.request('DELETE', `/api/v4/projects/${project.id}/share/${groupId}`, {
      token: owner.token,
    });
    assert.equal(again.status, 404);
    assert.equal(
      (await t.request('DELETE', `/api/v4/projects/${project.id}/share/${groupId}`, { token: dev.token }))
        .status,
      404,
    );
  });

  it('PUT /projects/:id/transfer: owners move a project into a namespace by id or path', async () => {
    const project = await createProject(t, { owner, path: 'movable', visibility: 20 });
    const moved = await t.request('PUT', `/api/v4/projects/${project.id}/transfer`, {
      token: owner.token,
      body: { namespace: 'crew' },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.path_with_namespace, 'crew/movable');
    assert.equal(moved.body.namespace.kind, 'group');
    const movedBack = await t.request(
      'PUT',
      `/api/v4/projects/${project.id}/transfer?namespace=${moved.body.namespace.id}`,
      {
        token: owner.token,
      },
    );
    assert.equal(movedBack.status, 400);
    const missing = await t.request('PUT', `/api/v4/projects/${project.id}/transfer`, {
      token: owner.token,
      body: {},
    });
    assert.deepEqual(missing.body, { error: 'namespace is missing' });
    const elsewhere = await t.request('PUT', `/api/v4/projects/${open.id}/transfer`, {
      token: owner.token,
      body: { namespace: 'outsider' },
    });
    assert.equal(elsewhere.status, 404);
    assert.equal((await get(`/projects/${encodeURIComponent('crew/movable')}`, owner)).status, 200);
  });

  it('reads as v3 does: no more statements than the v3 twins, the same for any page size', async () => {
    const statementsOf = async (url: string) => {
      const statements: string[] = [];
      t.server.deps.db.onQuery = (sql) => statements.push(sql);
      try {
        assert.equal((await t.request('GET', url, { token: dev.token })).status, 200, url);
      } finally {
        t.server.deps.db.onQuery = undefined;
      }
      return statements.length;
    };
    const single = await statementsOf(`/api/v4/projects/${hidden.id}`);
    assert.equal(single, await statementsOf(`/api/v3/projects/${hidden.id}`));
    // The page holds the forks made above: v4 reads their sources, owners and fork counts in one statement.
    const page = await statementsOf('/api/v4/projects?per_page=50');
    assert.ok(page <= (await statementsOf('/api/v3/projects/visible?per_page=50')));
    assert.equal(await statementsOf('/api/v4/projects?per_page=100'), page);
    assert.ok((await statementsOf('/api/v4/projects?per_page=100&simple=true')) < page);
  });
});
