import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createUser,
  shareWithGroup,
  type TestUser,
} from '../../helpers/factory.ts';

const PROJECT_KEYS = [
  'id',
  'description',
  'default_branch',
  'tag_list',
  'public',
  'archived',
  'visibility_level',
  'ssh_url_to_repo',
  'http_url_to_repo',
  'web_url',
  'owner',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'container_registry_enabled',
  'issues_enabled',
  'merge_requests_enabled',
  'wiki_enabled',
  'builds_enabled',
  'snippets_enabled',
  'created_at',
  'last_activity_at',
  'shared_runners_enabled',
  'lfs_enabled',
  'creator_id',
  'namespace',
  'avatar_url',
  'star_count',
  'forks_count',
  'open_issues_count',
  'runners_token',
  'public_builds',
  'shared_with_groups',
  'only_allow_merge_if_build_succeeds',
  'request_access_enabled',
];

function repoDir(t: TestApp, ns: string, project: string): string {
  return path.join(t.config.dataDir, 'repositories', ns.toLowerCase(), `${project.toLowerCase()}.git`);
}

describe('projects: create, read, edit, delete', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    t = await startTestApp();
    alice = await createUser(t, 'alice', { name: 'Alice Liddell' });
    bob = await createUser(t, 'bob');
  });
  after(() => t.close());

  it('creates a project with the path from its name, a repository on disk and a created event', async () => {
    const response = await t.request('POST', '/api/v3/projects', {
      token: alice.token,
      body: { name: 'Hello World', description: 'first', issues_enabled: false, public: true },
    });
    assert.equal(response.status, 201);
    const project = response.body;
    assert.deepEqual(Object.keys(project), PROJECT_KEYS);
    assert.equal(project.path, 'hello-world');
    assert.equal(project.path_with_namespace, 'alice/hello-world');
    assert.equal(project.name_with_namespace, 'Alice Liddell / Hello World');
    assert.equal(project.visibility_level, 20);
    assert.equal(project.public, true);
    assert.equal(project.issues_enabled, false);
    assert.equal(project.default_branch, 'master');
    assert.equal(project.http_url_to_repo, 'http://labrador.test/alice/hello-world.git');
    assert.equal(project.ssh_url_to_repo, 'git@labrador.test:alice/hello-world.git');
    assert.equal(project.creator_id, alice.id);
    assert.deepEqual(Object.keys(project.owner), [
      'name',
      'username',
      'id',
      'state',
      'avatar_url',
      'web_url',
      'created_at',
    ]);
    assert.deepEqual(Object.keys(project.namespace), [
      'id',
      'name',
      'path',
      'owner_id',
      'created_at',
      'updated_at',
      'type',
      'description',
    ]);
    assert.match(project.runners_token, /^[\w-]{20}$/);
    assert.equal(project.permissions, undefined);
    const dir = repoDir(t, 'alice', 'hello-world');
    assert.ok(fs.existsSync(path.join(dir, 'HEAD')));
    assert.equal(fs.readFileSync(path.join(dir, 'HEAD'), 'utf8').trim(), 'ref: refs/heads/master');

    const events = await t.request('GET', `/api/v3/projects/${project.id}/events`, { token: alice.token });
    assert.equal(events.status, 200);
    assert.equal(events.body.length, 1);
    assert.equal(events.body[0].action_name, 'created');
    assert.equal(events.body[0].author_username, 'alice');
    assert.equal(events.body[0].project_id, project.id);

    const single = await t.request('GET', '/api/v3/projects/alice%2Fhello-world', { token: alice.token });
    assert.equal(single.status, 200);
    assert.deepEqual(single.body.permissions, {
      project_access: { access_level: 40, notification_level: 3 },
      group_access: null,
    });
    const upper = await t.request('GET', '/api/v3/projects/ALICE%2FHello-World', { token: bob.token });
    assert.equal(upper.status, 200);
    assert.equal(upper.body.id, project.id);
    assert.equal(upper.body.runners_token, undefined, 'never shown below master');
  });

  it('finds projects by namespace%2Fpath with dots, and 404s what does not exist', async () => {
    const r = await t.request('POST', '/api/v3/projects', {
      token: alice.token,
      body: { name: 'Dotted', path: 'my.dotted' },
    });
    assert.equal(r.status, 201);
    for (const url of ['/api/v3/projects/alice%2Fmy.dotted', '/api/v3/projects/alice%2Fmy.dotted/events']) {
      const found = await t.request('GET', url, { token: alice.token });
      assert.equal(found.status, 200, url);
    }
    for (const id of ['abc', '99999', 'alice%2Fnope', 'nobody%2Fmy.dotted', '%2Fmy.dotted']) {
      const missing = await t.request('GET', `/api/v3/projects/${id}`, { token: alice.token });
      assert.equal(missing.status, 404, id);
      assert.deepEqual(missing.body, { message: '404 Project Not Found' });
    }
  });

  it('answers GitLab validation bodies', async () => {
    let r = await t.request('POST', '/api/v3/projects', { token: alice.token, body: {} });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: '400 (Bad request) "name" not given' });

    r = await t.request('POST', '/api/v3/projects', { token: alice.token, body: { name: '-bad' } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.message.name, [
      "can contain only letters, digits, '_', '.', dash and space. It must start with letter, digit or '_'.",
    ]);

    r = await t.request('POST', '/api/v3/projects', {
      token: alice.token,
      body: { name: 'ok', path: 'bad.git' },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, {
      message: {
        path: [
          "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
        ],
      },
    });

    r = await t.request('POST', '/api/v3/projects', { token: alice.token, body: { name: 'hello world' } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, {
      message: { name: ['has already been taken'], path: ['has already been taken'] },
    });

    r = await t.request('POST', '/api/v3/projects', {
      token: alice.token,
      body: { name: 'Other', namespace_id: 999999 },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: { namespace: ['is not valid'] } });

    // Another user's namespace is not one alice may create in.
    r = await t.request('POST', '/api/v3/projects', {
      token: alice.token,
      body: { name: 'Other', namespace_id: bob.id },
    });
    assert.equal(r.status, 400);

    r = await t.request('POST', '/api/v3/projects', {
      token: alice.token,
      body: { name: 'vis', visibility_level: 'high' },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { error: 'visibility_level is invalid' });

    r = await t.request('POST', '/api/v3/projects', {
      token: alice.token,
      body: { name: 'vis', visibility_level: 5 },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: { visibility_level: ['is not included in the list'] } });
  });

  it('enforces projects_limit with the body each route used', async () => {
    const carol = await createUser(t, 'carol', { projectsLimit: 1 });
    let r = await t.request('GET', '/api/v3/user', { token: carol.token });
    assert.equal(r.body.can_create_project, true);
    r = await t.request('POST', '/api/v3/projects', { token: carol.token, body: { name: 'one' } });
    assert.equal(r.status, 201);
    r = await t.request('GET', '/api/v3/user', { token: carol.token });
    assert.equal(r.body.can_create_project, false);
    r = await t.request('POST', '/api/v3/projects', { token: carol.token, body: { name: 'two' } });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, {
      error: ['Your project limit is 1 projects! Please contact your administrator to increase it'],
    });
    r = await t.request('POST', `/api/v3/projects/user/${carol.id}`, {
      token: t.rootToken,
      body: { name: 'two' },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, {
      message: {
        limit_reached: ['Your project limit is 1 projects! Please contact your administrator to increase it'],
      },
    });
    const dave = await createUser(t, 'dave', { projectsLimit: 0 });
    r = await t.request('POST', '/api/v3/projects', { token: dave.token, body: { name: 'x' } });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, {
      error: ['Personal project creation is not allowed. Please contact your administrator with questions'],
    });
  });

  it('creates for a user (administrators only)', async () => {
    let r = await t.request('POST', `/api/v3/projects/user/${bob.id}`, {
      token: alice.token,
      body: { name: 'nope' },
    });
    assert.equal(r.status, 403);
    r = await t.request('POST', '/api/v3/projects/user/999999', { token: t.rootToken, body: { name: 'x' } });
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { message: '404 Not found' });
    r = await t.request('POST', `/api/v3/projects/user/${bob.id}`, { token: t.rootToken, body: {} });
    assert.equal(r.status, 400);
    assert.deepEqual(Object.keys(r.body.message), ['name', 'path']);
    assert.deepEqual(r.body.message.name.slice(0, 2), [
      "can't be blank",
      'is too short (minimum is 0 characters)',
    ]);
    r = await t.request('POST', `/api/v3/projects/user/${bob.id}`, {
      token: t.rootToken,
      body: {
        name: 'Bobs Tool',
        path: 'bobs-tool',
        default_branch: 'main',
        container_registry_enabled: true,
      },
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.path_with_namespace, 'bob/bobs-tool');
    assert.equal(r.body.creator_id, bob.id);
    assert.equal(r.body.owner.username, 'bob');
    assert.equal(r.body.container_registry_enabled, true);
    assert.equal(r.body.default_branch, 'main');
    const mine = await t.request('GET', '/api/v3/projects/owned', { token: bob.token });
    assert.ok(mine.body.some((p: { id: number }) => p.id === r.body.id));
  });

  it('edits: masters may, renames and visibility changes need the owner, the path moves the repository', async () => {
    const created = await t.request('POST', '/api/v3/projects', {
      token: alice.token,
      body: { name: 'editable' },
    });
    const id = created.body.id;
    const master = await createUser(t, 'edit-master');
    const dev = await createUser(t, 'edit-dev');
    await addProjectMember(t, id, master.id, 40);
    await addProjectMember(t, id, dev.id, 30);

    let r = await t.request('PUT', `/api/v3/projects/${id}`, {
      token: dev.token,
      body: { name: 'editable' },
    });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { message: '403 Forbidden' });
    r = await t.request('PUT', `/api/v3/projects/${id}`, { token: master.token, body: { description: 'x' } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: '400 (Bad request) "name" not given' });
    r = await t.request('PUT', `/api/v3/projects/${id}`, {
      token: master.token,
      body: { name: 'editable', description: 'by master', wiki_enabled: false },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.description, 'by master');
    assert.equal(r.body.wiki_enabled, false);
    assert.ok(r.body.runners_token);
    r = await t.request('PUT', `/api/v3/projects/${id}`, { token: master.token, body: { name: 'renamed' } });
    assert.equal(r.status, 403);
    r = await t.request('PUT', `/api/v3/projects/${id}`, {
      token: master.token,
      body: { name: 'editable', visibility_level: 20 },
    });
    assert.equal(r.status, 403);

    r = await t.request('PUT', `/api/v3/projects/${id}`, {
      token: alice.token,
      body: { name: 'Hello World' },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: { name: ['has already been taken'] } });

    assert.ok(fs.existsSync(repoDir(t, 'alice', 'editable')));
    r = await t.request('PUT', `/api/v3/projects/${id}`, {
      token: alice.token,
      body: { name: 'Moved', path: 'moved', visibility_level: 10, default_branch: 'develop' },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.path_with_namespace, 'alice/moved');
    assert.equal(r.body.visibility_level, 10);
    assert.equal(r.body.default_branch, 'develop');
    assert.ok(!fs.existsSync(repoDir(t, 'alice', 'editable')));
    assert.equal(
      fs.readFileSync(path.join(repoDir(t, 'alice', 'moved'), 'HEAD'), 'utf8').trim(),
      'ref: refs/heads/develop',
    );
    r = await t.request('GET', '/api/v3/projects/alice%2Fmoved', { token: alice.token });
    assert.equal(r.body.id, id);
  });

  it('deletes a project with its repository and rows; owners only', async () => {
    const created = await t.request('POST', '/api/v3/projects', {
      token: alice.token,
      body: { name: 'doomed' },
    });
    const id = created.body.id;
    const master = await createUser(t, 'del-master');
    await addProjectMember(t, id, master.id, 40);
    let r = await t.request('DELETE', `/api/v3/projects/${id}`, { token: master.token });
    assert.equal(r.status, 403);
    r = await t.request('DELETE', `/api/v3/projects/${id}`, { token: bob.token });
    assert.equal(r.status, 404);
    const db = t.server.deps.db.kysely;
    await db
      .insertInto('users_star_projects')
      .values({ project_id: id, user_id: bob.id, created_at: 'x', updated_at: 'x' })
      .execute();
    r = await t.request('DELETE', `/api/v3/projects/${id}`, { token: alice.token });
    assert.equal(r.status, 200);
    assert.equal(r.text, 'true');
    assert.ok(!fs.existsSync(repoDir(t, 'alice', 'doomed')));
    r = await t.request('GET', `/api/v3/projects/${id}`, { token: alice.token });
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { message: '404 Project Not Found' });
    for (const [table, column] of [
      ['events', 'project_id'],
      ['users_star_projects', 'project_id'],
    ] as const) {
      const rows = await db.selectFrom(table).select('id').where(column, '=', id).execute();
      assert.equal(rows.length, 0, table);
    }
    const members = await db
      .selectFrom('members')
      .select('id')
      .where('source_type', '=', 'Project')
      .where('source_id', '=', id)
      .execute();
    assert.equal(members.length, 0);
    // The name is free again at once.
    r = await t.request('POST', '/api/v3/projects', { token: alice.token, body: { name: 'doomed' } });
    assert.equal(r.status, 201);
  });

  it('gives exactly one project and one repository to 20 concurrent creates of one path', async () => {
    const racer = await createUser(t, 'racer', { projectsLimit: 100 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.request('POST', '/api/v3/projects', { token: racer.token, body: { name: 'contested' } }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses));
    for (const r of responses.filter((r) => r.status !== 201)) {
      assert.equal(r.status, 400);
      assert.deepEqual(r.body.message.path, ['has already been taken']);
    }
    const rows = await t.server.deps.db.kysely
      .selectFrom('projects')
      .select('id')
      .where('path', '=', 'contested')
      .execute();
    assert.equal(rows.length, 1);
    const entries = fs.readdirSync(path.join(t.config.dataDir, 'repositories', 'racer'));
    assert.deepEqual(entries, ['contested.git']);
  });
});

describe('projects: the access matrix', () => {
  let t: TestApp;
  const users: Record<string, TestUser> = {};
  const ids: Record<string, number> = {};
  before(async () => {
    t = await startTestApp();
    for (const name of ['owner', 'master', 'developer', 'reporter', 'guest', 'stranger']) {
      users[name] = await createUser(t, name);
    }
    users.external = await createUser(t, 'outsider', { external: true });
    for (const [visibility, level] of [
      ['private', 0],
      ['internal', 10],
      ['public', 20],
    ] as const) {
      const r = await t.request('POST', '/api/v3/projects', {
        token: users.owner.token,
        body: { name: visibility, visibility_level: level },
      });
      assert.equal(r.status, 201);
      ids[visibility] = r.body.id;
      for (const [role, access] of [
        ['master', 40],
        ['developer', 30],
        ['reporter', 20],
        ['guest', 10],
      ] as const) {
        await addProjectMember(t, r.body.id, users[role].id, access);
      }
    }
  });
  after(() => t.close());

  const roles = [
    'admin',
    'owner',
    'master',
    'developer',
    'reporter',
    'guest',
    'stranger',
    'external',
    'none',
  ];
  const token = (role: string) =>
    role === 'admin' ? t.rootToken : role === 'none' ? undefined : users[role].token;

  it('GET /projects/:id: 404 for whoever may not read, runners_token for master and up', async () => {
    const canRead: Record<string, string[]> = {
      private: ['admin', 'owner', 'master', 'developer', 'reporter', 'guest'],
      internal: ['admin', 'owner', 'master', 'developer', 'reporter', 'guest', 'stranger'],
      public: ['admin', 'owner', 'master', 'developer', 'reporter', 'guest', 'stranger', 'external'],
    };
    for (const visibility of ['private', 'internal', 'public']) {
      for (const role of roles) {
        const r = await t.request('GET', `/api/v3/projects/${ids[visibility]}`, { token: token(role) });
        const label = `${role} on ${visibility}`;
        if (role === 'none') {
          assert.equal(r.status, 401, label);
          continue;
        }
        if (!canRead[visibility].includes(role)) {
          assert.equal(r.status, 404, label);
          assert.deepEqual(r.body, { message: '404 Project Not Found' }, label);
          continue;
        }
        assert.equal(r.status, 200, label);
        const tokenShown = ['admin', 'owner', 'master'].includes(role);
        assert.equal('runners_token' in r.body, tokenShown, label);
        const expected: Record<string, number | null> = {
          admin: null,
          owner: 40,
          master: 40,
          developer: 30,
          reporter: 20,
          guest: 10,
          stranger: null,
          external: null,
        };
        assert.deepEqual(
          r.body.permissions.project_access?.access_level ?? null,
          expected[role],
          `${label} permissions`,
        );
      }
    }
  });

  it('PUT and DELETE: 404 when hidden, 403 below the required level', async () => {
    for (const visibility of ['private', 'internal', 'public']) {
      for (const role of roles) {
        if (role === 'none') continue;
        const label = `${role} on ${visibility}`;
        const put = await t.request('PUT', `/api/v3/projects/${ids[visibility]}`, {
          token: token(role),
          body: { name: visibility, description: `by ${role}` },
        });
        const hidden =
          (visibility === 'private' && ['stranger', 'external'].includes(role)) ||
          (visibility === 'internal' && role === 'external');
        if (hidden) assert.equal(put.status, 404, label);
        else if (['admin', 'owner', 'master'].includes(role)) assert.equal(put.status, 200, label);
        else assert.equal(put.status, 403, label);
        if (['admin', 'owner'].includes(role)) continue;
        const del = await t.request('DELETE', `/api/v3/projects/${ids[visibility]}`, { token: token(role) });
        assert.equal(del.status, hidden ? 404 : 403, `delete ${label}`);
      }
    }
    const r = await t.request('DELETE', `/api/v3/projects/${ids.public}`, { token: t.rootToken });
    assert.equal(r.status, 200);
  });

  it('group membership and shares: group level counts, shares are capped and expire', async () => {
    const group = await createGroup(t, 'team', 10);
    const sharedGroup = await createGroup(t, 'partners', 0);
    const groupOwner = await createUser(t, 'group-owner');
    const groupDev = await createUser(t, 'group-dev');
    const partner = await createUser(t, 'partner');
    const lapsed = await createUser(t, 'lapsed');
    await addGroupMember(t, group, groupOwner.id, 50);
    await addGroupMember(t, group, groupDev.id, 30);
    await addGroupMember(t, sharedGroup, partner.id, 50);
    await addGroupMember(t, sharedGroup, lapsed.id, 40, '2000-01-01');

    // A group developer may not create in the group; the owner may.
    let r = await t.request('POST', '/api/v3/projects', {
      token: groupDev.token,
      body: { name: 'g1', namespace_id: group },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: { namespace: ['is not valid'] } });
    r = await t.request('POST', '/api/v3/projects', {
      token: groupOwner.token,
      body: { name: 'g1', namespace_id: group, visibility_level: 20 },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, {
      message: { visibility_level: ['public is not allowed in a internal group.'] },
    });
    r = await t.request('POST', '/api/v3/projects', {
      token: groupOwner.token,
      body: { name: 'g1', namespace_id: group, visibility_level: 10 },
    });
    assert.equal(r.status, 201);
    assert.equal('owner' in r.body, false, 'group projects have no owner key');
    assert.equal(r.body.name_with_namespace, 'Group team / g1');
    const projectId = r.body.id;

    r = await t.request('GET', `/api/v3/projects/${projectId}`, { token: groupDev.token });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.permissions, {
      project_access: null,
      group_access: { access_level: 30, notification_level: 3 },
    });
    assert.equal(r.body.runners_token, undefined);
    r = await t.request('PUT', `/api/v3/projects/${projectId}`, {
      token: groupDev.token,
      body: { name: 'g1' },
    });
    assert.equal(r.status, 403);

    r = await t.request('GET', `/api/v3/projects/${projectId}`, { token: partner.token });
    assert.equal(r.body.permissions.group_access, null);
    r = await t.request('GET', '/api/v3/projects', { token: partner.token });
    assert.deepEqual(r.body, []);
    await shareWithGroup(t, projectId, sharedGroup, 30);
    r = await t.request('GET', `/api/v3/projects/${projectId}`, { token: partner.token });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.shared_with_groups, [
      { group_id: sharedGroup, group_name: 'Group partners', group_access_level: 30 },
    ]);
    // Capped at developer: the group owner of the shared group cannot administer the project.
    r = await t.request('PUT', `/api/v3/projects/${projectId}`, {
      token: partner.token,
      body: { name: 'g1' },
    });
    assert.equal(r.status, 403);
    r = await t.request('GET', '/api/v3/projects', { token: partner.token });
    assert.deepEqual(
      r.body.map((p: { id: number }) => p.id),
      [projectId],
    );
    // An expired membership of the shared group counts for nothing.
    r = await t.request('GET', `/api/v3/projects/${projectId}`, { token: lapsed.token });
    assert.equal(r.status, 200, 'internal project: readable as any signed-in user');
    assert.equal(r.body.permissions.group_access, null);
    r = await t.request('GET', '/api/v3/projects', { token: lapsed.token });
    assert.deepEqual(r.body, []);

    // An expired share counts for nothing either.
    const privateProject = await t.request('POST', '/api/v3/projects', {
      token: groupOwner.token,
      body: { name: 'g2', namespace_id: group },
    });
    await shareWithGroup(t, privateProject.body.id, sharedGroup, 40, '2001-01-01');
    r = await t.request('GET', `/api/v3/projects/${privateProject.body.id}`, { token: partner.token });
    assert.equal(r.status, 404);
  });
});

describe('projects: user deletion takes personal projects along', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('removes the personal projects, their rows and repositories, and keeps others', async () => {
    const leaver = await createUser(t, 'leaver');
    const stayer = await createUser(t, 'stayer');
    const own = await t.request('POST', '/api/v3/projects', { token: leaver.token, body: { name: 'mine' } });
    assert.equal(own.status, 201);
    const other = await t.request('POST', '/api/v3/projects', {
      token: stayer.token,
      body: { name: 'theirs' },
    });
    await addProjectMember(t, other.body.id, leaver.id, 30);
    assert.ok(fs.existsSync(repoDir(t, 'leaver', 'mine')));
    const r = await t.request('DELETE', `/api/v3/users/${leaver.id}`, { token: t.rootToken });
    assert.equal(r.status, 200);
    assert.ok(!fs.existsSync(repoDir(t, 'leaver', 'mine')));
    const db = t.server.deps.db.kysely;
    assert.equal(
      (await db.selectFrom('projects').select('id').where('id', '=', own.body.id).execute()).length,
      0,
    );
    assert.equal(
      (await db.selectFrom('events').select('id').where('project_id', '=', own.body.id).execute()).length,
      0,
    );
    const kept = await t.request('GET', `/api/v3/projects/${other.body.id}`, { token: stayer.token });
    assert.equal(kept.status, 200);
    assert.ok(fs.existsSync(repoDir(t, 'stayer', 'theirs')));
  });
});
