// Expired build artifacts are removed (GitLab's ExpireBuildArtifactsWorker): the builds come from the
// partial index on artifacts_expire_at in expiry order, a batch at a time, so a sweep never reads the
// table. Kept artifacts have no expiry and are never visited.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { clearExpiredArtifacts, expiredArtifactBuilds } from '../../db/repositories/builds.ts';
import { removeArtifacts } from '../../storage/artifacts.ts';

const BATCH = 100;

/** Removes every artifacts archive whose expiry passed; answers how many. */
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
    if (builds.length < BATCH) return removed;
  }
}
