// Removes expired artifacts that nobody kept, in every process (a sweep is safe to run twice at once: a
// build's row is cleared by exactly one of them). GitLab swept hourly; artifacts live days or weeks, so a
// few minutes late costs nothing.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { removeExpiredArtifacts } from '../services/ci/artifacts-expiry.ts';
import { PeriodicSweep } from './periodic-sweep.ts';

export class ArtifactsExpiryWorker extends PeriodicSweep {
  constructor(deps: Deps, log: FastifyBaseLogger) {
    super(
      {
        name: 'expired artifacts',
        everyMs: 15 * 60 * 1000,
        firstAfterMs: 60 * 1000,
        sweep: (at) => removeExpiredArtifacts(deps, at.toISOString()),
      },
      log,
    );
  }
}
