// The environments pages' access and contents without a browser: reporters see the list and one
// environment's deployments, guests get 403, a hidden project 404, a signed-out visitor the sign-in
// page; Stop is offered only where an on_stop job exists (404 otherwise) and refused to reporters.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createRoles, createRolesProject, type Roles } from '../helpers/ci-roles.ts';
import type { TestProject } from '../helpers/factory.ts';
import { signedInClient, WebClient } from '../helpers/web.ts';

describe('environments pages', () => {
  let t: TestApp;
  let roles: Roles;
  let project: TestProject;
  let environmentId = 0;

  before(async () => {
    t = await startTestApp();
    roles = await createRoles(t, 'envpg');
    project = await createRolesProject(t, roles, 'envpages', 0, { commit: true });
    const sha = execFileSync('git', ['--git-dir', project.repoPath, 'rev-parse', 'master']).toString().trim();
    for (let i = 0; i < 2; i++) {
      const made = await t.request('POST', `/api/v4/projects/${project.id}/deployments`, {
        token: roles.token.developer,
        body: { environment: 'production', sha, ref: 'master', tag: false, status: 'success' },
      });
      assert.equal(made.status, 201, made.text);
      environmentId = made.body.environment.id;
    }
  });
  after(() => t.close());

  it('shows reporters the environments with their last deployment, and one with its deployments', async () => {
    const web = await signedInClient(t, roles.users.reporter);
    const list = await web.get(`/${project.fullPath}/environments`);
    assert.equal(list.status, 200);
    assert.match(list.text, /<a href="[^"]*\/environments\/\d+">production<\/a>/);
    assert.match(list.text, /<strong>#2<\/strong>/);
    assert.doesNotMatch(list.text, /<strong>#1<\/strong>/);
    assert.match(list.text, new RegExp(`by ${roles.users.developer.username}`));
    assert.match(list.text, /Available <span class="badge">1<\/span>/);
    const one = await web.get(`/${project.fullPath}/environments/${environmentId}`);
    assert.equal(one.status, 200);
    assert.match(one.text, /<strong>#2<\/strong>[\s\S]*<strong>#1<\/strong>/);
    assert.doesNotMatch(one.text, />Stop</);
    const stop = await web.post(`/${project.fullPath}/environments/${environmentId}/stop`);
    assert.equal(stop.status, 403);
  });

  it('refuses guests, hides the project from strangers, asks visitors to sign in', async () => {
    const guest = await signedInClient(t, roles.users.guest);
    assert.equal((await guest.get(`/${project.fullPath}/environments`)).status, 403);
    const stranger = await signedInClient(t, roles.users.stranger);
    assert.equal((await stranger.get(`/${project.fullPath}/environments`)).status, 404);
    assert.equal((await stranger.get(`/${project.fullPath}/environments/${environmentId}`)).status, 404);
    const visitor = new WebClient(t);
    const answer = await visitor.get(`/${project.fullPath}/environments`);
    assert.equal(answer.status, 302);
    assert.match(String(answer.headers.location), /\/users\/sign_in/);
  });

  it('has no Stop for an environment without an on_stop job', async () => {
    const web = await signedInClient(t, roles.users.developer);
    const one = await web.get(`/${project.fullPath}/environments/${environmentId}`);
    assert.doesNotMatch(one.text, />Stop</);
    assert.equal((await web.post(`/${project.fullPath}/environments/${environmentId}/stop`)).status, 404);
    assert.equal((await web.get(`/${project.fullPath}/environments/999999`)).status, 404);
  });
});
