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
