// What system hooks receive for each action of the other areas, sent by the
// real worker to a real receiver on loopback: event names, fields in GitLab's order, the header.
// The worker sends several deliveries of a hook at once, so the order they arrive in is not promised:
// an action's events are compared as a sorted list, and picked out by what they are.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { createProject, createUser as createFixtureUser } from '../../helpers/factory.ts';

const SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('system hook events', () => {
  let t: TestApp;
  let receiver: Receiver;
  let seen = 0;

  /** The deliveries since the last call, after the worker has sent everything due. */
  async function delivered(): Promise<any[]> {
    await t.server.hookWorker.drain();
    const fresh = receiver.received.slice(seen);
    seen = receiver.received.length;
    for (const delivery of fresh) {
      assert.equal(delivery.headers['x-gitlab-event'], 'System Hook');
      assert.equal(delivery.headers['content-type'], 'application/json');
    }
    return fresh.map((delivery) => delivery.body);
  }

  /** The one event of `events` named `name` (and matching `where`, when given). */
  function only(events: any[], name: string, where: (event: any) => boolean = () => true): any {
    const matching = events.filter((event) => event.event_name === name && where(event));
    assert.equal(matching.length, 1, `one ${name} in ${JSON.stringify(events)}`);
    return matching[0];
  }

  /** Lists compared regardless of arrival order. */
  const sorted = <T>(items: T[]): T[] =>
    [...items].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

  before(async () => {
    t = await startTestApp();
    receiver = await startReceiver();
    const hook = await t.request('POST', '/api/v3/hooks', {
      token: t.rootToken,
      body: { url: receiver.url },
    });
    assert.equal(hook.status, 201);
  });
  beforeEach(async () => {
    await delivered();
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('announces user_create and user_destroy', async () => {
    const created = await t.request('POST', '/api/v3/users', {
      token: t.rootToken,
      body: { email: 'Hooked@Example.com', password: 'password123', username: 'hooked', name: 'Hooked User' },
    });
    assert.equal(created.status, 201);
    const [create, ...rest] = await delivered();
    assert.deepEqual(rest, []);
    assert.deepEqual(Object.keys(create), [
      'event_name',
      'created_at',
      'updated_at',
      'name',
      'email',
      'user_id',
      'username',
    ]);
    assert.equal(create.event_name, 'user_create');
    assert.match(create.created_at, SECONDS);
    assert.equal(create.created_at, created.body.created_at.replace(/\.\d{3}Z$/, 'Z'));
    assert.deepEqual(
      { name: create.name, email: create.email, user_id: create.user_id, username: create.username },
      { name: 'Hooked User', email: 'hooked@example.com', user_id: created.body.id, username: 'hooked' },
    );

    const deleted = await t.request('DELETE', `/api/v3/users/${created.body.id}`, { token: t.rootToken });
    assert.equal(deleted.status, 200);
    const [destroy] = await delivered();
    assert.deepEqual(
      { ...destroy, created_at: create.created_at, updated_at: create.updated_at },
      {
        ...create,
        event_name: 'user_destroy',
      },
    );

    // Nothing is announced for what did not happen.
    await t.request('DELETE', `/api/v3/users/${created.body.id}`, { token: t.rootToken });
    const duplicate = await t.request('POST', '/api/v3/users', {
      token: t.rootToken,
      body: { email: 'root2@example.com', password: 'password123', username: 'root', name: 'Again' },
    });
    assert.equal(duplicate.status, 409);
    assert.deepEqual(await delivered(), []);
  });

  it('announces group_create, membership changes and group_destroy', async () => {
    const member = await createFixtureUser(t, 'groupie');
    const ignoredCreate = await delivered();
    assert.equal(ignoredCreate.length, 1, 'the fixture user was announced too');
    const group = await t.request('POST', '/api/v3/groups', {
      token: t.rootToken,
      body: { name: 'Hook Group', path: 'hook-group' },
    });
    assert.equal(group.status, 201);
    const created = await delivered();
    assert.equal(created.length, 2, JSON.stringify(created));
    const groupCreate = only(created, 'group_create');
    const ownerAdded = only(created, 'user_add_to_group');
    assert.deepEqual(Object.keys(groupCreate), [
      'event_name',
      'created_at',
      'updated_at',
      'name',
      'path',
      'group_id',
      'owner_name',
      'owner_email',
    ]);
    assert.equal(groupCreate.event_name, 'group_create');
    assert.equal(groupCreate.name, 'Hook Group');
    assert.equal(groupCreate.path, 'hook-group');
    assert.equal(groupCreate.group_id, group.body.id);
    // GitLab's groups have no owner_id: Group#owner was nil, so these were null.
    assert.equal(groupCreate.owner_name, null);
    assert.equal(groupCreate.owner_email, null);
    assert.equal(ownerAdded.event_name, 'user_add_to_group');
    assert.equal(ownerAdded.user_username, 'root');
    assert.equal(ownerAdded.group_access, 'Owner');

    const added = await t.request('POST', `/api/v3/groups/${group.body.id}/members`, {
      token: t.rootToken,
      body: { user_id: member.id, access_level: 30 },
    });
    assert.equal(added.status, 201);
    const [add] = await delivered();
    assert.deepEqual(Object.keys(add), [
      'event_name',
      'created_at',
      'updated_at',
      'group_name',
      'group_path',
      'group_id',
      'user_username',
      'user_name',
      'user_email',
      'user_id',
      'group_access',
    ]);
    assert.deepEqual(
      { ...add, created_at: null, updated_at: null },
      {
        event_name: 'user_add_to_group',
        created_at: null,
        updated_at: null,
        group_name: 'Hook Group',
        group_path: 'hook-group',
        group_id: group.body.id,
        user_username: 'groupie',
        user_name: 'groupie Name',
        user_email: 'groupie@example.com',
        user_id: member.id,
        group_access: 'Developer',
      },
    );
    assert.match(add.created_at, SECONDS);

    const removed = await t.request('DELETE', `/api/v3/groups/${group.body.id}/members/${member.id}`, {
      token: t.rootToken,
    });
    assert.equal(removed.status, 200);
    const [remove] = await delivered();
    assert.deepEqual({ ...remove, event_name: 'user_add_to_group' }, add);

    await t.request('POST', `/api/v3/groups/${group.body.id}/members`, {
      token: t.rootToken,
      body: { user_id: member.id, access_level: 10 },
    });
    await delivered();
    const destroyed = await t.request('DELETE', `/api/v3/groups/${group.body.id}`, { token: t.rootToken });
    assert.ok(destroyed.status < 300, destroyed.text);
    const events = await delivered();
    assert.deepEqual(
      sorted(events.map((event) => [event.event_name, event.user_username ?? event.name])),
      sorted([
        ['user_remove_from_group', 'root'],
        ['user_remove_from_group', 'groupie'],
        ['group_destroy', 'Hook Group'],
      ]),
    );
    const groupieRemoved = only(
      events,
      'user_remove_from_group',
      (event) => event.user_username === 'groupie',
    );
    assert.equal(groupieRemoved.group_access, 'Guest');
    const groupDestroy = only(events, 'group_destroy');
    assert.deepEqual(
      { ...groupDestroy, event_name: 'group_create' },
      { ...groupCreate, updated_at: groupDestroy.updated_at },
    );
  });

  it('announces project membership changes', async () => {
    const owner = await createFixtureUser(t, 'projowner');
    const dev = await createFixtureUser(t, 'projdev');
    const project = await createProject(t, { owner, path: 'team-project', visibility: 10 });
    await delivered();
    const added = await t.request('POST', `/api/v3/projects/${project.id}/members`, {
      token: owner.token,
      body: { user_id: dev.id, access_level: 40 },
    });
    assert.equal(added.status, 201);
    const [add, ...rest] = await delivered();
    assert.deepEqual(rest, []);
    assert.deepEqual(Object.keys(add), [
      'event_name',
      'created_at',
      'updated_at',
      'project_name',
      'project_path',
      'project_path_with_namespace',
      'project_id',
      'user_username',
      'user_name',
      'user_email',
      'user_id',
      'access_level',
      'project_visibility',
    ]);
    assert.deepEqual(
      { ...add, created_at: null, updated_at: null },
      {
        event_name: 'user_add_to_team',
        created_at: null,
        updated_at: null,
        project_name: 'team-project',
        project_path: 'team-project',
        project_path_with_namespace: 'projowner/team-project',
        project_id: project.id,
        user_username: 'projdev',
        user_name: 'projdev Name',
        user_email: 'projdev@example.com',
        user_id: dev.id,
        access_level: 'Master',
        project_visibility: 'internal',
      },
    );
    // An existing member added again is answered unchanged: no new event.
    await t.request('POST', `/api/v3/projects/${project.id}/members`, {
      token: owner.token,
      body: { user_id: dev.id, access_level: 40 },
    });
    assert.deepEqual(await delivered(), []);

    const removed = await t.request('DELETE', `/api/v3/projects/${project.id}/members/${dev.id}`, {
      token: owner.token,
    });
    assert.equal(removed.status, 200);
    const [remove] = await delivered();
    assert.deepEqual({ ...remove, event_name: 'user_add_to_team' }, add);

    // Deleting a user announces the memberships and keys that go with them, then the user.
    await t.request('POST', `/api/v3/projects/${project.id}/members`, {
      token: owner.token,
      body: { user_id: dev.id, access_level: 20 },
    });
    await delivered();
    await t.request('DELETE', `/api/v3/users/${dev.id}`, { token: t.rootToken });
    assert.deepEqual(
      sorted((await delivered()).map((event) => [event.event_name, event.access_level ?? event.username])),
      sorted([
        ['user_remove_from_team', 'Reporter'],
        ['user_destroy', 'projdev'],
      ]),
    );
  });

  it('announces key_create and key_destroy', async () => {
    const owner = await createFixtureUser(t, 'keyowner');
    await delivered();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-key-'));
    execFileSync('ssh-keygen', [
      '-q',
      '-t',
      'ed25519',
      '-N',
      '',
      '-C',
      'hook@test',
      '-f',
      path.join(dir, 'id'),
    ]);
    const publicKey = fs.readFileSync(path.join(dir, 'id.pub'), 'utf8').trim();
    fs.rmSync(dir, { recursive: true, force: true });

    const created = await t.request('POST', '/api/v3/user/keys', {
      token: owner.token,
      body: { title: 'laptop', key: publicKey },
    });
    assert.equal(created.status, 201);
    const [create, ...rest] = await delivered();
    assert.deepEqual(rest, []);
    assert.deepEqual(Object.keys(create), [
      'event_name',
      'created_at',
      'updated_at',
      'key',
      'id',
      'username',
    ]);
    assert.equal(create.event_name, 'key_create');
    assert.equal(create.key, publicKey);
    assert.equal(create.id, created.body.id);
    assert.equal(create.username, 'keyowner');
    assert.match(create.updated_at, SECONDS);

    const deleted = await t.request('DELETE', `/api/v3/user/keys/${created.body.id}`, { token: owner.token });
    assert.equal(deleted.status, 200);
    const [destroy] = await delivered();
    assert.deepEqual({ ...destroy, event_name: 'key_create' }, create);
    await t.request('DELETE', `/api/v3/user/keys/${created.body.id}`, { token: owner.token });
    assert.deepEqual(await delivered(), [], 'a repeated delete announces nothing');

    // A user's deletion takes their keys with it: key_destroy, then user_destroy.
    const again = await t.request('POST', '/api/v3/user/keys', {
      token: owner.token,
      body: { title: 'x', key: publicKey },
    });
    assert.equal(again.status, 201);
    await delivered();
    await t.request('DELETE', `/api/v3/users/${owner.id}`, { token: t.rootToken });
    assert.deepEqual(sorted((await delivered()).map((event) => event.event_name)), [
      'key_destroy',
      'user_destroy',
    ]);
  });

  it('announces a fork as project_create and the forker joining it, as a create does', async () => {
    const owner = await createFixtureUser(t, 'forkee');
    const forker = await createFixtureUser(t, 'forker');
    const source = await t.request('POST', '/api/v3/projects', {
      token: owner.token,
      body: { name: 'Forked Source', visibility_level: 10 },
    });
    assert.equal(source.status, 201, source.text);
    const [sourceCreate] = (await delivered()).filter((event) => event.event_name === 'project_create');

    const fork = await t.request('POST', `/api/v3/projects/fork/${source.body.id}`, { token: forker.token });
    assert.equal(fork.status, 201, fork.text);
    // The two deliveries run concurrently: their order of arrival is not theirs to keep.
    const forkEvents = await delivered();
    assert.deepEqual(sorted(forkEvents.map((event) => event.event_name)), [
      'project_create',
      'user_add_to_team',
    ]);
    const create = forkEvents.find((event) => event.event_name === 'project_create')!;
    const forkerAdded = forkEvents.find((event) => event.event_name === 'user_add_to_team')!;
    assert.deepEqual(Object.keys(create), Object.keys(sourceCreate));
    assert.deepEqual(
      { ...create, created_at: null, updated_at: null },
      {
        event_name: 'project_create',
        created_at: null,
        updated_at: null,
        name: 'Forked Source',
        path: 'forked-source',
        path_with_namespace: 'forker/forked-source',
        project_id: fork.body.id,
        owner_name: 'forker Name',
        owner_email: 'forker@example.com',
        project_visibility: 'internal',
      },
    );
    assert.equal(create.created_at, fork.body.created_at.replace(/\.\d{3}Z$/, 'Z'));
    assert.deepEqual(
      {
        event_name: forkerAdded.event_name,
        project_id: forkerAdded.project_id,
        project_path_with_namespace: forkerAdded.project_path_with_namespace,
        user_username: forkerAdded.user_username,
        access_level: forkerAdded.access_level,
      },
      {
        event_name: 'user_add_to_team',
        project_id: fork.body.id,
        project_path_with_namespace: 'forker/forked-source',
        user_username: 'forker',
        access_level: 'Master',
      },
    );

    // A refused fork (the forker has it already) announces nothing.
    const again = await t.request('POST', `/api/v3/projects/fork/${source.body.id}`, { token: forker.token });
    assert.equal(again.status, 409);
    assert.deepEqual(await delivered(), []);
  });

  it('announces project_create, project_rename and project_destroy', async () => {
    const owner = await createFixtureUser(t, 'projector');
    await delivered();
    const created = await t.request('POST', '/api/v3/projects', {
      token: owner.token,
      body: { name: 'Hooked Project', visibility_level: 20 },
    });
    assert.equal(created.status, 201, created.text);
    const projectCreated = await delivered();
    assert.equal(projectCreated.length, 2, JSON.stringify(projectCreated));
    const create = only(projectCreated, 'project_create');
    const creatorAdded = only(projectCreated, 'user_add_to_team');
    assert.deepEqual(Object.keys(create), [
      'event_name',
      'created_at',
      'updated_at',
      'name',
      'path',
      'path_with_namespace',
      'project_id',
      'owner_name',
      'owner_email',
      'project_visibility',
    ]);
    assert.deepEqual(
      { ...create, created_at: null, updated_at: null },
      {
        event_name: 'project_create',
        created_at: null,
        updated_at: null,
        name: 'Hooked Project',
        path: 'hooked-project',
        path_with_namespace: 'projector/hooked-project',
        project_id: created.body.id,
        owner_name: 'projector Name',
        owner_email: 'projector@example.com',
        project_visibility: 'public',
      },
    );
    assert.equal(create.created_at, created.body.created_at.replace(/\.\d{3}Z$/, 'Z'));
    assert.equal(creatorAdded.event_name, 'user_add_to_team');
    assert.equal(creatorAdded.user_username, 'projector');
    assert.equal(creatorAdded.access_level, 'Master');

    const renamed = await t.request('PUT', `/api/v3/projects/${created.body.id}`, {
      token: owner.token,
      body: { name: 'Hooked Project', path: 'renamed' },
    });
    assert.equal(renamed.status, 200, renamed.text);
    const [rename, ...none] = await delivered();
    assert.deepEqual(none, []);
    assert.deepEqual(Object.keys(rename), [...Object.keys(create), 'old_path_with_namespace']);
    assert.equal(rename.event_name, 'project_rename');
    assert.equal(rename.path, 'renamed');
    assert.equal(rename.path_with_namespace, 'projector/renamed');
    assert.equal(rename.old_path_with_namespace, 'projector/hooked-project');
    // An edit that keeps the path announces nothing (8.13 had no project_update).
    await t.request('PUT', `/api/v3/projects/${created.body.id}`, {
      token: owner.token,
      body: { name: 'Hooked Project', description: 'changed' },
    });
    assert.deepEqual(await delivered(), []);

    const deleted = await t.request('DELETE', `/api/v3/projects/${created.body.id}`, { token: owner.token });
    assert.equal(deleted.status, 200);
    const events = await delivered();
    assert.deepEqual(sorted(events.map((event) => event.event_name)), [
      'project_destroy',
      'user_remove_from_team',
    ]);
    assert.equal(only(events, 'project_destroy').path_with_namespace, 'projector/renamed');
    assert.equal(only(events, 'project_destroy').project_id, created.body.id);

    // A group project's owner is the group, which has no email.
    await t.request('POST', '/api/v3/groups', {
      token: t.rootToken,
      body: { name: 'Owners', path: 'owners' },
    });
    const group = (await t.request('GET', '/api/v3/groups/owners', { token: t.rootToken })).body;
    await delivered();
    const inGroup = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'grouped', namespace_id: group.id },
    });
    assert.equal(inGroup.status, 201, inGroup.text);
    const [groupCreate, ...others] = await delivered();
    assert.deepEqual(others, [], 'no creator membership for group projects');
    assert.equal(groupCreate.owner_name, 'Owners');
    assert.equal(groupCreate.owner_email, '');
    assert.equal(groupCreate.project_visibility, 'private');

    // A user's deletion takes their personal projects with it.
    const personal = await t.request('POST', '/api/v3/projects', {
      token: owner.token,
      body: { name: 'mine' },
    });
    assert.equal(personal.status, 201);
    await delivered();
    await t.request('DELETE', `/api/v3/users/${owner.id}`, { token: t.rootToken });
    assert.deepEqual(
      sorted(
        (await delivered()).map((event) => [
          event.event_name,
          event.path_with_namespace ?? event.project_path_with_namespace ?? event.username,
        ]),
      ),
      sorted([
        ['user_remove_from_team', 'projector/mine'],
        ['project_destroy', 'projector/mine'],
        ['user_destroy', 'projector'],
      ]),
    );
  });
});
