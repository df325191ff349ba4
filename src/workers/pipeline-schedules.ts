// Runs due pipeline schedules (GitLab's PipelineScheduleWorker). Every process runs one, once a minute:
// each due run is claimed by a compare-and-swap of its next_run_at in the pipeline's own transaction, so
// however many processes look at once, one of them runs it.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { runDueSchedules } from '../services/ci/pipeline-schedules.ts';
import { PeriodicSweep } from './periodic-sweep.ts';

export class PipelineScheduleWorker extends PeriodicSweep {
  constructor(deps: Deps, log: FastifyBaseLogger) {
    super(
      {
        name: 'pipeline schedules',
        everyMs: 60 * 1000,
        firstAfterMs: 10 * 1000,
        sweep: async (at, stopping) => {
          const ran = await runDueSchedules(deps, at, stopping);
          if (ran > 0) log.info({ ran }, 'pipeline schedules ran');
          return ran;
        },
      },
      log,
    );
  }
}
