// Users for tests, made with the same service the API's user creation uses.
import crypto from 'node:crypto';
import type { TestApp } from './app.ts';
import { insertUserWithNamespace } from '../../src/services/users.ts';
import type { UserRow } from '../../src/db/repositories/users.ts';

export interface TestUser {
  user: UserRow;
  token: string;
}

export async function createTestUser(
  t: TestApp,
  username: string,
  options: { admin?: boolean; email?: string } = {},
): Promise<TestUser> {
  const token = crypto.randomBytes(10).toString('hex');
  const user = await insertUserWithNamespace(t.server.deps.db.kysely, {
    username,
    name: `User ${username}`,
    email: options.email ?? `${username}@example.com`,
    password: 'password-1234',
    authenticationToken: token,
    admin: options.admin,
  });
  return { user, token };
}

/** Blocks a user the way PUT /users/:id/block does (its route is another area's). */
export async function blockTestUser(t: TestApp, userId: number): Promise<void> {
  await t.server.deps.db.kysely
    .updateTable('users')
    .set({ state: 'blocked' })
    .where('id', '=', userId)
    .execute();
}
