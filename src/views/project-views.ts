// Presents project records with everything the Project entity embeds (owner, fork source, fork count,
// shares, the caller's access), batched: a fixed number of queries per page, never one per project.
import type { Deps } from '../deps.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { findProjectRecordsByIds, sharedGroups } from '../db/repositories/projects.ts';
import { findProjectExtraIds, projectLinksByIds } from '../db/repositories/project-extras.ts';
import { projectAccessMany, type ProjectAccess } from '../policies/access.ts';
import { presentBasicProject, presentProject, type ProjectPresentOptions } from '../presenters/project.ts';
import { countProjects, pageProjectIds } from '../db/repositories/project-lists.ts';
import type { ProjectListQuery, ProjectRecord, SharedGroupRow, UserRow } from '../db/types.ts';

function personalOwnerId(record: ProjectRecord): number | null {
  return record.namespace.type !== 'Group' ? record.namespace.owner_id : null;
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
  const sharedIds = ids.filter((id) => links.get(id)?.shared);
  const sourceIds = [...new Set(ids.flatMap((id) => links.get(id)?.forkedFromProjectId ?? []))];
  const [shares, sourceList] = await Promise.all([
    sharedIds.length > 0 ? sharedGroups(db, sharedIds) : new Map<number, SharedGroupRow[]>(),
    findProjectRecordsByIds(db, sourceIds),
  ]);
  const sourceRecords = new Map(sourceList.map((r) => [r.project.id, r]));
  // Fork sources' owners not already read with the page's.
  const missing = sourceList.flatMap((r) => personalOwnerId(r) ?? []).filter((id) => !owners.has(id));
  for (const [id, user] of await usersByIds(db, missing)) owners.set(id, user);
  const ownerOf = (r: ProjectRecord) => {
    const id = personalOwnerId(r);
    return id === null ? null : (owners.get(id) ?? null);
  };
  return records.map((record) => {
    const id = record.project.id;
    const found = links.get(id);
    const sourceId = found?.forkedFromProjectId;
    const source = sourceId != null ? (sourceRecords.get(sourceId) ?? null) : null;
    return presentProject(
      record,
      {
        owner: ownerOf(record),
        forkedFrom: source,
        forkedFromOwner: source ? ownerOf(source) : null,
        forksCount: found?.forksCount ?? 0,
        openIssuesCount: found?.openIssuesCount ?? 0,
        sharedWithGroups: shares.get(id) ?? [],
        access: access.get(id)!,
      },
      deps.config.externalUrl,
      { ...options, sshBase: deps.config.ssh.cloneUrlBase },
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

/** BasicProjectDetails for a page (the `simple` form of the lists). */
export async function listBasicProjectRecords(deps: Deps, records: ProjectRecord[]) {
  const owners = await usersByIds(
    deps.db.kysely,
    records.flatMap((r) => personalOwnerId(r) ?? []),
  );
  return records.map((record) => {
    const id = personalOwnerId(record);
    return presentBasicProject(
      record,
      id === null ? null : (owners.get(id) ?? null),
      deps.config.externalUrl,
    );
  });
}

/** The project lists (member, visible, owned, starred, all, search): the count, then a page of records. */
export function countProjectList(deps: Deps, query: ProjectListQuery): Promise<number> {
  return countProjects(deps.db.kysely, query);
}

/** One page of a list: ids from the index, then the page's rows (deferred join). */
export async function listProjectsPage(
  deps: Deps,
  query: ProjectListQuery,
  page: { limit: number; offset: number },
): Promise<ProjectRecord[]> {
  const ids = await pageProjectIds(deps.db.kysely, query, page.limit, page.offset);
  return findProjectRecordsByIds(deps.db.kysely, ids);
}
