// Project view models: the records with everything a project entity embeds (owner, fork source, fork
// count, open issues, shares, the caller's access), batched: a fixed number of queries per page, never one
// per project. v3's and v4's presenters are both built from these.
import type { Deps } from '../deps.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { findPersonalNamespace, findProjectRecordsByIds, sharedGroups } from '../db/repositories/projects.ts';
import {
  findProjectExtraIds,
  projectLinksByIds,
  type ProjectLinks,
} from '../db/repositories/project-extras.ts';
import { findProjectPageByIds } from '../db/repositories/project-access-records.ts';
import { projectAccessFromRows, projectAccessMany, type ProjectAccess } from '../policies/access.ts';
import { countProjects, pageProjectIds } from '../db/repositories/project-lists.ts';
import { hasStar } from '../db/repositories/stars.ts';
import type { ProjectListQuery, ProjectRecord, SharedGroupRow, UserBasicRow, UserRow } from '../db/types.ts';

/** A project with what its entity embeds beside its own row. */
export interface ProjectView {
  record: ProjectRecord;
  /** Owner of the personal namespace; null for group projects. */
  owner: UserBasicRow | null;
  /** The source of a fork while it still exists. */
  forkedFrom: ProjectRecord | null;
  /** Owner of the fork source's personal namespace (its name_with_namespace needs it). */
  forkedFromOwner: UserBasicRow | null;
  /** The fork source's own forks (v4's forked_from_project shows them); read only when asked for. */
  forkedFromForksCount: number;
  forksCount: number;
  openIssuesCount: number;
  sharedWithGroups: SharedGroupRow[];
  access: ProjectAccess;
}

/** What the `simple` entities (v3's and v4's BasicProjectDetails) need: the record and the owner. */
export interface BasicProjectView {
  record: ProjectRecord;
  owner: UserBasicRow | null;
  forksCount: number;
  access: ProjectAccess;
}

export interface ProjectViewOptions {
  /**
   * Read the fork sources with their owners and fork counts in one statement (v4's forked_from_project
   * carries forks_count) instead of the records, then the owners not yet known (v3's two).
   */
  forkSourceCounts?: boolean;
}

function personalOwnerId(record: ProjectRecord): number | null {
  return record.namespace.type !== 'Group' ? record.namespace.owner_id : null;
}

/** A project of a page with what its entity embeds, before the fork sources and shares are read. */
interface PageEntry {
  record: ProjectRecord;
  access: ProjectAccess;
  owner: UserBasicRow | null;
  links: ProjectLinks | undefined;
}

/** Records already read (a group's projects, a write's result) with what their entities embed. */
export async function listProjectRecordViews(
  deps: Deps,
  viewer: UserRow | null,
  records: ProjectRecord[],
  options: ProjectViewOptions = {},
  knownAccess?: Map<number, ProjectAccess>,
): Promise<ProjectView[]> {
  if (records.length === 0) return [];
  const db = deps.db.kysely;
  const ids = records.map((record) => record.project.id);
  // The caller's access, every project's links (fork source, forks, shared?) and the owners of personal
  // namespaces; then the shares and the fork sources only for the projects that have them.
  const [access, links, owners] = await Promise.all([
    knownAccess ?? projectAccessMany(db, viewer, records),
    projectLinksByIds(db, ids),
    usersByIds(
      db,
      records.flatMap((r) => personalOwnerId(r) ?? []),
    ),
  ]);
  const entries = records.map((record): PageEntry => {
    const ownerId = personalOwnerId(record);
    return {
      record,
      access: access.get(record.project.id)!,
      owner: ownerId === null ? null : (owners.get(ownerId) ?? null),
      links: links.get(record.project.id),
    };
  });
  return completeEntries(deps, entries, options);
}

/**
 * A page of a project list: the page's rows, the caller's access, owners and links in one statement; the
 * shares and fork sources only when the page has any.
 */
export async function listProjectViewsByIds(
  deps: Deps,
  viewer: UserRow | null,
  ids: number[],
  options: ProjectViewOptions = {},
): Promise<ProjectView[]> {
  const rows = await findProjectPageByIds(deps.db.kysely, ids, viewer?.id ?? null);
  const entries = rows.map((row): PageEntry => ({
    record: row.record,
    access: projectAccessFromRows(viewer, row.record, row.accessRows),
    owner: row.owner,
    links: row,
  }));
  return completeEntries(deps, entries, options);
}

/** The `simple` form of a page of ids: one statement (v3's reads no access: its entity shows none). */
export async function listBasicProjectViewsByIds(
  deps: Deps,
  ids: number[],
  viewer: UserRow | null = null,
): Promise<BasicProjectView[]> {
  const rows = await findProjectPageByIds(deps.db.kysely, ids, viewer?.id ?? null);
  return rows.map((row) => ({
    record: row.record,
    owner: row.owner,
    forksCount: row.forksCount,
    access: projectAccessFromRows(viewer, row.record, row.accessRows),
  }));
}

/** The fork sources by id, with their owners and (for v4) their fork counts. */
interface ForkSource {
  record: ProjectRecord;
  owner: UserBasicRow | null;
  forksCount: number;
}

async function readForkSources(
  deps: Deps,
  sourceIds: number[],
  knownOwners: Map<number, UserBasicRow>,
  options: ProjectViewOptions,
): Promise<Map<number, ForkSource>> {
  const db = deps.db.kysely;
  const sources = new Map<number, ForkSource>();
  if (sourceIds.length === 0) return sources;
  if (options.forkSourceCounts) {
    for (const row of await findProjectPageByIds(db, sourceIds, null)) {
      sources.set(row.record.project.id, {
        record: row.record,
        owner: row.owner,
        forksCount: row.forksCount,
      });
    }
    return sources;
  }
  const records = await findProjectRecordsByIds(db, sourceIds);
  // Fork sources' owners: those already read with the page's, the others now.
  const owners = new Map(knownOwners);
  const missing = records.flatMap((r) => personalOwnerId(r) ?? []).filter((id) => !owners.has(id));
  if (missing.length > 0) for (const [id, user] of await usersByIds(db, missing)) owners.set(id, user);
  for (const record of records) {
    const ownerId = personalOwnerId(record);
    const owner = ownerId === null ? null : (owners.get(ownerId) ?? null);
    sources.set(record.project.id, { record, owner, forksCount: 0 });
  }
  return sources;
}

async function completeEntries(
  deps: Deps,
  entries: PageEntry[],
  options: ProjectViewOptions,
): Promise<ProjectView[]> {
  const db = deps.db.kysely;
  const sharedIds: number[] = [];
  const sourceIdSet = new Set<number>();
  for (const entry of entries) {
    if (entry.links?.shared) sharedIds.push(entry.record.project.id);
    const sourceId = entry.links?.forkedFromProjectId;
    if (sourceId != null) sourceIdSet.add(sourceId);
  }
  const knownOwners = new Map<number, UserBasicRow>();
  for (const entry of entries) if (entry.owner) knownOwners.set(entry.owner.id, entry.owner);
  const [shares, sources] = await Promise.all([
    sharedIds.length > 0 ? sharedGroups(db, sharedIds) : new Map<number, SharedGroupRow[]>(),
    readForkSources(deps, [...sourceIdSet], knownOwners, options),
  ]);
  const none: SharedGroupRow[] = [];
  return entries.map((entry) => {
    const sourceId = entry.links?.forkedFromProjectId;
    const source = sourceId != null ? sources.get(sourceId) : undefined;
    return {
      record: entry.record,
      owner: entry.owner,
      forkedFrom: source?.record ?? null,
      forkedFromOwner: source?.owner ?? null,
      forkedFromForksCount: source?.forksCount ?? 0,
      forksCount: entry.links?.forksCount ?? 0,
      openIssuesCount: entry.links?.openIssuesCount ?? 0,
      sharedWithGroups: shares.get(entry.record.project.id) ?? none,
      access: entry.access,
    };
  });
}

/**
 * One project whose access is already known (GET /projects/:id): its extras in one statement, the shares
 * and the fork source only when it has them.
 */
export async function loadProjectView(
  deps: Deps,
  record: ProjectRecord,
  access: ProjectAccess,
  options: ProjectViewOptions = {},
): Promise<ProjectView> {
  const db = deps.db.kysely;
  const id = record.project.id;
  const extras = await findProjectExtraIds(db, id);
  if (!extras) {
    // Deleted since it was loaded: as the batched path would have it.
    const [view] = await listProjectRecordViews(deps, null, [record], options, new Map([[id, access]]));
    return view!;
  }
  const sourceId = extras.forkedFromProjectId;
  const [shares, sources] = await Promise.all([
    extras.shared ? sharedGroups(db, [id]) : undefined,
    readForkSources(deps, sourceId === null ? [] : [sourceId], new Map(), options),
  ]);
  const source = sourceId === null ? undefined : sources.get(sourceId);
  return {
    record,
    owner: extras.owner,
    forkedFrom: source?.record ?? null,
    forkedFromOwner: source?.owner ?? null,
    forkedFromForksCount: source?.forksCount ?? 0,
    forksCount: extras.forksCount,
    openIssuesCount: extras.openIssuesCount,
    sharedWithGroups: shares?.get(id) ?? [],
    access,
  };
}

/** One project, reloaded (after a write), for this caller. */
export async function loadProjectViewById(
  deps: Deps,
  viewer: UserRow | null,
  projectId: number,
  options: ProjectViewOptions = {},
): Promise<ProjectView | undefined> {
  const records = await findProjectRecordsByIds(deps.db.kysely, [projectId]);
  const [view] = await listProjectRecordViews(deps, viewer, records, options);
  return view;
}

/** The project lists (member, visible, owned, starred, all, search): the count, then a page of records. */
export function countProjectList(deps: Deps, query: ProjectListQuery): Promise<number> {
  return countProjects(deps.db.kysely, query);
}

/** One page of a list: its ids from the index; listProjectViewsByIds reads their rows (deferred join). */
export function listProjectsPage(
  deps: Deps,
  query: ProjectListQuery,
  page: { limit: number; offset: number },
): Promise<number[]> {
  return pageProjectIds(deps.db.kysely, query, page.limit, page.offset);
}

/** Whether the viewer has starred the project (the project page's Star or Unstar button). */
export function viewerStarred(deps: Deps, viewer: UserRow | null, projectId: number): Promise<boolean> {
  return viewer ? hasStar(deps.db.kysely, viewer.id, projectId) : Promise.resolve(false);
}

/** The id of a user's personal namespace (GET /users/:user_id/projects lists it). */
export async function personalNamespaceId(deps: Deps, userId: number): Promise<number | undefined> {
  return (await findPersonalNamespace(deps.db.kysely, userId))?.id;
}
