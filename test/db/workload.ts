// A workload that drives every endpoint over HTTP, for the tests that watch the SQL it causes
// (query-plans.test.ts). Each area appends its steps to `workload`; a step asserts its own statuses so
// the workload stays real. Steps run in order on one app and may use what earlier steps created.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { TestApp } from '../helpers/app.ts';
import { commitFile, createProject, createUser, type TestUser } from '../helpers/factory.ts';
import { initBareRepository, repositoryPath } from '../../src/git/repository.ts';
import { BLANK_SHA } from '../../src/domain/types.ts';
import { processPush, recordPendingPush, recoverPendingPushes } from '../../src/services/push/push.ts';
import { finishRepositoryMoves } from '../../src/services/repository/repository-moves.ts';
import { runnerRegistrationToken } from '../../src/services/ci/runners.ts';
import { cancelBuild } from '../../src/services/ci/builds.ts';
import { RUNNER_USER_AGENT } from '../helpers/runner-client.ts';
import { makeZip } from '../helpers/zip.ts';
import { placeRepository, reserveRepository } from '../../src/services/repository/repository-placement.ts';
import { checkInstance } from '../../src/services/instance/instance-check.ts';
import { ciApiWorkload } from './workload-ci-api.ts';
import { issuesWorkload } from './workload-issues.ts';
import { mergeRequestWorkload } from './workload-merge-requests.ts';

export interface WorkloadContext {
  t: TestApp;
  users: Record<string, TestUser>;
}

export interface WorkloadStep {
  area: string;
  name: string;
  run(ctx: WorkloadContext): Promise<void>;
}

async function expect(
  ctx: WorkloadContext,
  status: number,
  method: string,
  url: string,
  options: Parameters<TestApp['request']>[2] = {},
) {
  const response = await ctx.t.request(method, url, { token: ctx.t.rootToken, ...options });
  assert.equal(response.status, status, `${method} ${url}: ${response.text}`);
  return response;
}

export const workload: WorkloadStep[] = [
  {
    area: 'users',
    name: 'create users (with identity, duplicates, invalid)',
    async run(ctx) {
      // One user the way a client makes one (POST /users, then POST /session for the token).
      const password = 'wl1-password-1234';
      const created = await expect(ctx, 201, 'POST', '/api/v3/users', {
        body: {
          email: 'wl1@example.com',
          password,
          name: 'wl1 Name',
          username: 'wl1',
          provider: 'ldapmain',
          extern_uid: 'uid=wl1',
        },
      });
      const session = await expect(ctx, 201, 'POST', '/api/v3/session', {
        body: { login: 'wl1', password },
      });
      ctx.users.wl1 = { ...created.body, password, token: session.body.private_token };
      ctx.users.wl2 = await createUser(ctx.t, 'wl2', { external: true });
      await expect(ctx, 409, 'POST', '/api/v3/users', {
        body: { email: 'wl1@example.com', password: 'password123', name: 'x', username: 'other' },
      });
      await expect(ctx, 409, 'POST', '/api/v3/users', {
        body: { email: 'new@example.com', password: 'password123', name: 'x', username: 'wl1' },
      });
      await expect(ctx, 400, 'POST', '/api/v3/users', {
        body: {
          email: 'new@example.com',
          password: 'password123',
          name: 'x',
          username: 'WL1',
          provider: 'ldapmain',
          extern_uid: 'uid=wl1',
        },
      });
    },
  },
  {
    area: 'users',
    name: 'list and show users',
    async run(ctx) {
      await expect(ctx, 200, 'GET', '/api/v3/users');
      await expect(ctx, 200, 'GET', '/api/v3/users?page=2&per_page=1');
      await expect(ctx, 200, 'GET', '/api/v3/users?active=true');
      await expect(ctx, 200, 'GET', '/api/v3/users?active=true&page=2&per_page=1');
      await expect(ctx, 200, 'GET', '/api/v3/users?search=wl');
      await expect(ctx, 200, 'GET', '/api/v3/users?search=wl&active=1');
      await expect(ctx, 200, 'GET', '/api/v3/users?username=wl1');
      await expect(ctx, 200, 'GET', '/api/v3/users', { token: ctx.users.wl1.token });
      await expect(ctx, 200, 'GET', `/api/v3/users/${ctx.users.wl1.id}`);
      await expect(ctx, 200, 'GET', `/api/v3/users/${ctx.users.wl1.id}`, { token: ctx.users.wl2.token });
      await expect(ctx, 404, 'GET', '/api/v3/users/999999');
      await expect(ctx, 200, 'GET', '/api/v3/user', { token: ctx.users.wl1.token });
      await expect(ctx, 200, 'GET', `/api/v3/user?sudo=wl2`);
      await expect(ctx, 200, 'GET', '/api/v3/user', { headers: { sudo: String(ctx.users.wl1.id) } });
    },
  },
  {
    area: 'users',
    name: 'modify users',
    async run(ctx) {
      const id = ctx.users.wl1.id;
      await expect(ctx, 200, 'PUT', `/api/v3/users/${id}`, {
        body: { bio: 'bio', admin: false, projects_limit: 3 },
      });
      await expect(ctx, 200, 'PUT', `/api/v3/users/${id}`, {
        body: { username: 'wl1renamed', email: 'wl1new@example.com', password: 'password456' },
      });
      await expect(ctx, 200, 'PUT', `/api/v3/users/${id}`, {
        body: { provider: 'ldapmain', extern_uid: 'uid=other' },
      });
      await expect(ctx, 200, 'PUT', `/api/v3/users/${id}`, {
        body: { provider: 'github', extern_uid: '77' },
      });
      await expect(ctx, 404, 'PUT', `/api/v3/users/${id}`, { body: { email: 'wl2@example.com' } });
      await expect(ctx, 404, 'PUT', `/api/v3/users/${id}`, { body: { username: 'wl2' } });
      await expect(ctx, 404, 'PUT', '/api/v3/users/999999', { body: { bio: 'x' } });
    },
  },
  {
    area: 'users',
    name: 'block, unblock, session, delete',
    async run(ctx) {
      const id = ctx.users.wl2.id;
      await expect(ctx, 200, 'PUT', `/api/v3/users/${id}/block`);
      await expect(ctx, 401, 'GET', '/api/v3/user', { token: ctx.users.wl2.token });
      await expect(ctx, 200, 'PUT', `/api/v3/users/${id}/unblock`);
      await expect(ctx, 404, 'PUT', '/api/v3/users/999999/block');
      await expect(ctx, 201, 'POST', '/api/v3/session', {
        token: undefined,
        body: { login: 'wl1renamed', password: 'password456' },
      });
      await expect(ctx, 201, 'POST', '/api/v3/session', {
        token: undefined,
        body: { email: 'wl1new@example.com', password: 'password456' },
      });
      await expect(ctx, 401, 'POST', '/api/v3/session', {
        token: undefined,
        body: { login: 'nobody', password: 'x' },
      });
      await expect(ctx, 200, 'DELETE', `/api/v3/users/${id}`);
      await expect(ctx, 200, 'DELETE', `/api/v3/users/${id}`);
    },
  },
  {
    area: 'keys',
    name: 'SSH keys: own and administrators’, add, duplicate, list, show, delete',
    async run(ctx) {
      const user = await createUser(ctx.t, 'wlkeys');
      ctx.users.wlkeys = user;
      const own = { token: user.token };
      const key = fs.readFileSync(new URL('../fixtures/ssh-keys/ed25519.pub', import.meta.url), 'utf8');
      const rsa = fs.readFileSync(new URL('../fixtures/ssh-keys/rsa.pub', import.meta.url), 'utf8');
      const created = await expect(ctx, 201, 'POST', '/api/v3/user/keys', {
        ...own,
        body: { title: 'k', key },
      });
      await expect(ctx, 400, 'POST', '/api/v3/user/keys', { ...own, body: { title: 'again', key } });
      await expect(ctx, 400, 'POST', '/api/v3/user/keys', {
        ...own,
        body: { title: 'bad', key: 'ssh-rsa x' },
      });
      await expect(ctx, 200, 'GET', '/api/v3/user/keys', own);
      await expect(ctx, 200, 'GET', `/api/v3/user/keys/${created.body.id}`, own);
      await expect(ctx, 200, 'GET', `/api/v3/keys/${created.body.id}`);
      await expect(ctx, 201, 'POST', `/api/v3/users/${user.id}/keys`, { body: { title: 'rsa', key: rsa } });
      await expect(ctx, 404, 'POST', `/api/v3/users/${user.id}/keys`, { body: { title: 'rsa', key: rsa } });
      await expect(ctx, 404, 'POST', '/api/v3/users/999999/keys', { body: { title: 'rsa', key: rsa } });
      await expect(ctx, 200, 'GET', `/api/v3/users/${user.id}/keys`);
      await expect(ctx, 404, 'GET', '/api/v3/users/999999/keys');
      await expect(ctx, 200, 'DELETE', `/api/v3/user/keys/${created.body.id}`, own);
      await expect(ctx, 200, 'DELETE', `/api/v3/user/keys/${created.body.id}`, own);
      const list = await expect(ctx, 200, 'GET', '/api/v3/user/keys', own);
      await expect(ctx, 200, 'DELETE', `/api/v3/users/${user.id}/keys/${list.body[0].id}`);
      await expect(ctx, 404, 'DELETE', `/api/v3/users/${user.id}/keys/${list.body[0].id}`);
    },
  },
  {
    area: 'deploy-keys',
    name: 'deploy keys: add, share, enable, disable, list, delete, administrators’ list',
    async run(ctx) {
      const owner = await createUser(ctx.t, 'wldeploy');
      const own = { token: owner.token };
      const first = await createProject(ctx.t, { owner, path: 'wl-deploy-a' });
      const second = await createProject(ctx.t, { owner, path: 'wl-deploy-b' });
      const key = fs.readFileSync(new URL('../fixtures/ssh-keys/ecdsa-256.pub', import.meta.url), 'utf8');
      const created = await expect(ctx, 201, 'POST', `/api/v3/projects/${first.id}/keys`, {
        ...own,
        body: { title: 'deploy', key },
      });
      await expect(ctx, 201, 'POST', `/api/v3/projects/${second.id}/deploy_keys`, {
        ...own,
        body: { title: 'deploy', key },
      });
      await expect(ctx, 200, 'GET', `/api/v3/projects/${first.id}/keys`, own);
      await expect(ctx, 200, 'GET', `/api/v3/projects/${first.id}/keys/${created.body.id}`, own);
      await expect(ctx, 200, 'DELETE', `/api/v3/projects/${second.id}/keys/${created.body.id}/disable`, own);
      await expect(ctx, 201, 'POST', `/api/v3/projects/${second.id}/keys/${created.body.id}/enable`, own);
      await expect(ctx, 200, 'GET', '/api/v3/deploy_keys');
      await expect(ctx, 200, 'DELETE', `/api/v3/projects/${first.id}/keys/${created.body.id}`, own);
      await expect(ctx, 200, 'DELETE', `/api/v3/projects/${second.id}/keys/${created.body.id}`, own);
    },
  },
  {
    area: 'emails',
    name: 'secondary emails: own and administrators’, add, duplicate, list, show, delete',
    async run(ctx) {
      const user = ctx.users.wlkeys!;
      const own = { token: user.token };
      const created = await expect(ctx, 201, 'POST', '/api/v3/user/emails', {
        ...own,
        body: { email: 'wl.second@example.com' },
      });
      await expect(ctx, 400, 'POST', '/api/v3/user/emails', {
        ...own,
        body: { email: 'WL.second@example.com' },
      });
      await expect(ctx, 400, 'POST', '/api/v3/user/emails', { ...own, body: { email: 'admin@example.com' } });
      await expect(ctx, 200, 'GET', '/api/v3/user/emails', own);
      await expect(ctx, 200, 'GET', `/api/v3/user/emails/${created.body.id}`, own);
      const byAdmin = await expect(ctx, 201, 'POST', `/api/v3/users/${user.id}/emails`, {
        body: { email: 'wl.third@example.com' },
      });
      await expect(ctx, 404, 'POST', `/api/v3/users/${user.id}/emails`, {
        body: { email: 'wl.third@example.com' },
      });
      await expect(ctx, 200, 'GET', `/api/v3/users/${user.id}/emails`);
      await expect(ctx, 200, 'DELETE', `/api/v3/user/emails/${created.body.id}`, own);
      await expect(ctx, 200, 'DELETE', `/api/v3/users/${user.id}/emails/${byAdmin.body.id}`);
      await expect(ctx, 404, 'DELETE', `/api/v3/users/${user.id}/emails/${byAdmin.body.id}`);
    },
  },
  {
    area: 'groups',
    name: 'groups, namespaces and group members',
    async run(ctx) {
      const owner = (ctx.users.gw1 = await createUser(ctx.t, 'gw1'));
      const member = (ctx.users.gw2 = await createUser(ctx.t, 'gw2'));
      const as = (user: TestUser) => ({ token: user.token });
      const group = await expect(ctx, 201, 'POST', '/api/v3/groups', {
        ...as(owner),
        body: { name: 'WL Group', path: 'wlgroup', visibility_level: 0 },
      });
      await expect(ctx, 400, 'POST', '/api/v3/groups', {
        ...as(owner),
        body: { name: 'WL Group', path: 'wlgroup' },
      });
      await expect(ctx, 201, 'POST', '/api/v3/groups/wlgroup/members', {
        ...as(owner),
        body: { user_id: member.id, access_level: 30 },
      });
      await expect(ctx, 409, 'POST', '/api/v3/groups/wlgroup/members', {
        ...as(owner),
        body: { user_id: member.id, access_level: 30 },
      });
      await expect(ctx, 200, 'PUT', `/api/v3/groups/wlgroup/members/${member.id}`, {
        ...as(owner),
        body: { access_level: 40 },
      });
      await expect(ctx, 200, 'GET', '/api/v3/groups/wlgroup/members?query=gw', as(member));
      await expect(ctx, 200, 'GET', `/api/v3/groups/${group.body.id}/members/${member.id}`, as(member));
      await expect(ctx, 403, 'DELETE', `/api/v3/groups/wlgroup/members/${owner.id}`, as(owner));
      await expect(ctx, 200, 'GET', '/api/v3/groups');
      await expect(ctx, 200, 'GET', '/api/v3/groups?page=2&per_page=1');
      await expect(ctx, 200, 'GET', '/api/v3/groups', as(member));
      await expect(ctx, 200, 'GET', '/api/v3/groups?search=wl', as(member));
      await expect(ctx, 200, 'GET', `/api/v3/groups?skip_groups[]=${group.body.id}`);
      await expect(ctx, 200, 'GET', '/api/v3/groups/wlgroup', as(member));
      await expect(ctx, 404, 'GET', '/api/v3/groups/wlgroup', as(ctx.users.wl1));
      await expect(ctx, 200, 'PUT', '/api/v3/groups/wlgroup', { ...as(owner), body: { description: 'd' } });
      await expect(ctx, 200, 'GET', '/api/v3/namespaces', as(member));
      await expect(ctx, 200, 'GET', '/api/v3/namespaces?search=wl', as(member));
      await expect(ctx, 200, 'GET', '/api/v3/namespaces?page=2&per_page=1');
    },
  },
  {
    area: 'groups',
    name: 'project members, forks, stars, archive, shares, uploads, group delete',
    async run(ctx) {
      const owner = ctx.users.gw1;
      const member = ctx.users.gw2;
      const as = (user: TestUser) => ({ token: user.token });
      const project = await expect(ctx, 201, 'POST', '/api/v3/projects', {
        ...as(owner),
        body: { name: 'wlproject', visibility_level: 10 },
      });
      const id = project.body.id;
      await expect(ctx, 201, 'POST', `/api/v3/projects/${id}/members`, {
        ...as(owner),
        body: { user_id: ctx.users.wl1.id, access_level: 20 },
      });
      await expect(ctx, 200, 'GET', `/api/v3/projects/${id}/members?query=wl`, as(owner));
      await expect(ctx, 200, 'PUT', `/api/v3/projects/${id}/members/${ctx.users.wl1.id}`, {
        ...as(owner),
        body: { access_level: 30 },
      });
      await expect(ctx, 200, 'DELETE', `/api/v3/projects/${id}/members/${ctx.users.wl1.id}`, as(owner));
      await expect(ctx, 201, 'POST', `/api/v3/projects/fork/${id}`, as(member));
      await expect(ctx, 201, 'POST', `/api/v3/projects/fork/${id}`, {
        ...as(member),
        body: { namespace: 'wlgroup' },
      });
      await expect(ctx, 404, 'POST', `/api/v3/projects/fork/${id}`, {
        ...as(member),
        body: { namespace: 'nowhere' },
      });
      const fork = await expect(ctx, 201, 'POST', `/api/v3/projects/${id}/star`, as(member));
      await expect(ctx, 304, 'POST', `/api/v3/projects/${id}/star`, as(member));
      await expect(ctx, 200, 'DELETE', `/api/v3/projects/${id}/star`, as(member));
      assert.equal(fork.body.forks_count, 2);
      await expect(ctx, 201, 'POST', `/api/v3/projects/${id}/archive`, as(owner));
      await expect(ctx, 201, 'POST', `/api/v3/projects/${id}/unarchive`, as(owner));
      await expect(ctx, 201, 'POST', `/api/v3/projects/${id}/share`, {
        ...as(owner),
        body: {
          group_id: (await expect(ctx, 200, 'GET', '/api/v3/groups/wlgroup')).body.id,
          group_access: 20,
        },
      });
      const other = await expect(ctx, 201, 'POST', '/api/v3/projects', {
        ...as(owner),
        body: { name: 'wlother' },
      });
      await expect(ctx, 201, 'POST', `/api/v3/projects/${other.body.id}/fork/${id}`);
      await expect(ctx, 200, 'DELETE', `/api/v3/projects/${other.body.id}/fork`);
      await expect(ctx, 200, 'GET', '/api/v3/groups/wlgroup/projects', as(ctx.users.wl1));
      await expect(ctx, 200, 'DELETE', '/api/v3/groups/wlgroup', as(owner));
    },
  },
  {
    area: 'projects',
    name: 'create, read, list, search, edit, events and delete projects',
    async run(ctx) {
      const owner = await createUser(ctx.t, 'wlprojowner');
      const other = await createUser(ctx.t, 'wlprojext', { external: true });
      const token = owner.token;
      const created = await expect(ctx, 201, 'POST', '/api/v3/projects', {
        token,
        body: { name: 'WL Project', visibility_level: 10 },
      });
      const id = created.body.id;
      await expect(ctx, 400, 'POST', '/api/v3/projects', { token, body: { name: 'WL Project' } });
      await expect(ctx, 201, 'POST', `/api/v3/projects/user/${owner.id}`, { body: { name: 'for-owner' } });
      await expect(ctx, 200, 'GET', `/api/v3/projects/${id}`, { token });
      await expect(ctx, 200, 'GET', '/api/v3/projects/wlprojowner%2Fwl-project', { token });
      await expect(ctx, 404, 'GET', `/api/v3/projects/${id}`, { token: other.token });
      for (const url of [
        '/api/v3/projects',
        '/api/v3/projects?simple=true&order_by=name&sort=asc',
        '/api/v3/projects?archived=false&visibility=internal&search=wl&page=2&per_page=1',
        '/api/v3/projects/visible',
        '/api/v3/projects/visible?page=2&per_page=1&archived=false',
        '/api/v3/projects/visible?order_by=name&sort=asc',
        '/api/v3/projects/visible?order_by=path',
        '/api/v3/projects/visible?order_by=id&sort=asc',
        '/api/v3/projects/visible?order_by=updated_at&visibility=public',
        '/api/v3/projects/visible?order_by=last_activity_at&sort=asc',
        '/api/v3/projects/owned?order_by=last_activity_at',
        '/api/v3/projects/starred',
        '/api/v3/projects/search/wl',
        `/api/v3/projects/${id}/events`,
        `/api/v3/users/${owner.id}/events`,
      ]) {
        await expect(ctx, 200, 'GET', url, { token });
      }
      await expect(ctx, 200, 'GET', '/api/v3/projects/visible', { token: other.token });
      await expect(ctx, 200, 'GET', `/api/v3/users/${owner.id}/events`, { token: other.token });
      await expect(ctx, 200, 'GET', '/api/v3/projects/all?order_by=id');
      await expect(ctx, 200, 'GET', '/api/v3/projects/all?order_by=name&archived=true');
      await expect(ctx, 200, 'PUT', `/api/v3/projects/${id}`, {
        token,
        body: { name: 'WL Project', path: 'wl-moved', description: 'x' },
      });
      await expect(ctx, 200, 'DELETE', `/api/v3/projects/${id}`, { token });
    },
  },
  {
    area: 'git',
    name: 'branches, protection, push processing and start-up recovery',
    async run(ctx) {
      const owner = await createUser(ctx.t, 'wlgit');
      const as = { token: owner.token };
      const project = await expect(ctx, 201, 'POST', '/api/v3/projects', { ...as, body: { name: 'wlgit' } });
      const id = project.body.id;
      const repo = repositoryPath(ctx.t.config.dataDir, 'wlgit', 'wlgit');
      const sha = await commitFile(repo, 'README.md', '# wlgit\n');
      const deps = ctx.t.server.deps;
      const pushId = await recordPendingPush(deps, id, owner.id, [
        { before: BLANK_SHA, after: sha, ref: 'refs/heads/master' },
      ]);
      assert.ok(await processPush(deps, pushId));
      await recordPendingPush(deps, id, owner.id, [
        { before: sha, after: BLANK_SHA, ref: 'refs/heads/gone' },
      ]);
      await recoverPendingPushes(deps);
      await expect(ctx, 200, 'GET', `/api/v3/projects/${id}/repository/branches`, as);
      await expect(ctx, 200, 'GET', `/api/v3/projects/${id}/repository/branches/master`, as);
      await expect(ctx, 404, 'GET', `/api/v3/projects/${id}/repository/branches/none`, as);
      await expect(ctx, 200, 'PUT', `/api/v3/projects/${id}/repository/branches/master/protect`, {
        ...as,
        body: { developers_can_push: true },
      });
      await expect(ctx, 200, 'PUT', `/api/v3/projects/${id}/repository/branches/master/protect`, as);
      await expect(ctx, 200, 'PUT', `/api/v3/projects/${id}/repository/branches/master/unprotect`, as);
    },
  },
  {
    area: 'ci',
    name: 'a push with a .gitlab-ci.yml: pipeline, builds, stage gating, build and pipeline hooks',
    async run(ctx) {
      const owner = await createUser(ctx.t, 'wlci');
      ctx.users.wlci = owner;
      const as = { token: owner.token };
      const project = await expect(ctx, 201, 'POST', '/api/v3/projects', { ...as, body: { name: 'wlci' } });
      const id = project.body.id;
      await expect(ctx, 201, 'POST', `/api/v3/projects/${id}/hooks`, {
        ...as,
        body: { url: 'http://127.0.0.1:9/ci', build_events: true, pipeline_events: true },
      });
      const repo = repositoryPath(ctx.t.config.dataDir, 'wlci', 'wlci');
      const yml = 'stages: [build, test]\nb: {stage: build, script: make}\nt: {stage: test, script: test}\n';
      const sha = await commitFile(repo, '.gitlab-ci.yml', yml);
      const deps = ctx.t.server.deps;
      const pushId = await recordPendingPush(deps, id, owner.id, [
        { before: BLANK_SHA, after: sha, ref: 'refs/heads/master' },
      ]);
      assert.ok(await processPush(deps, pushId));
    },
  },
  {
    area: 'ci',
    name: 'secret variables: create, list, read, change, delete',
    async run(ctx) {
      const as = { token: ctx.users.wlci.token };
      const base = '/api/v3/projects/wlci%2Fwlci/variables';
      await expect(ctx, 201, 'POST', base, { ...as, body: { key: 'WL_SECRET', value: 'x' } });
      await expect(ctx, 400, 'POST', base, { ...as, body: { key: 'WL_SECRET', value: 'y' } });
      await expect(ctx, 200, 'GET', base, as);
      await expect(ctx, 200, 'GET', `${base}/WL_SECRET`, as);
      await expect(ctx, 200, 'PUT', `${base}/WL_SECRET`, { ...as, body: { value: 'z' } });
      await expect(ctx, 200, 'DELETE', `${base}/WL_SECRET`, as);
      await expect(ctx, 201, 'POST', base, { ...as, body: { key: 'WL_JOB', value: 'for the job payload' } });
    },
  },
  {
    area: 'ci',
    name: 'the runner protocol: register, take builds, trace, artifacts, finish, cancel, unregister',
    async run(ctx) {
      const app = ctx.t.server.app;
      const call = async (
        status: number,
        method: string,
        url: string,
        options: { json?: unknown; headers?: Record<string, string>; payload?: string | Buffer } = {},
      ) => {
        const response = await app.inject({
          method: method as 'GET',
          url: `/ci/api/v1/${url}`,
          headers: {
            'user-agent': RUNNER_USER_AGENT,
            ...(options.json ? { 'content-type': 'application/json' } : {}),
            ...options.headers,
          },
          payload: options.json ? JSON.stringify(options.json) : options.payload,
        });
        assert.equal(response.statusCode, status, `${method} ${url}: ${response.body}`);
        return response.body === '' ? null : JSON.parse(response.body);
      };
      const registrationToken = await runnerRegistrationToken(ctx.t.server.deps);
      const { token } = await call(201, 'POST', 'runners/register.json', {
        json: { token: registrationToken, tag_list: 'a' },
      });
      await call(403, 'POST', 'runners/register.json', { json: { token: 'wrong' } });
      await call(404, 'PUT', 'builds/-1', { json: { token } });
      const first = await call(201, 'POST', 'builds/register.json', {
        json: { token, info: { version: '1.7.0' } },
      });
      await call(202, 'PATCH', `builds/${first.id}/trace.txt`, {
        headers: { 'content-type': 'text/plain', 'content-range': '0-5', 'build-token': first.token },
        payload: 'hello',
      });
      await call(416, 'PATCH', `builds/${first.id}/trace.txt`, {
        headers: { 'content-type': 'text/plain', 'content-range': '0-5', 'build-token': first.token },
        payload: 'hello',
      });
      const zip = await makeZip({ 'out/a.txt': 'a' });
      const boundary = 'workloadboundary';
      const multipart = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.zip"\r\nContent-Type: application/zip\r\n\r\n`,
        ),
        zip,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      await call(201, 'POST', `builds/${first.id}/artifacts?expire_in=1%20day`, {
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'build-token': first.token },
        payload: multipart,
      });
      await call(200, 'PUT', `builds/${first.id}.json`, {
        json: { token, state: 'success', trace: 'hello\n' },
      });
      const second = await call(201, 'POST', 'builds/register.json', { json: { token } });
      const download = await app.inject({
        method: 'GET',
        url: `/ci/api/v1/builds/${first.id}/artifacts`,
        headers: { 'build-token': second.token },
      });
      assert.equal(download.statusCode, 200);
      await call(200, 'DELETE', `builds/${first.id}/artifacts`, { headers: { 'build-token': first.token } });
      await cancelBuild(ctx.t.server.deps, second.id);
      await call(404, 'PUT', `builds/${second.id}.json`, { json: { token, state: 'failed' } });
      await call(204, 'POST', 'builds/register.json', { json: { token } });
      await call(200, 'DELETE', 'runners/delete', { json: { token } });
    },
  },
  {
    area: 'ci',
    name: 'builds and pipelines over API v3: lists, one build, trace, artifacts, actions, the expiry sweep',
    async run(ctx) {
      const project = await expect(ctx, 200, 'GET', '/api/v3/projects/wlci%2Fwlci');
      const base = `/api/v3/projects/${project.body.id}`;
      const list = await expect(ctx, 200, 'GET', `${base}/builds?per_page=100`);
      const [canceled, done] = list.body as Array<{ id: number; status: string }>;
      assert.equal(canceled!.status, 'canceled');
      await expect(ctx, 200, 'GET', `${base}/builds?scope=success&page=3`);
      await expect(ctx, 200, 'GET', `${base}/builds?scope[]=success&scope[]=canceled&page=2&per_page=1`);
      await expect(ctx, 200, 'GET', `${base}/repository/commits/master/builds`);
      await expect(ctx, 200, 'GET', `${base}/builds/${done!.id}`);
      await expect(ctx, 200, 'GET', `${base}/builds/${done!.id}/trace`);
      await expect(ctx, 404, 'GET', `${base}/builds/${done!.id}/artifacts`);
      await expect(ctx, 404, 'GET', `${base}/builds/artifacts/master/download?job=b`);
      const retried = await expect(ctx, 201, 'POST', `${base}/builds/${canceled!.id}/retry`);
      await expect(ctx, 400, 'POST', `${base}/builds/${done!.id}/play`);
      await expect(ctx, 201, 'POST', `${base}/builds/${retried.body.id}/cancel`);
      await expect(ctx, 201, 'POST', `${base}/builds/${done!.id}/erase`);
      await expect(ctx, 404, 'POST', `${base}/builds/${done!.id}/artifacts/keep`);
      const pipelines = await expect(ctx, 200, 'GET', `${base}/pipelines`);
      for (const query of ['scope=running', 'scope=branches', 'scope=tags', 'status=success', 'page=2']) {
        await expect(ctx, 200, 'GET', `${base}/pipelines?${query}`);
      }
      const pipelineId = pipelines.body[0].id;
      await expect(ctx, 200, 'GET', `${base}/pipelines/${pipelineId}`);
      await expect(ctx, 201, 'POST', `${base}/pipelines/${pipelineId}/retry`);
      await expect(ctx, 200, 'POST', `${base}/pipelines/${pipelineId}/cancel`);
      await ctx.t.server.artifactsWorker.drain();
    },
  },
  {
    area: 'operations',
    name: 'creates over foreign and left-over repositories, the instance check, the health check',
    async run(ctx) {
      const deps = ctx.t.server.deps;
      const dataDir = ctx.t.config.dataDir;
      // A foreign repository refuses the create; a crashed create's leftover is replaced.
      await initBareRepository(dataDir, repositoryPath(dataDir, 'root', 'wl-foreign'));
      await expect(ctx, 400, 'POST', '/api/v3/projects', { body: { name: 'wl-foreign' } });
      const leftover = repositoryPath(dataDir, 'root', 'wl-leftover');
      const reservation = await reserveRepository(deps, leftover);
      await assert.rejects(
        deps.db.kysely.transaction().execute(async (trx) => {
          await placeRepository(trx, deps, reservation, { defaultBranch: 'master' });
          throw new Error('crash');
        }),
      );
      await expect(ctx, 201, 'POST', '/api/v3/projects', { body: { name: 'wl-leftover' } });
      const findings = [];
      for await (const finding of checkInstance(deps)) findings.push(finding);
      assert.ok(findings.some((finding) => !finding.ok && finding.text.includes('wl-foreign')));
      await expect(ctx, 200, 'GET', '/-/health');
    },
  },
  {
    area: 'repository',
    name: 'repository API: reads, branch, tag, release and file writes, commits, transfer and its journal',
    async run(ctx) {
      const owner = await createUser(ctx.t, 'wlrepo');
      const as = { token: owner.token };
      const project = await expect(ctx, 201, 'POST', '/api/v3/projects', { ...as, body: { name: 'wlrepo' } });
      const base = `/api/v3/projects/${project.body.id}/repository`;
      const file = { file_path: 'a.txt', branch_name: 'master', content: 'a', commit_message: 'a' };
      // The first commit of an empty project: default branch chosen and protected in push processing.
      await expect(ctx, 201, 'POST', `${base}/files`, { ...as, body: file });
      await expect(ctx, 200, 'PUT', `${base}/files`, { ...as, body: { ...file, content: 'b' } });
      await expect(ctx, 201, 'POST', `${base}/commits`, {
        ...as,
        body: { branch_name: 'master', commit_message: 'c', actions: [{ action: 'create', file_path: 'c' }] },
      });
      await expect(ctx, 200, 'DELETE', `${base}/files`, { ...as, body: { ...file, content: undefined } });
      await expect(ctx, 201, 'POST', `${base}/branches`, {
        ...as,
        body: { branch_name: 'b', ref: 'master' },
      });
      await expect(ctx, 200, 'DELETE', `${base}/branches/b`, as);
      await expect(ctx, 201, 'POST', `${base}/tags`, {
        ...as,
        body: { tag_name: 'v1', ref: 'master', message: 'm', release_description: 'notes' },
      });
      await expect(ctx, 200, 'PUT', `${base}/tags/v1/release`, { ...as, body: { description: 'more' } });
      await expect(ctx, 409, 'POST', `${base}/tags/v1/release`, { ...as, body: { description: 'again' } });
      for (const url of ['/tags', '/tags/v1', '/commits', '/commits/master', '/tree', '/contributors']) {
        await expect(ctx, 200, 'GET', `${base}${url}`, as);
      }
      await expect(ctx, 200, 'DELETE', `${base}/tags/v1`, as);
      const group = await expect(ctx, 201, 'POST', '/api/v3/groups', {
        body: { name: 'wlrepo-g', path: 'wlrepo-g' },
      });
      await expect(ctx, 201, 'POST', `/api/v3/groups/${group.body.id}/projects/${project.body.id}`);
      await finishRepositoryMoves(ctx.t.server.deps);
    },
  },
  {
    area: 'ci',
    name: 'the stuck-build sweep, two days on: drops whatever is still pending or running',
    async run(ctx) {
      await ctx.t.server.stuckBuildsWorker.drain(new Date(Date.now() + 2 * 24 * 60 * 60 * 1000));
    },
  },
];

workload.push(...ciApiWorkload);
workload.push(...issuesWorkload);
workload.push(...mergeRequestWorkload);
