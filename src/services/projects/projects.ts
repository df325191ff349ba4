// Project business rules: create (path from the name,
// validation, projects_limit, repository on disk or imported, "created" event, creator as master — all in
// one transaction), edit (rename moves the repository), delete (rows and files).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../../deps.ts';
import {
  countPersonalProjects,
  deleteProjectRow,
  findNameOrPathClash,
  findNamespaceById,
  findPersonalNamespace,
  findProjectRecordById,
  insertProject,
  NEW_PROJECT_SWITCHES,
  projectsInNamespace,
  updateProject as updateProjectRow,
} from '../../db/repositories/projects.ts';
import { insertMember } from '../../db/repositories/members.ts';
import { insertForkLink } from '../../db/repositories/forks.ts';
import { canCreateProjectsIn } from '../../policies/groups.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { setHead } from '../../git/refs.ts';
import { importBareRepository } from '../../git/import.ts';
import { isBranchName } from '../../git/ref-names.ts';
import { namespaceUploadsDir, projectUploadsDir, removeProjectUploads } from '../../storage/uploads.ts';
import { outboundTarget } from '../../lib/outbound-guard.ts';
import { outboundPolicyFor } from '../hooks/hook-url.ts';
import { moveRepository, removeRepository, repositoriesRoot, repositoryPath } from '../../git/repository.ts';
import { ApiError, grapeError, notFound, validationFailed, ValidationErrors } from '../../errors.ts';
import { AccessLevel, EventAction, Visibility, VISIBILITY_NAMES } from '../../domain/types.ts';
import { recordEvent } from '../activity/events.ts';
import {
  placeRepository,
  REPOSITORY_ON_DISK,
  RepositoryPathTaken,
  reserveRepository,
  settleRepository,
} from '../repository/repository-placement.ts';
import {
  announceProjectCreate,
  announceProjectDestroy,
  announceProjectDestroyById,
  announceProjectMove,
} from '../hooks/system-hook-announcements.ts';
import type {
  Executor,
  NamespaceRow,
  NewProject,
  ProjectChanges,
  ProjectRecord,
  ProjectRow,
  UserRow,
} from '../../db/types.ts';
import { friendlyToken } from '../../lib/tokens.ts';
import { removeProjectArtifacts } from '../../storage/artifacts.ts';
import { removeProjectTraces } from '../../storage/traces.ts';
import { removeAvatars } from '../../storage/avatars.ts';

export interface ProjectAttributes {
  name?: string;
  path?: string;
  description?: string;
  namespace_id?: number;
  visibility_level?: number;
  default_branch?: string;
  import_url?: string;
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  wiki_enabled?: boolean;
  builds_enabled?: boolean;
  snippets_enabled?: boolean;
  container_registry_enabled?: boolean;
  shared_runners_enabled?: boolean;
  public_builds?: boolean;
  lfs_enabled?: boolean;
  only_allow_merge_if_build_succeeds?: boolean;
  request_access_enabled?: boolean;
}

/** The switches a client may set on create and edit: every new-project switch except `archived`. */
type FeatureSwitch = Exclude<keyof typeof NEW_PROJECT_SWITCHES, 'archived'>;
export const FEATURE_SWITCHES = Object.keys(NEW_PROJECT_SWITCHES).filter(
  (key): key is FeatureSwitch => key !== 'archived',
);

const NAME_FORMAT = /^[\p{Alphabetic}\p{Nd}_][\p{Alphabetic}\p{Nd}\p{Pd}_. ]*$/u;
const NAME_MESSAGE =
  "can contain only letters, digits, '_', '.', dash and space. It must start with letter, digit or '_'.";
const PATH_FORMAT = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/;
const PATH_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
const IMPORT_URL = /^(https?|git|ssh):\/\/[^\s/?#]+[^\s]*$/i;

/** Rails' String#parameterize: ASCII-fold, non-alphanumerics to '-', squeezed, trimmed, lower-cased. */
function parameterize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9\-_]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

function validateName(errors: ValidationErrors, name: string | undefined): void {
  if (name === undefined || name.trim() === '') {
    errors.add('name', "can't be blank");
    errors.add('name', 'is too short (minimum is 0 characters)');
    errors.add('name', NAME_MESSAGE);
    return;
  }
  if (name.length > 255) errors.add('name', 'is too long (maximum is 255 characters)');
  if (!NAME_FORMAT.test(name)) errors.add('name', NAME_MESSAGE);
}

function validatePath(errors: ValidationErrors, projectPath: string | undefined): void {
  if (projectPath === undefined || projectPath.trim() === '') {
    errors.add('path', "can't be blank");
    errors.add('path', 'is too short (minimum is 0 characters)');
    errors.add('path', PATH_MESSAGE);
    return;
  }
  if (projectPath.length > 255) errors.add('path', 'is too long (maximum is 255 characters)');
  if (!PATH_FORMAT.test(projectPath) || /\.(git|atom)$/.test(projectPath)) errors.add('path', PATH_MESSAGE);
}

function validateVisibility(errors: ValidationErrors, level: number, namespace: NamespaceRow): void {
  if (!(level in VISIBILITY_NAMES)) {
    errors.add('visibility_level', 'is not included in the list');
    return;
  }
  if (namespace.type === 'Group' && level > namespace.visibility_level) {
    errors.add(
      'visibility_level',
      `${VISIBILITY_NAMES[level]} is not allowed in a ${VISIBILITY_NAMES[namespace.visibility_level] ?? 'unknown'} group.`,
    );
  }
}

/** Name/path taken in the namespace; the wiki repository `<path>.wiki` also claims the name (GitLab). */
async function validateUniqueness(
  db: Executor,
  errors: ValidationErrors,
  namespaceId: number,
  name: string | undefined,
  projectPath: string | undefined,
  exceptId?: number,
): Promise<void> {
  const clash = await findNameOrPathClash(db, namespaceId, name, projectPath, exceptId);
  if (clash.name && !errors.has('name')) errors.add('name', 'has already been taken');
  if (clash.path && !errors.has('path')) errors.add('path', 'has already been taken');
  if (projectPath && !clash.name) {
    const sibling = projectPath.endsWith('.wiki') ? projectPath.slice(0, -5) : `${projectPath}.wiki`;
    const wiki = await findNameOrPathClash(db, namespaceId, undefined, sibling, exceptId);
    if (wiki.path && !errors.has('name')) errors.add('name', 'has already been taken');
  }
}

/** GitLab's message when a personal project would pass the user's projects_limit (create and fork). */
export function projectLimitMessage(limit: number): string {
  return limit === 0
    ? 'Personal project creation is not allowed. Please contact your administrator with questions'
    : `Your project limit is ${limit} projects! Please contact your administrator to increase it`;
}

export interface CreateProjectInput {
  /** Who asked (the caller). */
  actor: UserRow;
  /** Creator and owner: the caller, or the user of POST /projects/user/:user_id. */
  creator: UserRow;
  attributes: ProjectAttributes;
  /** The branch a new empty repository's HEAD names when no default_branch is given (v3: `master`). */
  initialBranch?: string;
  /** A reached limit: 403 on POST /projects, a validation error on POST /projects/user/:id (as GitLab). */
  limitStyle: 'forbidden' | 'validation';
}

function switchValues(attributes: ProjectAttributes): ProjectChanges {
  const values: ProjectChanges = {};
  for (const key of FEATURE_SWITCHES) {
    const value = attributes[key];
    if (value !== undefined) values[key] = value ? 1 : 0;
  }
  return values;
}

function translateImportError(error: unknown): ApiError {
  const text = error instanceof Error ? error.message : String(error);
  const reason =
    text
      .replace(/^git clone failed \(\d+\): /, '')
      .split('\n')
      .pop()
      ?.trim() || 'clone failed';
  return validationFailed({ import_url: [`could not be imported: ${reason}`] }, 422);
}

export async function createProject(deps: Deps, input: CreateProjectInput): Promise<ProjectRecord> {
  const db = deps.db.kysely;
  const { creator, attributes } = input;
  let name = attributes.name;
  let projectPath = attributes.path;
  if (name !== undefined && projectPath === undefined) projectPath = parameterize(name);
  else if (name === undefined && projectPath !== undefined) name = projectPath;

  let namespace: NamespaceRow | undefined;
  if (attributes.namespace_id !== undefined) {
    namespace = await findNamespaceById(db, attributes.namespace_id);
    if (!namespace || !(await canCreateProjectsIn(db, creator, namespace))) {
      throw validationFailed({ namespace: ['is not valid'] });
    }
  } else {
    namespace = await findPersonalNamespace(db, creator.id);
    if (!namespace) throw validationFailed({ namespace: ["can't be blank"] });
  }

  const errors = new ValidationErrors();
  validateName(errors, name);
  validatePath(errors, projectPath);
  if (attributes.description !== undefined && attributes.description.length > 2000) {
    errors.add('description', 'is too long (maximum is 2000 characters)');
  }
  await validateUniqueness(db, errors, namespace.id, name, projectPath);
  let importAddresses: string[] | undefined;
  if (attributes.import_url !== undefined && !IMPORT_URL.test(attributes.import_url)) {
    errors.add('import_url', 'must be a valid URL');
  } else if (attributes.import_url !== undefined) {
    // An import is an outbound request too (GitLab 10.6 blocked local import URLs alike); judged on what
    // the name resolves to now, and git is held to those very addresses (git/import.ts).
    const policy = await outboundPolicyFor(deps.db.kysely, deps.config.outbound, 'project');
    const target = await outboundTarget(attributes.import_url, policy).catch(() => undefined);
    if (target && 'problem' in target) errors.add('import_url', `is blocked: ${target.problem}`);
    else importAddresses = target?.addresses;
  }
  if (namespace.type !== 'Group') {
    const count = await countPersonalProjects(db, creator.id);
    if (creator.projects_limit - count <= 0) {
      const message = projectLimitMessage(creator.projects_limit);
      if (input.limitStyle === 'forbidden') throw grapeError(403, [message]);
      errors.add('limit_reached', message);
    }
  }
  const visibility = attributes.visibility_level ?? Visibility.Private;
  validateVisibility(errors, visibility, namespace);
  errors.throwIfAny();

  const finalName = name!;
  const finalPath = projectPath!;

  // Imports clone into a private folder first: a failed clone leaves neither a row nor a directory.
  let imported: string | undefined;
  if (attributes.import_url !== undefined) {
    const tmp = path.join(deps.config.dataDir, 'tmp');
    await fs.mkdir(tmp, { recursive: true });
    imported = path.join(tmp, `import-${crypto.randomBytes(8).toString('hex')}.git`);
    try {
      await importBareRepository(attributes.import_url, imported, importAddresses);
    } catch (error) {
      await removeRepository(imported);
      throw translateImportError(error);
    }
  }

  const ns = namespace;
  try {
    const project = await insertNewProject(deps, {
      namespace: ns,
      creator,
      values: {
        name: finalName,
        path: finalPath,
        description: attributes.description ?? null,
        default_branch: attributes.default_branch ?? null,
        visibility_level: visibility,
        ...NEW_PROJECT_SWITCHES,
        ...switchValues(attributes),
        import_url: attributes.import_url ?? null,
      },
      repository: imported
        ? { source: imported }
        : { defaultBranch: attributes.default_branch ?? input.initialBranch ?? 'master' },
    });
    // The row as written (the columns and order findProjectRecordById reads), not read again.
    return { project, namespace: ns };
  } catch (error) {
    if (error instanceof RepositoryPathTaken) throw validationFailed({ path: [REPOSITORY_ON_DISK] });
    if (isUniqueViolation(error)) {
      // A concurrent create won the same name or path: answer as the validation would have.
      const lost = new ValidationErrors();
      await validateUniqueness(db, lost, ns.id, finalName, finalPath);
      if (lost.empty) lost.add('path', 'has already been taken');
      lost.throwIfAny();
    }
    throw error;
  } finally {
    if (imported) await removeRepository(imported);
  }
}

type MadeByTheStep =
  | 'namespace_id'
  | 'creator_id'
  | 'runners_token'
  | 'star_count'
  | 'avatar'
  | 'last_activity_at'
  | 'created_at'
  | 'updated_at';

/** What a new project is made of; the step adds the ids, token, counters and timestamps. */
export interface NewProjectParts {
  namespace: NamespaceRow;
  creator: UserRow;
  values: Omit<NewProject, MadeByTheStep>;
  /** The repository: moved from a clone the caller made (`source`, an import or a fork) or a new empty one. */
  repository: { source: string } | { defaultBranch: string };
  /** A fork's source: the fork link is written in the same transaction. */
  forkedFromId?: number;
}

/**
 * The one creation step of every new project (create, import, fork; Projects::CreateService): the row,
 * the creator as master of a personal project, the fork link, the "created" event, the `project_create`
 * (and the creator's `user_add_to_team`) system hook announcements and the repository placed, in one
 * transaction. Throws RepositoryPathTaken or the unique violation of a concurrent twin for the caller to
 * word; a `source` clone that did not get placed stays the caller's to remove.
 */
export async function insertNewProject(deps: Deps, parts: NewProjectParts): Promise<ProjectRow> {
  const { namespace: ns, creator } = parts;
  const at = now();
  const reservation = await reserveRepository(
    deps,
    repositoryPath(deps.config.dataDir, ns.path, parts.values.path),
  );
  let committed = false;
  try {
    const inserted = await deps.db.kysely.transaction().execute(async (trx) => {
      const project = await insertProject(trx, {
        ...parts.values,
        namespace_id: ns.id,
        creator_id: creator.id,
        runners_token: friendlyToken(),
        star_count: 0,
        avatar: null,
        last_activity_at: at,
        created_at: at,
        updated_at: at,
      });
      if (parts.forkedFromId !== undefined) await insertForkLink(trx, project.id, parts.forkedFromId, at);
      // GitLab made the creator a master of personal projects (owner rights come from the namespace).
      const creatorMember =
        ns.type !== 'Group'
          ? await insertMember(trx, {
              sourceType: 'Project',
              sourceId: project.id,
              userId: creator.id,
              accessLevel: AccessLevel.Master,
              createdById: creator.id,
            })
          : null;
      await announceProjectCreate(trx, project, ns, creatorMember, creator);
      await recordEvent(trx, {
        projectId: project.id,
        authorId: creator.id,
        action: EventAction.Created,
        at,
        projectJustCreated: true,
      });
      await placeRepository(trx, deps, reservation, parts.repository);
      return project;
    });
    committed = true;
    return inserted;
  } finally {
    await settleRepository(deps, reservation, committed);
  }
}

export interface UpdateProjectInput {
  record: ProjectRecord;
  attributes: ProjectAttributes;
}

/** Edits a project the caller may administer; owner-only parts are checked by the route. */
export async function updateProject(deps: Deps, input: UpdateProjectInput): Promise<ProjectRecord> {
  const db = deps.db.kysely;
  const { record, attributes } = input;
  const { project, namespace } = record;
  const errors = new ValidationErrors();
  const newName = attributes.name;
  const newPath = attributes.path;
  if (newName !== undefined) validateName(errors, newName);
  if (newPath !== undefined) validatePath(errors, newPath);
  if (attributes.description !== undefined && attributes.description.length > 2000) {
    errors.add('description', 'is too long (maximum is 2000 characters)');
  }
  await validateUniqueness(
    db,
    errors,
    namespace.id,
    newName !== undefined && newName !== project.name ? newName : undefined,
    newPath !== undefined && newPath !== project.path ? newPath : undefined,
    project.id,
  );
  if (attributes.visibility_level !== undefined)
    validateVisibility(errors, attributes.visibility_level, namespace);
  if (attributes.default_branch !== undefined) {
    if (!isBranchName(attributes.default_branch)) errors.add('default_branch', 'is invalid');
  }
  errors.throwIfAny();

  const changes: ProjectChanges = { ...switchValues(attributes), updated_at: now() };
  if (newName !== undefined) changes.name = newName;
  if (newPath !== undefined) changes.path = newPath;
  if (attributes.description !== undefined) changes.description = attributes.description;
  if (attributes.visibility_level !== undefined) changes.visibility_level = attributes.visibility_level;
  if (attributes.default_branch !== undefined) changes.default_branch = attributes.default_branch;

  const from = repositoryPath(deps.config.dataDir, namespace.path, project.path);
  const to = newPath !== undefined ? repositoryPath(deps.config.dataDir, namespace.path, newPath) : from;
  try {
    await db.transaction().execute(async (trx) => {
      await updateProjectRow(trx, project.id, changes);
      if (newPath !== undefined && newPath !== project.path) {
        const renamed = { ...project, ...changes } as typeof project;
        await announceProjectMove(
          trx,
          'project_rename',
          renamed,
          namespace,
          `${namespace.path}/${project.path}`,
        );
      }
      if (to !== from) {
        await moveIfExists(from, to);
        await moveIfExists(
          repositoryPath(deps.config.dataDir, namespace.path, project.path, 'wiki'),
          repositoryPath(deps.config.dataDir, namespace.path, newPath!, 'wiki'),
        );
        await moveIfExists(
          projectUploadsDir(deps.config.dataDir, namespace.path, project.path),
          projectUploadsDir(deps.config.dataDir, namespace.path, newPath!),
        );
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const lost = new ValidationErrors();
      await validateUniqueness(db, lost, namespace.id, newName, newPath, project.id);
      if (lost.empty) lost.add('path', 'has already been taken');
      lost.throwIfAny();
    }
    throw error;
  }
  if (attributes.default_branch !== undefined) {
    // GitLab changed HEAD only when the repository exists, without checking that the branch does.
    await setHead(to, attributes.default_branch).catch(() => {});
  }
  // Deleted by another request since it was loaded: the same answer as if the deletion had come first.
  const updated = await findProjectRecordById(db, project.id);
  if (!updated) throw notFound('Project');
  return updated;
}

async function moveIfExists(from: string, to: string): Promise<void> {
  if (from === to) return;
  try {
    await fs.access(from);
  } catch {
    return;
  }
  if (from.toLowerCase() === to.toLowerCase()) return;
  await moveRepository(from, to);
}

/**
 * Deletes a project and everything attached: rows (members here; shares, stars, fork links, events and
 * every project-owned table of later areas cascade) and, once that has committed, its files (repository,
 * wiki, uploads, build artifacts, traces and avatar). Areas that keep files elsewhere add their removal here.
 */
export async function deleteProject(deps: Deps, record: ProjectRecord): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await announceProjectDestroy(trx, record.project, record.namespace);
    await deleteProjectRow(trx, record.project.id);
  });
  await removeProjectFiles(deps, record.namespace.path, record.project);
}

async function removeProjectFiles(
  deps: Deps,
  namespacePath: string,
  project: { id: number; path: string },
): Promise<void> {
  const { dataDir } = deps.config;
  await removeRepository(repositoryPath(dataDir, namespacePath, project.path));
  await removeRepository(repositoryPath(dataDir, namespacePath, project.path, 'wiki'));
  await removeProjectUploads(dataDir, namespacePath, project.path);
  await removeProjectArtifacts(dataDir, project.id);
  await removeProjectTraces(dataDir, project.id);
  await removeAvatars(dataDir, 'project', project.id);
}

/**
 * Before a user is deleted: their personal projects go with them (GitLab's DeleteUserService). Rows are
 * removed in `trx` (the user deletion's transaction); files after it commits, with the returned callback.
 */
export async function deletePersonalProjects(
  deps: Deps,
  trx: Executor,
  userId: number,
): Promise<() => Promise<void>> {
  const namespace = await findPersonalNamespace(trx, userId);
  if (!namespace) return async () => {};
  const projects = await projectsInNamespace(trx, namespace.id);
  for (const project of projects) {
    await announceProjectDestroyById(trx, project.id);
    await deleteProjectRow(trx, project.id);
  }
  return async () => {
    for (const project of projects) await removeProjectFiles(deps, namespace.path, project);
    // Only the projects' own files go; anything else found there is not provably theirs and stays.
    await removeIfEmpty(path.join(repositoriesRoot(deps.config.dataDir), namespace.path.toLowerCase()));
    await removeIfEmpty(namespaceUploadsDir(deps.config.dataDir, namespace.path));
  };
}

async function removeIfEmpty(dir: string): Promise<void> {
  await fs.rmdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT' && error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
  });
}
