// Reads about the whole instance.
import type { Deps } from '../deps.ts';
import { instanceCounts, type InstanceCounts } from '../db/repositories/instance-statistics.ts';

export function instanceStatistics(deps: Deps): Promise<InstanceCounts> {
  return instanceCounts(deps.db.kysely, deps.db.dialect);
}
