// When a build's artifacts count: for the runner's dependency list, the API's artifacts_file and the
// downloads alike.
import type { CiBuildRow } from '../db/types.ts';

/** Artifacts count only while their expiry has not passed (`now` and the expiry are ISO 8601 UTC). */
export function hasLiveArtifacts(
  build: Pick<CiBuildRow, 'artifacts_file' | 'artifacts_expire_at'>,
  now: string,
): boolean {
  return (
    build.artifacts_file !== null && (build.artifacts_expire_at === null || build.artifacts_expire_at > now)
  );
}
