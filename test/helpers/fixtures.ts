// Test fixtures for the groups/members/forks/uploads tests: users and projects made through the same
// repository and git functions the app uses (the routes under test are then exercised over HTTP).
import crypto from 'node:crypto';
import type { TestApp } from './app.ts';
import { insertUserWithNamespace } from '../../src/services/users.ts';
import { insertProject } from '../../src/db/repositories/projects.ts';
import { findUserNamespace, findNamespaceByPath } from '../../src/db/repositories/namespaces.ts';
import { insertMember } from '../../src/db/repositories/members.ts';
import { initBareRepository, repositoryPath } from '../../src/git/repository.ts';
import { git } from '../../src/git/exec.ts';
import { now } from '../../src/db/errors.ts';

export interface TestUser {
  id: number;
  username: string;
  token: string;
}

export async function createUser(
  t: TestApp,
  username: string,
  options: { admin?: boolean; external?: boolean; canCreateGroup?: boolean } = {},
): Promise<TestUser> {
  const token = crypto.randomBytes(10).toString('hex');
  const db = t.server.deps.db.kysely;
  const user = await insertUserWithNamespace(db, {
    username,
    name: `${username} Name`,
    email: `${username}@example.com`,
    password: 'password1234',
    authenticationToken: token,
    admin: options.admin,
  });
  const changes: Record<string, number> = {};
  if (options.external) changes.external = 1;
  if (options.canCreateGroup === false) changes.can_create_group = 0;
  if (Object.keys(changes).length > 0)
    await db.updateTable('users').set(changes).where('id', '=', user.id).execute();
  return { id: user.id, username, token };
}

export interface TestProject {
  id: number;
  namespacePath: string;
  path: string;
}

/** A project in a user's personal namespace or a group (by path), with a bare repository on disk. */
export async function createProject(
  t: TestApp,
  options: { owner: TestUser; namespace?: string; path: string; visibility?: number; commit?: boolean },
): Promise<TestProject> {
  const db = t.server.deps.db.kysely;
  const namespace = options.namespace
    ? await findNamespaceByPath(db, options.namespace)
    : await findUserNamespace(db, options.owner.id);
  if (!namespace) throw new Error('no such namespace');
  const at = now();
  const project = await insertProject(db, {
    namespace_id: namespace.id,
    creator_id: options.owner.id,
    name: options.path,
    path: options.path,
    description: `About ${options.path}`,
    default_branch: null,
    visibility_level: options.visibility ?? 0,
    runners_token: crypto.randomBytes(10).toString('hex'),
    last_activity_at: at,
    created_at: at,
    updated_at: at,
  } as any);
  if (namespace.type !== 'Group') {
    await insertMember(db, {
      sourceType: 'Project',
      sourceId: project.id,
      userId: options.owner.id,
      accessLevel: 40,
      createdById: options.owner.id,
    });
  }
  const repo = repositoryPath(t.config.dataDir, namespace.path, options.path);
  await initBareRepository(repo);
  if (options.commit) await commitFile(repo, 'README.md', `# ${options.path}\n`);
  return { id: project.id, namespacePath: namespace.path, path: options.path };
}

/** Writes one commit onto master of a bare repository (plumbing only: no work tree needed). */
export async function commitFile(repo: string, name: string, content: string): Promise<string> {
  const blob = (await git(['hash-object', '-w', '--stdin'], { cwd: repo, input: content })).trim();
  const tree = (await git(['mktree'], { cwd: repo, input: `100644 blob ${blob}\t${name}\n` })).trim();
  const env = {
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
  const commit = (await git(['commit-tree', tree, '-m', 'Initial'], { cwd: repo, env })).trim();
  await git(['update-ref', 'refs/heads/master', commit], { cwd: repo });
  return commit;
}
