// The periodic stuck-build sweep (GitLab's StuckCiBuildsWorker ran it daily; Labrador looks hourly, so a
// build is dropped at most an hour after its day is up). Every process runs one; sweeps of several
// processes on one database overlap harmlessly, since each drop only happens if the build is still stuck.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { dropStuckBuilds } from '../services/ci/stuck-builds.ts';
import { PeriodicSweep } from './periodic-sweep.ts';

export class StuckBuildsWorker extends PeriodicSweep {
  constructor(deps: Deps, log: FastifyBaseLogger) {
    super(
      {
        name: 'stuck builds',
        everyMs: 60 * 60 * 1000,
        firstAfterMs: 60 * 1000,
        sweep: async (at, stopping) => {
          const dropped = await dropStuckBuilds(
            deps,
            at,
            (error, buildId) => log.error({ err: error, build: buildId }, 'stuck builds: drop failed'),
            stopping,
          );
          if (dropped > 0) log.info({ dropped }, 'stuck builds dropped to failed');
          return dropped;
        },
      },
      log,
    );
  }
}
