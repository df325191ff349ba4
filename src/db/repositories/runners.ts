// Runners (ci_runners) and the projects specific runners are assigned to (ci_runner_projects).
import type { CiRunnerChanges, CiRunnerRow, Executor, NewCiRunner } from '../types.ts';

export async function runnersByIds(db: Executor, ids: number[]): Promise<Map<number, CiRunnerRow>> {
  const unique = [...new Set(ids)];
  const result = new Map<number, CiRunnerRow>();
  if (unique.length === 0) return result;
  const rows = await db.selectFrom('ci_runners').selectAll().where('id', 'in', unique).execute();
  for (const row of rows) result.set(row.id, row);
  return result;
}

export function findRunnerByToken(db: Executor, token: string): Promise<CiRunnerRow | undefined> {
  return db.selectFrom('ci_runners').selectAll().where('token', '=', token).executeTakeFirst();
}

export function insertRunner(db: Executor, row: NewCiRunner): Promise<CiRunnerRow> {
  return db.insertInto('ci_runners').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateRunner(db: Executor, id: number, changes: CiRunnerChanges): Promise<void> {
  await db.updateTable('ci_runners').set(changes).where('id', '=', id).execute();
}

/** Removes the runner; its project assignments go with it (the builds it ran keep its id). */
export async function deleteRunner(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('ci_runners').where('id', '=', id).execute();
}

export async function assignRunner(
  db: Executor,
  runnerId: number,
  projectId: number,
  at: string,
): Promise<void> {
  await db
    .insertInto('ci_runner_projects')
    .values({ runner_id: runnerId, project_id: projectId, created_at: at, updated_at: at })
    .onConflict((conflict) => conflict.columns(['runner_id', 'project_id']).doNothing())
    .execute();
}

/** The projects a runner is assigned to (a specific runner's whole world). */
export async function runnerProjectIds(db: Executor, runnerId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('ci_runner_projects')
    .select('project_id')
    .where('runner_id', '=', runnerId)
    .execute();
  return rows.map((row) => row.project_id);
}
