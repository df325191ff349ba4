// A job's report artifacts, by (job_id, file_type).
import type { CiJobArtifactRow, Executor } from '../types.ts';

export interface JobArtifactInput {
  project_id: number;
  job_id: number;
  file_type: string;
  file_format: string;
  file: string;
  size: number;
  dotenv_variables: string | null;
  expire_at: string | null;
  created_at: string;
}

/** Records the artifact; undefined when the job has one of that type already. */
export async function insertJobArtifact(
  db: Executor,
  values: JobArtifactInput,
): Promise<CiJobArtifactRow | undefined> {
  return db
    .insertInto('ci_job_artifacts')
    .values(values)
    .onConflict((c) => c.columns(['job_id', 'file_type']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findJobArtifact(
  db: Executor,
  jobId: number,
  fileType: string,
): Promise<CiJobArtifactRow | undefined> {
  return db
    .selectFrom('ci_job_artifacts')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('file_type', '=', fileType)
    .executeTakeFirst();
}

/** The artifacts of these jobs of one type, in job order (one query). */
export function jobArtifactsOfType(
  db: Executor,
  jobIds: number[],
  fileType: string,
): Promise<CiJobArtifactRow[]> {
  if (jobIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('ci_job_artifacts')
    .selectAll()
    .where('job_id', 'in', jobIds)
    .where('file_type', '=', fileType)
    .orderBy('job_id')
    .execute();
}

export async function deleteJobArtifacts(db: Executor, jobId: number): Promise<void> {
  await db.deleteFrom('ci_job_artifacts').where('job_id', '=', jobId).execute();
}

/**
 * Report artifacts that expired before `at`, oldest expiry first, with what their file's path is made of
 * (their job's id, project and creation time): a walk of the partial index on expire_at.
 */
export function expiredJobArtifacts(db: Executor, at: string, limit: number) {
  return db
    .selectFrom('ci_job_artifacts')
    .innerJoin('ci_builds', 'ci_builds.id', 'ci_job_artifacts.job_id')
    .select([
      'ci_job_artifacts.id',
      'ci_job_artifacts.file_type',
      'ci_job_artifacts.file',
      'ci_builds.id as job_id',
      'ci_builds.project_id',
      'ci_builds.created_at',
    ])
    .where('ci_job_artifacts.expire_at', 'is not', null)
    .where('ci_job_artifacts.expire_at', '<', at)
    .orderBy('ci_job_artifacts.expire_at')
    .limit(limit)
    .execute();
}

/** Deletes the artifact's row if it is still expired at `at`; false when it was gone already. */
export async function deleteExpiredJobArtifact(db: Executor, id: number, at: string): Promise<boolean> {
  const result = await db
    .deleteFrom('ci_job_artifacts')
    .where('id', '=', id)
    .where('expire_at', '<', at)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
