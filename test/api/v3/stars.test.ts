import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';

describe('star, unstar, archive, unarchive', () => {
  let t: TestApp;
  let owner: TestUser;
  let dev: TestUser;
  let outsider: TestUser;
  let project: TestProject;
  let hidden: TestProject;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'owner');
    dev = await createUser(t, 'dev');
    outsider = await createUser(t, 'outsider');
    project = await createProject(t, { owner, path: 'shiny', visibility: 10 });
    hidden = await createProject(t, { owner, path: 'hidden', visibility: 0 });
    await t.request('POST', `/api/v3/projects/${project.id}/members`, {
      token: owner.token,
      body: { user_id: dev.id, access_level: 40 },
    });
  });
  after(() => t.close());

  it('stars (201, then 304 with no body) and unstars (200, then 304)', async () => {
    const starred = await t.request('POST', `/api/v3/projects/${project.id}/star`, { token: outsider.token });
    assert.equal(starred.status, 201);
    assert.equal(starred.body.star_count, 1);
    assert.equal(starred.body.owner, undefined);
    assert.equal(starred.body.runners_token, undefined);
    assert.equal(starred.body.path_with_namespace, 'owner/shiny');
    const again = await t.request('POST', `/api/v3/projects/${project.id}/star`, { token: outsider.token });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    const unstarred = await t.request('DELETE', `/api/v3/projects/${project.id}/star`, {
      token: outsider.token,
    });
    assert.equal(unstarred.status, 200);
    assert.equal(unstarred.body.star_count, 0);
    const none = await t.request('DELETE', `/api/v3/projects/${project.id}/star`, { token: outsider.token });
    assert.equal(none.status, 304);
    assert.equal(none.text, '');
    assert.deepEqual(
      (await t.request('POST', `/api/v3/projects/${hidden.id}/star`, { token: outsider.token })).body,
      {
        message: '404 Project Not Found',
      },
    );
    assert.equal((await t.request('POST', `/api/v3/projects/${project.id}/star`)).status, 401);
  });

  it('keeps star_count exact when 50 users star at once, and when they unstar at once', async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < 50; i++) users.push(await createUser(t, `fan${i}`));
    const started = Date.now();
    const results = await Promise.all(
      users.map((user) => t.request('POST', `/api/v3/projects/${project.id}/star`, { token: user.token })),
    );
    const elapsed = Date.now() - started;
    assert.deepEqual(new Set(results.map((r) => r.status)), new Set([201]));
    const counts = await t.server.deps.db.kysely
      .selectFrom('projects')
      .select('star_count')
      .where('id', '=', project.id)
      .executeTakeFirstOrThrow();
    assert.equal(counts.star_count, 50);
    // The same user starring concurrently still counts once.
    const dupes = await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        t.request('POST', `/api/v3/projects/${project.id}/star`, { token: owner.token }),
      ),
    );
    assert.deepEqual(dupes.map((r) => r.status).sort(), [201, 304, 304, 304, 304]);
    const unstar = await Promise.all(
      users.map((user) => t.request('DELETE', `/api/v3/projects/${project.id}/star`, { token: user.token })),
    );
    assert.deepEqual(new Set(unstar.map((r) => r.status)), new Set([200]));
    const final = await t.request('GET', `/api/v3/projects/${project.id}/members`, { token: owner.token });
    assert.equal(final.status, 200);
    const row = await t.server.deps.db.kysely
      .selectFrom('projects')
      .select('star_count')
      .where('id', '=', project.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.star_count, 1);
    console.log(`# 50 concurrent stars: star_count 50, ${elapsed} ms (${t.server.deps.db.dialect})`);
  });

  it('archives and unarchives for owners (201, idempotent); masters get 403, outsiders of hidden 404', async () => {
    const archived = await t.request('POST', `/api/v3/projects/${project.id}/archive`, {
      token: owner.token,
    });
    assert.equal(archived.status, 201);
    assert.equal(archived.body.archived, true);
    assert.equal(typeof archived.body.runners_token, 'string');
    assert.equal(archived.body.owner.username, 'owner');
    const twice = await t.request('POST', `/api/v3/projects/${project.id}/archive`, { token: owner.token });
    assert.equal(twice.status, 201);
    assert.equal(twice.body.archived, true);
    const row = await t.server.deps.db.kysely
      .selectFrom('projects')
      .select('archived')
      .where('id', '=', project.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.archived, 1);

    assert.deepEqual(
      (await t.request('POST', `/api/v3/projects/${project.id}/unarchive`, { token: dev.token })).body,
      {
        message: '403 Forbidden',
      },
    );
    assert.equal(
      (await t.request('POST', `/api/v3/projects/${project.id}/archive`, { token: outsider.token })).status,
      403,
    );
    assert.deepEqual(
      (await t.request('POST', `/api/v3/projects/${hidden.id}/archive`, { token: outsider.token })).body,
      {
        message: '404 Project Not Found',
      },
    );
    const admin = await t.request('POST', `/api/v3/projects/${project.id}/unarchive`, { token: t.rootToken });
    assert.equal(admin.status, 201);
    assert.equal(admin.body.archived, false);
    const again = await t.request('POST', `/api/v3/projects/${project.id}/unarchive`, { token: owner.token });
    assert.equal(again.body.archived, false);
  });
});
