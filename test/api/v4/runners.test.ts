// v4's runners API for people: Ci::Runner in lists (the caller's, every runner for administrators, a
// project's) with `paused`, `runner_type`, `status`, and v4's `type`/`status`/`paused` filters;
// RunnerDetails; settings with `paused`; delete (204); enabling and disabling a runner for a project
// (204); and v3's policies: shared runners for administrators, locked runners stay, outsiders 404/403.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { registerRunner } from '../../../src/services/ci/runners.ts';
import { AccessLevel } from '../../../src/domain/types.ts';
import { seedPipeline } from '../../helpers/ci.ts';
import type { CiRunnerRow } from '../../../src/db/types.ts';

const REGISTRATION = 'runners-v4-registration';
const RUNNER_KEYS = [
  'id',
  'description',
  'ip_address',
  'active',
  'paused',
  'is_shared',
  'runner_type',
  'name',
  'online',
  'status',
];

describe('API v4 runners', () => {
  let t: TestApp;
  let admin: TestUser;
  let master: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let mine: TestProject;
  let other: TestProject;
  let shared: CiRunnerRow;
  let specific: CiRunnerRow;
  let spare: CiRunnerRow;

  const register = (token: string, description: string) =>
    registerRunner(t.server.deps, {
      token,
      description,
      tagList: 'docker, linux',
      info: {
        name: 'gitlab-runner',
        version: '17.0.0',
        revision: 'abc',
        platform: 'linux',
        architecture: 'amd64',
      },
    });
  const ids = (body: Array<{ id: number }>) => body.map((runner) => runner.id);

  before(async () => {
    t = await startTestApp({ LABRADOR_RUNNER_TOKEN: REGISTRATION });
    admin = await createUser(t, 'rv4admin', { admin: true });
    master = await createUser(t, 'rv4master');
    developer = await createUser(t, 'rv4dev');
    stranger = await createUser(t, 'rv4stranger');
    mine = await createProject(t, { owner: master, path: 'rv4mine' });
    other = await createProject(t, { owner: master, path: 'rv4other' });
    await addProjectMember(t, mine.id, developer.id, AccessLevel.Developer);
    shared = await register(REGISTRATION, 'shared one');
    specific = await register(mine.runners_token, 'mine');
    spare = await register(other.runners_token, 'spare');
  });
  after(() => t.close());

  it("lists the caller's runners as Ci::Runner, narrowed by v4's filters", async () => {
    const response = await t.request('GET', '/api/v4/runners', { token: master.token });
    assert.equal(response.status, 200);
    assert.deepEqual(ids(response.body), [specific.id, spare.id]);
    assert.deepEqual(Object.keys(response.body[0]), RUNNER_KEYS);
    assert.deepEqual(response.body[0], {
      id: specific.id,
      description: 'mine',
      ip_address: null,
      active: true,
      paused: false,
      is_shared: false,
      runner_type: 'project_type',
      name: 'gitlab-runner',
      online: false,
      status: 'not_connected',
    });
    const paused = await t.request('GET', '/api/v4/runners?paused=true', { token: master.token });
    assert.deepEqual(ids(paused.body), []);
    assert.equal((await t.request('GET', '/api/v4/runners', { token: developer.token })).body.length, 0);
    const bad = await t.request('GET', '/api/v4/runners?type=group_type', { token: master.token });
    assert.equal(bad.status, 400);
    const both = await t.request('GET', '/api/v4/runners?status=active&paused=true', { token: master.token });
    assert.equal(both.status, 400);
    assert.equal((await t.request('GET', '/api/v4/runners')).status, 401);
  });

  it('lists every runner for administrators only', async () => {
    const all = await t.request('GET', '/api/v4/runners/all', { token: admin.token });
    assert.deepEqual(ids(all.body), [shared.id, specific.id, spare.id]);
    assert.equal(all.headers['x-total'], '3');
    const instance = await t.request('GET', '/api/v4/runners/all?type=instance_type', { token: admin.token });
    assert.deepEqual(ids(instance.body), [shared.id]);
    assert.equal(instance.body[0].runner_type, 'instance_type');
    assert.equal((await t.request('GET', '/api/v4/runners/all', { token: master.token })).status, 403);
  });

  it('shows and changes a runner, paused as the inverse of active', async () => {
    const shown = await t.request('GET', `/api/v4/runners/${specific.id}`, { token: master.token });
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body.tag_list, ['docker', 'linux']);
    assert.equal(shown.body.locked, false);
    assert.equal(shown.body.version, '17.0.0');
    assert.deepEqual(
      shown.body.projects.map((project: any) => project.path_with_namespace),
      [mine.fullPath],
    );
    const changed = await t.request('PUT', `/api/v4/runners/${specific.id}`, {
      token: master.token,
      body: { paused: true, description: 'renamed' },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.paused, true);
    assert.equal(changed.body.active, false);
    assert.equal(changed.body.description, 'renamed');
    const paused = await t.request('GET', '/api/v4/runners?paused=true', { token: master.token });
    assert.deepEqual(ids(paused.body), [specific.id]);
    // Anyone may look at a shared runner; only administrators change it.
    const sharedShown = await t.request('GET', `/api/v4/runners/${shared.id}`, { token: master.token });
    assert.equal(sharedShown.status, 200);
    const sharedChange = await t.request('PUT', `/api/v4/runners/${shared.id}`, {
      token: master.token,
      body: { paused: true },
    });
    assert.equal(sharedChange.status, 403);
    assert.equal(
      (await t.request('GET', `/api/v4/runners/${specific.id}`, { token: stranger.token })).status,
      403,
    );
    assert.equal((await t.request('GET', '/api/v4/runners/999999', { token: admin.token })).status, 404);
  });

  it('enables and disables a runner for a project (204), and deletes one (204)', async () => {
    const url = `/api/v4/projects/${mine.id}/runners`;
    const missing = await t.request('POST', url, { token: master.token, body: {} });
    assert.deepEqual(missing.body, { error: 'runner_id is missing' });
    const enabled = await t.request('POST', url, { token: master.token, body: { runner_id: spare.id } });
    assert.equal(enabled.status, 201);
    assert.equal(enabled.body.id, spare.id);
    // A project may use the shared runners too.
    const listed = await t.request('GET', url, { token: master.token });
    assert.deepEqual(ids(listed.body), [shared.id, specific.id, spare.id]);
    assert.equal((await t.request('GET', url, { token: developer.token })).status, 403);
    const disabled = await t.request('DELETE', `${url}/${spare.id}`, { token: master.token });
    assert.equal(disabled.status, 204);
    assert.deepEqual(ids((await t.request('GET', url, { token: master.token })).body), [
      shared.id,
      specific.id,
    ]);
    assert.equal((await t.request('DELETE', `${url}/${spare.id}`, { token: master.token })).status, 404);
    const deleted = await t.request('DELETE', `/api/v4/runners/${spare.id}`, { token: master.token });
    assert.equal(deleted.status, 204);
    assert.equal((await t.request('GET', `/api/v4/runners/${spare.id}`, { token: admin.token })).status, 404);
  });

  it("lists a runner's jobs with their project for administrators and its projects' masters", async () => {
    const { builds } = await seedPipeline(t, mine, {
      sha: 'b'.repeat(40),
      builds: [
        { name: 'one', status: 'success' },
        { name: 'two', status: 'failed' },
      ],
    });
    await t.server.deps.db.kysely
      .updateTable('ci_builds')
      .set({ runner_id: specific.id })
      .where(
        'id',
        'in',
        builds.map((build) => build.id),
      )
      .execute();
    const url = `/api/v4/runners/${specific.id}/jobs`;
    const all = await t.request('GET', url, { token: master.token });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(
      all.body.map((job: { name: string }) => job.name),
      ['two', 'one'],
    );
    assert.equal(all.headers['x-total'], '2');
    assert.equal(all.body[0].project.id, mine.id);
    assert.equal(all.body[0].project.path_with_namespace, mine.fullPath);
    const asc = await t.request('GET', `${url}?sort=asc&status=success`, { token: admin.token });
    assert.deepEqual(
      asc.body.map((job: { name: string }) => job.name),
      ['one'],
    );
    assert.equal((await t.request('GET', url, { token: developer.token })).status, 403);
    assert.equal((await t.request('GET', `${url}?status=nope`, { token: admin.token })).status, 400);
    assert.equal((await t.request('GET', '/api/v4/runners/999999/jobs', { token: admin.token })).status, 404);
  });
});
