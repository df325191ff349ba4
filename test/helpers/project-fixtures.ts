// Fixtures for project tests: users, groups and memberships written through the real repositories (the
// members and groups APIs belong to another area), so access rules are exercised on the real database.
import crypto from 'node:crypto';
import type { TestApp } from './app.ts';
import { insertUserWithNamespace } from '../../src/services/users.ts';
import { insertMember } from '../../src/db/repositories/members.ts';
import type { UserRow } from '../../src/db/repositories/users.ts';

export interface TestUser {
  user: UserRow;
  token: string;
}

export async function createUser(
  t: TestApp,
  username: string,
  options: { admin?: boolean; external?: boolean; projectsLimit?: number; name?: string } = {},
): Promise<TestUser> {
  const token = crypto.randomBytes(10).toString('hex');
  const db = t.server.deps.db.kysely;
  let user = await insertUserWithNamespace(db, {
    username,
    name: options.name ?? `User ${username}`,
    email: `${username}@example.com`,
    password: 'password-1234',
    authenticationToken: token,
    admin: options.admin,
  });
  const changes: Partial<Pick<UserRow, 'external' | 'projects_limit'>> = {};
  if (options.external) changes.external = 1;
  if (options.projectsLimit !== undefined) changes.projects_limit = options.projectsLimit;
  if (Object.keys(changes).length > 0) {
    await db.updateTable('users').set(changes).where('id', '=', user.id).execute();
    user = { ...user, ...changes };
  }
  return { user, token };
}

export async function createGroup(t: TestApp, path: string, visibility = 20): Promise<number> {
  const at = new Date().toISOString();
  const row = await t.server.deps.db.kysely
    .insertInto('namespaces')
    .values({
      name: `Group ${path}`,
      path,
      owner_id: null,
      type: 'Group',
      description: '',
      visibility_level: visibility,
      request_access_enabled: 0,
      lfs_enabled: 1,
      share_with_group_lock: 0,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addProjectMember(
  t: TestApp,
  projectId: number,
  userId: number,
  level: number,
  expiresAt?: string,
) {
  await insertMember(t.server.deps.db.kysely, {
    sourceType: 'Project',
    sourceId: projectId,
    userId,
    accessLevel: level,
    expiresAt,
  });
}

export async function addGroupMember(
  t: TestApp,
  groupId: number,
  userId: number,
  level: number,
  expiresAt?: string,
) {
  await insertMember(t.server.deps.db.kysely, {
    sourceType: 'Namespace',
    sourceId: groupId,
    userId,
    accessLevel: level,
    expiresAt,
  });
}

export async function shareWithGroup(
  t: TestApp,
  projectId: number,
  groupId: number,
  groupAccess: number,
  expiresAt: string | null = null,
) {
  const at = new Date().toISOString();
  await t.server.deps.db.kysely
    .insertInto('project_group_links')
    .values({
      project_id: projectId,
      group_id: groupId,
      group_access: groupAccess,
      expires_at: expiresAt,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
