// Loaders resolve a path parameter through a policy: a project that does not exist and one the caller
// may not read both answer 404 `404 Project Not Found` (reference/api-v3.md §4.5–4.6).
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { findProjectRecordByFullPath, findProjectRecordById } from '../db/repositories/projects.ts';
import {
  findProjectWithAccessRowsByFullPath,
  findProjectWithAccessRowsById,
  type ProjectWithAccessRows,
} from '../db/repositories/project-access-records.ts';
import { findGroupById, findGroupByPath } from '../db/repositories/namespaces.ts';
import { findUserById } from '../db/repositories/users.ts';
import { projectAccessFromRows, type ProjectAccess } from '../policies/access.ts';
import { canReadGroup, groupAccess, type GroupAccess } from '../policies/groups.ts';
import { canDownloadCode, canWriteRepository } from '../policies/git-access.ts';
import { forbidden, notFound } from '../errors.ts';
import { pathId } from './params.ts';
import type { NamespaceRow, ProjectRecord, UserRow } from '../db/types.ts';

export interface LoadedProject extends ProjectRecord {
  access: ProjectAccess;
}

/** A project by integer id or `namespace/path` (the `/` sent as %2F), without any access check. */
export async function findProjectByIdParam(deps: Deps, idParam: unknown): Promise<ProjectRecord | undefined> {
  const text = String(idParam ?? '');
  const slash = text.indexOf('/');
  if (slash > 0) {
    return findProjectRecordByFullPath(deps.db.kysely, text.slice(0, slash), text.slice(slash + 1));
  }
  const id = pathId(text);
  return id === undefined ? undefined : findProjectRecordById(deps.db.kysely, id);
}

/** The project named by `idParam` (default: the `:id` path parameter) if the caller may read it; else 404. */
export async function loadProject(
  deps: Deps,
  request: FastifyRequest,
  idParam: unknown = (request.params as Record<string, unknown>).id,
): Promise<LoadedProject> {
  // One statement: the project, its namespace and what the caller's access is computed from.
  const found = await findProjectWithAccessRows(deps, idParam, request.viewer?.id ?? null);
  if (!found) throw notFound('Project');
  const access = projectAccessFromRows(request.viewer, found.record, found.accessRows);
  if (!access.canRead) throw notFound('Project');
  return { ...found.record, access };
}

function findProjectWithAccessRows(
  deps: Deps,
  idParam: unknown,
  userId: number | null,
): Promise<ProjectWithAccessRows | undefined> {
  const text = String(idParam ?? '');
  const slash = text.indexOf('/');
  if (slash > 0) {
    return findProjectWithAccessRowsByFullPath(
      deps.db.kysely,
      text.slice(0, slash),
      text.slice(slash + 1),
      userId,
    );
  }
  const id = pathId(text);
  return id === undefined
    ? Promise.resolve(undefined)
    : findProjectWithAccessRowsById(deps.db.kysely, id, userId);
}

// find_group (reference/api-v3.md §4.5, §7.10): by path first, then by id; a group that does not exist
// and one the caller may not read both answer 404 `404 Group Not Found`.
export interface LoadedGroup {
  group: NamespaceRow;
  access: GroupAccess;
}

export async function findGroupByIdParam(deps: Deps, idParam: unknown): Promise<NamespaceRow | undefined> {
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
  const group = await findGroupByIdParam(deps, idParam);
  if (!group) throw notFound('Group');
  const access = await groupAccess(deps.db.kysely, request.viewer, group);
  if (!(await canReadGroup(deps.db.kysely, request.viewer, group, access))) throw notFound('Group');
  return { group, access };
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
