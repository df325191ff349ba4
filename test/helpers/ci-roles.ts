// Callers of every kind for access tables: an administrator, a master, developer, reporter and guest of
// each project made here, a signed-in stranger, and nobody (no token). Projects belong to a separate
// owner, so "master" is a plain master member and not the namespace owner.
import type { TestApp } from './app.ts';
import { addProjectMember, createProject, createUser, type TestProject, type TestUser } from './factory.ts';

export const ROLES = ['admin', 'master', 'developer', 'reporter', 'guest', 'stranger', 'anonymous'] as const;
export type Role = (typeof ROLES)[number];

const LEVELS = { master: 40, developer: 30, reporter: 20, guest: 10 } as const;

export interface Roles {
  owner: TestUser;
  users: Record<Exclude<Role, 'admin' | 'anonymous'>, TestUser>;
  /** The PRIVATE-TOKEN each role sends (none for anonymous). */
  token: Record<Role, string | undefined>;
}

export async function createRoles(t: TestApp, prefix: string): Promise<Roles> {
  const owner = await createUser(t, `${prefix}owner`);
  const users = {
    master: await createUser(t, `${prefix}master`),
    developer: await createUser(t, `${prefix}developer`),
    reporter: await createUser(t, `${prefix}reporter`),
    guest: await createUser(t, `${prefix}guest`),
    stranger: await createUser(t, `${prefix}stranger`),
  };
  const token = {
    admin: t.rootToken,
    master: users.master.token,
    developer: users.developer.token,
    reporter: users.reporter.token,
    guest: users.guest.token,
    stranger: users.stranger.token,
    anonymous: undefined,
  };
  return { owner, users, token };
}

/** A project of the roles' owner (0 private, 10 internal, 20 public) with every member role added. */
export async function createRolesProject(
  t: TestApp,
  roles: Roles,
  path: string,
  visibility: number,
  options: { commit?: boolean } = {},
): Promise<TestProject> {
  const project = await createProject(t, { owner: roles.owner, path, visibility, commit: options.commit });
  for (const [role, level] of Object.entries(LEVELS)) {
    await addProjectMember(t, project.id, roles.users[role as keyof typeof LEVELS].id, level);
  }
  return project;
}
