// Loaders resolve a path parameter through a policy: a project that does not exist and one the caller
// may not read both answer 404 `404 Project Not Found`, so a hidden project is indistinguishable from none.
// One set for every surface: the API's `:id` (a number or `namespace/path`), the pages' `:namespace/:project`
// (loadPageProject), issues and merge requests by global id (v3's paths) or by iid (pages, v4), and the
// project a master administers.
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
import { canReadIssue } from '../policies/issues.ts';
import { canReadMergeRequests } from '../policies/merge-requests.ts';
import { canReadProjectSnippets, canReadSnippet } from '../policies/snippets.ts';
import { findSnippetById } from '../views/snippet-views.ts';
import { findIssueByIid, findIssueOfProject } from '../views/issue-views.ts';
import { findMergeRequestByIid, findMergeRequestOfProject } from '../views/merge-request-views.ts';
import { ApiError, forbidden, notFound, recordNotFound, unauthorized } from '../errors.ts';
import { requireViewer } from './auth.ts';
import { pathId, pathInteger } from './params.ts';
import type {
  IssueRow,
  MergeRequestRow,
  NamespaceRow,
  ProjectRecord,
  SnippetRow,
  UserRow,
} from '../db/types.ts';

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

/**
 * A page's load: a signed-out visitor who would get a 404 is sent to sign in first (401; the pages'
 * error handler redirects a 401 there and back), since signing in may reveal it. A signed-in visitor
 * gets the 404, exactly as the API answers.
 */
export async function hiddenAsks<T>(request: FastifyRequest, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!request.viewer && error instanceof ApiError && error.status === 404) throw unauthorized();
    throw error;
  }
}

/**
 * The project of a page by its `:namespace/:project` path, through loadProject: readable and, when `may`
 * is given, passing it (its issues readable, say), else 404 (a visitor is asked to sign in first).
 */
export function loadPageProject(
  deps: Deps,
  request: FastifyRequest,
  may?: (project: LoadedProject) => boolean,
): Promise<LoadedProject> {
  const params = request.params as { namespace: string; project: string };
  return hiddenAsks(request, async () => {
    const project = await loadProject(deps, request, `${params.namespace}/${params.project}`);
    if (may && !may(project)) throw notFound();
    return project;
  });
}

export interface LoadedIssue {
  project: LoadedProject;
  issue: IssueRow;
}

/**
 * An issue named by `:issue_id` (a global id, as v3 paths take) within a project the caller reads: missing,
 * in another project, or unreadable (issues off, confidential) all answer 404 `404 Not found`, so a hidden
 * issue is indistinguishable from none (8.13.12's find_project_issue).
 */
export async function loadIssue(
  deps: Deps,
  request: FastifyRequest,
  loaded?: LoadedProject,
  param = 'issue_id',
): Promise<LoadedIssue> {
  const project = loaded ?? (await loadProject(deps, request));
  const id = pathInteger(request.params as Record<string, unknown>, param);
  const issue = await findIssueOfProject(deps, project.project.id, id);
  if (!issue || !canReadIssue(request.viewer, project.access, project, issue)) throw recordNotFound();
  return { project, issue };
}

/**
 * An issue or merge request by a v3 path's global id, found in the project first (`404 Not found` when
 * it is not there), then read-checked: 8.13's notes and award emoji answer their own 404
 * (`404 Notes Not Found`, `404 Award Emoji Not Found`) for one the caller may not read.
 */
export async function loadNoteableOf(
  deps: Deps,
  request: FastifyRequest,
  project: LoadedProject,
  kind: 'Issue' | 'MergeRequest',
  unreadable: string,
): Promise<{ issue: IssueRow; mr?: undefined } | { mr: MergeRequestRow; issue?: undefined }> {
  const params = request.params as Record<string, unknown>;
  if (kind === 'Issue') {
    const issue = await findIssueOfProject(deps, project.project.id, pathInteger(params, 'issue_id'));
    if (!issue) throw recordNotFound();
    if (!canReadIssue(request.viewer, project.access, project, issue)) throw notFound(unreadable);
    return { issue };
  }
  const id = pathId(params.merge_request_id);
  const mr = id === undefined ? undefined : await findMergeRequestOfProject(deps, project, id);
  if (!mr) throw recordNotFound();
  if (!canReadMergeRequests(project.access, project)) throw notFound(unreadable);
  return { mr };
}

/**
 * An issue by its iid within the project (the pages' `:iid`, v4's `:issue_iid`), readable by the caller
 * as loadIssue's, else 404 `404 Not found`.
 */
export async function loadIssueByIid(
  deps: Deps,
  request: FastifyRequest,
  project: LoadedProject,
  param = 'issue_iid',
): Promise<IssueRow> {
  const iid = pathId((request.params as Record<string, unknown>)[param]);
  const issue = iid === undefined ? undefined : await findIssueByIid(deps, project.project.id, iid);
  if (!issue || !canReadIssue(request.viewer, project.access, project, issue)) throw recordNotFound();
  return issue;
}

/**
 * The project of an API merge request route, readable, with merge requests readable by the caller (a
 * user): unreadable ones answer 403 (8.13's authorize! :read_merge_request).
 */
export async function loadMergeRequestProject(
  deps: Deps,
  request: FastifyRequest,
  loaded?: LoadedProject,
): Promise<{ viewer: UserRow; project: LoadedProject }> {
  const viewer = requireViewer(request);
  const project = loaded ?? (await loadProject(deps, request));
  if (!canReadMergeRequests(project.access, project)) throw forbidden();
  return { viewer, project };
}

/**
 * A merge request named by `:merge_request_id` (the global id, as v3 paths take) on loadMergeRequestProject's
 * terms; one that is missing or in another project answers 404 `404 Not found`.
 */
export async function loadMergeRequestOf(
  deps: Deps,
  request: FastifyRequest,
  loaded?: LoadedProject,
): Promise<{ viewer: UserRow; project: LoadedProject; mr: MergeRequestRow }> {
  const { viewer, project } = await loadMergeRequestProject(deps, request, loaded);
  const id = pathId((request.params as Record<string, unknown>).merge_request_id);
  const mr = id === undefined ? undefined : await findMergeRequestOfProject(deps, project, id);
  if (!mr) throw recordNotFound();
  return { viewer, project, mr };
}

/**
 * A merge request by its iid within the target project (the pages' `:iid`, v4's `:merge_request_iid`),
 * else 404 `404 Not found`; whether the caller may read merge requests there is the project's rule.
 */
export async function loadMergeRequestByIid(
  deps: Deps,
  request: FastifyRequest,
  project: LoadedProject,
  param = 'merge_request_iid',
): Promise<MergeRequestRow> {
  const iid = pathId((request.params as Record<string, unknown>)[param]);
  const mr = iid === undefined ? undefined : await findMergeRequestByIid(deps, project, iid);
  if (!mr) throw recordNotFound();
  return mr;
}

/**
 * The project snippet `:snippet_id` (or `param`) that the caller may read: in this project, its snippets
 * feature on, its visibility letting the caller see it (SnippetsFinder#by_project with the snippet's
 * policy); else 404 `404 Not found`, or `404 <unreadable> Not Found` when that is given.
 */
export async function loadProjectSnippet(
  deps: Deps,
  request: FastifyRequest,
  project: LoadedProject,
  param = 'snippet_id',
  unreadable?: string,
): Promise<SnippetRow> {
  const id = pathId((request.params as Record<string, unknown>)[param]);
  const snippet = id === undefined ? undefined : await findSnippetById(deps, id);
  if (!snippet || snippet.project_id !== project.project.id) throw recordNotFound();
  if (
    !canReadProjectSnippets(project.access, project) ||
    !canReadSnippet(request.viewer, snippet, project.access)
  ) {
    throw unreadable === undefined ? recordNotFound() : notFound(unreadable);
  }
  return snippet;
}

/** A personal snippet `:id` the caller may read, else 404 `404 Snippet Not Found`. */
export async function loadPersonalSnippet(
  deps: Deps,
  request: FastifyRequest,
  param = 'id',
): Promise<SnippetRow> {
  const id = pathId((request.params as Record<string, unknown>)[param]);
  const snippet = id === undefined ? undefined : await findSnippetById(deps, id);
  if (!snippet || snippet.project_id !== null || !canReadSnippet(request.viewer, snippet, null)) {
    throw notFound('Snippet');
  }
  return snippet;
}
