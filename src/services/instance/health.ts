// Is this instance able to serve (for load balancers and supervisors): the database answers a query and
// the data dir takes a write, each within a short time. Failures are logged when the state changes, not
// on every probe.
import type { Deps } from '../../deps.ts';
import { pingDatabase } from '../../db/repositories/database.ts';
import { probeDataDir } from '../../storage/data-dir.ts';

const CHECK_TIMEOUT_MS = 2000;

export type CheckState = 'ok' | 'failing';

export interface HealthReport {
  healthy: boolean;
  database: CheckState;
  dataDir: CheckState;
}

async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A health check bound to one instance; it remembers the last result to log only changes. */
export function createHealthCheck(deps: Deps): () => Promise<HealthReport> {
  const last: Record<string, string | undefined> = {};
  const check = async (name: string, work: () => Promise<unknown>): Promise<CheckState> => {
    try {
      await within(work(), CHECK_TIMEOUT_MS);
      if (last[name]) deps.log.info(`health: ${name} ok again`);
      last[name] = undefined;
      return 'ok';
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (last[name] !== reason) deps.log.error(`health: ${name} failing: ${reason}`);
      last[name] = reason;
      return 'failing';
    }
  };
  return async () => {
    const [database, dataDir] = await Promise.all([
      check('database', () => pingDatabase(deps.db.kysely)),
      check('data dir', () => probeDataDir(deps.config.dataDir, { create: false })),
    ]);
    return { healthy: database === 'ok' && dataDir === 'ok', database, dataDir };
  };
}
