// Loaders resolve a path parameter through a policy: a project that does not exist and one the caller
// may not read both answer 404 `404 Project Not Found`, so a hidden project is indistinguishable from none.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { findProjectRecordByFullPath, findProjectRecordById } from '../db/repositories/projects.ts';
import {
  findProjectWithAccessRowsByFullPath,
  findProjectWithAccessRowsById,
  type ProjectWithAccessRows,
} from '../db/repositories/project-access-records.ts';
import {
  findGroupById,
  findGroupByPath,
  findNamespaceById,
  findNamespaceByPathOrName,
  findUserNamespace,
} from '../db/repositories/namespaces.ts';
import { findUserById } from '../db/repositories/users.ts';
import { canAdminProject, projectAccessFromRows, type ProjectAccess } from '../policies/access.ts';
import { canCreateProjectsIn, canReadGroup, groupAccess, type GroupAccess } from '../policies/groups.ts';
import { canDownloadCode, canWriteRepository } from '../policies/git-access.ts';
import { forbidden, notFound } from '../errors.ts';
import { pathId } from './params.ts';
import type { NamespaceRow, ProjectRecord, UserRow } from '../db/types.ts';

export interface LoadedProject extends ProjectRecord {
  access: ProjectAccess;
}

/** How a project `:id` names it: an integer id or `namespace/path` (the `/` sent as %2F). */
function projectName(
  idParam: unknown,
): { id: number } | { namespacePath: string; projectPath: string } | undefined {
  const text = String(idParam ?? '');
  const slash = text.indexOf('/');
  if (slash > 0) return { namespacePath: text.slice(0, slash), projectPath: text.slice(slash + 1) };
  const id = pathId(text);
  return id === undefined ? undefined : { id };
}

/** A project by its `:id` parameter, without any access check. */
export async function findProjectByIdParam(deps: Deps, idParam: unknown): Promise<ProjectRecord | undefined> {
  const name = projectName(idParam);
  if (name === undefined) return undefined;
  return 'id' in name
    ? findProjectRecordById(deps.db.kysely, name.id)
    : findProjectRecordByFullPath(deps.db.kysely, name.namespacePath, name.projectPath);
}

/** A project by `namespace/path` as the git and upload URLs name it, without any access check. */
export function findProjectByFullPath(
  deps: Deps,
  namespacePath: string,
  projectPath: string,
): Promise<ProjectRecord | undefined> {
  return findProjectRecordByFullPath(deps.db.kysely, namespacePath, projectPath);
}

/**
 * A project by `namespace/path` (uploads' URLs) with the caller's access, when the caller may read it,
 * else undefined (the surface answers its own 404): the same one statement as loadProject and git's
 * authorization, so every surface takes one road to a project's access.
 */
export async function readableProjectByFullPath(
  deps: Deps,
  viewer: UserRow | null,
  namespacePath: string,
  projectPath: string,
): Promise<LoadedProject | undefined> {
  const userId = viewer?.id ?? null;
  return readable(
    viewer,
    await findProjectWithAccessRowsByFullPath(deps.db.kysely, namespacePath, projectPath, userId),
  );
}

/** The project named by `idParam` (a body or query parameter) if the caller may read it, else undefined. */
export async function readableProjectByIdParam(
  deps: Deps,
  viewer: UserRow | null,
  idParam: unknown,
): Promise<LoadedProject | undefined> {
  return readable(viewer, await findProjectWithAccessRows(deps, idParam, viewer?.id ?? null));
}

function readable(
  viewer: UserRow | null,
  found: ProjectWithAccessRows | undefined,
): LoadedProject | undefined {
  if (!found) return undefined;
  const access = projectAccessFromRows(viewer, found.record, found.accessRows);
  return access.canRead ? { ...found.record, access } : undefined;
}

/** The project named by `idParam` (default: the `:id` path parameter) if the caller may read it; else 404. */
export async function loadProject(
  deps: Deps,
  request: FastifyRequest,
  idParam: unknown = (request.params as Record<string, unknown>).id,
): Promise<LoadedProject> {
  // One statement: the project, its namespace and what the caller's access is computed from.
  const project = await readableProjectByIdParam(deps, request.viewer, idParam);
  if (!project) throw notFound('Project');
  return project;
}

/** A project the caller administers (masters, owners, admins): 404 when hidden, 403 when only readable. */
export async function loadAdministeredProject(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canAdminProject(project.access)) throw forbidden();
  return project;
}

function findProjectWithAccessRows(
  deps: Deps,
  idParam: unknown,
  userId: number | null,
): Promise<ProjectWithAccessRows | undefined> {
  const name = projectName(idParam);
  if (name === undefined) return Promise.resolve(undefined);
  return 'id' in name
    ? findProjectWithAccessRowsById(deps.db.kysely, name.id, userId)
    : findProjectWithAccessRowsByFullPath(deps.db.kysely, name.namespacePath, name.projectPath, userId);
}

// GitLab's find_group: by path first, then by id; a group that does not exist
// and one the caller may not read both answer 404 `404 Group Not Found`.
export interface LoadedGroup {
  group: NamespaceRow;
  access: GroupAccess;
}

async function findGroupByIdParam(deps: Deps, idParam: unknown): Promise<NamespaceRow | undefined> {
  const text = String(idParam ?? '');
  if (text === '') return undefined;
  const byPath = await findGroupByPath(deps.db.kysely, text);
  if (byPath) return byPath;
  const id = pathId(text);
  return id === undefined ? undefined : findGroupById(deps.db.kysely, id);
}

export async function loadGroup(
  deps: Deps,
  request: FastifyRequest,
  idParam: unknown = (request.params as Record<string, unknown>).id,
): Promise<LoadedGroup> {
  return readableGroup(deps, request.viewer, await findGroupByIdParam(deps, idParam));
}

/** A group by its integer id (the share API's `group_id`) if the caller may read it; else 404. */
export async function loadGroupById(
  deps: Deps,
  viewer: UserRow | null,
  id: number | undefined,
): Promise<LoadedGroup> {
  return readableGroup(deps, viewer, id === undefined ? undefined : await findGroupById(deps.db.kysely, id));
}

async function readableGroup(
  deps: Deps,
  viewer: UserRow | null,
  group: NamespaceRow | undefined,
): Promise<LoadedGroup> {
  if (!group) throw notFound('Group');
  const access = await groupAccess(deps.db.kysely, viewer, group);
  if (!(await canReadGroup(deps.db.kysely, viewer, group, access))) throw notFound('Group');
  return { group, access };
}

/**
 * The namespace a project is created or forked into: the caller's own when none is given, else by id,
 * then by path or name; 404 `Target Namespace Not Found` unless the caller may create projects there.
 */
export async function loadTargetNamespace(
  deps: Deps,
  viewer: UserRow,
  given: string | undefined,
): Promise<NamespaceRow> {
  const db = deps.db.kysely;
  if (given === undefined || given.trim() === '') {
    const own = await findUserNamespace(db, viewer.id);
    if (!own) throw notFound('Target Namespace');
    return own;
  }
  const id = pathId(given.trim());
  const namespace =
    (id !== undefined ? await findNamespaceById(db, id) : undefined) ??
    (await findNamespaceByPathOrName(db, given.trim()));
  if (!namespace || !(await canCreateProjectsIn(db, viewer, namespace))) throw notFound('Target Namespace');
  return namespace;
}

/** The project of a repository route: readable (else 404) and its code downloadable (else 403). */
export async function loadProjectRepository(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canDownloadCode(project.access, project)) throw forbidden();
  return project;
}

/**
 * The project of a repository write and its writer: readable (else 404), push_code for the caller (else
 * 403).
 */
export async function loadWritableRepository(
  deps: Deps,
  request: FastifyRequest,
): Promise<LoadedProject & { user: UserRow }> {
  const project = await loadProjectRepository(deps, request);
  if (!request.viewer || !canWriteRepository(project.access, project)) throw forbidden();
  return { ...project, user: request.viewer };
}

/** A user by the integer id in a path parameter; undefined when there is none (callers pick their 404). */
export async function findUserByIdParam(deps: Deps, idParam: unknown): Promise<UserRow | undefined> {
  const id = pathId(idParam);
  return id === undefined ? undefined : findUserById(deps.db.kysely, id);
}
