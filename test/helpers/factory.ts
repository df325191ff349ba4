// The one place tests make fixtures: users, groups, projects (with a bare repository), memberships and
// shares, written through the services and repositories the app uses. A test sets up in one call what
// would take several requests, then exercises the routes under test over HTTP.
import type { TestApp } from './app.ts';
import { insertUserWithNamespace } from '../../src/services/users/users.ts';
import { normalizeEmail } from '../../src/services/users/user-validation.ts';
import { friendlyToken } from '../../src/lib/tokens.ts';
import {
  findNamespaceByPath,
  findUserNamespace,
  insertNamespace,
} from '../../src/db/repositories/namespaces.ts';
import { insertProject, NEW_PROJECT_SWITCHES } from '../../src/db/repositories/projects.ts';
import { insertMember } from '../../src/db/repositories/members.ts';
import { initBareRepository, repositoryPath } from '../../src/git/repository.ts';
import { git } from '../../src/git/exec.ts';
import { now } from '../../src/lib/clock.ts';
import { AccessLevel } from '../../src/domain/types.ts';
import type { ProjectRow, UserRow } from '../../src/db/types.ts';

/** A user row with the password and private token it signs in with. */
export interface TestUser extends UserRow {
  password: string;
  token: string;
}

interface UserOptions {
  name?: string;
  email?: string;
  password?: string;
  admin?: boolean;
  /** External users can create neither groups nor projects (their limits are set to 0, as GitLab did). */
  external?: boolean;
  canCreateGroup?: boolean;
  projectsLimit?: number;
  identity?: { provider: string; externUid: string };
}

let counter = 0;

/** A user with a personal namespace; the username defaults to a fresh one. */
export async function createUser(
  t: TestApp,
  username = `user${++counter}_${process.pid}`,
  options: UserOptions = {},
): Promise<TestUser> {
  const password = options.password ?? `${username}-password-1234`;
  const token = friendlyToken();
  const user = await insertUserWithNamespace(t.server.deps, {
    username,
    name: options.name ?? `${username} Name`,
    email: normalizeEmail(options.email ?? `${username}@example.com`),
    password,
    authenticationToken: token,
    admin: options.admin,
    external: options.external,
    canCreateGroup: options.canCreateGroup,
    projectsLimit: options.projectsLimit,
    identity: options.identity,
  });
  return { ...user, password, token };
}

/** A group namespace (public unless told otherwise); its id. */
export async function createGroup(t: TestApp, path: string, visibility = 20): Promise<number> {
  const at = now();
  const group = await insertNamespace(t.server.deps.db.kysely, {
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
  });
  return group.id;
}

export interface TestProject extends ProjectRow {
  namespacePath: string;
  /** `<namespace>/<project>`, as in clone URLs. */
  fullPath: string;
  /** The bare repository on disk. */
  repoPath: string;
}

interface ProjectOptions {
  owner: UserRow;
  path: string;
  /** A group's path; the owner's personal namespace otherwise (the owner then becomes a master member). */
  namespace?: string;
  visibility?: number;
  archived?: boolean;
  /** Commit a README onto master, so the repository is not empty. */
  commit?: boolean;
}

/** A project with a bare repository, as POST /projects would leave it. */
export async function createProject(t: TestApp, options: ProjectOptions): Promise<TestProject> {
  const db = t.server.deps.db.kysely;
  const namespace = options.namespace
    ? await findNamespaceByPath(db, options.namespace)
    : await findUserNamespace(db, options.owner.id);
  if (!namespace) throw new Error(`no namespace ${options.namespace ?? options.owner.username}`);
  const at = now();
  const project = await insertProject(db, {
    namespace_id: namespace.id,
    creator_id: options.owner.id,
    name: options.path,
    path: options.path,
    description: `About ${options.path}`,
    default_branch: null,
    visibility_level: options.visibility ?? 0,
    ...NEW_PROJECT_SWITCHES,
    archived: options.archived ? 1 : 0,
    star_count: 0,
    import_url: null,
    avatar: null,
    runners_token: friendlyToken(),
    last_activity_at: at,
    created_at: at,
    updated_at: at,
  });
  if (namespace.type !== 'Group') await addProjectMember(t, project.id, options.owner.id, 40);
  const repoPath = repositoryPath(t.config.dataDir, namespace.path, project.path);
  await initBareRepository(t.config.dataDir, repoPath);
  if (options.commit) await commitFile(repoPath, 'README.md', `# ${options.path}\n`);
  return {
    ...project,
    namespacePath: namespace.path,
    fullPath: `${namespace.path}/${project.path}`,
    repoPath,
  };
}

export async function addProjectMember(
  t: TestApp,
  projectId: number,
  userId: number,
  level: number,
  expiresAt?: string,
): Promise<void> {
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
): Promise<void> {
  await insertMember(t.server.deps.db.kysely, {
    sourceType: 'Namespace',
    sourceId: groupId,
    userId,
    accessLevel: level,
    expiresAt,
  });
}

/** Shares a project with a group at the given access level. */
export async function shareWithGroup(
  t: TestApp,
  projectId: number,
  groupId: number,
  groupAccess: number,
  expiresAt: string | null = null,
): Promise<void> {
  const at = now();
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

/** A protected-branch rule (an exact name or a `*` pattern), masters only unless developers may push. */
export async function addProtectedBranch(
  t: TestApp,
  projectId: number,
  name: string,
  developersCanPush = false,
): Promise<void> {
  const at = now();
  await t.server.deps.db.kysely
    .insertInto('protected_branches')
    .values({
      project_id: projectId,
      name,
      developers_can_push: developersCanPush ? 1 : 0,
      developers_can_merge: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/** A project of `owner` with a developer and a reporter among its members and a stranger outside. */
export interface ProjectTeam {
  owner: TestUser;
  developer: TestUser;
  reporter: TestUser;
  stranger: TestUser;
  project: TestProject;
}

/**
 * The four users named and `path`, a private project of the owner with a first commit and master as its
 * default branch (set through the API, as its page shows it), for tests of who may do what on a project.
 */
export async function createProjectTeam(
  t: TestApp,
  path: string,
  names: { owner: string; developer: string; reporter: string; stranger: string },
): Promise<ProjectTeam> {
  const owner = await createUser(t, names.owner);
  const developer = await createUser(t, names.developer);
  const reporter = await createUser(t, names.reporter);
  const stranger = await createUser(t, names.stranger);
  const project = await createProject(t, { owner, path, commit: true });
  await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
  await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
  const edit = await t.request('PUT', `/api/v3/projects/${project.id}`, {
    token: owner.token,
    body: { name: path, default_branch: 'master' },
  });
  if (edit.status !== 200) throw new Error(`PUT /projects/${project.id}: ${edit.status} ${edit.text}`);
  return { owner, developer, reporter, stranger, project };
}
