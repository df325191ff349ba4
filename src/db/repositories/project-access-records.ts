// The project a request names, with its namespace and the caller's access rows, in one prepared statement:
// the caller's project membership and membership of the project's group (both unique-index lookups) and
// the best of the groups the project is shared with (capped at each share's group_access). Expired
// memberships and shares count for nothing, as in accessRows.
import { sql } from 'kysely';
import { inList, prepared, rowSplitter } from '../prepared.ts';
import { selectRecords, toRecord } from './projects.ts';
import { USER_BASIC_COLUMNS } from './users.ts';
import { projectLinkColumns } from './project-extras.ts';
import { today } from '../../lib/clock.ts';
import type { AccessRow, Executor, ProjectRecord, UserBasicRow } from '../types.ts';

export interface ProjectWithAccessRows {
  record: ProjectRecord;
  /** What the policy needs to compute the caller's access (empty without a caller). */
  accessRows: AccessRow[];
}

interface Slots {
  userId: number;
  day: string;
}

type Slot<P> = <K extends keyof P & string>(name: K) => P[K];

function withAccessColumns<P extends Slots>(db: Executor, slot: Slot<P>) {
  return selectRecords(db)
    .leftJoin('members as pm', (join) =>
      join
        .onRef('pm.source_id', '=', 'p.id')
        .on('pm.source_type', '=', 'Project')
        .on('pm.user_id', '=', slot('userId'))
        .on((eb) => eb.or([eb('pm.expires_at', 'is', null), eb('pm.expires_at', '>', slot('day'))])),
    )
    .leftJoin('members as gm', (join) =>
      join
        .onRef('gm.source_id', '=', 'n.id')
        .on('n.type', '=', 'Group')
        .on('gm.source_type', '=', 'Namespace')
        .on('gm.user_id', '=', slot('userId'))
        .on((eb) => eb.or([eb('gm.expires_at', 'is', null), eb('gm.expires_at', '>', slot('day'))])),
    )
    .select([
      'pm.access_level as pm_access_level',
      'pm.notification_level as pm_notification_level',
      'gm.access_level as gm_access_level',
      'gm.notification_level as gm_notification_level',
    ])
    .select((eb) =>
      eb
        .selectFrom('project_group_links as l')
        .innerJoin('members as sm', (join) =>
          join
            .onRef('sm.source_id', '=', 'l.group_id')
            .on('sm.source_type', '=', 'Namespace')
            .on('sm.user_id', '=', slot('userId')),
        )
        .select(
          sql<
            number | null
          >`max(case when sm.access_level < l.group_access then sm.access_level else l.group_access end)`.as(
            'level',
          ),
        )
        .whereRef('l.project_id', '=', 'p.id')
        .where((inner) =>
          inner.or([inner('l.expires_at', 'is', null), inner('l.expires_at', '>', slot('day'))]),
        )
        .where((inner) =>
          inner.or([inner('sm.expires_at', 'is', null), inner('sm.expires_at', '>', slot('day'))]),
        )
        .as('share_access_level'),
    );
}

const byId = prepared<Slots & { id: number }>()((db, slot) =>
  withAccessColumns(db, slot).where('p.id', '=', slot('id')),
);

const byFullPath = prepared<Slots & { namespacePath: string; projectPath: string }>()((db, slot) =>
  withAccessColumns(db, slot)
    .where(sql<string>`lower(n.path)`, '=', slot('namespacePath'))
    .where(sql<string>`lower(p.path)`, '=', slot('projectPath')),
);

type Row = NonNullable<Awaited<ReturnType<typeof byId.first>>>;

function toResult(row: Row | undefined, userId: number | null): ProjectWithAccessRows | undefined {
  if (!row) return undefined;
  const record = toRecord(row);
  const accessRows: AccessRow[] = [];
  if (userId === null) return { record, accessRows };
  if (row.pm_access_level !== null) {
    accessRows.push({
      kind: 'Project',
      source_id: record.project.id,
      access_level: row.pm_access_level,
      notification_level: row.pm_notification_level,
    });
  }
  if (row.gm_access_level !== null) {
    accessRows.push({
      kind: 'Namespace',
      source_id: record.namespace.id,
      access_level: row.gm_access_level,
      notification_level: row.gm_notification_level,
    });
  }
  if (row.share_access_level !== null) {
    accessRows.push({
      kind: 'Share',
      source_id: record.project.id,
      access_level: Number(row.share_access_level),
      notification_level: null,
    });
  }
  return { record, accessRows };
}

/** No user has id 0: without a caller the joins find nothing (one statement shape for both cases). */
const NOBODY = 0;

export async function findProjectWithAccessRowsById(
  db: Executor,
  id: number,
  userId: number | null,
): Promise<ProjectWithAccessRows | undefined> {
  const row = await byId.first(db, { id, userId: userId ?? NOBODY, day: today() });
  return toResult(row, userId);
}

/** `namespace/path`, case-insensitive (paths are unique ignoring case). */
export async function findProjectWithAccessRowsByFullPath(
  db: Executor,
  namespacePath: string,
  projectPath: string,
  userId: number | null,
): Promise<ProjectWithAccessRows | undefined> {
  const row = await byFullPath.first(db, {
    namespacePath: namespacePath.toLowerCase(),
    projectPath: projectPath.toLowerCase(),
    userId: userId ?? NOBODY,
    day: today(),
  });
  return toResult(row, userId);
}

/** One project of a page with everything its entity needs beside the fork source and the shares. */
export interface ProjectPageRow extends ProjectWithAccessRows {
  /** Owner of the personal namespace; null for group projects. */
  owner: UserBasicRow | null;
  forkedFromProjectId: number | null;
  forksCount: number;
  openIssuesCount: number;
  /** Whether any group shares it (the shares are read only then). */
  shared: boolean;
}

const splitOwner = rowSplitter({ owner: { prefix: 'u_', columns: USER_BASIC_COLUMNS } });

/**
 * A page of projects in one statement: the records, the caller's access rows, the owners of personal
 * namespaces (the six columns an entity shows) and the links of project-extras.ts (fork source, number
 * of forks, shared?). Four statements before; each cost a round trip on PostgreSQL and a query build.
 */
const pageByIds = prepared<Slots & { ids: number[] }>()((db, slot) =>
  withAccessColumns(db, slot)
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'n.owner_id').on('n.type', 'is', null))
    .select(USER_BASIC_COLUMNS.map((c) => `u.${c} as u_${c}` as const))
    .select(projectLinkColumns)
    .where(() => inList(db, 'p.id', slot('ids'))),
);

/** The page's projects in the order of `ids` (a project deleted meanwhile is left out). */
export async function findProjectPageByIds(
  db: Executor,
  ids: number[],
  userId: number | null,
): Promise<ProjectPageRow[]> {
  if (ids.length === 0) return [];
  const rows = await pageByIds.all(db, { ids, userId: userId ?? NOBODY, day: today() });
  const byId = new Map<number, ProjectPageRow>();
  for (const row of rows) {
    const found = toResult(row, userId)!;
    byId.set(found.record.project.id, {
      record: found.record,
      accessRows: found.accessRows,
      owner: row.u_id === null ? null : (splitOwner(row).owner as unknown as UserBasicRow),
      forkedFromProjectId: row.forked_from_project_id ?? null,
      forksCount: Number(row.forks_count ?? 0),
      openIssuesCount: Number(row.open_issues_count ?? 0),
      shared: Boolean(row.shared),
    });
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}
