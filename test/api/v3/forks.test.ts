import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';
import { repositoryPath } from '../../../src/git/repository.ts';
import { git } from '../../../src/git/exec.ts';

describe('forks', () => {
  let t: TestApp;
  let owner: TestUser;
  let forker: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let source: TestProject;
  let secret: TestProject;
  let sourceHead: string;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'owner');
    forker = await createUser(t, 'forker');
    guest = await createUser(t, 'guest');
    outsider = await createUser(t, 'outsider');
    source = await createProject(t, { owner, path: 'upstream', visibility: 20, commit: true });
    secret = await createProject(t, { owner, path: 'secret', visibility: 0, commit: true });
    await t.request('POST', `/api/v3/projects/${secret.id}/members`, {
      token: owner.token,
      body: { user_id: guest.id, access_level: 10 },
    });
    sourceHead = (
      await git(['rev-parse', 'master'], { cwd: repositoryPath(t.config.dataDir, 'owner', 'upstream') })
    ).trim();
  });
  after(() => t.close());

  it('forks into the caller namespace: 201 Project with forked_from_project, a copied repository', async () => {
    const response = await t.request('POST', `/api/v3/projects/fork/${source.id}`, { token: forker.token });
    assert.equal(response.status, 201);
    const fork = response.body;
    assert.equal(fork.path_with_namespace, 'forker/upstream');
    assert.equal(fork.name, 'upstream');
    assert.equal(fork.description, 'About upstream');
    assert.equal(fork.visibility_level, 20);
    assert.equal(fork.owner.username, 'forker');
    assert.equal(typeof fork.runners_token, 'string');
    // The source's owner is not the fork's: read for the source alone, and named as GET shows it.
    const shownSource = await t.request('GET', `/api/v3/projects/${source.id}`, { token: owner.token });
    assert.equal(fork.forked_from_project.name_with_namespace, shownSource.body.name_with_namespace);
    assert.match(fork.forked_from_project.name_with_namespace, /^\S.* \/ upstream$/);
    assert.deepEqual(
      { ...fork.forked_from_project, name_with_namespace: undefined },
      {
        id: source.id,
        http_url_to_repo: 'http://labrador.test/owner/upstream.git',
        web_url: 'http://labrador.test/owner/upstream',
        name: 'upstream',
        name_with_namespace: undefined,
        path: 'upstream',
        path_with_namespace: 'owner/upstream',
      },
    );
    const forkRepo = repositoryPath(t.config.dataDir, 'forker', 'upstream');
    assert.equal((await git(['rev-parse', 'master'], { cwd: forkRepo })).trim(), sourceHead);
    assert.equal((await git(['rev-parse', '--is-bare-repository'], { cwd: forkRepo })).trim(), 'true');
    assert.ok(!fs.readdirSync(`${t.config.dataDir}/repositories/.tmp`).length);

    const again = await t.request('POST', `/api/v3/projects/fork/${source.id}`, { token: forker.token });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, {
      message: { name: ['has already been taken'], path: ['has already been taken'] },
    });
    const members = await t.request('GET', `/api/v3/projects/${fork.id}/members`, { token: forker.token });
    assert.deepEqual(
      members.body.map((m: any) => [m.username, m.access_level]),
      [['forker', 40]],
    );
  });

  it('counts forks exactly and forks into a namespace given by id or path', async () => {
    const created = await t.request('POST', '/api/v3/groups', {
      token: forker.token,
      body: { name: 'Forkers', path: 'forkers', visibility_level: 10 },
    });
    const byPath = await t.request('POST', `/api/v3/projects/fork/${source.id}`, {
      token: forker.token,
      body: { namespace: 'FORKERS' },
    });
    assert.equal(byPath.status, 201);
    assert.equal(byPath.body.path_with_namespace, 'forkers/upstream');
    // A fork cannot be more visible than the group it lands in.
    assert.equal(byPath.body.visibility_level, 10);
    assert.equal(byPath.body.owner, undefined);

    const other = await createUser(t, 'other');
    const byId = await t.request('POST', `/api/v3/projects/fork/${encodeURIComponent('owner/upstream')}`, {
      token: other.token,
      form: {
        namespace: String((await t.request('GET', '/api/v3/namespaces', { token: other.token })).body[0].id),
      },
    });
    assert.equal(byId.status, 201);
    const project = await t.request('POST', `/api/v3/projects/fork/${source.id}`, {
      token: owner.token,
      body: { namespace: created.body.id },
    });
    assert.deepEqual(project.body, { message: '404 Target Namespace Not Found' });
    const fresh = await t.request('POST', `/api/v3/projects/${source.id}/star`, { token: owner.token });
    assert.equal(fresh.body.forks_count, 3);
  });

  it('refuses hidden sources (404), unknown namespaces (404) and guests of private projects (409)', async () => {
    assert.deepEqual(
      (await t.request('POST', `/api/v3/projects/fork/${secret.id}`, { token: outsider.token })).body,
      {
        message: '404 Project Not Found',
      },
    );
    assert.deepEqual(
      (
        await t.request('POST', `/api/v3/projects/fork/${source.id}`, {
          token: outsider.token,
          body: { namespace: 'nowhere' },
        })
      ).body,
      { message: '404 Target Namespace Not Found' },
    );
    // Someone else's personal namespace is not a place to create projects.
    assert.equal(
      (
        await t.request('POST', `/api/v3/projects/fork/${source.id}`, {
          token: outsider.token,
          body: { namespace: 'owner' },
        })
      ).status,
      404,
    );
    const guestFork = await t.request('POST', `/api/v3/projects/fork/${secret.id}`, { token: guest.token });
    assert.equal(guestFork.status, 409);
    assert.deepEqual(guestFork.body, { message: { forked_from_project_id: ['is forbidden'] } });
    assert.equal((await t.request('POST', `/api/v3/projects/fork/${source.id}`)).status, 401);
  });

  it('honours the projects limit of the personal namespace', async () => {
    const limited = await createUser(t, 'limited');
    await t.server.deps.db.kysely
      .updateTable('users')
      .set({ projects_limit: 0 })
      .where('id', '=', limited.id)
      .execute();
    const response = await t.request('POST', `/api/v3/projects/fork/${source.id}`, { token: limited.token });
    assert.equal(response.status, 409);
    assert.deepEqual(response.body, {
      message: {
        limit_reached: [
          'Personal project creation is not allowed. Please contact your administrator with questions',
        ],
      },
    });
  });

  it('links and unlinks fork relations for administrators only', async () => {
    const a = await createProject(t, { owner, path: 'a', visibility: 0 });
    const b = await createProject(t, { owner, path: 'b', visibility: 0 });
    assert.deepEqual(
      (await t.request('POST', `/api/v3/projects/${b.id}/fork/${a.id}`, { token: owner.token })).body,
      {
        message: '403 Forbidden',
      },
    );
    const linked = await t.request('POST', `/api/v3/projects/${b.id}/fork/${a.id}`, { token: t.rootToken });
    assert.equal(linked.status, 201);
    assert.deepEqual(Object.keys(linked.body), [
      'id',
      'forked_to_project_id',
      'forked_from_project_id',
      'created_at',
      'updated_at',
    ]);
    assert.equal(linked.body.forked_to_project_id, b.id);
    assert.equal(linked.body.forked_from_project_id, a.id);
    const twice = await t.request('POST', `/api/v3/projects/${b.id}/fork/${a.id}`, { token: t.rootToken });
    assert.equal(twice.status, 409);
    assert.deepEqual(twice.body, { message: 'Project already forked' });
    assert.deepEqual(
      (await t.request('POST', `/api/v3/projects/${b.id}/fork/99999`, { token: t.rootToken })).body,
      {
        message: '404 Project Not Found',
      },
    );
    const shown = await t.request('POST', `/api/v3/projects/${b.id}/star`, { token: owner.token });
    assert.equal(shown.body.forked_from_project.id, a.id);

    assert.deepEqual(
      (await t.request('DELETE', `/api/v3/projects/${b.id}/fork`, { token: owner.token })).body,
      {
        message: '403 Forbidden',
      },
    );
    assert.equal(
      (await t.request('DELETE', `/api/v3/projects/${b.id}/fork`, { token: outsider.token })).status,
      404,
    );
    const unlinked = await t.request('DELETE', `/api/v3/projects/${b.id}/fork`, { token: t.rootToken });
    assert.equal(unlinked.status, 200);
    assert.equal(unlinked.body.id, linked.body.id);
    const none = await t.request('DELETE', `/api/v3/projects/${b.id}/fork`, { token: t.rootToken });
    assert.equal(none.status, 200);
    assert.equal(none.text, 'null');
    const after = await t.request('DELETE', `/api/v3/projects/${b.id}/star`, { token: owner.token });
    assert.equal(after.body.forked_from_project, undefined);
  });
});
