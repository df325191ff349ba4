// One Labrador instance: database (migrated), the first administrator, background workers and the HTTP
// app. main.ts runs it as a process; tests start it with a temporary data dir.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { migrate } from './db/migrations/index.ts';
import { createDeps, type Deps } from './deps.ts';
import { buildApp } from './app.ts';
import { ensureRootUser } from './services/root-user.ts';
import { installHooks } from './git/hooks.ts';
import { recoverPendingPushes } from './services/push.ts';
import { HookDeliveryWorker } from './workers/hook-delivery.ts';

export interface Server {
  app: FastifyInstance;
  deps: Deps;
  /** Sends the webhook outbox; tests call drain(). */
  hookWorker: HookDeliveryWorker;
  /** Stops accepting, finishes in-flight requests, stops workers, closes the database. */
  close(): Promise<void>;
}

export async function startServer(
  config: Config,
  log: FastifyBaseLogger = pino({ level: config.logLevel }),
): Promise<Server> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    const deps = createDeps(config, db, log);
    await ensureRootUser(deps);
    await installHooks(config.dataDir);
    // Pushes whose processing a crash interrupted (ref moved, events not yet recorded).
    await recoverPendingPushes(deps);
    const app = await buildApp(deps);
    await app.ready();
    const hookWorker = new HookDeliveryWorker(db, config.hooks, log);
    hookWorker.start();
    let closed = false;
    return {
      app,
      deps,
      hookWorker,
      close: async () => {
        if (closed) return;
        closed = true;
        await app.close();
        await hookWorker.stop();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
