// Expired build artifacts are removed (GitLab's ExpireBuildArtifactsWorker): the builds come from the
// partial index on artifacts_expire_at in expiry order, a batch at a time, so a sweep never reads the
// table. Kept artifacts have no expiry and are never visited. Report artifacts (junit, dotenv …) expire
// by their own expire_at, walked the same way.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { clearExpiredArtifacts, expiredArtifactBuilds } from '../../db/repositories/builds.ts';
import { deleteExpiredJobArtifact, expiredJobArtifacts } from '../../db/repositories/job-artifacts.ts';
import { removeArtifacts, removeReportFile } from '../../storage/artifacts.ts';

const BATCH = 100;

/** Removes every artifacts archive and report artifact whose expiry passed; answers how many. */
export async function removeExpiredArtifacts(deps: Deps, at: string = now()): Promise<number> {
  const db = deps.db.kysely;
  let removed = 0;
  for (;;) {
    const builds = await expiredArtifactBuilds(db, at, BATCH);
    for (const build of builds) {
      // The row is cleared only if it still expired (a keep in between wins); then the files go.
      if (await clearExpiredArtifacts(db, build.id, at)) {
        await removeArtifacts(deps.config.dataDir, build);
        removed += 1;
      }
    }
    if (builds.length < BATCH) break;
  }
  for (;;) {
    const reports = await expiredJobArtifacts(db, at, BATCH);
    for (const report of reports) {
      if (await deleteExpiredJobArtifact(db, report.id, at)) {
        const owner = { id: report.job_id, project_id: report.project_id, created_at: report.created_at };
        await removeReportFile(deps.config.dataDir, owner, report.file_type);
        removed += 1;
      }
    }
    if (reports.length < BATCH) return removed;
  }
}
