// The worker's one entry for a recorded mail event: each kind of event is expanded by the module that
// writes its mails (issues, merge requests and notes; finished pipelines).
import type { Deps } from '../../deps.ts';
import { expandMailEvent } from './issuable-mails.ts';
import { expandPipelineMail, isPipelineMailEvent } from './pipeline-mails.ts';
import type { Executor } from '../../db/types.ts';

/** Queues the mails of one recorded event in the worker's transaction; answers how many. */
export function expandRecordedMailEvent(
  trx: Executor,
  deps: Deps,
  eventId: number,
  payloadJson: string,
): Promise<number> {
  const payload = JSON.parse(payloadJson) as { kind?: unknown };
  return isPipelineMailEvent(payload)
    ? expandPipelineMail(trx, deps, eventId, payloadJson)
    : expandMailEvent(trx, deps, eventId, payloadJson);
}
