// What the Project entity embeds beyond its record, in one statement: the owner of a personal namespace,
// the fork source's id, the number of forks, the open issues and whether any group shares it (the shares themselves are
// read only then). One project as a prepared statement (GET /projects/:id), a page's projects together.
import type { ExpressionBuilder } from 'kysely';
import { prepared, rowSplitter } from '../prepared.ts';
import type { Database, ProjectsTable } from '../schema.ts';
import { USER_COLUMNS } from './users.ts';
import type { Executor, UserRow } from '../types.ts';

export interface ProjectExtraIds {
  /** Owner of the personal namespace; null for group projects. */
  owner: UserRow | null;
  forkedFromProjectId: number | null;
  forksCount: number;
  shared: boolean;
  /** Opened and reopened issues (issue_counts, kept by triggers). */
  openIssuesCount: number;
}

const splitOwner = rowSplitter({ owner: { prefix: 'u_', columns: USER_COLUMNS } });

/**
 * The fork source, the number of forks, the open issues and whether any group shares it, as columns of
 * a query over `projects as p` (this module's and the project pages' of project-access-records.ts).
 */
export function projectLinkColumns(eb: ExpressionBuilder<Database & { p: ProjectsTable }, 'p'>) {
  return [
    eb
      .selectFrom('forked_project_links as f')
      .select('f.forked_from_project_id')
      .whereRef('f.forked_to_project_id', '=', 'p.id')
      .as('forked_from_project_id'),
    eb
      .selectFrom('forked_project_links as c')
      .select((inner) => inner.fn.countAll<number>().as('count'))
      .whereRef('c.forked_from_project_id', '=', 'p.id')
      .as('forks_count'),
    eb
      .selectFrom('issue_counts as ic')
      .select('ic.opened')
      .whereRef('ic.project_id', '=', 'p.id')
      .as('open_issues_count'),
    eb
      .exists(eb.selectFrom('project_group_links as l').select('l.id').whereRef('l.project_id', '=', 'p.id'))
      .as('shared'),
  ];
}

/** The links beside the project's id. */
function linksQuery(db: Executor) {
  return db.selectFrom('projects as p').select('p.id as project_id').select(projectLinkColumns);
}

/** With the owner of a personal namespace too (one project: no other statement for it). */
function extrasQuery(db: Executor) {
  return linksQuery(db)
    .innerJoin('namespaces as n', 'n.id', 'p.namespace_id')
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'n.owner_id').on('n.type', 'is', null))
    .select(USER_COLUMNS.map((c) => `u.${c} as u_${c}` as const));
}

type ExtrasRow = Awaited<ReturnType<ReturnType<typeof extrasQuery>['executeTakeFirstOrThrow']>>;

function extrasFromRow(row: ExtrasRow): ProjectExtraIds {
  return {
    owner: row.u_id === null ? null : (splitOwner(row).owner as unknown as UserRow),
    forkedFromProjectId: row.forked_from_project_id ?? null,
    forksCount: Number(row.forks_count ?? 0),
    shared: Boolean(row.shared),
    openIssuesCount: Number(row.open_issues_count ?? 0),
  };
}

const extrasOf = prepared<{ id: number }>()((db, slot) => extrasQuery(db).where('p.id', '=', slot('id')));

export async function findProjectExtraIds(db: Executor, id: number): Promise<ProjectExtraIds | undefined> {
  const row = await extrasOf.first(db, { id });
  return row && extrasFromRow(row);
}

export type ProjectLinks = Omit<ProjectExtraIds, 'owner'>;

/**
 * The links of a page of projects, by project id (a project deleted meanwhile is missing). Their owners
 * are read apart: a page's projects share few owners, and a row per project with every owner column
 * cost more than the statement saved.
 */
export async function projectLinksByIds(db: Executor, ids: number[]): Promise<Map<number, ProjectLinks>> {
  const result = new Map<number, ProjectLinks>();
  if (ids.length === 0) return result;
  for (const row of await linksQuery(db).where('p.id', 'in', ids).execute()) {
    result.set(row.project_id, {
      forkedFromProjectId: row.forked_from_project_id ?? null,
      forksCount: Number(row.forks_count ?? 0),
      shared: Boolean(row.shared),
      openIssuesCount: Number(row.open_issues_count ?? 0),
    });
  }
  return result;
}
