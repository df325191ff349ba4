// A workload that drives every endpoint over HTTP, for the tests that watch the SQL it causes
// (query-plans.test.ts). Each area appends its steps to `workload`; a step asserts its own statuses so
// the workload stays real. Steps run in order on one app and may use what earlier steps created.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { TestApp } from '../helpers/app.ts';
import { createUser, type CreatedUser } from '../helpers/users.ts';
import { commitFile } from '../helpers/fixtures.ts';
import { repositoryPath } from '../../src/git/repository.ts';
import { BLANK_SHA } from '../../src/git/commits.ts';
import { processPush, recordPendingPush, recoverPendingPushes } from '../../src/services/push.ts';

export interface WorkloadContext {
  t: TestApp;
  users: Record<string, CreatedUser>;
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
      ctx.users.wl1 = await createUser(ctx.t, {
        username: 'wl1',
        provider: 'ldapmain',
        extern_uid: 'uid=wl1',
      });
      ctx.users.wl2 = await createUser(ctx.t, { username: 'wl2', external: true });
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
      const user = await createUser(ctx.t, { username: 'wlkeys' });
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
      const owner = (ctx.users.gw1 = await createUser(ctx.t, { username: 'gw1' }));
      const member = (ctx.users.gw2 = await createUser(ctx.t, { username: 'gw2' }));
      const as = (user: CreatedUser) => ({ token: user.token });
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
      const as = (user: CreatedUser) => ({ token: user.token });
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
      const owner = await createUser(ctx.t, { username: 'wlprojowner' });
      const other = await createUser(ctx.t, { username: 'wlprojext', external: true });
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
      const owner = await createUser(ctx.t, { username: 'wlgit' });
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
];
