// Everything a route or service needs, built once per process and passed explicitly (no service locator).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/connect.ts';
import { PushQueue } from './services/push/push-queue.ts';
import { PackCache } from './storage/pack-cache.ts';

export interface Deps {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  /** Pushes answered to the client whose events, hooks and pipelines are still being recorded. */
  pushQueue: PushQueue;
  /** upload-pack's answers to full fetches, for the next identical clone (storage/pack-cache.ts). */
  packCache: PackCache;
}

export function createDeps(config: Config, db: Db, log: FastifyBaseLogger): Deps {
  return {
    config,
    db,
    log,
    pushQueue: new PushQueue(log),
    packCache: new PackCache(config.dataDir, config.packCacheBytes, log),
  };
}
