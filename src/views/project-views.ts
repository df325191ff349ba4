// Presents project records with everything the Project entity embeds (owner, fork source, fork count,
// shares, the caller's access), batched: a fixed number of queries per page, never one per project.
import type { Deps } from '../deps.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { findProjectRecordsByIds, sharedGroups } from '../db/repositories/projects.ts';
import {
  findProjectExtraIds,
  projectLinksByIds,
  type ProjectLinks,
} from '../db/repositories/project-extras.ts';
import { findProjectPageByIds } from '../db/repositories/project-access-records.ts';
import { projectAccessFromRows, projectAccessMany, type ProjectAccess } from '../policies/access.ts';
import {
  presentBasicProject,
  presentProject,
  type ProjectPresentOptions,
} from '../presenters/api-v3/project.ts';
import { countProjects, pageProjectIds } from '../db/repositories/project-lists.ts';
import { hasStar } from '../db/repositories/stars.ts';
import type { ProjectListQuery, ProjectRecord, SharedGroupRow, UserBasicRow, UserRow } from '../db/types.ts';

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

export async function listProjectRecords(
  deps: Deps,
  viewer: UserRow | null,
  records: ProjectRecord[],
  options: ProjectPresentOptions = {},
  knownAccess?: Map<number, ProjectAccess>,
) {
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
  return presentEntries(deps, entries, options);
}

/**
 * A page of a project list as the Project entity (ProjectWithAccess with `permissions`): the page's rows,
 * the caller's access, owners and links in one statement; the shares and fork sources only when the
 * page has any.
 */
export async function listProjectsByIds(
  deps: Deps,
  viewer: UserRow | null,
  ids: number[],
  options: ProjectPresentOptions = {},
) {
  const rows = await findProjectPageByIds(deps.db.kysely, ids, viewer?.id ?? null);
  const entries = rows.map((row): PageEntry => ({
    record: row.record,
    access: projectAccessFromRows(viewer, row.record, row.accessRows),
    owner: row.owner,
    links: row,
  }));
  return presentEntries(deps, entries, options);
}

/** BasicProjectDetails for a page of ids (the `simple` form of the lists): one statement. */
export async function listBasicProjectsByIds(deps: Deps, ids: number[]) {
  const rows = await findProjectPageByIds(deps.db.kysely, ids, null);
  const baseUrl = deps.config.externalUrl;
  return rows.map((row) => presentBasicProject(row.record, row.owner, baseUrl));
}

async function presentEntries(deps: Deps, entries: PageEntry[], options: ProjectPresentOptions) {
  const db = deps.db.kysely;
  const sharedIds: number[] = [];
  const sourceIdSet = new Set<number>();
  for (const entry of entries) {
    if (entry.links?.shared) sharedIds.push(entry.record.project.id);
    const sourceId = entry.links?.forkedFromProjectId;
    if (sourceId != null) sourceIdSet.add(sourceId);
  }
  const [shares, sourceList] = await Promise.all([
    sharedIds.length > 0 ? sharedGroups(db, sharedIds) : new Map<number, SharedGroupRow[]>(),
    sourceIdSet.size > 0 ? findProjectRecordsByIds(db, [...sourceIdSet]) : [],
  ]);
  const sourceRecords = new Map(sourceList.map((r) => [r.project.id, r]));
  // Fork sources' owners: those already read with the page's, the others now.
  const owners = new Map<number, UserBasicRow>();
  for (const entry of entries) if (entry.owner) owners.set(entry.owner.id, entry.owner);
  const missing = sourceList.flatMap((r) => personalOwnerId(r) ?? []).filter((id) => !owners.has(id));
  if (missing.length > 0) for (const [id, user] of await usersByIds(db, missing)) owners.set(id, user);
  const withSsh: ProjectPresentOptions = { ...options, sshBase: deps.config.ssh.cloneUrlBase };
  const baseUrl = deps.config.externalUrl;
  const none: SharedGroupRow[] = [];
  return entries.map((entry) => {
    const id = entry.record.project.id;
    const sourceId = entry.links?.forkedFromProjectId;
    const source = sourceId != null ? (sourceRecords.get(sourceId) ?? null) : null;
    const sourceOwnerId = source ? personalOwnerId(source) : null;
    return presentProject(
      entry.record,
      {
        owner: entry.owner,
        forkedFrom: source,
        forkedFromOwner: sourceOwnerId === null ? null : (owners.get(sourceOwnerId) ?? null),
        forksCount: entry.links?.forksCount ?? 0,
        openIssuesCount: entry.links?.openIssuesCount ?? 0,
        sharedWithGroups: shares.get(id) ?? none,
        access: entry.access,
      },
      baseUrl,
      withSsh,
    );
  });
}

/**
 * One project whose access is already known (GET /projects/:id): its extras in one statement, the shares
 * and the fork source only when it has them.
 */
export async function loadProjectWithAccess(
  deps: Deps,
  record: ProjectRecord,
  access: ProjectAccess,
  options: ProjectPresentOptions = {},
) {
  const db = deps.db.kysely;
  const id = record.project.id;
  const extras = await findProjectExtraIds(db, id);
  if (!extras) {
    // Deleted since it was loaded: present it as the batched path would have.
    const [presented] = await listProjectRecords(deps, null, [record], options, new Map([[id, access]]));
    return presented!;
  }
  const [shares, sources] = await Promise.all([
    extras.shared ? sharedGroups(db, [id]) : undefined,
    extras.forkedFromProjectId !== null ? findProjectRecordsByIds(db, [extras.forkedFromProjectId]) : [],
  ]);
  const source = sources[0] ?? null;
  const sourceOwnerId = source ? personalOwnerId(source) : null;
  const sourceOwner =
    sourceOwnerId === null ? null : ((await usersByIds(db, [sourceOwnerId])).get(sourceOwnerId) ?? null);
  return presentProject(
    record,
    {
      owner: extras.owner,
      forkedFrom: source,
      forkedFromOwner: sourceOwner,
      forksCount: extras.forksCount,
      openIssuesCount: extras.openIssuesCount,
      sharedWithGroups: shares?.get(id) ?? [],
      access,
    },
    deps.config.externalUrl,
    { ...options, sshBase: deps.config.ssh.cloneUrlBase },
  );
}

/** One project, reloaded (after a write) and presented for this caller. */
export async function loadProjectById(
  deps: Deps,
  viewer: UserRow | null,
  projectId: number,
  options: ProjectPresentOptions = {},
) {
  const records = await findProjectRecordsByIds(deps.db.kysely, [projectId]);
  const [presented] = await listProjectRecords(deps, viewer, records, options);
  return presented;
}

/** The project lists (member, visible, owned, starred, all, search): the count, then a page of records. */
export function countProjectList(deps: Deps, query: ProjectListQuery): Promise<number> {
  return countProjects(deps.db.kysely, query);
}

/** One page of a list: its ids from the index; listProjectsByIds reads their rows (deferred join). */
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
