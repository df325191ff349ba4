// CI's clock, in every process: every few seconds, delayed jobs whose time has come are enqueued and
// running jobs past their timeout are failed (build-timeouts.ts). Sweeps of several processes overlap harmlessly: each change is a
// compare-and-swap on the build's status, made once.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { enqueueDueBuilds, failOverdueBuilds } from '../services/ci/build-timeouts.ts';
import { PeriodicSweep } from './periodic-sweep.ts';

/** How late past its time a job may be enqueued or failed. */
const EVERY_MS = 10_000;

export class CiTimersWorker extends PeriodicSweep {
  constructor(deps: Deps, log: FastifyBaseLogger) {
    super(
      {
        name: 'ci timers',
        everyMs: EVERY_MS,
        firstAfterMs: EVERY_MS,
        sweep: async (at, stopping) => {
          const onError = (error: unknown, buildId: number) =>
            log.error({ err: error, build: buildId }, 'ci timers: change failed');
          const enqueued = await enqueueDueBuilds(deps, at, onError, stopping);
          const timedOut = await failOverdueBuilds(deps, at, onError, stopping);
          if (timedOut > 0) log.info({ timedOut }, 'jobs past their timeout failed');
          return enqueued + timedOut;
        },
      },
      log,
    );
  }
}
