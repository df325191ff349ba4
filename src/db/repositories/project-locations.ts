// Where projects' repositories should be on disk, for the consistency check (npm run admin -- check):
// every project with its namespace path, a page at a time, and the project paths of one namespace.
import { sql } from 'kysely';
import type { Executor, ProjectLocation } from '../types.ts';

/** Projects after `afterId` in id order, with their namespace's path (primary keys only). */
export function listProjectLocations(
  db: Executor,
  afterId: number,
  limit: number,
): Promise<ProjectLocation[]> {
  return db
    .selectFrom('projects as p')
    .innerJoin('namespaces as n', 'n.id', 'p.namespace_id')
    .select(['p.id as id', 'n.path as namespacePath', 'p.path as path'])
    .where('p.id', '>', afterId)
    .orderBy('p.id')
    .limit(limit)
    .execute();
}

/** Lower-cased paths of the projects in the namespace whose lower-cased path is `namespacePath`. */
export async function projectPathsInNamespace(db: Executor, namespacePath: string): Promise<string[]> {
  const rows = await db
    .selectFrom('namespaces as n')
    .innerJoin('projects as p', 'p.namespace_id', 'n.id')
    .select(sql<string>`lower(p.path)`.as('path'))
    .where(sql<string>`lower(n.path)`, '=', namespacePath.toLowerCase())
    .execute();
  return rows.map((row) => row.path);
}

/** Where one project is now (a backup finds a project renamed since its snapshot), if it still exists. */
export function findProjectLocation(db: Executor, id: number): Promise<ProjectLocation | undefined> {
  return db
    .selectFrom('projects as p')
    .innerJoin('namespaces as n', 'n.id', 'p.namespace_id')
    .select(['p.id as id', 'n.path as namespacePath', 'p.path as path'])
    .where('p.id', '=', id)
    .executeTakeFirst();
}
