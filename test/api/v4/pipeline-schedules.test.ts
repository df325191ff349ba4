// v4's pipeline schedules: create (the caller owns it; next_run_at from the cron in its zone), list with
// scope, show with variables and newest pipeline, change (rescheduled), take ownership, variables by
// key, delete (204); refusals (hidden project 404, reporter 403, bad cron or zone 400 in GitLab's shape);
// play runs a pipeline now with source `schedule`; and a due schedule is run exactly once by two servers
// on one database, listed under the schedule's pipelines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../../helpers/app.ts';
import { addProjectMember, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';
import { pipelinesOf, startCiProject, type CiProject } from '../../helpers/ci.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const SCHEDULE_KEYS = [
  'id',
  'description',
  'ref',
  'cron',
  'cron_timezone',
  'next_run_at',
  'active',
  'created_at',
  'updated_at',
  'owner',
];

describe('API v4 pipeline schedules', () => {
  let ci: CiProject;
  let t: TestApp;
  let project: TestProject;
  let master: TestUser;
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;

  const url = (path = '') => `/api/v4/projects/${project.id}/pipeline_schedules${path}`;
  const create = (user: TestUser, body: Record<string, unknown>) =>
    t.request('POST', url(), { token: user.token, body });

  before(async () => {
    ci = await startCiProject({}, 'schedv4');
    ({ t, project } = ci);
    master = await createUser(t, 'schedmaster');
    developer = await createUser(t, 'scheddev');
    reporter = await createUser(t, 'schedreporter');
    stranger = await createUser(t, 'schedstranger');
    await addProjectMember(t, project.id, master.id, AccessLevel.Master);
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
    await ci.push({ '.gitlab-ci.yml': 'job:\n  script: make\n' });
  });
  after(() => ci.close());

  it('creates, lists, shows, changes and deletes a schedule with its variables', async () => {
    const created = await create(developer, {
      description: 'nightly',
      ref: 'master',
      cron: '30 1 * * *',
      cron_timezone: 'Asia/Tokyo',
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), [...SCHEDULE_KEYS, 'last_pipeline', 'variables']);
    assert.equal(created.body.owner.id, developer.id);
    assert.equal(created.body.active, true);
    assert.equal(created.body.last_pipeline, null);
    assert.deepEqual(created.body.variables, []);
    // 01:30 in Tokyo is 16:30 UTC, within the next day.
    const next = new Date(created.body.next_run_at);
    assert.equal(next.getUTCHours(), 16);
    assert.equal(next.getUTCMinutes(), 30);
    assert.ok(next.getTime() > Date.now() && next.getTime() <= Date.now() + 86_400_000);
    const id = created.body.id;

    const variable = await t.request('POST', url(`/${id}/variables`), {
      token: developer.token,
      body: { key: 'DEPLOY', value: 'yes' },
    });
    assert.equal(variable.status, 201);
    assert.deepEqual(variable.body, { variable_type: 'env_var', key: 'DEPLOY', value: 'yes' });
    const taken = await t.request('POST', url(`/${id}/variables`), {
      token: developer.token,
      body: { key: 'DEPLOY', value: 'again' },
    });
    assert.equal(taken.status, 400);
    assert.ok(taken.body.message.key);
    const badKey = await t.request('POST', url(`/${id}/variables`), {
      token: developer.token,
      body: { key: 'no-dash', value: 'x' },
    });
    assert.equal(badKey.status, 400);
    const changedVariable = await t.request('PUT', url(`/${id}/variables/DEPLOY`), {
      token: developer.token,
      body: { value: 'no' },
    });
    assert.equal(changedVariable.status, 200);
    assert.equal(changedVariable.body.value, 'no');

    const inactive = await create(master, {
      description: 'off',
      ref: 'master',
      cron: '0 * * * *',
      active: false,
    });
    assert.equal(inactive.status, 201);
    assert.equal(inactive.body.active, false);
    const all = await t.request('GET', url(), { token: reporter.token });
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.map((schedule: any) => schedule.id),
      [id, inactive.body.id],
    );
    assert.deepEqual(Object.keys(all.body[0]), SCHEDULE_KEYS);
    const active = await t.request('GET', url('?scope=active'), { token: reporter.token });
    assert.deepEqual(
      active.body.map((schedule: any) => schedule.id),
      [id],
    );
    assert.equal((await t.request('GET', url('?scope=nope'), { token: reporter.token })).status, 400);

    const shown = await t.request('GET', url(`/${id}`), { token: reporter.token });
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body.variables, [{ variable_type: 'env_var', key: 'DEPLOY', value: 'no' }]);

    // The owner changes it; the new cron is rescheduled (hourly at :15 UTC).
    const changed = await t.request('PUT', url(`/${id}`), {
      token: developer.token,
      body: { cron: '15 * * * *', cron_timezone: 'UTC', description: 'hourly' },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.description, 'hourly');
    assert.equal(new Date(changed.body.next_run_at).getUTCMinutes(), 15);
    assert.ok(new Date(changed.body.next_run_at).getTime() <= Date.now() + 3_600_000);

    // A master takes it over (201); then the developer may no longer change it.
    const ownership = await t.request('POST', url(`/${id}/take_ownership`), { token: master.token });
    assert.equal(ownership.status, 201);
    assert.equal(ownership.body.owner.id, master.id);
    const again = await t.request('POST', url(`/${id}/take_ownership`), { token: master.token });
    assert.equal(again.status, 200);
    const notOwner = await t.request('PUT', url(`/${id}`), {
      token: developer.token,
      body: { description: 'x' },
    });
    assert.equal(notOwner.status, 403);

    const removedVariable = await t.request('DELETE', url(`/${id}/variables/DEPLOY`), {
      token: master.token,
    });
    assert.equal(removedVariable.status, 202);
    assert.equal(removedVariable.body.key, 'DEPLOY');
    const gone = await t.request('DELETE', url(`/${id}/variables/DEPLOY`), { token: master.token });
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body, { message: '404 Variable Not Found' });

    const deleted = await t.request('DELETE', url(`/${id}`), { token: master.token });
    assert.equal(deleted.status, 204);
    const missing = await t.request('GET', url(`/${id}`), { token: master.token });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Pipeline Schedule Not Found' });
  });

  it('refuses hidden projects, reporters, missing fields and bad crons or zones', async () => {
    const hidden = await create(stranger, { description: 'x', ref: 'master', cron: '0 1 * * *' });
    assert.equal(hidden.status, 404);
    assert.equal((await t.request('GET', url(), { token: stranger.token })).status, 404);
    const byReporter = await create(reporter, { description: 'x', ref: 'master', cron: '0 1 * * *' });
    assert.equal(byReporter.status, 403);
    const missing = await create(developer, { description: 'x', ref: 'master' });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'cron is missing' });
    const badCron = await create(developer, { description: 'x', ref: 'master', cron: 'every day' });
    assert.equal(badCron.status, 400);
    assert.deepEqual(badCron.body, { message: { cron: ['is invalid syntax'] } });
    const sixFields = await create(developer, { description: 'x', ref: 'master', cron: '0 0 1 * * *' });
    assert.deepEqual(sixFields.body, { message: { cron: ['is invalid syntax'] } });
    const badZone = await create(developer, {
      description: 'x',
      ref: 'master',
      cron: '0 1 * * *',
      cron_timezone: 'Mars/Olympus',
    });
    assert.equal(badZone.status, 400);
    assert.deepEqual(badZone.body, { message: { cron_timezone: ['is invalid syntax'] } });
    const list = await t.request('GET', url(), { token: master.token });
    assert.deepEqual(
      list.body.filter((schedule: any) => schedule.description === 'x'),
      [],
    );
  });

  it('plays a schedule now: a pipeline with source schedule, its next run unchanged', async () => {
    const created = await create(developer, { description: 'play', ref: 'master', cron: '0 3 * * *' });
    const id = created.body.id;
    const byReporter = await t.request('POST', url(`/${id}/play`), { token: reporter.token });
    assert.equal(byReporter.status, 403);
    const played = await t.request('POST', url(`/${id}/play`), { token: developer.token });
    assert.equal(played.status, 201);
    assert.deepEqual(played.body, { message: '201 Created' });
    const newest = (await pipelinesOf(t, project.id)).at(-1)!;
    const shown = await t.request('GET', `/api/v4/projects/${project.id}/pipelines/${newest.id}`, {
      token: developer.token,
    });
    assert.equal(shown.body.source, 'schedule');
    assert.equal(shown.body.user.id, developer.id);
    const details = await t.request('GET', url(`/${id}`), { token: developer.token });
    assert.equal(details.body.last_pipeline.id, newest.id);
    assert.equal(details.body.last_pipeline.source, 'schedule');
    assert.equal(details.body.next_run_at, created.body.next_run_at);
    const ran = await t.request('GET', url(`/${id}/pipelines`), { token: reporter.token });
    assert.deepEqual(
      ran.body.map((pipeline: any) => pipeline.id),
      [newest.id],
    );
  });

  it('runs a due schedule exactly once across two servers on one database', async () => {
    const created = await create(developer, { description: 'due', ref: 'master', cron: '*/5 * * * *' });
    const id = created.body.id;
    const dueAt = new Date(new Date(created.body.next_run_at).getTime() + 1000);
    const sibling = await t.sibling();
    try {
      const counts = await Promise.all([
        t.server.pipelineScheduleWorker.drain(dueAt),
        sibling.pipelineScheduleWorker.drain(dueAt),
      ]);
      assert.equal(
        counts.reduce((sum, count) => sum + count, 0),
        1,
      );
    } finally {
      await sibling.close();
    }
    const ran = await t.request('GET', url(`/${id}/pipelines`), { token: developer.token });
    assert.equal(ran.body.length, 1);
    assert.equal(ran.body[0].source, 'schedule');
    const shown = await t.request('GET', `/api/v4/projects/${project.id}/pipelines/${ran.body[0].id}`, {
      token: developer.token,
    });
    // Scheduled runs are the owner's.
    assert.equal(shown.body.user.id, developer.id);
    const details = await t.request('GET', url(`/${id}`), { token: developer.token });
    // Moved on five minutes past the slot it ran.
    assert.equal(
      new Date(details.body.next_run_at).getTime(),
      new Date(created.body.next_run_at).getTime() + 5 * 60_000,
    );
    // Nothing is due any more at that time.
    assert.equal(await t.server.pipelineScheduleWorker.drain(dueAt), 0);
  });

  it('moves a due schedule on without a pipeline when its ref is gone, and leaves inactive ones', async () => {
    const missingRef = await create(developer, { description: 'gone', ref: 'nope', cron: '*/5 * * * *' });
    const paused = await create(developer, {
      description: 'paused',
      ref: 'master',
      cron: '*/5 * * * *',
      active: false,
    });
    const dueAt = new Date(new Date(missingRef.body.next_run_at).getTime() + 1000);
    // (The earlier test's schedule may share this slot; only these two are looked at.)
    await t.server.pipelineScheduleWorker.drain(dueAt);
    const moved = await t.request('GET', url(`/${missingRef.body.id}`), { token: developer.token });
    assert.equal(
      new Date(moved.body.next_run_at).getTime(),
      new Date(missingRef.body.next_run_at).getTime() + 5 * 60_000,
    );
    assert.equal(moved.body.last_pipeline, null);
    const still = await t.request('GET', url(`/${paused.body.id}`), { token: developer.token });
    assert.equal(still.body.next_run_at, paused.body.next_run_at);
    assert.equal(still.body.last_pipeline, null);
  });
});
