// v4's pipeline triggers: create with a description (the caller owns it; 400 without one), list and
// show by id (the whole token only to its owner), change the description, take ownership, delete (204),
// and POST …/trigger/pipeline: a pipeline with source `trigger`, run as the trigger's owner, its
// variables readable as the pipeline's; refused tokens, refs and callers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../../helpers/app.ts';
import { addProjectMember, createUser, type TestProject, type TestUser } from '../../helpers/factory.ts';
import { startCiProject, type CiProject } from '../../helpers/ci.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const TRIGGER_KEYS = ['id', 'token', 'description', 'created_at', 'updated_at', 'last_used', 'owner'];

describe('API v4 triggers', () => {
  let ci: CiProject;
  let t: TestApp;
  let project: TestProject;
  let owner: TestUser;
  let master: TestUser;
  let developer: TestUser;
  let triggerId: number;
  let token: string;

  const url = (path: string) => `/api/v4/projects/${project.id}${path}`;

  before(async () => {
    ci = await startCiProject({}, 'trigv4');
    ({ t, project, owner } = ci);
    master = await createUser(t, 'trigmaster');
    developer = await createUser(t, 'trigdev');
    await addProjectMember(t, project.id, master.id, AccessLevel.Master);
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    await ci.push({ '.gitlab-ci.yml': 'job:\n  script: make\n' });
  });
  after(() => ci.close());

  it('creates a trigger owned by the caller, shown in full to its owner only', async () => {
    const missing = await t.request('POST', url('/triggers'), { token: master.token, body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'description is missing' });
    const created = await t.request('POST', url('/triggers'), {
      token: master.token,
      body: { description: 'nightly' },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), TRIGGER_KEYS);
    assert.equal(created.body.description, 'nightly');
    assert.equal(created.body.owner.id, master.id);
    assert.equal(created.body.last_used, null);
    assert.match(created.body.token, /^[0-9a-f]{20,}$/);
    triggerId = created.body.id;
    token = created.body.token;
    const byOwner = await t.request('GET', url(`/triggers/${triggerId}`), { token: owner.token });
    assert.equal(byOwner.status, 200);
    assert.equal(byOwner.body.token, token.slice(0, 4));
    const list = await t.request('GET', url('/triggers'), { token: master.token });
    assert.deepEqual(
      list.body.map((trigger: any) => [trigger.id, trigger.token]),
      [[triggerId, token]],
    );
    assert.equal((await t.request('GET', url('/triggers'), { token: developer.token })).status, 403);
    assert.equal((await t.request('GET', url('/triggers/999999'), { token: master.token })).status, 404);
  });

  it('runs a pipeline with the token: source trigger, as the owner, with its variables', async () => {
    const response = await t.request('POST', url('/trigger/pipeline'), {
      body: { token, ref: 'master', variables: { DEPLOY_TO: 'staging' } },
    });
    assert.equal(response.status, 201);
    assert.equal(response.body.source, 'trigger');
    assert.equal(response.body.ref, 'master');
    assert.equal(response.body.user.id, master.id);
    const variables = await t.request('GET', url(`/pipelines/${response.body.id}/variables`), {
      token: developer.token,
    });
    assert.deepEqual(variables.body, [{ variable_type: 'env_var', key: 'DEPLOY_TO', value: 'staging' }]);
    const shown = await t.request('GET', url(`/triggers/${triggerId}`), { token: master.token });
    assert.ok(shown.body.last_used);

    const badToken = await t.request('POST', url('/trigger/pipeline'), {
      body: { token: 'nope', ref: 'master' },
    });
    assert.equal(badToken.status, 404);
    const badRef = await t.request('POST', url('/trigger/pipeline'), { body: { token, ref: 'nowhere' } });
    assert.equal(badRef.status, 400);
    const noRef = await t.request('POST', url('/trigger/pipeline'), { body: { token } });
    assert.deepEqual(noRef.body, { error: 'ref is missing' });
    const badVariables = await t.request('POST', url('/trigger/pipeline'), {
      body: { token, ref: 'master', variables: 'x' },
    });
    assert.equal(badVariables.status, 400);
  });

  it('changes the description, hands over ownership and deletes (204)', async () => {
    const changed = await t.request('PUT', url(`/triggers/${triggerId}`), {
      token: master.token,
      body: { description: 'weekly' },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.description, 'weekly');
    const taken = await t.request('POST', url(`/triggers/${triggerId}/take_ownership`), {
      token: owner.token,
    });
    assert.equal(taken.status, 201);
    assert.equal(taken.body.owner.id, owner.id);
    assert.equal(taken.body.token, token);
    const run = await t.request('POST', url('/trigger/pipeline'), { body: { token, ref: 'master' } });
    assert.equal(run.body.user.id, owner.id);
    const deleted = await t.request('DELETE', url(`/triggers/${triggerId}`), { token: master.token });
    assert.equal(deleted.status, 204);
    assert.equal(
      (await t.request('GET', url(`/triggers/${triggerId}`), { token: master.token })).status,
      404,
    );
    const afterDelete = await t.request('POST', url('/trigger/pipeline'), { body: { token, ref: 'master' } });
    assert.equal(afterDelete.status, 404);
  });
});
